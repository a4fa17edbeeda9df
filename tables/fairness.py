"""Fair deals at a table (protocol in ``games.records.fairness``; docs/fairness.md; RULINGS P30–P34).

Called by ``tables.services`` inside their transactions, under the Table or Match
lock: each step of the table's life cycle has its part here. The secret is read
only to derive the seed at the start, to seed the bots' moves (under another label) and to
reveal it once the game is over;
nothing that renders a page or a socket frame gets it before then
(``tables.selectors.fairness_panel``, ``match_panel``).
"""

from __future__ import annotations

import random
import secrets

from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core.i18n import lazy_format, refusal
from games.models import Match, MatchEvent
from games.records import fairness as protocol
from tables.errors import TableError
from tables.models import DealCommitment, Seat, Table


def player_value(raw: object) -> str:
    """RULING P31: the value a browser sends with "ready" or "start"; refused when missing or malformed."""
    if raw is None or raw == "":
        raise TableError(
            _(
                "Your browser sent no random value with this (it must send 32 hex digits); "
                "reload the page and try again."
            )
        )
    try:
        return protocol.normalise_value(raw)
    except ValueError as error:
        raise TableError(refusal(error)) from None


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


def bot_rng(*, match: Match, seat: int, label: str = "bot") -> random.Random:
    """The generator for one bot (or house) move: drawn from the attempt's secret under its own
    label (``protocol.bot_seed``), never from the match's seed, so no bot can replay a deal's
    shuffle. The same move gets the same generator, so a retried task makes the same move. A
    game dealt before fair deals has no secret: its bots draw from ``secrets``."""
    secret = DealCommitment.objects.filter(match_id=match.pk).values_list("secret", flat=True).first()
    if secret is None:
        return random.Random(secrets.randbits(128))
    return random.Random(protocol.bot_seed(secret, match.pk, match.version, seat, label))


def attach(*, commitment: DealCommitment, match: Match) -> None:
    commitment.match = match
    commitment.save(update_fields=["contributions", "match"])


def with_fairness(match: Match, record: dict) -> dict:
    """RULING P33: the record of an ended attempt, with its fairness data and the secret revealed.

    The engine's record is untouched; the site adds one key beside it. Matches dealt before
    fair deals have no commitment and get no key: they stay "not verifiable".
    """
    commitment = DealCommitment.objects.filter(match=match).first()
    if commitment is None or not commitment.contributions:
        return record
    # Attempts started before fair-v2 froze their values without a version: they stay fair-v1.
    contributions = dict(commitment.contributions)
    version = contributions.pop("version", protocol.V1)
    actions = [
        [seat, action]
        for seat, action in MatchEvent.objects.filter(match=match).order_by("version").values_list("seat", "action")
    ]
    return {
        **record,
        "fairness": {
            "version": version,
            "commitment": commitment.commitment,
            "secret": commitment.secret,
            "table": match.table_id,
            "attempt": match.attempt,
            **contributions,
            "actions": actions,
        },
    }
