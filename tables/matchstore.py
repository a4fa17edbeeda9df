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

The stored text leaves a game's finished rounds to ``Match.rounds`` (games/storage.py, issue
27). They are kept here too, parsed, per match: they change once a round, so a process reads
and parses them once a round at most, and the move that finished a round hands its own on.
A state is joined with them only when the rounds kept are the ones its text asks for: the
match's seed (random per match) tells a reused id apart, and rounds never change once
finished, so a longer list serves a state that needs fewer.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from games import storage
from games.engines import get_engine

# match id -> (game, version, text, parsed state), least recently stored first
_LATEST: OrderedDict[int, tuple[str, int, str, object]] = OrderedDict()
_LIMIT = 512  # matches
_LOCK = threading.Lock()  # moves run on pool threads, views on the event loop
# match id -> (the state's seed, its finished rounds, parsed), least recently stored first
_ROUNDS: OrderedDict[int, tuple[object, list]] = OrderedDict()


def loaded(game: str, match_id: int, version: int, text: str, *, rounds_text: str | None = None,
           fetch: bool = True):
    """The engine state of the stored ``text``, parsed at most once per process while it is the latest.

    Its finished rounds come from this process's copy, else from ``rounds_text`` (the match's
    ``rounds`` column, when the caller read it), else from the database; with ``fetch`` off
    (on an event loop) a state whose rounds are not at hand gives None.
    """
    with _LOCK:
        entry = _LATEST.get(match_id)
    if entry is not None and entry[0] == game and entry[1] == version and entry[2] == text:
        return entry[3]
    stored = get_engine(game).loads(text)
    count = storage.placeholders(game, stored)
    if count:
        rounds = _rounds(match_id, stored, count)
        if rounds is None:
            if rounds_text is None and not fetch:
                return None
            if rounds_text is None:
                from games.models import Match

                rounds_text = Match.objects.filter(pk=match_id).values_list("rounds", flat=True).first() or ""
            rounds = storage.parse_rounds(rounds_text)
            remember_rounds(match_id, stored.seed, rounds)
        state = storage.join(game, stored, rounds)
    else:
        state = stored
    remember(game, match_id, version, text, state)
    return state


def _rounds(match_id: int, stored: object, count: int) -> list | None:
    with _LOCK:
        entry = _ROUNDS.get(match_id)
    if entry is not None and entry[0] == stored.seed and len(entry[1]) >= count:
        return entry[1]
    return None


def remember_rounds(match_id: int, seed: object, rounds: list) -> None:
    """Keep a match's finished rounds (read, or just finished by a move that committed)."""
    with _LOCK:
        _ROUNDS[match_id] = (seed, rounds)
        _ROUNDS.move_to_end(match_id)
        while len(_ROUNDS) > _LIMIT:
            _ROUNDS.popitem(last=False)


def remember(game: str, match_id: int, version: int, text: str, state) -> None:
    """Keep a state this process made (a move) or read, in place of the match's previous one."""
    with _LOCK:
        _LATEST[match_id] = (game, version, text, state)
        _LATEST.move_to_end(match_id)
        while len(_LATEST) > _LIMIT:
            _LATEST.popitem(last=False)
