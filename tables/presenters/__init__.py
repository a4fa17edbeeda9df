"""Per-game helpers that shape an engine view for its template (no state, no database).

``present(game, view, names, viewer_seat)`` returns extra context for
``templates/tables/games/<game>.html`` under the name ``g``.
"""

from __future__ import annotations

import importlib


def present(game: str, view: dict, names: list[str], viewer_seat: int | None) -> dict:
    try:
        module = importlib.import_module(f"tables.presenters.{game}")
    except ModuleNotFoundError:
        return {}
    return module.present(view, names, viewer_seat)
