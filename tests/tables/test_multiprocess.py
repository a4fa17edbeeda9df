"""Several Daphne processes on one PostgreSQL and Redis (issue 9): nothing lives in one process.

Two real Daphne processes run against the test database. The four players of one
Estimation table are split between them and play by pressing the buttons the server
pushes. Every player sees every move; when one process is killed mid-game, its players
reconnect to the other and carry on, and the game's events run 1, 2, 3, … with none lost
and none applied twice.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from config import processes, serve
from games.models import Match, MatchEvent
from tests.conftest import make_user
from tests.helpers import database_url, session_key_for
from tests.tables.helpers import start_table
from tests.tables.multiprocess_helpers import Game

# Transactional: another process (a Celery worker, Daphne) reads what the test writes.
pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def two_daphnes(transactional_db):
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "DJANGO_DEBUG": "true",
        "CHANNELS_PREFIX": f"mp{os.getpid()}",
    }
    ports = [processes.free_port(), processes.free_port()]
    logs = ROOT / "test-artifacts" / "logs"
    daphnes = [
        processes.start(serve.command("127.0.0.1", port), env=env, log=logs / f"multiprocess-daphne-{index}.log")
        for index, port in enumerate(ports)
    ]
    try:
        for port, daphne in zip(ports, daphnes):
            processes.wait_for_port(port, process=daphne, seconds=120)
        yield ports, daphnes
    finally:
        processes.stop(daphnes)


def started_table():
    users = [make_user(name) for name in ("anna", "bert", "carl", "dora")]
    table, match = start_table(users[0], "estimation", guests=users[1:], options={"length": "full"})
    return table, match, [session_key_for(user) for user in users]


def assert_events_complete(match: Match) -> None:
    """Every version from 1 to the match's own, once, by the seat whose user it is: none lost, none twice."""
    # One statement, one snapshot: players may still be moving while the test reads.
    events = list(
        MatchEvent.objects.filter(match=match)
        .order_by("version")
        .values_list("version", "seat", "user_id", "match__version")
    )
    assert [version for version, _, _, _ in events] == list(range(1, events[-1][3] + 1))
    match.refresh_from_db()
    seat_user = dict(match.match_players.values_list("seat", "user_id"))
    assert all(seat_user[seat] == user_id for _, seat, user_id, _ in events)


def test_players_on_two_daphne_processes_see_every_move(two_daphnes):
    ports, _ = two_daphnes
    table, match, sessions = started_table()
    game = Game(table.pk, sessions, ports, target=16)
    asyncio.run(game.play())

    assert {player.ports_used[0] for player in game.players} == set(ports)  # really split over both
    for player in game.players:
        assert set(range(0, 16)) <= player.seen, f"seat {player.seat} missed {set(range(16)) - player.seen}"
    assert_events_complete(match)
    assert match.version >= 16


def test_killing_a_daphne_mid_game_its_players_reconnect_to_the_other_and_carry_on(two_daphnes):
    ports, processes = two_daphnes
    table, match, sessions = started_table()
    game = Game(table.pk, sessions, ports, target=24)

    def kill_first_process(version: int) -> None:
        if version >= 8 and processes[0].poll() is None:
            processes[0].kill()  # no goodbye: its sockets just drop

    game.on_version = kill_first_process
    asyncio.run(game.play())

    assert processes[0].poll() is not None
    moved = [player for player in game.players if player.ports_used[0] == ports[0]]
    assert moved and all(player.ports_used[-1] == ports[1] for player in moved)
    assert_events_complete(match)
    assert match.version >= 24
    for player in game.players:
        assert max(player.seen) >= 23  # everyone carried on to the end
