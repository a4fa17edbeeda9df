"""A bare echo socket at ``ws/echo/``: the physical limit of one Daphne process.

The load benchmark (tests/benchmarks/load.py) measures its round trip beside a
move's, on the same Daphne, so our own cost shows as a ratio. It reads nothing
and needs no login; it only sends back what it receives.
"""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer


class EchoConsumer(AsyncWebsocketConsumer):
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data, bytes_data=bytes_data)
