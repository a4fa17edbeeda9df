"""Record helpers: pure Python, no Django, beside the engines and bots.

What the site does with a game's record (docs/design.md, "The record") and with the score
sheet an engine's view carries: the one score-sheet builder that live play and history share
(``sheet``), replay steps (``replay``), placements to places (``places``), and each game's own
part of these in ``games.records.<game>`` (its sheet rows, replay steps and profile figures).
Words for people are left to the Django edge: a helper here returns values, or messages marked
with ``gettext_noop`` and their arguments, which the edge translates (``games.sheets``).
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType


@cache
def for_game(game: str) -> ModuleType:
    """``games.records.<game>``: that game's sheet rows, replay steps and profile figures."""
    if not game.isidentifier():
        raise ValueError(f"Unknown game: {game!r}.")
    return importlib.import_module(f"games.records.{game}")


def gettext_noop(message: str) -> str:
    """Marks ``message`` for the translators (makemessages looks for this name); the Django edge
    translates it when it writes the words."""
    return message


def rate(hits: int, tries: int) -> str:
    """A profile's success rate: ``"75% (3/4)"``, or a dash before any try."""
    return f"{100 * hits / tries:.0f}% ({hits}/{tries})" if tries else "—"
