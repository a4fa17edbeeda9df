"""What the table's write side tells players in the site's notifications (the bell)."""

from __future__ import annotations

from django.urls import reverse

from accounts.models import User
from notifications import kinds
from notifications.services import notify
from tables.models import Table


def rematch_offered(*, user: User, table: Table, source: Table, actor: User) -> None:
    """A rematch waits for ``user``'s answer (RULING P70); dropped quietly if they turned the kind
    off or blocked ``actor`` (notify decides). It leads to the game-over panel, where they answer."""
    answer_at = reverse("table", args=[source.pk]) + "#rematch"
    notify(user=user, kind=kinds.REMATCH_OFFER, table=table, actor=actor, data={"game": table.game, "url": answer_at})
