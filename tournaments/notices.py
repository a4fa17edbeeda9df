"""The bell: a tournament you entered starts in a few minutes (RULING P85); your round's table is
ready (RULING P80), and until when; a tournament you played is over, with your place and prize.

Recorded inside the caller's transaction by ``notifications.services.notify``, which pushes and
delivers after commit itself. A site without the notifications app rings no bell.
"""

from __future__ import annotations

from django.urls import reverse

from accounts.models import User
from tables.models import Seat, Table
from tournaments.models import Tournament


def notice_send(*, tournament_id: int, kind: str, user_ids: list[int], minutes: int | None = None) -> None:
    try:
        from notifications.services import notify
    except ImportError:
        return
    tournament = Tournament.objects.get(pk=tournament_id)
    data: dict[str, object] = {"tournament": tournament.pk, "title": tournament.name, "round": tournament.current_round}
    if minutes is not None:
        data["minutes"] = minutes
    # A round's notice leads to the player's table; the others to the tournament's page.
    table_of: dict[int, Table] = {}
    own: dict[int, dict[str, object]] = {}
    if kind == "round_ready":
        # Issue 53: when the table starts, so the site can offer it at once with the countdown.
        round_ = tournament.round_set.filter(number=tournament.current_round).first()
        if round_ is not None:
            data["until"] = round_.tables_start_at.isoformat()
        seats = Seat.objects.filter(
            table__tournament_table__round__tournament=tournament,
            table__tournament_table__round__number=tournament.current_round,
            user_id__in=user_ids,
        ).select_related("table")
        table_of = {seat.user_id: seat.table for seat in seats if seat.user_id is not None}
    if kind == "tournament_finished":
        # Issue 53: each player's own place in the final standings and prize.
        entries = tournament.entries.filter(user_id__in=user_ids, rank__isnull=False)
        ranked = tournament.entries.filter(rank__isnull=False).count()
        own = {e.user_id: {"rank": e.rank, "players": ranked, "prize": e.prize or 0} for e in entries}
    for user in User.objects.filter(pk__in=user_ids):
        table = table_of.get(user.pk)
        url = {} if table else {"url": reverse("tournament", args=[tournament.pk])}
        notify(user=user, kind=kind, table=table, data={**data, **own.get(user.pk, {}), **url})
