"""Game states parsed once per version in a process, shared by its moves and its live views.

A move parses the state it locks, and every process with a socket at that table parses the
new state to render it: three parses of the same text per move, a noticeable part of a
move's cost (issue 9). Here a state is parsed once and kept for the next reader: the move
that made a version leaves it for the sockets of its own process, and they leave it for the
next move there. Engines never change a state in place (``apply`` returns a new one), so
sharing one is safe.

The key holds the state's text itself: a test database that reuses a match id after a flush,
or a move that rolled back, cannot hand out a state that was not read.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from games.engines import get_engine

_PARSED: OrderedDict[tuple, object] = OrderedDict()
_LIMIT = 512
_LOCK = threading.Lock()  # moves run on pool threads, views on the event loop


def loaded(game: str, match_id: int, version: int, text: str):
    """The engine state of ``text``, parsed at most once per process while it is recent."""
    key = (game, match_id, version, text)
    with _LOCK:
        state = _PARSED.get(key)
    if state is None:
        state = get_engine(game).loads(text)
        remember(game, match_id, version, text, state)
    return state


def remember(game: str, match_id: int, version: int, text: str, state) -> None:
    """Keep a state this process made (a move), so its readers need not parse it."""
    with _LOCK:
        _PARSED[game, match_id, version, text] = state
        while len(_PARSED) > _LIMIT:
            _PARSED.popitem(last=False)
