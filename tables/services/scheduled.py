"""A table started at a set time by the site, not by a host (a tournament's round, RULING P80).

The players were seated for them and had until ``now`` to press "I'm ready" at the table, which
brings their own random value as at any table (RULING P31). At the start a human who did not is
absent: the seat enters the deal's seed as the house's, with no value (the site draws none in a
player's place), and is marked away from the first move, so the house plays it (RULING P12)
until the player comes back. Everything else is the ordinary start: the same Match, the same
fair-v2 seed, the same hooks (passes, stakes), the same first ``move_save``.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.db import transaction

from games.models import Match
from games.records import fairness as protocol
from tables.models import DealCommitment, Seat, Table
from tables.services import fairness
from tables.services.steps import match_start

if TYPE_CHECKING:
    from accounts.models import User


def present_seats(table: Table, seats: list[Seat], commitment: DealCommitment) -> set[int]:
    """The human seats whose player pressed "I'm ready" with their own value (RULING P31)."""
    present = set()
    for seat in seats:
        entry = commitment.entropy.get(str(seat.position)) or {}
        human = seat.user is not None and not seat.user.is_bot
        if human and seat.is_ready and entry.get("user") == seat.user_id and entry.get("by") == protocol.BY_PLAYER:
            present.add(seat.position)
    return present


def table_start_scheduled(*, table_id: int, now: datetime) -> tuple[Match, set[int]] | None:
    """Start a lobby whose every seat is filled; returns the match and the absent human seats, or
    None when the table is no longer a lobby (started already: a repeated task does nothing)."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status != Table.Status.LOBBY:
            return None
        seats = list(table.seats.select_related("user").order_by("position"))
        users: dict[int, User] = {}  # position → its player
        for seat in seats:
            if seat.user is None:
                raise ValueError("A scheduled table starts with every seat filled.")
            users[seat.position] = seat.user
        commitment = DealCommitment.objects.select_for_update().get(table=table, attempt=1)
        present = present_seats(table, seats, commitment)
        inputs = []
        for seat in seats:
            if seat.position in present:
                value = commitment.entropy[str(seat.position)]["value"]
                inputs.append(protocol.SeatInput(seat.position, protocol.BY_PLAYER, users[seat.position].pk, value))
            else:
                inputs.append(protocol.SeatInput(seat.position, protocol.BY_BOT, users[seat.position].pk))
        seed = fairness.seed_freeze(table=table, commitment=commitment, inputs=inputs)
        absent = {position for position, user in users.items() if not user.is_bot and position not in present}
        # RULING P12: away from the start, so the house plays the seat until the player is back.
        match = match_start(table=table, seats=seats, commitment=commitment, seed=seed, now=now, away=absent)
    return match, absent
