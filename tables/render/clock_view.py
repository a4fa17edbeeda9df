"""The turn clock as the table page shows it: the words for a clock and each viewer's countdowns.

Drawn in a live render, with the render's catalogue (core/i18n.py). The deadlines come from
``tables.selectors.clock_public`` (the match's, pushed with each move); the arithmetic is
tables/clock.py.
"""

from __future__ import annotations

from datetime import datetime

from core.i18n import gettext as _
from games import catalog
from tables.clock import CHOICES, WARNING_SECONDS, ms


def label(seconds: int) -> str:
    return _("%(seconds)s s clock") % {"seconds": seconds} if seconds else _("no clock")


def live(
    data: dict | None,
    *,
    seconds: int,
    game: str,
    viewer_seat: int | None,
    to_act: list[int],
    lobby: bool,
    now: datetime,
) -> dict:
    """The table page's clock: each awaited seat's countdown from the stored deadline (the page
    counts down from it, corrected by ``server_now``), the away seats, and the notes."""
    data = data or {}
    now_ms = ms(now)
    deadlines = {int(seat): at for seat, at in data.get("deadlines", {}).items() if int(seat) in to_act}
    away = set(data.get("away", []))
    note = ""
    if lobby and seconds and not catalog.get(game).clock:
        # RULING P9: said before anyone sits, because it departs from the rule book (S11).
        note = _(
            "This table has a %(seconds)s-second turn clock: when a player's time runs out the house "
            "plays for them, although the rule book says a lost connection never skips a turn."
        ) % {"seconds": seconds}
    return {
        "seconds": seconds,
        "label": label(seconds),
        "choices": CHOICES,
        "deadlines": deadlines,
        "left": {seat: max(0, -(-(at - now_ms) // 1000)) for seat, at in deadlines.items()},
        "warning_ms": WARNING_SECONDS * 1000,
        "now": now_ms,
        "away": away,
        "paused": bool(data.get("paused")),
        "i_am_away": viewer_seat is not None and viewer_seat in away,
        "my_turn": viewer_seat is not None and viewer_seat in to_act,
        "note": note,
    }
