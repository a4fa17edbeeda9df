"""Players over real WebSockets, pressing the buttons the server pushes: the clients of
tests/tables/test_multiprocess.py and of the fault tests (tests/faults/)."""

from __future__ import annotations

import asyncio
import json
import random
import re

import websockets

VERSION_RE = re.compile(r'data-version="(\d+)"')
MY_TURN_RE = re.compile(r'class="seat me to-act')
FORM_RE = re.compile(r"<form ws-send[^>]*>(.*?)</form>", re.S)
INPUT_RE = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')


class Game:
    """The players of one table, in one event loop; the test ends when a version is reached."""

    def __init__(self, table_id: int, sessions: list[str], ports: list[int], target: int, player_class=None) -> None:
        self.table_id, self.ports, self.target = table_id, ports, target
        self.done = asyncio.Event()
        self.on_version = None
        self.players = [
            (player_class or Player)(self, seat, session, start=seat % 2) for seat, session in enumerate(sessions)
        ]

    def saw(self, version: int) -> None:
        if self.on_version is not None:
            self.on_version(version)
        if version >= self.target:
            self.done.set()

    async def play(self, timeout: float = 90) -> None:
        tasks = [asyncio.ensure_future(player.run()) for player in self.players]
        try:
            await asyncio.wait_for(self.done.wait(), timeout)
        finally:
            for player in self.players:
                if player.ws is not None:
                    await player.ws.close()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


class Player:
    def __init__(self, game: Game, seat: int, session: str, start: int) -> None:
        self.game, self.seat, self.session, self.port_index = game, seat, session, start
        self.ws = None
        self.seen: set[int] = set()
        self.ports_used: list[int] = []
        self.acted: set[int] = set()
        self.rng = random.Random(seat)
        self.host = "127.0.0.1"  # where the site is reached
        self.local_address: str | None = None  # the client's own loopback address (127.0.0.x), if set

    async def run(self) -> None:
        while not self.game.done.is_set():
            port = self.game.ports[self.port_index]
            try:
                async with websockets.connect(
                    f"ws://{self.host}:{port}/ws/tables/{self.game.table_id}/",
                    origin=f"http://{self.host}:{port}",
                    open_timeout=5,
                    additional_headers={"Cookie": f"sessionid={self.session}"},
                    **({"local_addr": (self.local_address, 0)} if self.local_address else {}),
                ) as ws:
                    self.ws = ws
                    self.ports_used.append(port)
                    # A move sent to a process that died may be lost: on a new socket the player may
                    # press again; the version check refuses it if the first one did land.
                    self.acted.clear()
                    async for message in ws:
                        await self.received(message)
            except (TimeoutError, OSError, websockets.WebSocketException):
                pass
            # The process went away (or refused us): reconnect, to the other one.
            self.port_index = (self.port_index + 1) % len(self.game.ports)
            await asyncio.sleep(self.reconnect_delay())

    def reconnect_delay(self) -> float:
        return 0.1

    async def received(self, message: str) -> None:
        found = VERSION_RE.search(message)
        if found is None:
            return
        version = int(found.group(1))
        self.seen.add(version)
        self.game.saw(version)
        if version in self.acted or not MY_TURN_RE.search(message):
            return
        actions = [
            dict(INPUT_RE.findall(body))
            for body in FORM_RE.findall(message)
            if "disabled" not in body.split("<button", 1)[-1].split(">", 1)[0]
        ]
        actions = [fields for fields in actions if fields.get("command") == "act"]
        if actions:
            self.acted.add(version)
            self.sent = json.dumps({**self.rng.choice(actions), "version": version})
            await self.press(self.sent)

    async def press(self, message: str) -> None:
        await self.ws.send(message)
