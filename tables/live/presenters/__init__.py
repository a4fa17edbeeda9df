"""Per-game helpers that shape an engine view for its template (no state, no database).

``present(game, view, names, viewer_seat)`` returns extra context for the game's live
template under the name ``g``; the catalogue (``games.catalog``) names each game's presenter.
"""

from __future__ import annotations

import importlib
from functools import cache

from games import catalog


def present(game: str, view: dict, names: list[str], viewer_seat: int | None) -> dict:
    module = _presenter(game)
    return module.present(view, names, viewer_seat) if module else {}


@cache
def _presenter(game: str):
    # Once per game and process: this runs for every seat on every move (issue 9).
    path = catalog.get(game).presenter
    return importlib.import_module(path) if path else None
