"""The table socket under abuse (issue 21): floods, too many sockets, odd frames, ended sessions,
crashed sockets, foreign origins and unknown paths. Each test failed on the code before the issue."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import threading
import time

import pytest
from channels import auth as channels_auth
from channels.auth import get_user
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client

from config.asgi import application
from core import limits
from tables.live import guard, presence
from tables.render import fragment
from tables.services import lobby
from tests.tables.helpers import open_table, start_table
from tests.tables.socket_helpers import (
    closed_with,
    connect,
    connect_with_cookie,
    drain,
    login_of,
    nothing_before,
    receive,
    receive_with,
    session_cookie,
    still_open,
    why_refused,
)

# Transactional: the consumer works on Channels' threads, on connections of their own.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def not_refused(communicator: WebsocketCommunicator) -> None:
    """No refusal came after the socket opened: its own answer to an unknown command, sent after
    any refusal of its opening would have been, comes with none before it."""
    await nothing_before(
        communicator,
        "Unknown command.",
        cause=communicator.send_json_to({"command": "explode"}),
        unwanted="windows open",
    )


# --- F1: rate limit and socket caps -------------------------------------------------------


async def test_a_flood_is_refused_past_the_burst_then_the_socket_is_closed(host, monkeypatch) -> None:
    # RULING P15; a slower refill, so the test's own pauses do not refill the bucket.
    monkeypatch.setattr(guard, "RATE", 0.2)
    table = await database_sync_to_async(open_table)(host, "sita")
    socket, connected = await connect(table.pk, host)
    assert connected
    await drain(socket)
    for _ in range(guard.BURST):
        await socket.send_json_to({"command": "resync"})
    answers = await drain(socket, quiet=0.5)
    assert sum('id="live"' in answer for answer in answers) == guard.BURST
    await socket.send_json_to({"command": "ready"})
    refused = " ".join(await drain(socket, quiet=0.3))
    assert "Too many messages" in refused and 'id="live"' not in refused
    for _ in range(guard.PENALTY_TO_CLOSE + 5):
        await socket.send_json_to({"command": "resync"})
    assert await closed_with(socket) == guard.CLOSE_FLOODING
    # Reconnecting at once is refused for a while (the flood does not move to the handshakes), at
    # the handshake; the page asks why (RULING P16).
    login = await login_of(host)
    again, connected = await connect(table.pk, session_key=login)
    assert not connected
    assert "too many messages" in await why_refused(login)


@pytest.mark.django_db  # plain: no socket and no table: the bucket alone
async def test_the_bucket_refills_at_five_messages_a_second() -> None:
    now = [0.0]
    throttle = guard.Throttle(clock=lambda: now[0])
    assert [throttle.admit() for _ in range(10)] == [guard.Verdict.PASS] * 10
    assert throttle.admit() is guard.Verdict.REFUSE
    assert throttle.admit() is guard.Verdict.DROP  # told once per dry spell
    now[0] += 1.0
    assert [throttle.admit() for _ in range(5)] == [guard.Verdict.PASS] * 5
    assert throttle.admit() is guard.Verdict.REFUSE


async def test_a_user_may_keep_five_sockets_on_one_table(host, player) -> None:
    # RULING P16
    table = await database_sync_to_async(open_table)(host, "sita")
    sockets = []
    for _ in range(presence.MAX_SOCKETS_PER_TABLE):
        socket, connected = await connect(table.pk, player)
        assert connected
        sockets.append(socket)
    login = await login_of(player)
    extra, connected = await connect(table.pk, session_key=login)
    assert not connected  # refused at the handshake; the page asks why
    assert "windows open on this table" in await why_refused(login)
    other, connected = await connect(table.pk, host)  # another user is not affected
    assert connected
    await not_refused(other)
    await sockets.pop().disconnect()
    again, connected = await connect(table.pk, player)  # a closed socket frees its place
    assert connected
    await not_refused(again)
    for socket in [*sockets, other, again]:
        await socket.disconnect()


async def test_the_caps_hold_across_processes_and_in_all(host, player, settings) -> None:
    settings.MAX_SOCKETS_PER_USER = 3
    first = await database_sync_to_async(open_table)(host, "sita")
    second = await database_sync_to_async(open_table)(host, "sita")
    # Two sockets of the player held by another Daphne process: only Redis knows of them.
    for name in ("other-process!a", "other-process!b"):
        assert await presence.admit(first.pk, name, player.pk) is None
    socket, connected = await connect(second.pk, player)
    assert connected
    await not_refused(socket)
    login = await login_of(player)
    _refused, connected = await connect(second.pk, session_key=login)
    assert not connected and "table windows open" in await why_refused(login)
    await socket.disconnect()


async def test_one_lobby_change_is_read_once_per_process_however_many_sockets(host, player, monkeypatch) -> None:
    table = await database_sync_to_async(open_table)(host, "sita")
    sockets = [(await connect(table.pk, player))[0] for _ in range(4)] + [(await connect(table.pk, host))[0]]
    for socket in sockets:
        await drain(socket)
    reads, renders = [], []
    load, render = fragment.load_snapshot, fragment.render_live
    monkeypatch.setattr(fragment, "load_snapshot", lambda table_id: reads.append(table_id) or load(table_id))
    monkeypatch.setattr(fragment, "render_live", lambda *a, **k: renders.append(k["user_id"]) or render(*a, **k))
    await database_sync_to_async(lobby.seat_take)(table_id=table.pk, user=player, position=1)
    for socket in sockets:
        assert "live" in await receive(socket)  # the push (its changed regions), however slow the machine
        await drain(socket)
    assert reads == [table.pk]
    assert sorted(renders) == sorted([player.pk, host.pk])  # one per viewer, not one per socket
    for socket in sockets:
        await socket.disconnect()


# --- F2: odd frames -----------------------------------------------------------------------


@database_sync_to_async
def started_sita(host, player):
    return start_table(host, "sita", seat_count=2, guests=[player])


ODD_FRAMES = [
    {"bytes": b"\x00\x01binary"},
    {"text": json.dumps({"command": "act", "version": "²"})},
    {"text": json.dumps({"command": "seat_take", "position": "²"})},
    {"text": json.dumps({"command": "act", "version": "9" * 5000})},
    {"text": json.dumps({"command": "act", "version": "1", "type": "choose", "card": "¹"})},
    {"text": "[" * 100_000},
    {"text": "[" * 2_000},
    {"text": json.dumps({"command": "act", "version": 10**30, "action": {"type": "choose", "card": [[1]]}})},
    {"text": json.dumps({"command": "act", "version": "1", "type": "choose\x00", "card": "3"})},
    {"text": '{"command": "resync"}\x00'},
]


@pytest.mark.parametrize("frame", ODD_FRAMES, ids=lambda frame: repr(frame)[:40])
async def test_an_odd_frame_is_refused_with_a_message_and_the_socket_stays_open(host, player, frame) -> None:
    table, match = await started_sita(host, player)
    socket, connected = await connect(table.pk, player)
    assert connected
    await drain(socket)
    await socket.send_to(text_data=frame.get("text"), bytes_data=frame.get("bytes"))
    answer = await socket.receive_from(timeout=3)
    assert 'id="flash"' in answer and "message error" in answer
    assert await still_open(socket)
    await socket.disconnect()


# --- F3: presence heals ------------------------------------------------------------------


async def test_a_crashed_socket_stops_counting_as_connected(host, player, settings) -> None:
    # RULING P17 (with the heartbeat and expiry shortened for the test)
    settings.PRESENCE_EXPIRY_SECONDS = 1.0
    settings.PRESENCE_HEARTBEAT_SECONDS = 0.3
    table = await database_sync_to_async(open_table)(host, "sita")
    await database_sync_to_async(lobby.seat_take)(table_id=table.pk, user=player, position=1)
    watcher, _ = await connect(table.pk, host)
    await drain(watcher)
    # The player's socket lives in another process, which then dies: its loop ends without a disconnect.
    await asyncio.to_thread(asyncio.run, presence.join(table.pk, "crashed-process!x", player.pk))
    assert player.pk in await presence.connected_users(table.pk)
    await asyncio.sleep(2.0)
    assert player.pk not in await presence.connected_users(table.pk)
    pushes = await drain(watcher)
    assert pushes and 'title="not connected"' in pushes[-1]
    await watcher.disconnect()


# --- F4: the session ----------------------------------------------------------------------


async def socket_on_a_clock(host, player, monkeypatch) -> tuple:
    """A player's socket on a table whose session re-check runs on ``now[0]``, a clock the test moves."""
    now = [1000.0]
    monkeypatch.setattr(guard, "session_clock", lambda: now[0])
    table = await database_sync_to_async(open_table)(host, "sita")
    socket, _ = await connect(table.pk, player)
    await drain(socket)
    return table, socket, now


async def test_a_socket_whose_session_ended_unannounced_is_closed_at_its_recheck_and_changes_nothing(
    host, player, monkeypatch
) -> None:
    # RULING P18's safety net: a session that ends with no event (deleted, expired) is found out
    # by the first message after the re-check interval, and that message is not carried out.
    table, socket, now = await socket_on_a_clock(host, player, monkeypatch)
    await database_sync_to_async(lambda: Session.objects.all().delete())()  # logged out everywhere
    # Within the interval a message does not read the session (it is not read for every frame).
    assert await still_open(socket)
    now[0] += guard.SESSION_RECHECK_SECONDS
    await socket.send_json_to({"command": "seat_take", "position": 1})
    assert "logged out" in await socket.receive_from()
    assert await closed_with(socket) == guard.CLOSE_LOGGED_OUT
    assert not await database_sync_to_async(lambda: table.seats.filter(user=player).exists())()


async def test_a_recheck_finds_a_login_that_still_holds_and_the_message_is_carried_out(
    host, player, monkeypatch
) -> None:
    table, socket, now = await socket_on_a_clock(host, player, monkeypatch)
    now[0] += guard.SESSION_RECHECK_SECONDS
    await socket.send_json_to({"command": "seat_take", "position": 1})
    await receive_with(socket, 'id="live')  # the push after the seat was taken, however slow the machine
    assert await database_sync_to_async(lambda: table.seats.filter(user=player, position=1).exists())()
    assert await still_open(socket)
    await socket.disconnect()


@pytest.mark.parametrize("change", ["password", "deactivate"])
async def test_a_password_change_or_deactivation_closes_the_old_socket_at_once(host, player, change) -> None:
    # RULING P18: closed though it sends nothing (tables/live/sessions.py), long before any re-check.
    table = await database_sync_to_async(open_table)(host, "sita")
    socket, _ = await connect(table.pk, player)
    await drain(socket)

    def save_account():
        if change == "password":
            player.set_password("another-long-pass-phrase")
        else:
            player.is_active = False
        player.save()

    await database_sync_to_async(save_account)()
    assert "logged out" in await socket.receive_from()
    assert await closed_with(socket) == guard.CLOSE_LOGGED_OUT


async def test_saving_an_account_leaves_its_sockets_open_while_the_login_holds(host, player) -> None:
    table = await database_sync_to_async(open_table)(host, "sita")
    socket, _ = await connect(table.pk, player)
    await drain(socket)

    def rename():
        player.display_name = "Someone else"
        player.save()

    await database_sync_to_async(rename)()
    await drain(socket, quiet=0.5)  # the socket was told to check its login, and did
    assert await still_open(socket)
    await socket.disconnect()


async def test_logging_out_closes_that_sessions_sockets_only(host, player) -> None:
    table = await database_sync_to_async(open_table)(host, "sita")
    cookie = await session_cookie(player)
    socket, _ = await connect_with_cookie(table.pk, cookie)
    other, _ = await connect(table.pk, player)  # the same player on another device
    await drain(socket)
    await drain(other)

    def log_out():
        client = Client()
        client.cookies[settings.SESSION_COOKIE_NAME] = cookie.split("=", 1)[1]
        assert client.post("/accounts/logout/").status_code == 302

    await database_sync_to_async(log_out)()
    assert "logged out" in await socket.receive_from()
    assert await closed_with(socket) == guard.CLOSE_LOGGED_OUT
    assert await still_open(other)
    await other.disconnect()


# --- the door: origin and unknown paths ----------------------------------------------------


@pytest.mark.parametrize("origin", ["http://localhost:9999", "https://localhost", "http://evil.localhost", "null", ""])
async def test_a_socket_from_another_origin_is_refused(host, origin) -> None:
    table = await database_sync_to_async(open_table)(host, "sita")
    _, connected = await connect(table.pk, host, origin=origin)
    assert not connected


async def test_a_socket_from_the_sites_own_origin_is_accepted_over_tls_and_from_trusted_origins(host, settings) -> None:
    table = await database_sync_to_async(open_table)(host, "sita")
    cookie = (await session_cookie(host)).encode()
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.CSRF_TRUSTED_ORIGINS = ["https://cards.example.com"]
    for origin, host_header, extra in [
        ("https://localhost", b"localhost", [(b"x-forwarded-proto", b"https")]),
        ("http://localhost:80", b"localhost", []),
        ("https://cards.example.com", b"localhost", []),
    ]:
        headers = [(b"origin", origin.encode()), (b"host", host_header), (b"cookie", cookie), *extra]
        communicator = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=headers)
        connected, _ = await communicator.connect(timeout=5)
        assert connected, origin
        await communicator.disconnect()


async def test_an_unknown_socket_path_is_closed_cleanly(host) -> None:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    communicator = WebsocketCommunicator(application, "/ws/no-such-thing/", headers=headers)
    connected, code = await communicator.connect(timeout=5)
    assert not connected and code == 4404


@pytest.mark.django_db  # plain: no socket and no table: the buckets in Redis alone
async def test_a_users_sockets_share_one_bucket_too(monkeypatch) -> None:
    # RULING P15: twenty sockets of one user do not get twenty times the rate. The bucket is in Redis,
    # so sockets of the user on other processes draw on it as well (issue 34).
    monkeypatch.setattr(guard, "USER_RATE", 0.001)  # no refill while the test runs
    buckets = guard.message_buckets(4242, "unknown")
    sockets = [guard.Throttle() for _ in range(20)]
    verdicts = []
    for socket in sockets:
        for _ in range(3):
            verdicts.append(socket.admit(await limits.take(*buckets) is None))
    assert verdicts.count(guard.Verdict.PASS) == guard.USER_BURST


async def test_a_refused_login_backs_off_at_the_handshake(player, monkeypatch) -> None:
    # RULING P16: refused at the handshake with no pause held; the login's next opening is refused
    # before its session is read, answered when its wait is over (not lengthened); then it is let in.
    monkeypatch.setattr(guard, "OPENING_BACKOFF", dataclasses.replace(guard.OPENING_BACKOFF, base=0.5))
    table = await database_sync_to_async(open_table)(player, "sita")
    sockets = [(await connect(table.pk, player))[0] for _ in range(presence.MAX_SOCKETS_PER_TABLE)]
    login = await login_of(player)
    assert await why_refused(login) == ""  # nothing refused yet: the page is told nothing
    assert not (await connect(table.pk, session_key=login))[1]
    await sockets.pop().disconnect()  # a place is free now, but the login still waits
    sessions_read = []
    monkeypatch.setattr(channels_auth, "get_user", lambda scope: sessions_read.append(scope) or get_user(scope))
    started = time.monotonic()
    assert not (await connect(table.pk, session_key=login))[1]
    assert sessions_read == []  # refused before the session was read
    assert 0.3 <= time.monotonic() - started < 2.0  # held until the 0.5 s wait was over, no longer
    assert "windows open on this table" in await why_refused(login)  # still told, just after
    again, connected = await connect(table.pk, session_key=login)
    assert connected and 'id="live"' in " ".join(await drain(again))
    for socket in [*sockets, again]:
        await socket.disconnect()


async def test_an_opening_cancelled_before_it_finishes_gives_its_socket_place_back(host, player, monkeypatch, settings):
    # Issue 43: under load Daphne cancels a consumer whose opening outlasts its handshake limit. The
    # place it had taken stayed held until it expired, and the client's reconnect met 4409.
    settings.MAX_SOCKETS_PER_TABLE = 1
    table = await database_sync_to_async(open_table)(host, "sita")
    entered, go_on = asyncio.Event(), threading.Event()
    loop = asyncio.get_running_loop()
    load = fragment.load_snapshot

    def slow_load(table_id):
        loop.call_soon_threadsafe(entered.set)
        go_on.wait(10)
        return load(table_id)

    monkeypatch.setattr(fragment, "load_snapshot", slow_load)
    headers = [
        (b"origin", b"http://localhost"),
        (b"host", b"localhost"),
        (b"cookie", (await session_cookie(player)).encode()),
    ]
    opening = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=headers)
    await opening.send_input({"type": "websocket.connect"})
    await asyncio.wait_for(entered.wait(), 5)  # admitted, and reading the table
    opening.future.cancel()  # as Daphne does past its limit
    with contextlib.suppress(asyncio.CancelledError):
        await opening.future
    go_on.set()
    monkeypatch.setattr(fragment, "load_snapshot", load)
    again, connected = await connect(table.pk, player)
    sent = " ".join(await drain(again, quiet=1.0))
    assert connected and "windows open" not in sent and 'id="live"' in sent
    await again.disconnect()
