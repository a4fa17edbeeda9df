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

from games import catalog
from games.catalog import get_engine
from games.models import Match, MatchPlayer
from games.records import fairness as protocol
from tables import clock, fairness
from tables.models import DealCommitment, Seat, Table
from tables.services import handoff
from tables.services.steps import move_save

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
        digest, seed = protocol.derive_seed_v2(commitment.secret, commitment.commitment, table.pk, 1, inputs)
        commitment.contributions = {
            "version": protocol.VERSION,
            "values": [entry.as_dict() for entry in inputs],
            "hmac": digest,
            "seed": seed,
        }
        engine = get_engine(catalog.get(table.game).name)
        state = engine.new_game(table.seat_count, table.options, seed)
        match = Match.objects.create(
            table=table,
            attempt=1,
            game=table.game,
            options=table.options,
            players=table.seat_count,
            seed=seed,
            state=engine.dumps(state),
            version=0,
            started_at=now,
            turn_clock=table.clock,
        )
        MatchPlayer.objects.bulk_create(MatchPlayer(match=match, seat=seat.position, user=seat.user) for seat in seats)
        fairness.attach(commitment=commitment, match=match)
        table.status = Table.Status.PLAYING
        table.last_activity_at = now
        table.save(update_fields=["status", "last_activity_at"])
        handoff.match_started(table=table, match=match, users=list(users.values()))
        absent = {position for position, user in users.items() if not user.is_bot and position not in present}
        for position in sorted(absent):
            # RULING P12: away from the start, so the house plays the seat until the player is back.
            clock.mark_away(match, position, now=now)
        move_save(match=match, state=state, engine=engine, to_act=engine.to_act(state), now=now)
    return match, absent
