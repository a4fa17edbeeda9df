"""One way to write a figure (issue 53), for the pages and the live fragment alike.

Django's formats give each language its grouping and decimal mark (issue 26: 1 000 in Estonian,
1.000 in Arabic, Western digits). A signed figure (a negative total, a round's "+3") is set
apart from the text around it (U+2066 … U+2069, a left-to-right isolate) with a true minus
(U+2212): Arabic, read right to left, showed the hyphen of "-12" after the digits, "12-" (a
minus, true or not, leans on the text around it; only the isolate keeps it with its digits).
"""

from __future__ import annotations

import re

from django.utils.formats import number_format

MINUS = "\u2212"
ISOLATE, END_ISOLATE = "\u2066", "\u2069"


def _digits(value: int | float, decimals: int | None) -> str:
    if decimals is not None:
        return number_format(value, decimals, force_grouping=True)
    return number_format(value, force_grouping=True) if value >= 1000 else str(value)


def figure(value: int | float, *, decimals: int | None = None, plus: bool = False) -> str:
    """``value`` as the reader's language writes it, ``decimals`` places for a fraction; a negative
    one, or a positive one with ``plus``, carries its sign and reads the same in either direction."""
    if decimals is not None:
        value = round(value, decimals)
    if value < 0:
        return f"{ISOLATE}{MINUS}{_digits(-value, decimals)}{END_ISOLATE}"
    if plus and value > 0:
        return f"{ISOLATE}+{_digits(value, decimals)}{END_ISOLATE}"
    return _digits(value + 0, decimals)  # + 0: a rounded -0.0 is written 0.0


_LEADING = re.compile(r"^([+-]?\d+)(?=:)")
_NEGATIVE = re.compile(r"(?<![\w\u2066])-(\d+)")
_OPERATOR = re.compile(r"(?<=\s)-(?=\s)")


def formula(line: str) -> str:
    """A worked line such as Estimation's "-24: missed 4, took 8 (-4) - 10 With": its leading
    figure and each negative one as ``figure`` writes them (right to left, "(-4)" read "(4-)"),
    each minus between two terms a true one."""
    line = _LEADING.sub(lambda found: figure(int(found[1]), plus=True), line)
    line = _NEGATIVE.sub(lambda found: figure(-int(found[1])), line)
    return _OPERATOR.sub(MINUS, line)
