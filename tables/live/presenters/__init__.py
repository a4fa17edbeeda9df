"""Per-game helpers that shape an engine view for its template (no state, no database).

``present(game, view, names, viewer_seat)`` returns extra context for
``templates/tables/games/<game>.html`` under the name ``g``.
"""

from __future__ import annotations

import importlib
from functools import cache


def present(game: str, view: dict, names: list[str], viewer_seat: int | None) -> dict:
    module = _presenter(game)
    return module.present(view, names, viewer_seat) if module else {}


@cache
def _presenter(game: str):
    # Once per game and process: this runs for every seat on every move (issue 9).
    try:
        return importlib.import_module(f"tables.live.presenters.{game}")
    except ModuleNotFoundError:
        return None
