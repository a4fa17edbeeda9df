"""Set a scene inside a fault test's own site (run as ``python -m tests.faults.scenario …`` with
that site's environment); prints one JSON line for the test to read.

    start GAME HUMANS BOTS   a table with that many players (seats 0.. are the humans) and bots,
                             started; prints the table, the match and each human's session key
    vote MATCH               the first human of the match proposes a dismissal (Sitaratas)
"""

from __future__ import annotations

import json
import os
import sys


def main(argv: list[str]) -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from games.models import Match
    from tables.services import lobby, votes
    from tests.conftest import make_user
    from tests.helpers import fair_value, session_key_for

    if argv[0] == "start":
        game, humans, bots = argv[1], int(argv[2]), int(argv[3])
        users = [make_user(f"player{index}") for index in range(humans)]
        table = lobby.table_create(host=users[0], game=game, seat_count=humans + bots, options={})
        for position, user in enumerate(users[1:], start=1):
            lobby.seat_take(table_id=table.pk, user=user, position=position)
            lobby.seat_ready(table_id=table.pk, user=user, ready=True, entropy=fair_value())
        for position in range(humans, humans + bots):
            lobby.bot_add(table_id=table.pk, host=users[0], position=position)
        match = lobby.table_start(table_id=table.pk, host=users[0], entropy=fair_value())
        return {"table": table.pk, "match": match.pk, "sessions": [session_key_for(user) for user in users]}
    if argv[0] == "vote":
        match = Match.objects.get(pk=int(argv[1]))
        proposer = match.match_players.filter(user__is_bot=False).order_by("seat").first().user
        vote = votes.vote_propose(match_id=match.pk, user=proposer)
        return {"vote": vote.pk, "deadline": vote.deadline.isoformat()}
    raise SystemExit(__doc__)


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])))
