"""The rules engines: pure Python, no Django, one module per game.

Every engine module offers the same interface (docs/design.md, "The engine contract"):
``name``, ``min_players``, ``max_players``, ``validate_options``, ``new_game``,
``to_act``, ``legal_actions``, ``apply``, ``view``, ``is_over``, ``record``,
``dumps`` and ``loads``. Tables, bots, history and tests reach an engine only
through :func:`get_engine`, so the three games are treated alike.
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType

ENGINE_MODULES = {
    "sitaratas": "games.engines.sitaratas",
    "estimation": "games.engines.estimation",
    "sita": "games.engines.sita",
}


class IllegalAction(ValueError):
    """An action the rules refuse; the message is meant for the player."""


def get_engine(name: str) -> ModuleType:
    """Return the engine module for ``name`` ("sitaratas", "estimation" or "sita")."""
    try:
        module_path = ENGINE_MODULES[name]
    except KeyError:
        raise ValueError(f"Unknown game: {name!r}.") from None
    return _module(module_path)


@cache
def _module(path: str) -> ModuleType:
    # Asked for on every move and every seat's view: import_module's own lookup cost 4 µs a call.
    return importlib.import_module(path)


def game_names() -> list[str]:
    return list(ENGINE_MODULES)
