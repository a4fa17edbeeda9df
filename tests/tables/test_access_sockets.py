"""Permissions follow the open sockets (RULINGS P66, P67, P18, P29): a change of who may see a
table reaches the sockets it concerns within one push. Each test makes a push after the change
and shows that an allowed socket received it while the revoked one was told why and closed.
"""

from __future__ import annotations

import json
import random

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from accounts import services as accounts
from chat import services as chat
from core import outbox
from games.models import Match
from social import services as social
from tables.live import consumer
from tables.models import Spectators, Table
from tables.selectors import privacy
from tables.services import lobby, play
from tables.services.privacy import privacy_set
from tests.conftest import make_user
from tests.social.helpers import befriend
from tests.tables.helpers import open_table, start_table, state_of
from tests.tables.socket_helpers import connect, drain, nothing_before, receive, receive_with

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


a_user = database_sync_to_async(make_user)


async def watching(table_id: int, user) -> WebsocketCommunicator:
    socket, connected = await connect(table_id, user)
    assert connected
    opening = " ".join(await drain(socket))
    assert 'id="live"' in opening and "cannot watch" not in opening
    return socket


async def closed_with(socket: WebsocketCommunicator) -> tuple[int | None, str]:
    """The close code and what the socket was sent before it."""
    said = []
    while True:
        output = await socket.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return output.get("code"), " ".join(said)
        said.append(output.get("text", ""))


async def pushed(socket: WebsocketCommunicator) -> str:
    """The next push (a view, or the regions of it that changed), however slow the machine."""
    return await receive(socket)


async def revoked(socket: WebsocketCommunicator) -> None:
    code, said = await closed_with(socket)
    assert code == consumer.CLOSE_FORBIDDEN and "cannot watch" in said


async def still_pushed(sockets: list[WebsocketCommunicator], match_id: int, mover) -> None:
    """A move after the change reaches each of ``sockets`` (which are then closed)."""
    for socket in sockets:
        await drain(socket)
    await a_move(match_id, mover)
    for socket in sockets:
        assert "live" in await pushed(socket)
        await socket.disconnect()


@database_sync_to_async
def a_move(match_id: int, user) -> None:
    """One legal action of ``user``'s seat: a push to every socket of the table."""
    match = Match.objects.get(pk=match_id)
    engine, state = state_of(match)
    seat = match.match_players.get(user=user).seat
    action = random.Random(match.version).choice(engine.legal_actions(state, seat))
    play.match_act(match_id=match.pk, user=user, action=action, version=match.version)


@database_sync_to_async
def a_lobby_change(table: Table, user, position: int) -> None:
    lobby.seat_take(table_id=table.pk, user=user, position=position)


@database_sync_to_async
def started_private(host, guest, *, spectators: str) -> tuple[Table, Match]:
    # Two humans and no bot in SITA: every push after the change is a move one of them makes.
    table, match = start_table(host, "sita", seat_count=2, guests=[guest])
    Table.objects.filter(pk=table.pk).update(private=True, spectators=spectators)
    return table, match


async def test_a_table_made_private_closes_the_watchers_it_shuts_out(host, player, outsider) -> None:
    # RULING P66: spectators "nobody": a stranger goes; a friend of the host, who may still sit, stays.
    table = await database_sync_to_async(open_table)(host, "sita")
    await database_sync_to_async(befriend)(host, player)
    stranger, friend = await watching(table.pk, outsider), await watching(table.pk, player)
    await database_sync_to_async(privacy_set)(table_id=table.pk, host=host, private=True, spectators=Spectators.NOBODY)
    await revoked(stranger)
    await drain(friend)
    await a_lobby_change(table, player, 1)
    assert "live" in await pushed(friend)
    await friend.disconnect()


async def test_a_block_by_the_host_closes_the_blocked_watcher_of_a_private_table(host, player, outsider) -> None:
    # RULINGS P66, P67
    table, match = await started_private(host, player, spectators=Spectators.ANYONE)
    blocked, other = await watching(table.pk, outsider), await watching(table.pk, await a_user("vera"))
    await database_sync_to_async(social.block)(user=host, blocked_id=outsider.pk)
    await revoked(blocked)
    await still_pushed([other], match.pk, host)


async def test_a_block_decides_again_only_for_the_two_players_sockets(host, player, outsider, monkeypatch) -> None:
    # The change names its users: the table's other sockets adopt the new version with no read.
    table, match = await started_private(host, player, spectators=Spectators.ANYONE)
    sockets = [await watching(table.pk, outsider), await watching(table.pk, await a_user("vera"))]
    seated = await watching(table.pk, player)
    decided = []
    refusal = privacy.open_refusal
    monkeypatch.setattr(
        privacy, "open_refusal", lambda table_id, user: decided.append(user.pk) or refusal(table_id, user)
    )
    await database_sync_to_async(social.block)(user=host, blocked_id=outsider.pk)
    await revoked(sockets[0])
    await still_pushed([sockets[1], seated], match.pk, host)
    assert decided == [outsider.pk]


async def test_a_seated_player_blocked_keeps_seat_and_socket_at_a_public_table(host, player) -> None:
    # RULING P67: a block hides nothing at a public table but chat.
    _table, match = await database_sync_to_async(start_table)(host, "sita", seat_count=2, guests=[player])
    socket = await watching(match.table_id, player)
    await database_sync_to_async(social.block)(user=host, blocked_id=player.pk)
    await still_pushed([socket], match.pk, host)


async def test_an_unfriending_closes_a_friend_of_the_seated_watching(host, player) -> None:
    # RULING P66: spectators "friends of the seated": the friendship was the permission.
    table, match = await started_private(host, player, spectators=Spectators.FRIENDS)
    pal, other = await a_user("pal"), await a_user("vera")
    for friend in (pal, other):
        await database_sync_to_async(befriend)(player, friend)
    pal_socket, other_socket = await watching(table.pk, pal), await watching(table.pk, other)
    await database_sync_to_async(social.friend_remove)(user=player, friend_id=pal.pk)
    await revoked(pal_socket)
    await still_pushed([other_socket], match.pk, player)


async def test_a_seated_player_leaving_closes_their_friends_socket(host, player) -> None:
    # RULING P66: whose friends may watch follows who sits; here the player's friend, not the host's.
    table = await database_sync_to_async(open_table)(host, "sita")
    await database_sync_to_async(befriend)(host, player)
    await a_lobby_change(table, player, 1)
    await database_sync_to_async(privacy_set)(table_id=table.pk, host=host, private=True, spectators=Spectators.FRIENDS)
    pal = await a_user("pal")
    await database_sync_to_async(befriend)(player, pal)
    pal_socket, host_socket = await watching(table.pk, pal), await watching(table.pk, host)
    await database_sync_to_async(lobby.seat_leave)(table_id=table.pk, user=player)
    await revoked(pal_socket)
    assert "live" in " ".join(await drain(host_socket))
    await host_socket.disconnect()


async def test_a_revoke_whose_message_is_lost_holds_at_the_next_push(host, player, outsider, monkeypatch) -> None:
    # The outbox sends at most once: the next move's push carries the table's access version.
    table, match = await started_private(host, player, spectators=Spectators.ANYONE)
    blocked, other = await watching(table.pk, outsider), await watching(table.pk, await a_user("vera"))
    deliver = outbox._deliver
    monkeypatch.setattr(
        outbox, "_deliver", lambda event: None if getattr(event, "access_users", None) else deliver(event)
    )
    await database_sync_to_async(social.block)(user=host, blocked_id=outsider.pk)
    # The message was lost: only the chat's re-read came (tables/live/chat.py), no refusal before
    # a chat line said after the block, which the table's group carries as it would the refusal's event.
    said = other.send_json_to({"command": "chat_send", "channel": "spectators", "text": "still watching?"})
    await nothing_before(blocked, "still watching?", cause=said, unwanted="cannot watch")
    await receive_with(other, "still watching?")
    await a_move(match.pk, host)
    code, said = await closed_with(blocked)
    assert code == consumer.CLOSE_FORBIDDEN and "cannot watch" in said and 'id="live"' not in said
    assert "live" in await pushed(other)
    await other.disconnect()


async def test_a_site_wide_mute_reaches_the_chat_panel_at_once(host, player) -> None:
    # RULING P29: the muted player's open panel stops offering to write, without a reload.
    table = await database_sync_to_async(open_table)(host, "sita")
    socket = await watching(table.pk, player)
    await database_sync_to_async(chat.mute_create)(
        user=player, by=host, reason="Spam", until=timezone.now() + timezone.timedelta(hours=1)
    )
    frame = json.loads(await receive(socket))["chat"]
    assert frame["type"] == "state" and frame["can_write"] is False and "Spam" in frame["notice"]
    await socket.disconnect()


async def test_a_deleted_account_loses_its_sockets(host, player) -> None:
    # RULINGS P23, P18: the account's sessions end and every socket of it is closed.
    table, match = await database_sync_to_async(start_table)(host, "sita", seat_count=2, guests=[player])
    watcher = await a_user("vera")
    gone, staying = await watching(table.pk, watcher), await watching(table.pk, player)
    await database_sync_to_async(accounts.account_delete_own)(user_id=watcher.pk)
    code, _said = await closed_with(gone)
    assert code == 4401
    await still_pushed([staying], match.pk, host)
