"""Per-game helpers that shape an engine view for its template (no state, no database).

``present(game, view, names, viewer_seat)`` returns extra context for the game's live
template under the name ``g``. The presenters live above games (games never import tables), so
their one registry is here, keyed by the catalogue's games; a test checks every game has one.
"""

from __future__ import annotations

from typing import Any, Protocol

from games import catalog
from tables.render.presenters import estimation, sita, sitaratas


class Presenter(Protocol):
    def present(self, view: dict[str, Any], names: list[str], viewer_seat: int | None) -> dict[str, Any]: ...


PRESENTERS: dict[str, Presenter] = {
    catalog.SITARATAS.name: sitaratas,
    catalog.ESTIMATION.name: estimation,
    catalog.SITA.name: sita,
}


def present(game: str, view: dict[str, Any], names: list[str], viewer_seat: int | None) -> dict[str, Any]:
    return PRESENTERS[game].present(view, names, viewer_seat)
