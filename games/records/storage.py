"""How a match's state is stored: the finished rounds once, the rest on every move (issue 27).

An Estimation state carries every round played (``history``: hands, auctions, tricks), so it
grows from about 2 KB in the first round to 46 KB in the last, and every move used to write,
send and parse all of it. The engine's state and its ``dumps`` text stay as docs/design.md
fixes them; only the storage splits them:

- ``Match.rounds`` holds the finished rounds, a JSON array written once when a round ends
  (appended to, never rewritten);
- ``Match.state`` holds the engine's ``dumps`` of the state with each of those rounds replaced
  by ``null``: the current round, the totals and a placeholder per stored round. The
  placeholders say how many rounds to take from ``Match.rounds`` when the full state is
  rebuilt, so the two columns can never be joined with the wrong number of rounds.

``join`` rebuilds exactly the engine's state, and its ``dumps`` is exactly the text the engine
would have written (the field keeps its place): replays, records and ``verify_matches`` see what
they always saw. A stored text without placeholders (a match written before this, or by a test
helper that writes the engine's text itself) is the whole state, as before.

Games whose state does not grow over the game (Sitaratas, SITA) are stored as they were.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Protocol

from games.engines import codec
from games.engines.registry import engine_for as get_engine
from games.engines.registry import stored_rounds


class StoredMatch(Protocol):
    """What these helpers read of a stored match (``games.models.Match``): the library names no model."""

    game: str
    state: str
    rounds: str


def _rounds_key(game: str) -> str | None:
    return stored_rounds(game)


def splits(game: str) -> bool:
    return _rounds_key(game) is not None


def split(game: str, state: Any) -> tuple[str, list[Any]]:
    """(the text for ``Match.state``, every finished round of ``state``, oldest first).

    The rounds are the state's own objects, not copies: engines never change a state in place.
    """
    engine = get_engine(game)
    key = _rounds_key(game)
    if key is None:
        return engine.dumps(state), []
    rounds = list(getattr(state, key))
    return engine.dumps(dataclasses.replace(state, **{key: (None,) * len(rounds)})), rounds


def placeholders(game: str, stored: Any) -> int:
    """How many rounds the parsed ``Match.state`` text leaves to ``Match.rounds``."""
    key = _rounds_key(game)
    if key is None:
        return 0
    count = 0
    for entry in getattr(stored, key):
        if entry is not None:
            break
        count += 1
    return count


def join(game: str, stored: Any, rounds: list[Any]) -> Any:
    """The engine's state from the parsed ``Match.state`` text and the finished rounds it needs."""
    count = placeholders(game, stored)
    if not count:
        return stored
    if len(rounds) < count:
        raise ValueError(f"the stored state needs {count} finished rounds, {len(rounds)} are stored")
    key = _rounds_key(game) or ""  # placeholders are only ever counted for a game that has the key
    return dataclasses.replace(stored, **{key: tuple(rounds[:count]) + getattr(stored, key)[count:]})


def placeholders_in_text(game: str, text: str) -> int:
    """``placeholders`` of a stored text, without parsing it: the rounds ``Match.rounds`` holds."""
    key = _rounds_key(game)
    if key is None:
        return 0
    at = text.find(f'"{key}":[')
    if at < 0:
        return 0
    at += len(key) + 4
    count = 0
    while text.startswith("null", at):
        count += 1
        at += 5  # "null," or "null]"
    return count


def rounds_write(stored: int, rounds: list[Any]) -> tuple[str | None, str | None]:
    """How a move updates ``Match.rounds``, which holds the first ``stored`` of ``rounds``:
    (None, None) leaves it, (text, None) writes it whole, (None, text) appends to it, the
    text being the new rounds' array without its opening bracket."""
    if len(rounds) <= stored:
        return None, None
    if not stored:
        return codec.dumps(list(rounds)), None
    return None, codec.dumps(list(rounds[stored:]))[1:]


def parse_rounds(text: str | None) -> list[Any]:
    return codec.loads(text) if text else []


def full_state(match: StoredMatch) -> Any:
    """A Match instance's engine state (reads ``match.rounds`` only when its state needs it)."""
    engine = get_engine(match.game)
    stored = engine.loads(match.state)
    if not placeholders(match.game, stored):
        return stored
    return join(match.game, stored, parse_rounds(match.rounds))


def full_text(match: StoredMatch) -> str:
    """The engine's ``dumps`` of a Match instance's state: what ``Match.state`` held before the split."""
    if not splits(match.game):
        return match.state
    text: str = get_engine(match.game).dumps(full_state(match))
    return text
