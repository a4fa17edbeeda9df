"""The bell (RULING P80): a tournament you entered starts; your next round's table is ready.

Recorded inside the caller's transaction by ``notifications.services.notify``, which pushes and
delivers after commit itself. A site without the notifications app rings no bell.
"""

from __future__ import annotations

from accounts.models import User
from tables.models import Table
from tournaments.models import Tournament


def notice_send(*, tournament_id: int, kind: str, user_ids: list[int]) -> None:
    try:
        from notifications.services import notify
    except ImportError:
        return
    tournament = Tournament.objects.get(pk=tournament_id)
    seats = Table.objects.filter(
        tournament_table__round__tournament=tournament,
        tournament_table__round__number=tournament.current_round,
        seats__user_id__in=user_ids,
    ).values_list("seats__user_id", "pk")
    table_of = dict(seats)
    tables = Table.objects.in_bulk(set(table_of.values()))
    for user in User.objects.filter(pk__in=user_ids):
        data = {"tournament": tournament.pk, "name": tournament.name, "round": tournament.current_round}
        table = tables.get(table_of.get(user.pk, 0)) if kind == "round_ready" else None
        notify(user=user, kind=kind, table=table, data=data)
