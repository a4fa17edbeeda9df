"""A game played over WebSockets while the fault tests break the site under it, and the checks after.

Two players press the buttons the server pushes (tests/tables/multiprocess_helpers.py),
reconnecting as the page does; the event log and the ledgers are checked afterwards.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time

from tests.faults.stack import Stack, say
from tests.tables.multiprocess_helpers import Game, Player

RETRY_FLASH = "could not take that just now"


class ReconnectingPlayer(Player):
    """A player whose page reconnects as static/js/table.js makes it, and presses again when told to."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.port_index %= len(self.game.ports)
        self.failures = 0
        self.sent = None
        self.views: list[tuple[float, int]] = []  # (when, version) of every view pushed to it
        self.retried = 0

    async def press(self, message: str) -> None:
        before = getattr(self.game, "before_press", None)
        if before is not None:
            await before(self)
        await super().press(message)

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


def play(
    stack: Stack,
    found: dict,
    *,
    fault_at: int,
    fault,
    moves_after: int,
    timeout: float = 75,
    before_press=None,
    entry: tuple[str, int] | None = None,
) -> Game:
    """Play until ``fault_at``, run ``fault`` on a thread (the players play on meanwhile), then play on.

    With ``before_press`` the fault is left to it instead: a coroutine each player awaits before
    pressing a button, which sets ``game.fault_version`` and ``game.fault_done`` itself. With
    ``entry`` (host, port) the players connect there (a proxy) instead of to the stack's Daphnes."""
    ports = [entry[1]] if entry else stack.ports
    game = Game(found["table"], found["sessions"], ports, target=10**9, player_class=ReconnectingPlayer)
    for player in game.players:
        player.host = entry[0] if entry else player.host
    game.fault_done = threading.Event()
    game.fault_version = None
    game.before_press = before_press and (lambda player: before_press(game, player))

    def on_version(version: int) -> None:
        if version >= fault_at and game.fault_version is None and before_press is None:
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
    # The version first, then its events: bots may still be moving, and a move commits its event
    # and its version together, so every event up to the version read is there.
    version = current_version(stack, found)
    events = stack.sql(
        "SELECT e.version, e.seat = p.seat FROM games_matchevent e JOIN games_matchplayer p "
        "ON p.match_id = e.match_id AND p.user_id = e.user_id WHERE e.match_id = %s AND e.version <= %s "
        "ORDER BY e.version",
        found["match"],
        version,
    )
    assert [row[0] for row in events] == list(range(1, version + 1)) and all(row[1] for row in events)
    done = stack.manage("verify_matches", check=False)
    assert done.returncode == 0, done.stderr
    say(f"checked: events 1..{version} each once, by the right seat; {done.stdout.strip()}")
