"""Fair deals at a table (protocol in ``games.records.fairness``; docs/fairness.md; RULINGS P30–P34).

Called by ``tables.services`` inside their transactions, under the Table or Match
lock: each step of the table's life cycle has its part here. The secret is read
only to derive the seed at the start and to reveal it once the game is over;
nothing that renders a page or a socket frame gets it before then
(``live_panel``, ``match_panel``).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from accounts.models import User
from config.i18n import refusal
from games.models import Match, MatchEvent
from games.records import fairness as protocol
from tables.errors import TableError
from tables.models import DealCommitment, Seat, Table

ENDED = (Match.Status.FINISHED, Match.Status.DISMISSED, Match.Status.ABORTED)


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
        # Only a table made outside table_create (a script, a test) lacks one; opening it now
        # means it was not on the page before the lobby filled, which its created_at shows.
        commitment = commitment_open(table=table, attempt=attempt)
    return commitment


def value_give(*, table: Table, user: User, value: str | None) -> None:
    """A human's value with "ready" (or the host's with "start"). ``None``: a caller that is not
    a browser (a script, a test); the site draws the value and says so in the record (P31)."""
    seat = table.seats.filter(user=user).first()
    if seat is None or user.is_bot:
        return
    by = protocol.BY_PLAYER
    if value is None:
        value, by = protocol.new_value(), protocol.BY_SITE
    else:
        try:
            value = protocol.normalise_value(value)
        except ValueError as error:
            raise TableError(refusal(error)) from None
    commitment = _current(table)
    commitment.entropy = {**commitment.entropy, str(seat.position): {"user": user.pk, "value": value, "by": by}}
    commitment.save(update_fields=["entropy"])


def value_withdraw(*, table: Table, user: User) -> None:
    """Not ready any more, or leaving: the value is dropped; the next "ready" brings a new one."""
    commitment = _current(table)
    kept = {position: entry for position, entry in commitment.entropy.items() if entry["user"] != user.pk}
    if kept != commitment.entropy:
        commitment.entropy = kept
        commitment.save(update_fields=["entropy"])


def seed_for_start(*, table: Table, seats: list[Seat]) -> tuple[DealCommitment, int]:
    """RULING P32: freeze the values in seat order and derive the match's seed from them.

    A value counts only if the user who gave it still sits in that seat. A human with none
    (ready before fair deals arrived) gets one drawn by the site, marked as such.
    """
    commitment = _current(table)
    contributions = []
    for seat in seats:
        entry = commitment.entropy.get(str(seat.position))
        if seat.user.is_bot:
            contributions.append({"seat": seat.position, "value": None, "by": protocol.BY_BOT})
        elif entry and entry["user"] == seat.user_id:
            contributions.append({"seat": seat.position, "value": entry["value"], "by": entry["by"]})
        else:
            contributions.append({"seat": seat.position, "value": protocol.new_value(), "by": protocol.BY_SITE})
    digest, seed = protocol.derive_seed(
        commitment.secret, commitment.commitment, [entry["value"] for entry in contributions], table.pk
    )
    commitment.contributions = {"values": contributions, "hmac": digest, "seed": seed}
    return commitment, seed


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
    actions = [
        [seat, action]
        for seat, action in MatchEvent.objects.filter(match=match).order_by("version").values_list("seat", "action")
    ]
    return {
        **record,
        "fairness": {
            "version": protocol.VERSION,
            "commitment": commitment.commitment,
            "secret": commitment.secret,
            "table": match.table_id,
            "attempt": match.attempt,
            **commitment.contributions,
            "actions": actions,
        },
    }


# --- what pages show ------------------------------------------------------------------------


def live_panel(*, table: Table, match: Match | None) -> dict | None:
    """The table page's panel: the commitment; once started, the values; once over, the secret.

    The secret is put in only for a match that has ended: this dict is what the live
    fragment renders, for every viewer, on every push.
    """
    if match is not None:
        commitment = DealCommitment.objects.filter(match=match).first()
        if commitment is None:
            return {"legacy": True}
        return _panel(commitment, revealed=match.status in ENDED, match=match)
    if table.status != Table.Status.LOBBY:
        return None
    commitment = DealCommitment.objects.filter(table=table, attempt=table.matches.count() + 1).first()
    return _panel(commitment, revealed=False, match=None) if commitment else None


def _panel(commitment: DealCommitment, *, revealed: bool, match: Match | None) -> dict:
    panel = {
        "legacy": False,
        "version": protocol.VERSION,
        "commitment": commitment.commitment,
        "table": commitment.table_id,
    }
    if match is not None and commitment.contributions:  # RULING P32: public once the game starts
        panel["contributions"] = commitment.contributions["values"]
        panel["match_id"] = match.pk
    if revealed:
        panel["secret"] = commitment.secret
    return panel
