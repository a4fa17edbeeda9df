"""Fair deals at a table, the writes (protocol in ``games.records.fairness``; docs/fairness.md;
RULINGS P30–P34): the attempt's commitment, the players' values, the seed frozen at the start.

Called by the other services inside their transactions, under the Table or Match lock: each step
of the table's life cycle has its part here. The reads are ``tables.selectors.fairness``.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core.i18n import lazy_format
from games.models import Match
from games.records import fairness as protocol
from tables.errors import TableError
from tables.models import DealCommitment, Seat, Table
from tables.selectors.fairness import player_value


def commitment_open(*, table: Table, attempt: int) -> DealCommitment:
    """RULING P30: a new secret and its commitment for this attempt, before anyone can be ready."""
    secret = protocol.new_secret()
    return DealCommitment.objects.create(
        table=table, attempt=attempt, secret=secret, commitment=protocol.commitment_of(secret)
    )


def _current(table: Table) -> DealCommitment:
    attempt = table.matches.count() + 1
    commitment = DealCommitment.objects.select_for_update().filter(table=table, attempt=attempt).first()
    if commitment is None:
        # RULING P30: every attempt's commitment is made in the transaction that opens the table
        # or the attempt. Making one now would publish it after players may have been ready.
        raise TableError(
            _("This table has no commitment for its deal, so it cannot be dealt fairly; open a new table.")
        )
    return commitment


def value_give(*, table: Table, user: User, value: object) -> None:
    """RULING P31: a human's value with "ready" (or the host's with "start"). Refused when it is
    missing or malformed, from any caller: the site never draws a value in a player's place."""
    seat = table.seats.filter(user=user).first()
    if seat is None or user.is_bot:
        return
    value = player_value(value)
    commitment = _current(table)
    entry = {"user": user.pk, "value": value, "by": protocol.BY_PLAYER}
    commitment.entropy = {**commitment.entropy, str(seat.position): entry}
    commitment.save(update_fields=["entropy"])


def value_withdraw(*, table: Table, user: User) -> None:
    """Not ready any more, or leaving: the value is dropped; the next "ready" brings a new one."""
    commitment = _current(table)
    kept = {position: entry for position, entry in commitment.entropy.items() if entry["user"] != user.pk}
    if kept != commitment.entropy:
        commitment.entropy = kept
        commitment.save(update_fields=["entropy"])


def seed_for_start(*, table: Table, seats: list[Seat]) -> tuple[DealCommitment, int]:
    """RULING P32: freeze every seat (number, kind, account, value) and derive the seed (fair-v2).

    A value counts only if the user who gave it still sits in that seat and sent it
    themselves. A human without one (ready before this rule, when the site drew values) is
    asked to press ready again: nothing is drawn for them.
    """
    commitment = _current(table)
    inputs, missing = [], []
    for seat in seats:
        entry = commitment.entropy.get(str(seat.position))
        if seat.user is None or seat.user_id is None:
            continue  # the start refuses an empty seat before it asks for the seed
        if seat.user.is_bot:
            inputs.append(protocol.SeatInput(seat.position, protocol.BY_BOT, seat.user_id))
        elif entry and entry["user"] == seat.user_id and entry.get("by") == protocol.BY_PLAYER:
            inputs.append(protocol.SeatInput(seat.position, protocol.BY_PLAYER, seat.user_id, entry["value"]))
        else:
            missing.append(seat.user.name)
    if missing:
        raise TableError(
            lazy_format(
                _("%(names)s must send a random value: press “Not ready”, then “I'm ready” again."),
                names=", ".join(missing),
            )
        )
    return commitment, seed_freeze(table=table, commitment=commitment, inputs=inputs)


def seed_freeze(*, table: Table, commitment: DealCommitment, inputs: list[protocol.SeatInput]) -> int:
    """RULING P32: the seed of the attempt from every seat's input (fair-v2), kept with the
    commitment (saved by ``attach``)."""
    digest, seed = protocol.derive_seed_v2(
        commitment.secret, commitment.commitment, table.pk, commitment.attempt, inputs
    )
    commitment.contributions = {
        "version": protocol.VERSION,
        "values": [entry.as_dict() for entry in inputs],
        "hmac": digest,
        "seed": seed,
    }
    return seed


def attach(*, commitment: DealCommitment, match: Match) -> None:
    commitment.match = match
    commitment.save(update_fields=["contributions", "match"])
