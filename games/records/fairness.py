"""Provably fair deals, protocol ``fair-v2`` (docs/fairness.md, RULINGS P30–P34).

Commit–reveal with entropy from every human player:

1. For each attempt at a table the site draws a 32-byte ``secret`` and publishes
   ``commitment = SHA-256(secret)`` before anyone is ready.
2. Every human sends a 16-byte value with "ready" (the host with "start"); bots send nothing.
   The site never draws a value for anyone (RULING P31).
3. ``HMAC-SHA256(key=secret, msg=seed_message_v2(...))`` is the seed material: the message
   binds the commitment, the table, the attempt and every seat by number, kind (player or
   bot) and account id, with each player's value. Its first 62 bits are the engine's ``seed``.
4. When the attempt is over the secret is published, with the seats, values and the game's
   actions, under the record's ``fairness`` key; anyone can check each step (``check_record``).

``fair-v1`` (the values alone, in seat order, with the table id) is still checked for the
games dealt under it. Bots draw their own randomness from the same secret under another
label (``bot_seed``), so no bot's generator can reproduce a deal's.

Pure Python: the standard library and ``games.engines`` only, so that
``python -m games.records.verify record.json`` runs without Django or the site.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

from games.engines.contract import Engine

VERSION = "fair-v2"
V1 = "fair-v1"
VERSIONS = (V1, VERSION)
SECRET_BYTES = 32
VALUE_BYTES = 16
SEED_BITS = 62  # the site's seeds were 62-bit integers before fair-v1: Match.seed is a signed bigint
_VALUE = re.compile(r"[0-9a-f]{32}")
_HEX64 = re.compile(r"[0-9a-f]{64}")

# Who gave a seat's value. "site" exists only in fair-v1 records: a value the site drew for a
# caller that was not a browser. Since fair-v2 the site draws none (RULING P31).
BY_PLAYER, BY_BOT, BY_SITE = "player", "bot", "site"

# fair-v2's message (docs/fairness.md, "The seed"): a domain label, then fixed-width fields.
V2_LABEL = b"fair-v2\x00"
KIND_BYTE = {BY_PLAYER: 0x01, BY_BOT: 0x02}
TABLE_LIMIT = 2**64  # 8 bytes, unsigned
ATTEMPT_LIMIT = 2**32  # 4 bytes, unsigned
ACCOUNT_LIMIT = 2**64  # 8 bytes, unsigned
SEAT_LIMIT = 256  # 1 byte
# The keys of a record's ``fairness`` and of each of its seat entries (docs/fairness.md, "The
# record"): anything else is refused rather than passed over unread. fair-v1 binds no attempt,
# so its records may lack one (those the site wrote carry it).
FAIRNESS_KEYS = {"version", "commitment", "secret", "table", "attempt", "values", "hmac", "seed", "actions"}
OPTIONAL_KEYS = {VERSION: frozenset(), V1: frozenset({"attempt"})}
SEAT_KEYS = {VERSION: {"seat", "by", "account", "value"}, V1: {"seat", "by", "value"}}


def new_secret() -> str:
    """A fresh secret, as 64 hex digits."""
    return secrets.token_hex(SECRET_BYTES)


def commitment_of(secret: str) -> str:
    return hashlib.sha256(bytes.fromhex(secret)).hexdigest()


def normalise_value(text: object) -> str:
    """A player's value as 32 lowercase hex digits; ``ValueError`` with a readable message otherwise."""
    value = text.strip().lower() if isinstance(text, str) else ""
    if not _VALUE.fullmatch(value):
        raise ValueError("Your random value must be 32 hexadecimal digits (0-9, a-f): 16 bytes.")
    return value


@dataclass(frozen=True)
class SeatInput:
    """One seat's part in a fair-v2 seed: its kind, the account sitting there and, for a
    player, the value their browser sent."""

    seat: int
    by: str
    account: int
    value: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "by": self.by, "account": self.account, "value": self.value}


def seed_message_v2(commitment: str, table_id: int, attempt: int, seats: list[SeatInput]) -> bytes:
    """``"fair-v2" 0x00 ‖ commitment ‖ table ‖ attempt ‖ seat count ‖ per seat: number, kind,
    account[, value]``; every field has a fixed width, so the message is unambiguous.

    ``ValueError`` for anything that does not fit its field (a table id of 2^64, say).
    """
    if not 0 <= table_id < TABLE_LIMIT:
        raise ValueError(f"the table id {table_id} does not fit 8 bytes")
    if not 0 < attempt < ATTEMPT_LIMIT:
        raise ValueError(f"the attempt {attempt} does not fit 4 bytes")
    if not 0 < len(seats) < SEAT_LIMIT:
        raise ValueError(f"{len(seats)} seats do not fit 1 byte")
    parts = [V2_LABEL, bytes.fromhex(commitment), table_id.to_bytes(8, "big"), attempt.to_bytes(4, "big")]
    parts.append(len(seats).to_bytes(1, "big"))
    for number, entry in enumerate(seats):
        if entry.seat != number:
            raise ValueError(f"seat {number + 1} is out of order")
        if entry.by not in KIND_BYTE:
            raise ValueError(f"seat {number + 1}'s kind {entry.by!r} is not player or bot")
        if not 0 <= entry.account < ACCOUNT_LIMIT:
            raise ValueError(f"seat {number + 1}'s account id does not fit 8 bytes")
        parts += [number.to_bytes(1, "big"), bytes([KIND_BYTE[entry.by]]), entry.account.to_bytes(8, "big")]
        if entry.by == BY_PLAYER:
            parts.append(bytes.fromhex(normalise_value(entry.value)))
        elif entry.value is not None:
            raise ValueError(f"seat {number + 1} is a bot but has a value")
    return b"".join(parts)


def seed_from_hmac(digest: str) -> int:
    """The engine's seed: the digest's first 62 bits, as a non-negative integer."""
    return int.from_bytes(bytes.fromhex(digest)[:8], "big") >> (64 - SEED_BITS)


def derive_seed_v2(
    secret: str, commitment: str, table_id: int, attempt: int, seats: list[SeatInput]
) -> tuple[str, int]:
    message = seed_message_v2(commitment, table_id, attempt, seats)
    digest = hmac.new(bytes.fromhex(secret), message, hashlib.sha256).hexdigest()
    return digest, seed_from_hmac(digest)


def seed_message_v1(commitment: str, values: list[str | None], table_id: int) -> bytes:
    """fair-v1: ``commitment || every given value in seat order || table id`` (8 bytes, big-endian)."""
    return (
        bytes.fromhex(commitment)
        + b"".join(bytes.fromhex(value) for value in values if value)
        + table_id.to_bytes(8, "big")
    )


def derive_seed_v1(secret: str, commitment: str, values: list[str | None], table_id: int) -> tuple[str, int]:
    message = seed_message_v1(commitment, values, table_id)
    digest = hmac.new(bytes.fromhex(secret), message, hashlib.sha256).hexdigest()
    return digest, seed_from_hmac(digest)


def bot_seed(secret: str, match_id: int, version: int, seat: int, label: str = "bot") -> int:
    """A bot's generator seed for one move: ``HMAC-SHA256(secret, label 0x00 ‖ match ‖ version ‖ seat)``.

    The label keeps it apart from the deal's message (which opens with ``fair-v2``), so a
    bot's stream is independent of every deal of the game, yet the same move always gets the
    same seed (a retried task makes the same move). ``label`` is ``"bot"`` for a bot's or
    an away seat's move and ``"clock"`` for the house's move when a clock runs out.
    """
    message = (
        label.encode("ascii")
        + b"\x00"
        + match_id.to_bytes(8, "big")
        + version.to_bytes(8, "big")
        + seat.to_bytes(2, "big")
    )
    return int.from_bytes(hmac.new(bytes.fromhex(secret), message, hashlib.sha256).digest(), "big")


def canonical(value: object) -> str:
    """JSON with sorted keys and no spaces: the form two records are compared in. Types count:
    ``57`` and ``57.0``, ``0`` and ``false``, ``1`` and ``"1"`` differ."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def dealt(round_record: dict[str, Any]) -> dict[str, Any]:
    """What the shuffle decided in one round of a record: hands (every deal's, in Estimation),
    the indicator card, SITA's starting rows and the dealer."""
    if not isinstance(round_record, dict):
        return {"not a round": round_record}
    picked: dict[str, Any] = {
        key: round_record[key] for key in ("dealer", "hands", "indicator", "rows") if key in round_record
    }
    deals = round_record.get("deals")
    if isinstance(deals, list):
        picked["deals"] = [deal.get("hands") if isinstance(deal, dict) else deal for deal in deals]
    elif "deals" in round_record:
        picked["deals"] = deals
    return picked


# --- checking a record ---------------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    """One step of the check: ``ok`` True (passed), False (failed) or None (a note: something
    this record cannot prove, said so that nobody reads more into the ✓s than they show)."""

    name: str
    ok: bool | None
    detail: str

    def line(self) -> str:
        mark = "✓" if self.ok else "·" if self.ok is None else "✗"
        return f"{mark} {self.name}: {self.detail}"

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "detail": self.detail}


class NotVerifiable(ValueError):
    """A record without fairness data: dealt before fair-v1, or not a record at all."""


class Malformed(NotVerifiable):
    """A record whose fairness data or shape is not what the protocol writes: nothing is checked."""


def _is_int(value: object) -> TypeGuard[int]:
    return type(value) is int  # not bool, not float


def _is_hex64(value: object) -> bool:
    return isinstance(value, str) and bool(_HEX64.fullmatch(value))


def check_record(
    record: object, *, engines: Mapping[str, Engine[Any, Any, Any]], noted_commitment: str | None = None
) -> list[Check]:
    """Every check of one record, in order.

    Raises ``NotVerifiable`` when there is nothing to check (no fairness data, an unknown
    version) and ``Malformed`` when the record is not in the form the protocol writes (a
    verifier's exit status 2). The deal checks replay the published actions through the
    engine from the seed the inputs give (not the seed the record claims), and compare in
    canonical JSON, so a record whose hands, seed, inputs or types were altered fails the
    check that names it. ``noted_commitment``: the commitment the player wrote down before
    the start, the only proof that the secret was fixed before their value.
    """
    if not isinstance(record, dict) or not isinstance(record.get("fairness"), dict):
        raise NotVerifiable("This record has no fairness data (it was dealt before fair deals): not verifiable.")
    fair = record["fairness"]
    version = fair.get("version")
    if version not in VERSIONS:
        raise NotVerifiable(f"Unknown fairness version {version!r}; this verifier knows {', '.join(VERSIONS)}.")
    inputs = _inputs(fair, record, version)
    secret, commitment = fair["secret"], fair["commitment"]
    checks = [inputs]
    actual = commitment_of(secret)
    checks.append(
        Check(
            "commitment",
            actual == commitment,
            f"SHA-256(secret) = {actual[:16]}…; the record's commitment is {commitment[:16]}…",
        )
    )
    checks.append(_timing(commitment, noted_commitment))
    if version == VERSION:
        seats = [SeatInput(e["seat"], e["by"], e["account"], e["value"]) for e in fair["values"]]
        digest, seed = derive_seed_v2(secret, commitment, fair["table"], fair["attempt"], seats)
        players = sum(1 for entry in seats if entry.by == BY_PLAYER)
        said = (
            f"HMAC-SHA256(secret, fair-v2 message: commitment, table {fair['table']}, attempt {fair['attempt']}, "
            f"{len(seats)} seats by number, kind and account, {players} player value(s))"
        )
    else:
        digest, seed = derive_seed_v1(secret, commitment, [e["value"] for e in fair["values"]], fair["table"])
        said = f"HMAC-SHA256(secret, fair-v1 message: commitment ‖ values ‖ table {fair['table']})"
    same = seed == record["seed"] and seed == fair["seed"] and digest == fair["hmac"]
    checks.append(Check("seed", same, f"{said} gives seed {seed}; the record says {record['seed']}"))
    checks.extend(_check_deals(record, fair, seed, engines))
    return checks


def _timing(commitment: str, noted: str | None) -> Check:
    if noted is None:
        return Check(
            "timing",
            None,
            "not proved by the record: that this commitment was public before the start. Only a "
            "commitment you noted before pressing ready proves it (python -m games.records.verify --commitment "
            "<the one you noted> record.json)",
        )
    noted = noted.strip().lower()
    return Check(
        "timing",
        noted == commitment,
        f"the commitment you noted before the start, {noted[:16]}…, "
        + (
            "is this record's: the secret was fixed before your value"
            if noted == commitment
            else "is not this record's"
        ),
    )


def _inputs(fair: dict[str, Any], record: dict[str, Any], version: str) -> Check:
    """The record's shape and fairness data: everything the other checks read, so that they
    cannot crash. Anything amiss raises ``Malformed``, naming every problem found."""
    problems = []
    extra = sorted(str(key) for key in fair if key not in FAIRNESS_KEYS)
    if extra:
        problems.append(f"the fairness data has keys the protocol does not write: {', '.join(extra)}")
    missing = sorted(FAIRNESS_KEYS - OPTIONAL_KEYS[version] - set(fair))
    if missing:
        problems.append(f"the fairness data lacks {', '.join(missing)}")
    if not _is_hex64(fair.get("secret")):
        problems.append("the secret is not 64 hex digits")
    if not _is_hex64(fair.get("commitment")):
        problems.append("the commitment is not 64 hex digits")
    if not _is_hex64(fair.get("hmac")):
        problems.append("the hmac is not 64 hex digits")
    if not (_is_int(fair.get("table")) and 0 <= fair["table"] < TABLE_LIMIT):
        problems.append("the table id is not a whole number from 0 to 2^64 - 1")
    if "attempt" in fair and not (_is_int(fair["attempt"]) and 0 < fair["attempt"] < ATTEMPT_LIMIT):
        problems.append("the attempt is not a whole number from 1 to 2^32 - 1")
    if not (_is_int(fair.get("seed")) and _is_int(record.get("seed"))):
        problems.append("the seed is not a whole number")
    if not isinstance(record.get("game"), str):
        problems.append("the game is not named")
    if not isinstance(record.get("options"), dict):
        problems.append("the options are missing")
    for key in ("rounds", "totals", "placements"):
        if not isinstance(record.get(key), list):
            problems.append(f"the record's {key} are missing")
    values = fair.get("values")
    seats = record.get("players")
    # The site deals every game for a number of seats (never for names), and so does the replay.
    if not _is_int(seats) or not 0 < seats < SEAT_LIMIT:
        problems.append("the record's players is not a number of seats")
    elif not isinstance(values, list) or len(values) != seats:
        problems.append(f"there must be one value entry per seat ({seats})")
    else:
        kinds = (BY_PLAYER, BY_BOT) if version == VERSION else (BY_PLAYER, BY_BOT, BY_SITE)
        for seat, entry in enumerate(values):
            problems.extend(_seat_problems(seat, entry, kinds, version))
    actions = fair.get("actions")
    if not isinstance(actions, list):
        problems.append("the actions are missing")
    else:
        for number, entry in enumerate(actions, start=1):
            if not (isinstance(entry, list) and len(entry) == 2 and _is_int(entry[0]) and isinstance(entry[1], dict)):
                problems.append(f"action {number} is not [seat, action]")
                break
    if problems or not isinstance(values, list):
        raise Malformed(f"The record cannot be checked ({version}): " + "; ".join(problems) + ".")
    players = sum(1 for entry in values if entry["by"] != BY_BOT)
    if version == VERSION:
        detail = f"{version}, table {fair['table']}, attempt {fair['attempt']}, {seats} seats: " + ", ".join(
            f"seat {e['seat'] + 1} {e['by']} (account {e['account']})" for e in values
        )
    else:
        detail = f"{version}, table {fair['table']}, {players} player value(s) of {seats} seats"
    return Check("inputs", True, detail)


def _seat_problems(seat: int, entry: object, kinds: tuple[str, ...], version: str) -> list[str]:
    if not isinstance(entry, dict) or not _is_int(entry.get("seat")) or entry["seat"] != seat:
        return [f"the values are not in seat order at seat {seat + 1}"]
    problems = []
    extra = sorted(str(key) for key in entry if key not in SEAT_KEYS[version])
    if extra:
        problems.append(f"seat {seat + 1}'s entry has keys the protocol does not write: {', '.join(extra)}")
    by = entry.get("by")
    if by not in kinds:
        problems.append(f"seat {seat + 1}'s kind {by!r} is not one of {', '.join(kinds)}")
    elif by == BY_BOT:
        if entry.get("value") is not None:
            problems.append(f"seat {seat + 1} is a bot but has a value")
    elif not (isinstance(entry.get("value"), str) and _VALUE.fullmatch(entry["value"])):
        problems.append(f"seat {seat + 1}'s value is not 32 hex digits")
    if version == VERSION and not (_is_int(entry.get("account")) and 0 <= entry["account"] < ACCOUNT_LIMIT):
        problems.append(f"seat {seat + 1}'s account id is not a whole number from 0 to 2^64 - 1")
    return problems


def _same(first: object, second: object) -> bool:
    try:
        return canonical(first) == canonical(second)
    except (ValueError, TypeError, RecursionError):
        return False  # NaN or something JSON cannot hold: not the replay's


def _check_deals(
    record: dict[str, Any], fair: dict[str, Any], seed: int, engines: Mapping[str, Engine[Any, Any, Any]]
) -> list[Check]:
    """Replay the actions from the derived seed; each round's dealt cards must be the record's.

    Every action must be, exactly as written (canonical JSON), one the engine offered that seat
    at that point. If one is not, the rounds reached so far are still compared, so the report
    names the round whose deal differs.
    """
    try:
        engine = engines[record["game"]]  # the games the site offers (games.catalog.ENGINES)
        state = engine.new_game(record["players"], record["options"], seed)
    except Exception as error:  # noqa: BLE001 - anything the engine refuses is the record's fault
        return [Check("game", False, f"the engine cannot start this game: {error}")]
    refused = None
    actions = fair["actions"]
    for number, (seat, action) in enumerate(actions, start=1):
        try:
            offered = {canonical(legal) for legal in engine.legal_actions(state, seat)}
            if canonical(action) not in offered:
                raise ValueError(f"seat {seat + 1} could not play {canonical(action)} there")
            state = engine.apply(state, seat, action)
        except Exception as error:  # noqa: BLE001 - a tampered action may break the engine any way
            refused = Check(
                "actions", False, f"action {number} of {len(actions)} is not legal in the game the seed deals: {error}"
            )
            break
    replayed = json.loads(json.dumps(engine.record(state)))
    given_rounds = record["rounds"]
    checks = []
    for index in range(max(len(given_rounds), len(replayed["rounds"]))):
        label = f"round {index + 1}"
        if index >= len(replayed["rounds"]):
            checks.append(Check(label, False, "the actions never reach this round of the record"))
        elif index >= len(given_rounds):
            checks.append(Check(label, False, "the actions reach a round the record does not have"))
        else:
            same = _same(dealt(given_rounds[index]), dealt(replayed["rounds"][index]))
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
    same = _same(rest, replayed)
    checks.append(
        Check(
            "play",
            same,
            "the bids, plays and totals follow from the actions (compared exactly, types included)"
            if same
            else "the record's play or totals differ from the replayed actions",
        )
    )
    return checks


def site_alone(fair: dict[str, Any]) -> bool:
    """Whether no player sent a value: every seat the house's or a bot's (a scheduled table whose
    every human was absent at the start, tables/services/scheduled.py), or, in fair-v1, values
    the site drew. The seed then comes from the site's secret alone."""
    return not any(entry["by"] == BY_PLAYER for entry in fair["values"])


def passed_line(fair: dict[str, Any]) -> str:
    """The verifier's line when every check passes."""
    if site_alone(fair):
        return (
            "All checks passed, but no player sent a value: the deal comes from the site's secret alone, "
            "so these checks show only that the record was not altered after the game."
        )
    return "All checks passed."


def proved(checks: list[Check], version: str, fair: dict[str, Any] | None = None) -> list[str]:
    """What a passing check proves, and what it cannot, in the words the verifier prints."""
    noted = any(check.name == "timing" and check.ok for check in checks)
    if fair is not None and site_alone(fair):
        return [
            "Proved: every round's hands follow from the secret and the actions, and the rest of the record "
            "from the actions: the record is the game that was dealt and played.",
            "Not proved: that the site did not choose the cards. No player sent a value, so nothing but the "
            "site's secret went into the seed, and the site could have picked that secret for the deal it "
            "wanted; a commitment, noted or not, fixes only the secret, not its choice.",
            "Not proved: that the cards stayed secret during play, or which code the bots ran.",
        ]
    said = [
        "Proved: the seed follows from the secret, its commitment and the inputs above"
        + (", each seat by number, kind and account, with the table and attempt" if version == VERSION else "")
        + "; every round's hands follow from the seed and the actions; the rest of the record follows "
        "from the actions.",
    ]
    if noted:
        said.append("Proved: the secret was fixed before the start (it matches the commitment you noted).")
    else:
        said.append(
            "Not proved: that the commitment was shown before the start; only a commitment you noted "
            "before pressing ready proves it."
        )
    said.append(
        "Not proved: that a player value is that player's own (compare yours with the one you sent), "
        "that the cards stayed secret during play, or which code the bots ran."
    )
    if version == V1:
        said.append("Not proved by fair-v1: which seat a value belongs to, who sat there, or the attempt.")
    return said
