"""Chat test helpers: tables in each phase, and the chat frames a socket received."""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from tests.tables.helpers import open_table, seat_guests, start_table
from tests.tables.socket_helpers import connect, drain, nothing_before


def seated_sita_table(host, player, *, start: bool = False):
    """A two-seat SITA table (no bots needed): host and player seated, the game started or not."""
    if start:
        return start_table(host, "sita", seat_count=2, guests=[player])[0]
    table = open_table(host, "sita", seat_count=2)
    seat_guests(table, [player])
    return table


sita_table = database_sync_to_async(seated_sita_table)


def chat_frames(texts: list[str]) -> list[dict]:
    return [json.loads(text)["chat"] for text in texts if text.startswith('{"chat"')]


async def chat_received(
    communicator: WebsocketCommunicator, count: int = 1, quiet: float = 0.3, wait: float = 5.0
) -> list[dict]:
    """The chat frames that arrive until a quiet spell once ``count`` have come, waiting up to
    ``wait`` seconds for those: on a busy machine the answers to a burst can be further apart than
    one quiet spell."""
    deadline = time.monotonic() + wait
    frames = chat_frames(await drain(communicator, quiet=quiet))
    while len(frames) < count and time.monotonic() < deadline:
        frames += chat_frames(await drain(communicator, quiet=quiet))
    return frames


async def errors_received(communicator: WebsocketCommunicator, count: int = 1, wait: float = 5.0) -> list[str]:
    """The refusals that arrive until ``count`` have come and a quiet spell follows (up to ``wait``
    seconds): a frame left from an earlier command (a chat state) does not stand in for them."""
    deadline = time.monotonic() + wait
    found = errors(chat_frames(await drain(communicator, quiet=0.3)))
    while len(found) < count and time.monotonic() < deadline:
        found += errors(chat_frames(await drain(communicator, quiet=0.3)))
    return found


async def no_chat_before(
    communicator: WebsocketCommunicator, text: str, *, cause: Awaitable[object] | None = None
) -> None:
    """No chat frame came before the chat line ``text``, said (by ``cause``, or by what the caller
    did just before) after anything that should not have come: ``nothing_before`` for the chat."""

    def said(received: str) -> bool:
        return texts(chat_frames([received])) == [text]

    await nothing_before(communicator, said, cause=cause, unwanted='{"chat"')


async def open_sockets(table_id: int, *users) -> list[WebsocketCommunicator]:
    """One socket per user, each past its first pushes and its chat state."""
    sockets = []
    for user in users:
        socket, connected = await connect(table_id, user)
        assert connected
        await socket.send_json_to({"command": "chat_sync"})
        sockets.append(socket)
    for socket in sockets:
        # The chat state answers chat_sync; on a busy machine it may take longer than a quiet spell.
        frames = []
        while not any(frame["type"] == "state" for frame in frames):
            frames += chat_frames([await socket.receive_from(timeout=5)])
        assert [frame["type"] for frame in frames] == ["state"]
    return sockets


async def say(socket: WebsocketCommunicator, text: str, channel: str = "players") -> None:
    await socket.send_json_to({"command": "chat_send", "channel": channel, "text": text})


def texts(frames: list[dict]) -> list[str]:
    return [frame["message"]["text"] for frame in frames if frame["type"] == "message"]


def errors(frames: list[dict]) -> list[str]:
    return [frame["message"] for frame in frames if frame["type"] == "error"]
