"""What the table's write side tells players in the site's notifications (the bell)."""

from __future__ import annotations

from accounts.models import User
from tables.models import Table


def rematch_offered(*, user: User, table: Table, actor: User) -> None:
    """A rematch waits for ``user``'s answer at ``table`` (RULING P70)."""
