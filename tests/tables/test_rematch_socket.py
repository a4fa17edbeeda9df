"""The rematch through the real sockets and the Redis layer (RULING P70): answers are pushed live to
the finished table, and no frame carries the new attempt's secret or a player's value (RULINGS P31, P33)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from tables.models import DealCommitment, Rematch
from tests.games.history_helpers import finished_table
from tests.tables.socket_helpers import connect, drain, receive_all_until

# Transactional: the consumer works on Channels' threads, on connections of their own.
pytestmark = pytest.mark.django_db(transaction=True)


async def test_an_answer_shows_live_and_no_frame_holds_the_new_secret(host, player, outsider) -> None:
    source = await database_sync_to_async(finished_table)(host, "sitaratas", [player])
    sockets = {}
    for user in (host, player, outsider):
        sockets[user.pk], connected = await connect(source.pk, user)
        assert connected
        await drain(sockets[user.pk])
    await sockets[player.pk].send_json_to({"command": "rematch"})
    frames = {user_id: await receive_all_until(socket, "rematch-accepted") for user_id, socket in sockets.items()}
    assert "rematch-pending" in frames[host.pk] and 'value="rematch"' in frames[host.pk]  # hana may still answer
    assert 'value="rematch"' not in frames[outsider.pk]  # a spectator watches, and cannot answer
    new_table = await database_sync_to_async(lambda: Rematch.objects.get(source=source).table)()
    secret = await database_sync_to_async(lambda: DealCommitment.objects.get(table=new_table).secret)()
    await sockets[host.pk].send_json_to({"command": "rematch_decline"})
    for user_id, socket in sockets.items():
        frames[user_id] += await receive_all_until(socket, "rematch-declined")
        frames[user_id] += "".join(await drain(socket))
        assert secret not in frames[user_id]  # RULING P33: revealed only when that attempt is over
        await socket.disconnect()
