"""How a move's rows are stored: games/migrations/0004 (issue 9), games/records/storage.py (issue 27)."""

from __future__ import annotations

import io
import random

import pytest
from django.core.management import call_command
from django.db import connection

from games.catalog import get_bot, get_engine
from games.engines import codec
from games.models import Match
from games.records import storage
from tables import matchstore
from tests.games.history_helpers import play_to_end, started_match
from tests.games.replay import rebuild_state

pytestmark = pytest.mark.django_db


def _one(sql: str) -> object:
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchone()[0]


def test_the_match_state_is_compressed_with_lz4_where_the_server_has_it() -> None:
    has_lz4 = _one("SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'")
    method = _one(
        "SELECT attcompression FROM pg_attribute WHERE attrelid = 'games_match'::regclass AND attname = 'state'"
    )
    assert method == ("l" if has_lz4 else "")  # '' is the server's default, pglz


def test_match_events_are_found_by_match_through_the_unique_version_index_alone() -> None:
    indexes = _one("SELECT array_agg(indexdef ORDER BY indexname) FROM pg_indexes WHERE tablename = 'games_matchevent'")
    by_match = [index for index in indexes if "(match_id" in index]
    assert len(by_match) == 1 and "UNIQUE" in by_match[0] and "(match_id, version)" in by_match[0]


# --- issue 27: the finished rounds stored once, beside the state (games/records/storage.py) -----------------


def _estimation_states(rounds: int) -> list:
    """Every state of a micro Estimation game played by its bot, up to ``rounds`` finished rounds."""
    engine = get_engine("estimation")
    state = engine.new_game(4, {"length": "micro"}, 11)
    states_seen = [state]
    rng = random.Random(3)
    while not engine.is_over(state) and len(state.history) < rounds:
        seat = engine.to_act(state)[0]
        state = engine.apply(state, seat, get_bot("estimation")(engine.view(state, seat), rng))
        states_seen.append(state)
    return states_seen


def test_a_split_state_joins_back_to_the_engines_state_and_text() -> None:
    engine = get_engine("estimation")
    for state in _estimation_states(3)[::7]:
        text, rounds = storage.split("estimation", state)
        assert rounds == list(state.history) and len(text) < len(engine.dumps(state)) or not rounds
        parsed = engine.loads(text)
        assert (
            storage.placeholders("estimation", parsed)
            == storage.placeholders_in_text("estimation", text)
            == len(rounds)
        )
        joined = storage.join("estimation", parsed, codec.loads(codec.dumps(rounds)))
        assert joined == state and engine.dumps(joined) == engine.dumps(state)


def test_a_state_without_placeholders_is_the_whole_state_as_before() -> None:
    engine = get_engine("estimation")
    state = _estimation_states(2)[-1]
    assert storage.join("estimation", engine.loads(engine.dumps(state)), []) == state
    with pytest.raises(ValueError):
        storage.join("estimation", engine.loads(storage.split("estimation", state)[0]), list(state.history[:1]))


def test_games_that_do_not_grow_are_stored_as_the_engine_writes_them() -> None:
    engine = get_engine("sitaratas")
    state = engine.new_game(4, {"deck": "classic"}, 5)
    assert storage.split("sitaratas", state) == (engine.dumps(state), [])


def test_the_rounds_column_is_written_whole_once_then_appended_to() -> None:
    rounds = [{"number": 1}, {"number": 2}, {"number": 3}]
    assert storage.rounds_write(2, rounds[:2]) == (None, None)
    whole, _ = storage.rounds_write(0, rounds[:1])
    assert codec.loads(whole) == rounds[:1]
    _, appended = storage.rounds_write(1, rounds)
    assert codec.loads(whole[:-1] + "," + appended) == rounds  # as the move's statement appends it


def _rounds_column(match_id: int) -> str:
    return Match.objects.filter(pk=match_id).values_list("rounds", flat=True).get()


def test_a_game_played_through_the_services_stores_each_finished_round_once(host, player) -> None:
    engine = get_engine("estimation")
    match = started_match(host, "estimation", humans=(player,))
    columns = set()
    while match.status == Match.Status.PLAYING:
        match = play_to_end(match, stop_after=1)
        match.refresh_from_db()
        finished = storage.placeholders_in_text("estimation", match.state)
        assert len(storage.parse_rounds(match.rounds)) == finished
        columns.add(match.rounds)
        # What is stored is the engine's state of the logged moves, rounds joined in.
        assert storage.full_text(match) == engine.dumps(rebuild_state(match))
    assert len(columns) == 1 + 5  # written once per finished round of a micro game (and empty before)
    assert match.record["rounds"] == list(storage.full_state(match).history)
    call_command("verify_matches", stdout=io.StringIO())


def test_a_process_without_the_rounds_reads_them_and_a_socket_does_not(host, player) -> None:
    match = started_match(host, "estimation", humans=(player,))
    while storage.placeholders_in_text("estimation", match.state) < 2:
        match = play_to_end(match, stop_after=1)
        match.refresh_from_db()
    expected = storage.full_state(match)
    matchstore.clear()
    # On an event loop nothing is read: the socket reads the table instead (tables/live/consumer.py).
    assert matchstore.loaded("estimation", match.pk, match.version, match.state, fetch=False) is None
    assert matchstore.loaded("estimation", match.pk, match.version, match.state) == expected
    matchstore.STATES.clear()
    # The rounds now kept in this process serve the next state without a read.
    assert matchstore.loaded("estimation", match.pk, match.version, match.state, fetch=False) == expected
