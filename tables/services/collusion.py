"""Where a seat was taken from (RULING P72), kept as the digest tables/selectors/collusion.py
compares: never the address itself."""

from __future__ import annotations

from accounts.models import User
from tables.models import SeatAddress
from tables.selectors.collusion import address_digest


def seat_address_record(*, table_id: int, user: User, address: str) -> None:
    """Where ``user`` took their seat at ``table_id`` from: the latest address counts (one statement,
    ``update_or_create``'s own transaction)."""
    digest = address_digest(address)
    if digest is None or user.is_bot:
        return
    SeatAddress.objects.update_or_create(table_id=table_id, user=user, defaults={"digest": digest})
