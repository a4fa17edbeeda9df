"""The bare echo sockets the load benchmark measures beside a move, over the real Redis layer, and
the Daphne process's garbage collection (issue 9)."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tests.benchmarks import echo_site
from tests.benchmarks.echo import FRAGMENT_SIZE
from tests.tables.socket_helpers import nothing_before

BENCHMARK_SITE = echo_site.application  # what the load benchmark's Daphne serves


async def open_socket(path: str, *, expect: bool = True, app=BENCHMARK_SITE) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(app, path, headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")])
    connected, _ = await communicator.connect(timeout=5)
    assert connected is expect
    return communicator


# No database: the echo sockets read none, and pytest-django refuses these tests any read.
@pytest.mark.asyncio
async def test_a_live_site_has_no_echo_sockets() -> None:
    await open_socket("/ws/echo/", expect=False, app=application)
    await open_socket("/ws/echo/3/", expect=False, app=application)


@pytest.mark.asyncio
async def test_the_echo_sends_back_what_it_receives() -> None:
    echo = await open_socket("/ws/echo/")
    await echo.send_to(text_data='{"command": "act"}')
    assert await echo.receive_from(timeout=5) == '{"command": "act"}'
    await echo.disconnect()


@pytest.mark.asyncio
async def test_the_group_echo_reaches_every_socket_of_its_room_and_no_other() -> None:
    room = [await open_socket("/ws/echo/7/") for _ in range(3)]
    elsewhere = await open_socket("/ws/echo/8/")
    await room[1].send_to(text_data="7:1 move")
    for socket in room:  # the sender too, as a seat gets its own update after a move
        reply = await socket.receive_from(timeout=5)
        assert reply.startswith("7:1 move") and len(reply) == FRAGMENT_SIZE
    # The other room's own echo, sent after room 7's, comes first: room 7's never reached it.
    await nothing_before(elsewhere, "8:1 move", cause=elsewhere.send_to(text_data="8:1 move"))
    for socket in [*room, elsewhere]:
        await socket.disconnect()


def test_the_daphne_app_keeps_full_collections_rare_and_hands_the_gil_over_quickly() -> None:
    # Issue 9: a full collection over a process holding thousands of sockets stalled them all for
    # up to a second; the ASGI module freezes what start-up made and raises the thresholds. The
    # middle generation's passes are kept small (issue 27: at 50 young passes a pass, opening
    # sockets made each one stall the process 0.2–0.4 s). A move's thread waited up to 5 ms for
    # the GIL after each database answer; now 1 ms.
    import gc
    import sys

    import config.asgi  # noqa: F401

    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (10_000, 10, 500)
    assert sys.getswitchinterval() == 0.001
