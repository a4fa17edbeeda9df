"""What every engine's ``validate_options`` and ``new_game`` check first: how many players
they are given and which options (each engine then checks the count and the values)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def player_count(players: object) -> int:
    """How many players ``players`` names: a number of players, or a list of player names.

    ValueError for anything else (a bool is not a number of players here).
    """
    if isinstance(players, (list, tuple)):
        return len(players)
    if isinstance(players, int) and not isinstance(players, bool):
        return players
    raise ValueError("Players must be a number of players or a list of player names.")


def given_options(options: object, names: Iterable[str], game: str) -> dict[str, Any]:
    """``options`` as given (None: none), refusing anything but a mapping of the game's option names."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError("Options must be a mapping of option names to values.")
    unknown = sorted(set(options) - set(names), key=str)
    if unknown:
        raise ValueError(f"Unknown option(s) for {game}: {', '.join(map(str, unknown))}.")
    return options
