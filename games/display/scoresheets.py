"""The score sheet at the Django edge: the one builder (``games.records.sheet``), its notes in
the viewer's language.

The builder shapes each game's rows in its own terms (docs/design.md, "The record"); a cell
may carry a ``note`` (Estimation's line explaining its score, RULING E10) as parts to
translate, which become the cell's ``line`` here. The history page and the live table both
read their sheets through this module.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from games import catalog
from games.display.figures import formula
from games.engines.contract import Record
from games.records import sheet


def note_text(parts: list[tuple[str, dict | None]]) -> str:
    """A note's parts in the active language: each message translated and filled, each plain text
    as it is; its figures written as every figure is (``figures.formula``, issue 53)."""
    return formula("".join(text if values is None else gettext(text) % values for text, values in parts))


def _worded(built: dict) -> dict:
    for row in built["rows"]:
        for cell in row["cells"]:
            if "note" in cell:
                cell["line"] = note_text(cell["note"])
    return built


def score_sheet(record: Record[Any]) -> dict:
    """A record's sheet (history): ``{"game", "rows", "totals", "running"}``."""
    return _worded(sheet.record_sheet(catalog.get(record["game"]).records, record))


def live_sheet(game: str, entries: list[dict], seats: int) -> dict:
    """The sheet of a game in play, from its engine view's ``score_sheet`` entries."""
    return _worded(sheet.score_sheet(catalog.get(game).records, game, entries, seats))
