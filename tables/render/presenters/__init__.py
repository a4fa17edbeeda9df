"""Per-game helpers that shape an engine view for its template (no state, no database).

``present(game, view, names, viewer_seat)`` returns extra context for the game's live
template under the name ``g``. A game's presenter is this package's module named after the
game (``tables.render.presenters.<game>``), one per game of the catalogue: the presenters live
above games (games never import tables), so a new game's presenter is its module here and
nothing more. Each is imported as this package is, so a game without one stops the start.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol, cast

from games import catalog


class Presenter(Protocol):
    def present(self, view: dict[str, Any], names: list[str], viewer_seat: int | None) -> dict[str, Any]: ...


PRESENTERS: dict[str, Presenter] = {
    game.name: cast("Presenter", importlib.import_module(f"{__name__}.{game.name}")) for game in catalog.GAMES
}


def present(game: str, view: dict[str, Any], names: list[str], viewer_seat: int | None) -> dict[str, Any]:
    return PRESENTERS[game].present(view, names, viewer_seat)
