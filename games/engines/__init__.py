"""The rules engines: pure Python, no Django, one module per game.

Every engine module offers the same interface (docs/design.md, "The engine contract"):
``name``, ``min_players``, ``max_players``, ``validate_options``, ``new_game``,
``to_act``, ``legal_actions``, ``apply``, ``view``, ``is_over``, ``record``,
``dumps`` and ``loads``. Tables, bots, history and tests reach an engine only
through :func:`get_engine`, so the games are treated alike. A game's engine is the module
named after the game (``games.engines.<name>``, its ``name`` the same): a new game's engine is
found without a list to add it to (``games.catalog`` lists the games the site offers).
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType


class IllegalAction(ValueError):
    """An action the rules refuse; the message is meant for the player."""


def get_engine(name: str) -> ModuleType:
    """Return the engine module for ``name`` ("sitaratas", "estimation", "sita", …); ValueError
    when there is no such engine."""
    engine = _module(name) if isinstance(name, str) and name.isidentifier() else None
    if engine is None:
        raise ValueError(f"Unknown game: {name!r}.")
    return engine


@cache
def _module(name: str) -> ModuleType | None:
    # Asked for on every move and every seat's view: import_module's own lookup cost 4 µs a call.
    try:
        module = importlib.import_module(f"games.engines.{name}")
    except ModuleNotFoundError as error:
        if error.name != f"games.engines.{name}":
            raise  # the engine exists but something it imports does not: say so
        return None
    # The shared modules (cards, codec, players) are not engines.
    return module if getattr(module, "name", None) == name else None
