"""The site survives its parts failing mid-game (issue 28).

Each test runs a whole site of its own (tests/faults/stack.py: PostgreSQL, Redis, Daphne, a
Celery worker with beat), seats two players who play over WebSockets by pressing the buttons
the server pushes (the clients of tests/tables/test_multiprocess.py, reconnecting as the page
does: a random wait up to a doubling ceiling) and two bots, breaks one part mid-game, and
plays on. Afterwards ``manage.py verify_matches`` replays the game's event log against its
stored state and checks the pass ledger: no move lost, none applied twice, nothing
half-written. Each prints what it did and what it checked.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import threading
import time

import pytest

from tests.faults.stack import Stack, migrated_template, say, scratch
from tests.tables.test_multiprocess import Game, Player

pytestmark = pytest.mark.slow

RETRY_FLASH = "could not take that just now"


@pytest.fixture(scope="session")
def template():
    directory = scratch("template")
    yield migrated_template(directory)
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def stack(template, request):
    site = Stack(scratch("site"), template, request.node.name.removeprefix("test_")[:40])
    yield site
    site.close()


class ReconnectingPlayer(Player):
    """A player whose page reconnects as static/js/table.js makes it, and presses again when told to."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.port_index %= len(self.game.ports)
        self.failures = 0
        self.sent = None
        self.views: list[tuple[float, int]] = []  # (when, version) of every view pushed to it
        self.retried = 0

    def reconnect_delay(self) -> float:
        self.failures += 1
        return random.uniform(0, min(4.0, 0.5 * 2 ** (self.failures - 1)))  # full jitter

    async def received(self, message: str) -> None:
        self.failures = 0
        if RETRY_FLASH in message and self.sent is not None:
            # RULING P36: the move was refused with a message; press the same button again shortly.
            self.retried += 1
            await asyncio.sleep(random.uniform(0.2, 0.6))
            await self.ws.send(self.sent)
            return
        await super().received(message)
        if self.seen:
            self.views.append((time.monotonic(), max(self.seen)))


def scene(stack: Stack, game: str = "estimation") -> dict:
    found = stack.scenario("start", game, "2", "2")
    say(f"started table {found['table']}: {game}, two players on WebSockets and two bots on the Celery worker")
    return found


def play(stack: Stack, found: dict, *, fault_at: int, fault, moves_after: int, timeout: float = 75) -> Game:
    """Play until ``fault_at``, run ``fault`` on a thread (the players play on meanwhile), then play on."""
    game = Game(found["table"], found["sessions"], stack.ports, target=10**9, player_class=ReconnectingPlayer)
    game.fault_done = threading.Event()
    game.fault_version = None

    def on_version(version: int) -> None:
        if version >= fault_at and game.fault_version is None:
            game.fault_version = version
            threading.Thread(target=lambda: (fault(), game.fault_done.set()), daemon=True).start()
        if game.fault_done.is_set() and game.target == 10**9:
            game.target = current_version(stack, found) + moves_after

    game.on_version = on_version
    asyncio.run(game.play(timeout=timeout))
    assert game.fault_done.is_set()
    return game


def current_version(stack: Stack, found: dict) -> int:
    return stack.sql("SELECT version FROM games_match WHERE id = %s", found["match"])[0][0]


def check_log_and_ledgers(stack: Stack, found: dict) -> None:
    """Versions 1..N once each, by the seat's own user, and verify_matches finds no difference."""
    events = stack.sql(
        "SELECT e.version, e.seat = p.seat FROM games_matchevent e JOIN games_matchplayer p "
        "ON p.match_id = e.match_id AND p.user_id = e.user_id WHERE e.match_id = %s ORDER BY e.version",
        found["match"])
    version = current_version(stack, found)
    assert [row[0] for row in events] == list(range(1, version + 1)) and all(row[1] for row in events)
    done = stack.manage("verify_matches", check=False)
    assert done.returncode == 0, done.stderr
    say(f"checked: events 1..{version} each once, by the right seat; {done.stdout.strip()}")


def bot_moves_after(stack: Stack, found: dict, version: int) -> int:
    return stack.sql("SELECT count(*) FROM games_matchevent e JOIN accounts_user u ON u.id = e.user_id "
                     "WHERE e.match_id = %s AND e.version > %s AND u.is_bot", found["match"], version)[0][0]


def test_redis_restarted_mid_game(stack) -> None:
    stack.start_daphne()
    stack.start_worker()
    found = scene(stack)
    back = {}

    def restart_redis() -> None:
        stack.stop_redis()
        say("killed Redis (channel layer and broker) mid-game")
        time.sleep(2)
        stack.start_redis()
        back["at"], back["version"] = time.monotonic(), current_version(stack, found)
        say(f"started Redis again on the same port, empty; the game stood at version {back['version']}")

    game = play(stack, found, fault_at=8, fault=restart_redis, moves_after=16)

    for player in game.players:
        healed = next((when for when, version in player.views if when >= back["at"] and version >= back["version"]),
                      None)
        assert healed is not None and healed - back["at"] <= 10, f"seat {player.seat} was not whole again in 10 s"
        say(f"checked: seat {player.seat + 1}'s view was whole again {healed - back['at']:.1f} s after Redis was back")
    assert bot_moves_after(stack, found, back["version"]) > 0
    say(f"checked: the bots moved {bot_moves_after(stack, found, back['version'])} time(s) after the restart")
    check_log_and_ledgers(stack, found)
