"""A match's row as a move holds it: the row lock, the move's write, and what a process keeps.

The lock and the write are the hot path of every move, written as two fixed statements
(issue 9); see ``lock_match``. What a process keeps of each match, in bounded caches
(tables/caching.py): its latest parsed state, its finished rounds and who sits where.

Game states are parsed once per version in a process, shared by its moves and its live views.

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

The stored text leaves a game's finished rounds to ``Match.rounds`` (games/records/storage.py, issue
27). They are kept here too, parsed, per match: they change once a round, so a process reads
and parses them once a round at most, and the move that finished a round hands its own on.
A state is joined with them only when the rounds kept are the ones its text asks for: the
match's seed (random per match) tells a reused id apart, and rounds never change once
finished, so a longer list serves a state that needs fewer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

import psycopg
from django.db import connection
from django.utils.translation import gettext_lazy as _

from games.catalog import get_engine
from games.models import Match, MatchEvent
from games.records import storage
from tables.caching import BoundedCache
from tables.errors import TableError
from tables.models import Table
from tables.moves import MoveEvent

# match id -> (game, version, text, parsed state): only each match's latest
STATES: BoundedCache[tuple[str, int, str, object]] = BoundedCache(512)
# match id -> (the state's seed, its finished rounds, parsed)
ROUNDS: BoundedCache[tuple[object, list]] = BoundedCache(512)
# (match id, seed) -> (seat, user id, is a bot) for every seat (issue 9). Who sits where is
# written once, with the match, in table_start, and never changes after; so a move reads it
# from here instead of querying it. The seed guards against ids that a test database reuses
# after a flush.
SEATINGS: BoundedCache[tuple[tuple[int, int, bool], ...]] = BoundedCache(2048)


def clear() -> None:
    """Forget everything this process kept: the next reads go to the database and parse anew."""
    for kept in (STATES, ROUNDS, SEATINGS):
        kept.clear()


# --- parsed states -------------------------------------------------------------------------


def loaded(game: str, match_id: int, version: int, text: str, *, rounds_text: str | None = None, fetch: bool = True):
    """The engine state of the stored ``text``, parsed at most once per process while it is the latest.

    Its finished rounds come from this process's copy, else from ``rounds_text`` (the match's
    ``rounds`` column, when the caller read it), else from the database; with ``fetch`` off
    (on an event loop) a state whose rounds are not at hand gives None.
    """
    entry = STATES.get(match_id)
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
                rounds_text = Match.objects.filter(pk=match_id).values_list("rounds", flat=True).first() or ""
            rounds = storage.parse_rounds(rounds_text)
            remember_rounds(match_id, stored.seed, rounds)
        state = storage.join(game, stored, rounds)
    else:
        state = stored
    remember(game, match_id, version, text, state)
    return state


def _rounds(match_id: int, stored: Any, count: int) -> list | None:
    entry = ROUNDS.get(match_id)
    if entry is not None and entry[0] == stored.seed and len(entry[1]) >= count:
        return entry[1]
    return None


def remember_rounds(match_id: int, seed: object, rounds: list) -> None:
    """Keep a match's finished rounds (read, or just finished by a move that committed)."""
    ROUNDS.put(match_id, (seed, rounds))


def remember(game: str, match_id: int, version: int, text: str, state) -> None:
    """Keep a state this process made (a move) or read, in place of the match's previous one."""
    STATES.put(match_id, (game, version, text, state))


def seating(match: Match) -> tuple[tuple[int, int, bool], ...]:
    """(seat, user id, is a bot) for every seat: queried once per match and process."""
    key = (match.pk, match.seed)
    players = SEATINGS.get(key)
    if players is None:
        players = tuple(match.match_players.order_by("seat").values_list("seat", "user_id", "user__is_bot"))
        # table_start also asks, before its MatchPlayer rows commit; if it rolls back, the id is
        # never used again (sequences do not roll back) and a reused one comes with another seed.
        SEATINGS.put(key, players)
    return players


# --- the row lock and the move's write -------------------------------------------------------

# The hot path of every move, written as two fixed statements (issue 9). The ORM built the same
# SELECT … FOR UPDATE, INSERTs and UPDATE anew on every move: about 1 ms of CPU per move, a
# seventh of what a move costs a Daphne process in all. The rows and the transaction are the
# same as the ORM's; the model still defines the columns. They bind their values on the server,
# unlike Django's cursors, so psycopg prepares each once per connection and PostgreSQL stops
# parsing and planning them on every move, and the state's text is not quoted into the SQL.
# The events (one per move; several when SITA's bots choose at once) go in as arrays, in the
# same statement as the state: one round trip fewer for the thread, and one statement fewer for
# PostgreSQL, on every move.
# Not the finished rounds: a move needs them only when its process has no copy (above).
MATCH_FIELDS = [field for field in Match._meta.concrete_fields if field.attname != "rounds"]
# What a settled match saves: every column the move and the settling wrote, but not the rounds
# (the move's statement wrote them, and the instance may hold an older copy, or none).
SETTLED_FIELDS = [field.attname for field in MATCH_FIELDS if not field.primary_key]
_MATCH_CONVERTED = [(index, field) for index, field in enumerate(MATCH_FIELDS) if hasattr(field, "from_db_value")]
_EVENT_ACTION = MatchEvent._meta.get_field("action")
_DEADLINES, _CLOCK_SEATS = Match._meta.get_field("deadlines"), Match._meta.get_field("clock_seats")


@dataclass(frozen=True)
class _Statements:
    lock_match: str
    save_move: str


@cache
def _statements() -> _Statements:
    """The two statements, built on first use: the database's quoting is asked for only once a
    connection is configured, not when the module is imported."""
    quote: Callable[[str], str] = connection.ops.quote_name
    match_table = quote(Match._meta.db_table)
    table_table = quote(Table._meta.db_table)
    insert_events = (
        f"INSERT INTO {quote(MatchEvent._meta.db_table)} "
        "(match_id, version, seat, user_id, action, created_at, by_clock) "
        "SELECT %s::bigint, * FROM unnest(%s::integer[], %s::smallint[], %s::bigint[], %s::jsonb[], "
        "%s::timestamptz[], %s::boolean[])"
    )
    return _Statements(
        lock_match=(
            f"SELECT {', '.join(quote(str(field.column)) for field in MATCH_FIELDS)}, "
            # The table's access version (RULING P66), read with the lock; the table is not locked.
            f"(SELECT access_version FROM {table_table} WHERE id = {match_table}.table_id) "
            f"FROM {match_table} WHERE id = %s FOR UPDATE"
        ),
        save_move=(
            f"WITH events AS ({insert_events}) "
            f"UPDATE {match_table} SET state = %s, version = %s, turn_version = %s, "
            "deadlines = %s, clock_due = %s, clock_seats = %s, "
            # Issue 27: the finished rounds are written (whole, or appended to) only when a round
            # ends; otherwise the column keeps its value, and PostgreSQL its stored copy, untouched.
            "rounds = COALESCE(%s::text, CASE WHEN %s::text IS NULL THEN rounds "
            "ELSE left(rounds, -1) || ',' || %s::text END) "
            "WHERE id = %s"
        ),
    )


@contextmanager
def _prepared_cursor():
    """A psycopg cursor with server-side binding, on Django's connection and in its transaction.

    Not in psycopg's pipeline mode: it saved two round trips per move, but its Python-side
    bookkeeping cost more CPU than they did (0.41 against 0.27 ms per move's statements, on an
    idle machine), and under load CPU is what runs out.
    """
    with connection.cursor():  # Django's connection set-up, as for any query
        pass
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        yield cursor


def lock_match(match_id: int) -> Match:
    """The Match row (without its finished rounds), locked until commit: one writer per game at
    a time (docs/style.md §6). Every write to a match in play takes it first."""
    with _prepared_cursor() as cursor:
        cursor.execute(_statements().lock_match, [match_id])  # with the transaction's BEGIN
        row = cursor.fetchone()
    if row is None:
        raise TableError(_("There is no such game."))
    *values, access_version = row
    for index, field in _MATCH_CONVERTED:  # the JSON columns, as the ORM would read them
        values[index] = field.from_db_value(values[index], None, connection)
    match = Match.from_db(connection.alias, [field.attname for field in MATCH_FIELDS], values)
    match.table_access_version = access_version
    return match


def write_move(match: Match, events: Sequence[MoveEvent], rounds_write: tuple[str | None, str | None]) -> None:
    """Append the move's MatchEvents and save the new state, versions and any finished round, in one
    statement. ``events``: tuples in the columns' order (tables/moves.py).
    ``rounds_write``: (the whole rounds column, or rounds to append to it), as
    ``games.records.storage.rounds_write`` gives them; (None, None) leaves it as it is."""
    versions, seats, users, actions, times, by_clock = (
        (list(column) for column in zip(*events)) if events else ([],) * 6
    )
    values = [
        match.pk,
        versions,
        seats,
        users,
        [_EVENT_ACTION.get_db_prep_value(a, connection) for a in actions],
        times,
        by_clock,
    ]
    whole, appended = rounds_write
    with _prepared_cursor() as cursor:
        # The clock's deadlines are written with the move that set them (RULING P10).
        cursor.execute(
            _statements().save_move,
            [
                *values,
                match.state,
                match.version,
                match.turn_version,
                _DEADLINES.get_db_prep_value(match.deadlines, connection),
                match.clock_due,
                _CLOCK_SEATS.get_db_prep_value(match.clock_seats, connection),
                whole,
                appended,
                appended,
                match.pk,
            ],
        )
