"""The after-commit broadcast: a socket command's send is handed to the event loop, not waited for (issue 9)."""

from __future__ import annotations

import asyncio
import threading

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from core.groups import socket_loop, table_group
from tables.live.broadcast import send_table_changed


async def _listen(table_id: int) -> str:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(table_group(table_id), channel)
    return channel


async def test_a_socket_commands_broadcast_does_not_wait_for_the_busy_event_loop() -> None:
    channel = await _listen(71)
    handed_over = threading.Event()
    loop_was_free_in_time = []

    def busy_loop() -> None:  # the loop rendering for a while: a send that waited for it could not return
        loop_was_free_in_time.append(handed_over.wait(5))

    def database_thread() -> None:
        send_table_changed(71, match_id=5, version=3, state="state-3")
        handed_over.set()

    socket_loop.set(asyncio.get_running_loop())  # as a consumer sets it in connect()
    asyncio.get_running_loop().call_soon(busy_loop)
    await sync_to_async(database_thread, thread_sensitive=False)()  # as the consumer runs a command
    assert loop_was_free_in_time == [True]
    message = await asyncio.wait_for(get_channel_layer().receive(channel), 5)
    assert (message["type"], message["version"], message["state"]) == ("table.changed", 3, "state-3")


async def test_outside_a_socket_the_broadcast_is_sent_before_the_call_returns() -> None:
    channel = await _listen(72)

    def worker_thread() -> None:  # Celery, a view: no consumer's loop
        send_table_changed(72, lobby=True)

    await asyncio.to_thread(worker_thread)
    message = await asyncio.wait_for(get_channel_layer().receive(channel), 5)
    assert message["lobby"] is True


async def test_a_burst_of_moves_reaches_a_process_whose_sockets_are_busy() -> None:
    # With channels_redis' list layer every socket of a process shared one queue of 100, and a
    # burst beyond it was dropped without an error: seats' updates were lost (issue 9).
    layer = get_channel_layer()
    channels = [await _listen(80 + table) for table in range(3)]
    for version in range(1, 101):
        for table in range(3):
            await layer.group_send(table_group(80 + table), {"type": "table.changed", "version": version})
    for channel in channels:
        versions = [(await asyncio.wait_for(layer.receive(channel), 5))["version"] for _ in range(100)]
        assert versions == list(range(1, 101))
