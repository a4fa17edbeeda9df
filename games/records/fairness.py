"""Provably fair deals, protocol ``fair-v1`` (docs/fairness.md, RULINGS P30–P34).

Commit–reveal with entropy from every human player:

1. For each attempt at a table the site draws a 32-byte ``secret`` and publishes
   ``commitment = SHA-256(secret)`` before anyone is ready.
2. Every human sends a 16-byte value with "ready" (the host with "start"); bots send nothing.
3. ``HMAC-SHA256(key=secret, msg=commitment || values in seat order || table id)`` is the
   seed material; its first 62 bits, as an integer, are the engine's ``seed``.
4. When the attempt is over the secret is published, with the values and the game's actions,
   under the record's ``fairness`` key; anyone can then check each step (``check_record``).

Pure Python: the standard library and ``games.engines`` only, so that
``python -m games.verify record.json`` runs without Django or the site.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass

from games.engines import get_engine

VERSION = "fair-v1"
SECRET_BYTES = 32
VALUE_BYTES = 16
SEED_BITS = 62  # the site's seeds were 62-bit integers before fair-v1: Match.seed is a signed bigint
_VALUE = re.compile(r"[0-9a-f]{32}")
_HEX64 = re.compile(r"[0-9a-f]{64}")

# Who gave a seat's value. "site" only for callers that are not a browser (scripts, tests): the
# table socket refuses "ready" and "start" without a player's own value (RULING P31).
BY_PLAYER, BY_BOT, BY_SITE = "player", "bot", "site"


def new_secret() -> str:
    """A fresh secret, as 64 hex digits."""
    return secrets.token_hex(SECRET_BYTES)


def new_value() -> str:
    """A value the site draws for a seat whose caller gave none (never for a browser's seat)."""
    return secrets.token_hex(VALUE_BYTES)


def commitment_of(secret: str) -> str:
    return hashlib.sha256(bytes.fromhex(secret)).hexdigest()


def normalise_value(text: object) -> str:
    """A player's value as 32 lowercase hex digits; ``ValueError`` with a readable message otherwise."""
    value = text.strip().lower() if isinstance(text, str) else ""
    if not _VALUE.fullmatch(value):
        raise ValueError("Your random value must be 32 hexadecimal digits (0-9, a-f): 16 bytes.")
    return value


def seed_message(commitment: str, values: list[str | None], table_id: int) -> bytes:
    """``commitment || every given value in seat order || table id`` (8 bytes, big-endian).

    A bot's seat gives nothing (``None``): every value is exactly 16 bytes and who sits
    where is fixed and public before the start, so the message stays unambiguous.
    """
    return (
        bytes.fromhex(commitment)
        + b"".join(bytes.fromhex(value) for value in values if value)
        + table_id.to_bytes(8, "big")
    )


def seed_hmac(secret: str, commitment: str, values: list[str | None], table_id: int) -> str:
    message = seed_message(commitment, values, table_id)
    return hmac.new(bytes.fromhex(secret), message, hashlib.sha256).hexdigest()


def seed_from_hmac(digest: str) -> int:
    """The engine's seed: the digest's first 62 bits, as a non-negative integer."""
    return int.from_bytes(bytes.fromhex(digest)[:8], "big") >> (64 - SEED_BITS)


def derive_seed(secret: str, commitment: str, values: list[str | None], table_id: int) -> tuple[str, int]:
    digest = seed_hmac(secret, commitment, values, table_id)
    return digest, seed_from_hmac(digest)


def dealt(round_record: dict) -> dict:
    """What the shuffle decided in one round of a record: hands (every deal's, in Estimation),
    the indicator card, SITA's starting rows and the dealer."""
    picked = {key: round_record[key] for key in ("dealer", "hands", "indicator", "rows") if key in round_record}
    if "deals" in round_record:
        picked["deals"] = [deal.get("hands") for deal in round_record["deals"]]
    return picked


# --- checking a record ---------------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str

    def line(self) -> str:
        return f"{'✓' if self.ok else '✗'} {self.name}: {self.detail}"

    def as_dict(self) -> dict:
        return {"name": self.name, "ok": self.ok, "detail": self.detail}


class NotVerifiable(ValueError):
    """A record without fairness data: dealt before fair-v1, or not a record at all."""


def check_record(record: object) -> list[Check]:
    """Every check of one record, in order; raises ``NotVerifiable`` when there is nothing to check.

    The deal checks replay the published actions through the engine from the seed the
    inputs give (not the seed the record claims), so a record whose hands or seed were
    altered, or whose inputs were, fails the check that names it.
    """
    if not isinstance(record, dict) or not isinstance(record.get("fairness"), dict):
        raise NotVerifiable("This record has no fairness data (it was dealt before fair deals): not verifiable.")
    fair = record["fairness"]
    if fair.get("version") != VERSION:
        raise NotVerifiable(f"Unknown fairness version {fair.get('version')!r}; this verifier knows {VERSION}.")
    checks = [_check_inputs(fair, record)]
    if not checks[0].ok:
        return checks
    secret, commitment, values = fair["secret"], fair["commitment"], [entry["value"] for entry in fair["values"]]
    actual = commitment_of(secret)
    checks.append(
        Check(
            "commitment",
            actual == commitment,
            f"SHA-256(secret) = {actual[:16]}…, published before the start: {commitment[:16]}…",
        )
    )
    digest, seed = derive_seed(secret, commitment, values, fair["table"])
    same = seed == record.get("seed") and seed == fair.get("seed") and digest == fair.get("hmac")
    checks.append(
        Check(
            "seed",
            same,
            f"HMAC-SHA256(secret, commitment ‖ values ‖ table {fair['table']}) gives "
            f"seed {seed}; the record says {record.get('seed')}",
        )
    )
    checks.extend(_check_deals(record, fair, seed))
    return checks


def _check_inputs(fair: dict, record: dict) -> Check:
    """The fairness data's shape: everything the other checks read, so they cannot crash."""
    problems = []
    if not (isinstance(fair.get("secret"), str) and _HEX64.fullmatch(fair["secret"])):
        problems.append("the secret is not 64 hex digits")
    if not (isinstance(fair.get("commitment"), str) and _HEX64.fullmatch(fair["commitment"])):
        problems.append("the commitment is not 64 hex digits")
    if not isinstance(fair.get("table"), int) or isinstance(fair.get("table"), bool) or fair["table"] < 0:
        problems.append("the table id is not a number")
    values = fair.get("values")
    seats = len(record.get("totals") or [])
    if not isinstance(values, list) or len(values) != seats:
        problems.append(f"there must be one value entry per seat ({seats})")
    else:
        for seat, entry in enumerate(values):
            if not isinstance(entry, dict) or entry.get("seat") != seat:
                problems.append(f"the values are not in seat order at seat {seat + 1}")
            elif entry.get("by") == BY_BOT:
                if entry.get("value") is not None:
                    problems.append(f"seat {seat + 1} is a bot but has a value")
            elif entry.get("by") not in (BY_PLAYER, BY_SITE):
                problems.append(f"seat {seat + 1} says who gave its value wrongly")
            elif not (isinstance(entry.get("value"), str) and _VALUE.fullmatch(entry["value"])):
                problems.append(f"seat {seat + 1}'s value is not 32 hex digits")
    if not isinstance(fair.get("actions"), list):
        problems.append("the actions are missing")
    if problems:
        return Check("inputs", False, "; ".join(problems) + ".")
    given = sum(1 for entry in values if entry["value"])
    return Check("inputs", True, f"{VERSION}, table {fair['table']}, {given} player value(s) of {seats} seats")


def _check_deals(record: dict, fair: dict, seed: int) -> list[Check]:
    """Replay the actions from the derived seed; each round's dealt cards must be the record's.

    If an action is refused (a card the seed did not deal to that seat), the rounds reached
    so far are still compared, so the report names the round whose deal differs.
    """
    try:
        engine = get_engine(record.get("game"))
        state = engine.new_game(record["players"], record["options"], seed)
    except (ValueError, TypeError, KeyError) as error:
        return [Check("game", False, f"the engine cannot start this game: {error}")]
    refused = None
    for number, entry in enumerate(fair["actions"], start=1):
        try:
            seat, action = entry
            state = engine.apply(state, seat, action)
        except (ValueError, TypeError, KeyError) as error:
            refused = Check(
                "actions",
                False,
                f"action {number} of {len(fair['actions'])} is not legal in the game the seed deals: {error}",
            )
            break
    replayed = json.loads(json.dumps(engine.record(state)))
    given_rounds = record.get("rounds") if isinstance(record.get("rounds"), list) else []
    checks = []
    for index in range(max(len(given_rounds), len(replayed["rounds"]))):
        label = f"round {index + 1}"
        if index >= len(replayed["rounds"]):
            checks.append(Check(label, False, "the actions never reach this round of the record"))
        elif index >= len(given_rounds):
            checks.append(Check(label, False, "the actions reach a round the record does not have"))
        else:
            same = dealt(given_rounds[index]) == dealt(replayed["rounds"][index])
            checks.append(
                Check(
                    label,
                    same,
                    "the hands dealt are the seed's"
                    if same
                    else "the hands in the record are not the ones the seed deals",
                )
            )
    if refused is not None:
        return checks + [refused]
    rest = {key: value for key, value in record.items() if key != "fairness"}
    same = rest == replayed
    checks.append(
        Check(
            "play",
            same,
            "the bids, plays and totals follow from the actions"
            if same
            else "the record's play or totals differ from the replayed actions",
        )
    )
    return checks
