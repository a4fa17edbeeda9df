"""The bell (RULING P80): a tournament you entered starts; your next round's table is ready."""

from __future__ import annotations

from accounts.models import User
from tournaments.models import RoundTable, Tournament


def notice_send(*, tournament_id: int, kind: str, user_ids: list[int]) -> None:
    try:
        from notifications.services import notify
    except ImportError:  # a site without the notifications app has no bell to ring
        return
    tournament = Tournament.objects.get(pk=tournament_id)
    tables = dict(
        RoundTable.objects.filter(round__tournament=tournament, round__number=tournament.current_round)
        .filter(table__seats__user_id__in=user_ids)
        .values_list("table__seats__user_id", "table_id")
    )
    for user in User.objects.filter(pk__in=user_ids):
        data = {"tournament": tournament.pk, "name": tournament.name, "round": tournament.current_round}
        if kind == "round_ready" and user.pk in tables:
            data["table"] = tables[user.pk]
        notify(user=user, kind=kind, data=data)
