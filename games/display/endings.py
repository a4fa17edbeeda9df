"""Why a game ended or a table closed, in the reader's language (issue 26).

The services store the reason in English (``Match.end_reason``, ``Table.closed_reason``): it is
the record, searched in the admin and quoted in the ledger's memos, and the rows written before
the site had languages hold the same sentences. Each is shown translated here, as one whole
sentence with its names and numbers put in its place; a text these patterns do not know (an
older wording) is shown as it was stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils.translation import gettext, ngettext

# Each stored sentence, as tables/services/ writes it, and how to say it.
_ENDINGS: list[tuple[re.Pattern[str], Callable[..., str]]] = [
    (re.compile(r"Finished\."), lambda: gettext("Finished.")),
    (re.compile(r"Dismissed by vote\."), lambda: gettext("Dismissed by vote.")),
    (
        re.compile(r"Aborted by (?P<name>.+?): (?P<reason>.*)", re.S),
        lambda name, reason: gettext("Aborted by %(name)s: %(reason)s") % {"name": name, "reason": reason},
    ),
    (
        re.compile(r"Abandoned: no move for (?P<hours>\d+) hours\."),
        lambda hours: (
            ngettext("Abandoned: no move for %(hours)s hour.", "Abandoned: no move for %(hours)s hours.", int(hours))
            % {"hours": hours}
        ),
    ),
    (re.compile(r"Closed by the host\."), lambda: gettext("Closed by the host.")),
    (
        re.compile(r"Closed by the host, (?P<name>.+)\.", re.S),
        lambda name: gettext("Closed by the host, %(name)s.") % {"name": name},
    ),
    (
        re.compile(r"Closed by (?P<name>.+?): (?P<reason>.*)", re.S),
        lambda name, reason: gettext("Closed by %(name)s: %(reason)s") % {"name": name, "reason": reason},
    ),
    (
        re.compile(r"Closed after (?P<hours>\d+) hours without activity\."),
        lambda hours: (
            ngettext(
                "Closed after %(hours)s hour without activity.",
                "Closed after %(hours)s hours without activity.",
                int(hours),
            )
            % {"hours": hours}
        ),
    ),
]


def ending_text(stored: str) -> str:
    """The stored reason ``stored`` in the active language; unknown wording as it is."""
    for pattern, say in _ENDINGS:
        found = pattern.fullmatch(stored or "")
        if found:
            return say(**found.groupdict())
    return stored or ""
