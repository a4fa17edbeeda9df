"""Seats kept for someone: a rematch keeps each player's old seat until they answer (RULING P70).

The lobby services ask here before anyone takes a seat or the host puts a bot in it; this
module reads only the models, so the services and the rematch module can both use it.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from accounts.models import User
from tables.errors import TableError
from tables.models import RematchAnswer, Table


def held_positions(table: Table) -> dict[int, int]:
    """Position -> the user it is kept for, at a rematch table whose players have not all answered."""
    rows = RematchAnswer.objects.filter(rematch__table=table, answer=RematchAnswer.Answer.PENDING)
    return dict(rows.values_list("position", "user_id"))


def require_free(*, table: Table, position: object, user: User | None) -> None:
    """Refuse a seat kept for another player; ``user`` None: the host adding a bot."""
    kept_for = held_positions(table).get(position) if isinstance(position, int) else None
    if kept_for is not None and (user is None or user.pk != kept_for):
        raise TableError(_("That seat is kept for a player of the last game until they answer the rematch."))
