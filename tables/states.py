"""Game states parsed once per version in a process, shared by its moves and its live views.

A move parses the state it locks, and every process with a socket at that table parses the
new state to render it: three parses of the same text per move, a noticeable part of a
move's cost (issue 9). Here a state is parsed once and kept for the next reader: the move
that made a version leaves it for the sockets of its own process, and they leave it for the
next move there. Engines never change a state in place (``apply`` returns a new one), so
sharing one is safe.

Only a match's latest state is kept: no reader wants an older one (a move locks the latest,
and a socket never goes back a version). So the cache is bounded by the matches a process
shows, not by their versions, and a lookup compares the text rather than hashing it.

An entry is used only for the very text asked about: a test database that reuses a match
id after a flush, or a move that rolled back, cannot hand out a state that was not read.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from games.engines import get_engine

# match id -> (game, version, text, parsed state), least recently stored first
_LATEST: OrderedDict[int, tuple[str, int, str, object]] = OrderedDict()
_LIMIT = 512  # matches
_LOCK = threading.Lock()  # moves run on pool threads, views on the event loop


def loaded(game: str, match_id: int, version: int, text: str):
    """The engine state of ``text``, parsed at most once per process while it is the latest."""
    with _LOCK:
        entry = _LATEST.get(match_id)
    if entry is not None and entry[0] == game and entry[1] == version and entry[2] == text:
        return entry[3]
    state = get_engine(game).loads(text)
    remember(game, match_id, version, text, state)
    return state


def remember(game: str, match_id: int, version: int, text: str, state) -> None:
    """Keep a state this process made (a move) or read, in place of the match's previous one."""
    with _LOCK:
        _LATEST[match_id] = (game, version, text, state)
        _LATEST.move_to_end(match_id)
        while len(_LATEST) > _LIMIT:
            _LATEST.popitem(last=False)
