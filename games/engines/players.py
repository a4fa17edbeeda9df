"""The player count every engine's ``validate_options`` and ``new_game`` take their players as."""

from __future__ import annotations


def player_count(players: object) -> int:
    """How many players ``players`` names: a number of players, or a list of player names.

    ValueError for anything else (a bool is not a number of players here); each engine checks
    the count against its own limits.
    """
    if isinstance(players, (list, tuple)):
        return len(players)
    if isinstance(players, int) and not isinstance(players, bool):
        return players
    raise ValueError("Players must be a number of players or a list of player names.")
