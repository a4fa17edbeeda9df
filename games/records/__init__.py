"""Record helpers: pure Python, no Django, beside the engines and bots.

What the site does with a game's record (docs/design.md, "The record") and with the score
sheet an engine's view carries: the one score-sheet builder that live play and history share
(``sheet``), replay steps (``replay``), placements to places (``places``), and each game's own
part of these in ``games.records.<game>`` (its sheet rows, replay steps and profile figures),
which the catalogue (``games.catalog``) holds as each game's ``records`` (:class:`GameRecords`).
Words for people are left to the Django edge: a helper here returns values, or messages marked
with ``gettext_noop`` and their arguments, which the edge translates (``games.display``).
"""

from __future__ import annotations

from typing import Protocol

from games.engines.contract import JSON, Record, RoundT


class GameRecords(Protocol[RoundT]):
    """One game's record helpers: the module ``games.records.<game>``, reading the rounds of type
    ``RoundT`` that its engine records."""

    @property
    def POINTS(self) -> str: ...  # the key of a sheet entry's points ("penalties" in SITA)

    def sheet_entry(self, round_record: RoundT) -> JSON: ...

    def sheet_row(self, entry: JSON, seats: int) -> JSON: ...

    def replay_steps(self, record: Record[RoundT]) -> list[JSON]: ...

    def profile_figures(self, played: list[tuple[Record[RoundT], int]]) -> list[tuple[str, str]]: ...


def gettext_noop(message: str) -> str:
    """Marks ``message`` for the translators (makemessages looks for this name); the Django edge
    translates it when it writes the words."""
    return message


def rate(hits: int, tries: int) -> str:
    """A profile's success rate: ``"75% (3/4)"``, or a dash before any try."""
    return f"{100 * hits / tries:.0f}% ({hits}/{tries})" if tries else "—"
