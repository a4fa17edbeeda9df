"""The table socket with one communicator per seat and a spectator, over the real Redis layer (issue 6)."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
from channels.db import database_sync_to_async

from games.engines.cards import label
from games.models import Match, MatchEvent
from tables.services import lobby, play
from tests.helpers import fair_value
from tests.tables.helpers import fill_with_bots, open_table, start_table, state_of
from tests.tables.socket_helpers import connect, drain, nothing_before, receive_until_version, version_of

# Transactional: the consumer works on Channels' threads, on connections of their own.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def start_sitaratas(host, player):
    return start_table(host, "sitaratas", seat_count=3, guests=[player])


async def test_an_anonymous_socket_is_refused(host) -> None:
    table = await database_sync_to_async(open_table)(host, "sita")
    _, connected = await connect(table.pk, None)
    assert not connected


async def test_a_socket_from_a_foreign_origin_is_refused(host) -> None:
    table = await database_sync_to_async(open_table)(host, "sita")
    _, connected = await connect(table.pk, host, origin="https://evil.example.com")
    assert not connected


async def test_each_seat_gets_its_own_view_and_the_spectator_none(host, player, outsider, eager_bots) -> None:
    table, match = await start_sitaratas(host, player)
    engine, state = await database_sync_to_async(state_of)(match)
    sockets = {}
    for name, user in (("host", host), ("player", player), ("spectator", outsider)):
        communicator, connected = await connect(table.pk, user)
        assert connected
        sockets[name] = (communicator, " ".join(await drain(communicator)))
    host_hand, player_hand = engine.view(state, 0)["hand"], engine.view(state, 1)["hand"]
    public = json.dumps(engine.view(state, None))
    for card in host_hand:
        assert f'title="{label(card)}"' in sockets["host"][1]
    for card in player_hand:
        if card not in public:
            assert f'title="{label(card)}"' not in sockets["host"][1]
            assert f'title="{label(card)}"' not in sockets["spectator"][1]
    assert "watching" in sockets["spectator"][1]
    for communicator, _ in sockets.values():
        await communicator.disconnect()


async def test_refused_messages_go_to_their_sender_alone_and_change_nothing(host, player, outsider, eager_bots) -> None:
    table, match = await start_sitaratas(host, player)
    host_socket, _ = await connect(table.pk, host)
    player_socket, _ = await connect(table.pk, player)
    spectator_socket, _ = await connect(table.pk, outsider)
    for communicator in (host_socket, player_socket, spectator_socket):
        await drain(communicator)
    engine, state = await database_sync_to_async(state_of)(match)
    match = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    awaited = engine.to_act(state)[0]
    waiting_socket = player_socket if awaited == 0 else host_socket
    action = engine.legal_actions(state, awaited)[0]
    bad_messages = [
        {"command": "act", "action": action, "version": match.version},  # out of turn
        "not json at all",
        {"command": "act", "action": {"type": "bid", "bid": "lots"}, "version": match.version},
        {"command": "explode"},
        {"command": "start"},  # not the host, and the game has started
    ]
    for message in bad_messages:
        if isinstance(message, str):
            await waiting_socket.send_to(text_data=message)
        else:
            await waiting_socket.send_json_to(message)
        replies = await drain(waiting_socket)
        assert any('class="message error"' in reply for reply in replies), message
    # A foreign user (the spectator) acting is refused too.
    await spectator_socket.send_json_to({"command": "act", "action": action, "version": match.version})
    assert any("not playing" in reply for reply in await drain(spectator_socket))
    # Nothing changed, and nobody else heard about any of it: the push of the next move is the
    # first thing the acting seat is sent.
    after = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    assert (after.version, after.state) == (match.version, match.state)
    acting_socket = host_socket if awaited == 0 else player_socket
    move = acting_socket.send_json_to({"command": "act", "action": action, "version": match.version})
    await nothing_before(acting_socket, lambda text: (version_of(text) or 0) > match.version, cause=move)
    # Stale and duplicate: the right move with an old version is refused after it was applied once.
    await acting_socket.send_json_to({"command": "act", "action": action, "version": match.version})
    assert any("moved on" in reply for reply in await drain(acting_socket))
    for communicator in (host_socket, player_socket, spectator_socket):
        await communicator.disconnect()


async def test_htmx_form_fields_are_understood(host, player, eager_bots) -> None:
    table, match = await start_sitaratas(host, player)
    engine, state = await database_sync_to_async(state_of)(match)
    awaited = engine.to_act(state)[0]
    user = host if awaited == 0 else player
    socket, _ = await connect(table.pk, user)
    await drain(socket)
    action = engine.legal_actions(state, awaited)[0]
    fields = {
        "command": "act",
        "version": str(match.version),
        "HEADERS": {"HX-Request": "true"},
        **{key: str(value) for key, value in action.items()},
    }
    await socket.send_to(text_data=json.dumps(fields))
    await receive_until_version(socket, match.version + 1)
    event = await database_sync_to_async(MatchEvent.objects.get)(match=match, version=match.version + 1)
    # Every value came as a string; the move recorded is the action itself (a bid is a number again).
    assert (event.seat, event.user_id, event.action) == (awaited, user.pk, action)
    await socket.disconnect()


async def test_an_idle_socket_still_gets_group_messages_after_7_seconds(host) -> None:
    # The redis-py 8 trap: an idle layer read timing out would drop the socket (issue 2).
    table = await database_sync_to_async(open_table)(host, "sita")
    socket, connected = await connect(table.pk, host)
    assert connected
    await drain(socket)
    await asyncio.sleep(7)
    await database_sync_to_async(lobby.bot_add)(table_id=table.pk, host=host, position=1)
    pushed = await socket.receive_from(timeout=5)
    assert "bot" in pushed
    await socket.disconnect()


async def test_a_reconnecting_player_gets_their_full_view_back(host, player, eager_bots) -> None:
    # RULING S11: a lost connection never removes a player; reopening restores the view.
    table, match = await start_sitaratas(host, player)
    first, _ = await connect(table.pk, player)
    before = " ".join(await drain(first))
    await first.disconnect()
    second, _ = await connect(table.pk, player)
    after = " ".join(await drain(second))
    assert version_of(after) == version_of(before)
    assert 'class="seat me' in after
    await second.disconnect()


@database_sync_to_async
def start_against_bots(host, game: str):
    """The host and bots; the eager bot tasks play until the host is awaited."""
    table = open_table(host, game)
    fill_with_bots(table, host)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    engine, state = state_of(match)
    assert 0 in engine.to_act(state)
    return table, match, engine.legal_actions(state, 0)[0]


async def test_moves_at_two_tables_run_at_once_and_both_are_broadcast(
    host, player, outsider, eager_bots, monkeypatch
) -> None:
    # Issue 9: each command runs on a thread of the pool, not in turn on the one thread that
    # database_sync_to_async shares by default. Neither move may start until both have: one
    # after the other, the first would wait at the barrier until it broke.
    first_table, first_match, first_action = await start_against_bots(host, "estimation")
    second_table, second_match, second_action = await start_against_bots(player, "estimation")
    barrier, threads = threading.Barrier(2, timeout=5), set()
    match_act = play.match_act

    def both_at_once(**kwargs):
        threads.add(threading.get_ident())
        barrier.wait()
        return match_act(**kwargs)

    monkeypatch.setattr(play, "match_act", both_at_once)
    first_socket, _ = await connect(first_table.pk, host)
    second_socket, _ = await connect(second_table.pk, player)
    first_watcher, _ = await connect(first_table.pk, outsider)
    second_watcher, _ = await connect(second_table.pk, outsider)
    sockets = (first_socket, second_socket, first_watcher, second_watcher)
    for communicator in sockets:
        await drain(communicator)
    await first_socket.send_json_to({"command": "act", "action": first_action, "version": first_match.version})
    await second_socket.send_json_to({"command": "act", "action": second_action, "version": second_match.version})
    await asyncio.gather(
        receive_until_version(first_socket, first_match.version + 1),
        receive_until_version(first_watcher, first_match.version + 1),
        receive_until_version(second_socket, second_match.version + 1),
        receive_until_version(second_watcher, second_match.version + 1),
    )
    assert len(threads) == 2
    assert not barrier.broken
    for match in (first_match, second_match):
        event = await database_sync_to_async(match.events.get)(version=match.version + 1)
        assert event.seat == 0
    for communicator in sockets:
        await communicator.disconnect()


async def test_a_move_is_rendered_once_per_seat_and_once_for_all_spectators(
    started_table, host, player, outsider, monkeypatch
) -> None:
    # tables/live/fanout.py: the sockets of a process share the move's snapshot and every render they can.
    from tables.render import fragment
    from tests.conftest import make_user

    table, match = await database_sync_to_async(started_table)("sita", seat_count=2, guests=[player])
    others = [outsider] + [await database_sync_to_async(make_user)(f"watcher{i}") for i in range(2)]
    seated = [(await connect(table.pk, user))[0] for user in (host, player)]
    watching = [(await connect(table.pk, user))[0] for user in others + [outsider]]
    for communicator in seated + watching:
        await drain(communicator)
    engine, state = await database_sync_to_async(state_of)(match)
    match = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    renders = []
    render = fragment.render_live
    monkeypatch.setattr(
        fragment, "render_live", lambda snap, **k: renders.append((snap.version, k["user_id"])) or render(snap, **k)
    )
    await seated[0].send_json_to(
        {"command": "act", "action": engine.legal_actions(state, 0)[0], "version": match.version}
    )
    views = [(await receive_until_version(communicator, match.version + 1))[-1] for communicator in seated + watching]
    after = sorted(user for version, user in renders if version == match.version + 1)
    # One render per seat, and one for all four spectator sockets (three users) together.
    assert len(after) == 3 and {host.pk, player.pk} < set(after) and len(set(after) & {o.pk for o in others}) == 1
    assert len(set(views[2:])) == 1 and views[0] != views[1]  # the spectators' one view; each seat its own
    for communicator in seated + watching:
        await communicator.disconnect()
