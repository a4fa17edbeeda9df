"""Bare echo sockets: the physical limit of one Daphne process, with nothing of ours in it.

The load benchmark (tests/benchmarks/load.py) measures them beside a move, on the
same Daphne, so our own cost shows as a ratio. They read nothing and need no login, so only the
benchmark's own site routes them (tests/benchmarks/echo_site.py, STYLE §22): a live site offers no
open relay that answers each small message with fragment-sized ones.

- ``ws/echo/`` sends back what it receives: one message in, one out.
- ``ws/echo/<room>/`` sends what it receives to every socket of its room through the
  channel layer, as a move reaches every seat of a table: one message in, one group
  send, one message out per socket. The reply is padded to the size of a table's
  fragment, so the sockets carry what a move's would.
"""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer

FRAGMENT_SIZE = 10_000  # bytes: about one Estimation table fragment


class EchoConsumer(AsyncWebsocketConsumer):
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data, bytes_data=bytes_data)


class GroupEchoConsumer(EchoConsumer):
    async def connect(self) -> None:
        self.group = f"echo.{int(self.scope['url_route']['kwargs']['room'])}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.channel_layer.group_send(self.group, {"type": "echo.message", "text": text_data or ""})

    async def echo_message(self, event: dict) -> None:
        text = event["text"]
        await self.send(text_data=text + " " * max(0, FRAGMENT_SIZE - len(text)))
