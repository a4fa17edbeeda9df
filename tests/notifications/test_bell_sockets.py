"""The bell, live: over the page's own socket and over the table's socket (RULINGS P16, P66, P67, P69)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from notifications import kinds, services
from social import services as social
from tests.chat.helpers import chat_received, no_chat_before, open_sockets, say, sita_table, texts
from tests.tables.socket_helpers import connect, drain, nothing_before, session_cookie

# Transactional: the consumer works on Channels' threads, on connections of their own.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def page_socket(user) -> tuple[WebsocketCommunicator, bool]:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if user is not None:
        headers.append((b"cookie", (await session_cookie(user)).encode()))
    communicator = WebsocketCommunicator(application, "/ws/me/", headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    return communicator, connected


def bells(texts_received: list[str]) -> list[dict]:
    return [json.loads(text)["bell"] for text in texts_received if text.startswith('{"bell"')]


def new_of_kind(kind: str) -> Callable[[str], bool]:
    """Whether a message received is the bell of a new notification of ``kind``."""
    return lambda text: any((frame["new"] or {}).get("kind") == kind for frame in bells([text]))


async def bell_received(communicator: WebsocketCommunicator, count: int = 1) -> list[dict]:
    frames: list[dict] = []
    for _ in range(20):
        frames += bells(await drain(communicator, quiet=0.3))
        if len(frames) >= count:
            break
    return frames


notify = database_sync_to_async(services.notify)


async def test_the_page_socket_sends_the_count_then_each_new_notification(host, player) -> None:
    socket, connected = await page_socket(player)
    assert connected
    assert (await bell_received(socket)) == [{"unread": 0, "new": None}]
    row = await notify(user=player, kind=kinds.FRIEND_REQUEST, actor=host)
    frame = (await bell_received(socket))[-1]
    assert frame["unread"] == 1
    assert frame["new"] == {
        "id": row.pk,
        "kind": "friend_request",
        "text": "hana asks to be your friend.",
        "url": "/friends/",
    }
    await socket.disconnect()


async def test_another_players_notification_never_reaches_this_socket(host, player, outsider) -> None:
    socket, _ = await page_socket(outsider)
    await bell_received(socket)
    await notify(user=player, kind=kinds.FRIEND_REQUEST, actor=host)
    # The socket's own player's notification, made after the other's, is the first it is sent.
    mine = notify(user=outsider, kind=kinds.FRIEND_ACCEPTED, actor=host)
    await nothing_before(socket, new_of_kind(kinds.FRIEND_ACCEPTED), cause=mine, unwanted='{"bell"')
    await socket.disconnect()


async def test_a_signed_out_page_gets_no_socket() -> None:
    _socket, connected = await page_socket(None)
    assert not connected


async def test_page_sockets_have_a_cap_of_their_own_apart_from_the_table_sockets(host, player, settings) -> None:
    settings.MAX_PAGE_SOCKETS_PER_USER = 2
    settings.MAX_SOCKETS_PER_USER = 1  # RULING P16's cap on table sockets is not what counts here
    table = await sita_table(host, player)
    table_socket, connected = await connect(table.pk, player)
    assert connected
    first, _ = await page_socket(player)
    second, _ = await page_socket(player)
    third, _ = await page_socket(player)
    assert (await bell_received(first))[0]["unread"] == 0
    assert (await bell_received(second))[0]["unread"] == 0
    refused = bells([await third.receive_from(timeout=5)])
    assert "too many pages" in refused[0]["refused"]
    assert (await third.receive_output(timeout=2))["type"] == "websocket.close"
    await second.disconnect()
    again, _ = await page_socket(player)  # a place freed is a place again
    assert (await bell_received(again))[0]["unread"] == 0
    for socket in (first, again, table_socket):
        await socket.disconnect()


async def test_the_table_socket_carries_the_bell(host, player) -> None:
    table = await sita_table(host, player)
    socket, connected = await connect(table.pk, player)
    assert connected
    await drain(socket)
    await notify(user=player, kind=kinds.INVITE, actor=host, table=table, data={"game": "sita"})
    frame = (await bell_received(socket))[-1]
    assert frame["unread"] == 1 and f"/tables/{table.pk}/" == frame["new"]["url"]
    await socket.disconnect()


async def test_the_bell_speaks_the_viewers_language(host, player) -> None:
    player.language = "ar"
    await database_sync_to_async(player.save)(update_fields=["language"])
    socket, _ = await page_socket(player)
    await bell_received(socket)
    await notify(user=player, kind=kinds.FRIEND_ACCEPTED, actor=host)
    frame = (await bell_received(socket))[-1]
    assert "hana" in frame["new"]["text"] and "accepted" not in frame["new"]["text"]
    await socket.disconnect()


async def test_marking_all_read_brings_every_open_bell_to_zero(host, player) -> None:
    socket, _ = await page_socket(player)
    await bell_received(socket)
    await notify(user=player, kind=kinds.FRIEND_REQUEST, actor=host)
    await bell_received(socket)
    await database_sync_to_async(services.notifications_read_all)(user=player)
    assert (await bell_received(socket))[-1] == {"unread": 0, "new": None}
    await socket.disconnect()


async def test_a_private_tables_socket_refuses_a_stranger_and_lets_a_friend_in(host, player, outsider) -> None:
    from tables.models import Spectators
    from tables.services import privacy
    from tests.social.helpers import befriend

    table = await sita_table(host, player)
    await database_sync_to_async(privacy.privacy_set)(
        table_id=table.pk, host=host, private=True, spectators=Spectators.FRIENDS
    )
    stranger, connected = await connect(table.pk, outsider)
    assert connected  # accepted only to say why
    said = await stranger.receive_from(timeout=5)
    assert "private" in said
    assert (await stranger.receive_output(timeout=5))["type"] == "websocket.close"
    await database_sync_to_async(befriend)(player, outsider)
    watcher, connected = await connect(table.pk, outsider)
    assert 'id="live"' in "".join(await drain(watcher))
    await watcher.disconnect()


async def test_a_block_hides_each_others_chat_both_ways_at_once(host, player, outsider) -> None:
    table = await sita_table(host, player)
    host_socket, player_socket, watcher = await open_sockets(table.pk, host, player, outsider)
    await database_sync_to_async(social.block)(user=host, blocked_id=player.pk)
    # Each open socket of the two reads its chat again (no one else's does).
    for socket in (host_socket, player_socket):
        assert [frame["type"] for frame in await chat_received(socket)] == ["state"]
    await say(player_socket, "can you hear me")
    assert texts(await chat_received(watcher)) == ["can you hear me"]
    assert texts(await chat_received(player_socket)) == ["can you hear me"]  # its author sees it
    await no_chat_before(host_socket, "no", cause=say(host_socket, "no"))  # its own line first
    assert texts(await chat_received(watcher)) == ["no"]
    await no_chat_before(player_socket, "still here", cause=say(watcher, "still here", channel="spectators"))
    for socket in (host_socket, player_socket, watcher):
        await socket.disconnect()
