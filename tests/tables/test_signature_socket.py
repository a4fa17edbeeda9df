"""The signature through the table's socket (RULING S13): the Sitaratas signs, everyone sees it."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.models import Signature
from games.selectors.history import sitaratas_player
from tests.games.history_helpers import finished_match
from tests.tables.socket_helpers import connect, drain, receive_with

# Transactional: the consumer works on Channels' threads, on connections of their own.
pytestmark = pytest.mark.django_db(transaction=True)


async def test_the_sitaratas_signs_over_the_socket_and_every_seat_sees_it(host, player, outsider) -> None:
    match = await database_sync_to_async(finished_match)(host, "sitaratas", humans=(player, outsider))
    chosen = await database_sync_to_async(lambda: sitaratas_player(match).user)()
    other = next(user for user in (host, player, outsider) if user.pk != chosen.pk)
    signer, _ = await connect(match.table_id, chosen)
    watcher, _ = await connect(match.table_id, other)
    await drain(signer)
    await drain(watcher)

    await watcher.send_json_to({"command": "sign", "signature": "not mine to give"})
    assert "Only the Sitaratas" in await receive_with(watcher, "Only the Sitaratas")
    await signer.send_json_to({"command": "sign", "signature": "<i>Lowest, proudly</i>"})
    for socket in (signer, watcher):
        html = await receive_with(socket, "and signed")
        assert "&lt;i&gt;Lowest, proudly&lt;/i&gt;" in html and "<i>Lowest" not in html
        assert 'value="sign"' not in html
    await signer.send_json_to({"command": "sign", "signature": "twice"})
    assert "already signed" in await receive_with(signer, "already signed")
    texts = await database_sync_to_async(lambda: list(Signature.objects.values_list("text", flat=True)))()
    assert texts == ["<i>Lowest, proudly</i>"]
    for socket in (signer, watcher):
        await socket.disconnect()


async def test_a_muted_sitaratas_is_refused_with_the_reason_and_nothing_is_written(host, player, outsider) -> None:
    # RULING S15: a signature is moderated as chat is.
    from datetime import timedelta

    from django.utils import timezone

    from chat.models import ChatMute

    match = await database_sync_to_async(finished_match)(host, "sitaratas", humans=(player, outsider))
    chosen = await database_sync_to_async(lambda: sitaratas_player(match).user)()
    until = timezone.now() + timedelta(hours=2)
    await database_sync_to_async(ChatMute.objects.create)(
        user=chosen,
        created_by=outsider if chosen != outsider else host,
        reason="insults",
        until=until,
        created_at=timezone.now(),
    )
    signer, _ = await connect(match.table_id, chosen)
    await drain(signer)
    await signer.send_json_to({"command": "sign", "signature": "hello"})
    refusal = await receive_with(signer, "You are muted")
    assert "Reason: insults" in refusal
    assert await database_sync_to_async(Signature.objects.count)() == 0
    await signer.disconnect()
