"""Chat over the table socket: the two rooms, the limits, hiding and mutes (issue 23)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.admin.models import LogEntry
from django.utils import timezone

from chat import rules, services
from chat.models import ChatMessage, ChatReport
from tests.chat.helpers import (
    chat_received,
    errors,
    errors_received,
    no_chat_before,
    open_sockets,
    say,
    sita_table,
    texts,
)
from tests.conftest import make_user

# Transactional: the consumer works on Channels' threads, on connections of their own.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

count_messages = database_sync_to_async(lambda **filters: ChatMessage.objects.filter(**filters).count())


async def close(*sockets) -> None:
    for socket in sockets:
        await socket.disconnect()


async def test_during_a_game_players_see_only_their_chat_and_spectators_see_both(host, player, outsider) -> None:
    table = await sita_table(host, player, start=True)
    host_socket, player_socket, watcher = await open_sockets(table.pk, host, player, outsider)

    await say(player_socket, "Good luck")
    for socket in (host_socket, player_socket, watcher):
        frames = await chat_received(socket)
        assert texts(frames) == ["Good luck"]
        assert frames[0]["message"]["channel"] == "players"

    await say(watcher, "What a hand", channel="spectators")
    assert texts(await chat_received(watcher)) == ["What a hand"]
    # RULING P25: the players are not shown the spectators' chat while they play: the players'
    # next line comes first.
    await say(player_socket, "Your lead")
    await no_chat_before(host_socket, "Your lead")
    await no_chat_before(player_socket, "Your lead")
    await close(host_socket, player_socket, watcher)


async def test_the_history_on_reconnect_follows_the_same_rooms(host, player, outsider) -> None:
    table = await sita_table(host, player, start=True)
    await database_sync_to_async(services.message_post)(table_id=table.pk, user=player, channel="players", text="hi")
    await database_sync_to_async(services.message_post)(
        table_id=table.pk, user=outsider, channel="spectators", text="watching you"
    )
    host_socket, watcher = await open_sockets(table.pk, host, outsider)
    await host_socket.send_json_to({"command": "chat_sync"})
    await watcher.send_json_to({"command": "chat_sync"})
    host_state = (await chat_received(host_socket))[0]
    watcher_state = (await chat_received(watcher))[0]
    assert [m["text"] for m in host_state["messages"]] == ["hi"]
    assert (host_state["write"], host_state["channels"]) == ("players", ["players"])
    assert [m["text"] for m in watcher_state["messages"]] == ["hi", "watching you"]
    assert (watcher_state["write"], watcher_state["channels"]) == ("spectators", ["players", "spectators"])
    assert watcher_state["phrases"] == list(rules.QUICK_PHRASES)
    await close(host_socket, watcher)


async def test_in_the_lobby_the_players_see_the_spectators_chat_too(host, player, outsider) -> None:
    table = await sita_table(host, player, start=False)
    host_socket, watcher = await open_sockets(table.pk, host, outsider)
    await say(watcher, "Can I join next game?", channel="spectators")
    assert texts(await chat_received(host_socket)) == ["Can I join next game?"]
    assert texts(await chat_received(watcher)) == ["Can I join next game?"]
    await close(host_socket, watcher)


async def test_a_spectator_is_refused_in_the_players_chat_and_nothing_is_written(host, player, outsider) -> None:
    table = await sita_table(host, player, start=True)
    host_socket, watcher = await open_sockets(table.pk, host, outsider)
    await say(watcher, "play the 55!", channel="players")
    frames = await chat_received(watcher, count=2)  # the refusal, then the panel's state
    assert errors(frames) == ["Spectators write only in the spectators' chat."]
    assert frames[-1]["type"] == "state" and frames[-1]["write"] == "spectators"  # the panel is put right
    assert await count_messages() == 0
    await no_chat_before(host_socket, "Good luck", cause=say(host_socket, "Good luck"))  # nor was it sent
    # Nor may a player write in the spectators' chat.
    await say(host_socket, "hello watchers", channel="spectators")
    assert await errors_received(host_socket) == ["Players write only in the players' chat."]
    assert await count_messages() == 1  # "Good luck" alone
    await close(host_socket, watcher)


async def test_messages_are_trimmed_and_at_most_300_characters(host, player) -> None:
    table = await sita_table(host, player, start=True)
    host_socket, player_socket = await open_sockets(table.pk, host, player)

    await say(host_socket, "x" * 301)
    assert await errors_received(host_socket) == ["A message can be at most 300 characters; yours has 301."]
    await say(host_socket, "   \n\t ")
    assert await errors_received(host_socket) == ["Type a message first."]
    assert await count_messages() == 0

    # Trimmed, the first line the player is sent: neither refused one came before it.
    await no_chat_before(player_socket, "y" * 300, cause=say(host_socket, "  " + "y" * 300 + "\n"))
    # Markup is stored and sent as the text it is; the page makes it text nodes.
    await say(host_socket, '<b onclick="x()">hi</b>\nhttp://example.com')
    assert texts(await chat_received(player_socket)) == ['<b onclick="x()">hi</b> http://example.com']
    await close(host_socket, player_socket)


async def test_a_sixth_message_in_ten_seconds_and_a_second_repeat_are_refused(host, player) -> None:
    table = await sita_table(host, player, start=True)
    host_socket, player_socket = await open_sockets(table.pk, host, player)

    for number in range(5):
        await say(host_socket, f"message {number}")
    await say(host_socket, "one too many")
    frames = await chat_received(host_socket, count=6)
    assert texts(frames) == [f"message {number}" for number in range(5)]
    [refusal] = errors(frames)
    assert refusal.startswith("Slow down: at most 5 messages in 10 seconds. You can write again in ")
    assert texts(await chat_received(player_socket, count=5)) == [f"message {number}" for number in range(5)]
    assert await count_messages(author=host) == 5

    for _ in range(3):
        await say(player_socket, "Oops")
    frames = await chat_received(player_socket, count=3)
    assert texts(frames) == ["Oops", "Oops"]  # RULING P27: the message and one repeat
    assert errors(frames) == ["You have just said that. Say something else, or wait a few seconds to repeat it."]
    assert await count_messages(author=player) == 2
    await close(host_socket, player_socket)


async def test_the_rate_window_slides(host, player, time_machine) -> None:
    table = await sita_table(host, player, start=True)
    post = database_sync_to_async(services.message_post)
    time_machine.move_to(timezone.now(), tick=False)
    for number in range(5):
        await post(table_id=table.pk, user=host, channel="players", text=f"m{number}")
    with pytest.raises(services.ChatError, match="in 10 s"):
        await post(table_id=table.pk, user=host, channel="players", text="m5")
    time_machine.shift(timedelta(seconds=10.5))
    await post(table_id=table.pk, user=host, channel="players", text="m5")


async def test_a_hidden_message_disappears_live_for_everyone(host, player, outsider, admin_user) -> None:
    table = await sita_table(host, player, start=True)
    host_socket, player_socket, watcher = await open_sockets(table.pk, host, player, outsider)
    await say(player_socket, "rude words")
    message_id = (await chat_received(host_socket))[0]["message"]["id"]
    await chat_received(player_socket)
    await chat_received(watcher)

    await database_sync_to_async(services.message_hide)(message_id=message_id, by=admin_user, reason="Insults")
    for socket in (host_socket, player_socket, watcher):
        assert await chat_received(socket) == [{"type": "hide", "id": message_id}]

    # Gone from the history a reconnecting socket gets; kept, hidden, in the record.
    await watcher.send_json_to({"command": "chat_sync"})
    assert (await chat_received(watcher))[0]["messages"] == []
    message = await database_sync_to_async(ChatMessage.objects.get)(pk=message_id)
    assert (message.hidden, message.hidden_by_id, message.hidden_reason) == (True, admin_user.pk, "Insults")
    entry = await database_sync_to_async(LogEntry.objects.get)(object_id=str(message_id))
    assert entry.user_id == admin_user.pk and "Insults" in entry.change_message
    await close(host_socket, player_socket, watcher)


async def test_a_muted_user_is_refused_with_the_reason_and_the_end(host, player, admin_user) -> None:
    table = await sita_table(host, player, start=True)
    host_socket, player_socket = await open_sockets(table.pk, host, player)
    until = timezone.now() + timedelta(hours=24)
    await database_sync_to_async(services.mute_create)(user=player, by=admin_user, reason="Spamming links", until=until)
    await say(player_socket, "let me talk")
    frames = await chat_received(player_socket, count=2)  # the refusal, then the chat's new state
    [refusal] = errors(frames)
    local = timezone.localtime(until)
    assert refusal == (
        f"You are muted from chat until {local:%-d %b %Y, %H:%M} {local.tzname()}. Reason: Spamming links"
    )
    assert frames[-1]["type"] == "state"
    assert (frames[-1]["can_write"], frames[-1]["notice"]) == (False, refusal)
    assert await count_messages() == 0
    await no_chat_before(host_socket, "anyone there?", cause=say(host_socket, "anyone there?"))  # nor was it sent
    await close(host_socket, player_socket)


async def test_a_personal_mute_hides_one_author_from_one_viewer_only(host, player, outsider) -> None:
    table = await sita_table(host, player, start=False)
    host_socket, player_socket, watcher = await open_sockets(table.pk, host, player, outsider)
    await player_socket.send_json_to({"command": "chat_mute", "user": outsider.pk})
    state = (await chat_received(player_socket))[0]
    assert state["muted_users"] == [{"id": outsider.pk, "name": outsider.name}]

    await say(watcher, "spam spam", channel="spectators")
    assert texts(await chat_received(host_socket)) == ["spam spam"]
    assert texts(await chat_received(watcher)) == ["spam spam"]
    # RULING P28: the host's line, said after it, is the first the player is sent.
    await no_chat_before(player_socket, "quiet please", cause=say(host_socket, "quiet please"))

    await player_socket.send_json_to({"command": "chat_unmute", "user": outsider.pk})
    state = (await chat_received(player_socket))[0]
    assert [m["text"] for m in state["messages"]] == ["spam spam", "quiet please"]
    await player_socket.send_json_to({"command": "chat_mute", "user": player.pk})
    assert await errors_received(player_socket) == ["You cannot mute yourself."]
    await close(host_socket, player_socket, watcher)


async def test_the_host_turns_the_spectators_chat_off(host, player, outsider) -> None:
    table = await sita_table(host, player, start=False)
    host_socket, player_socket, watcher = await open_sockets(table.pk, host, player, outsider)
    await say(watcher, "before", channel="spectators")
    for socket in (host_socket, player_socket, watcher):
        assert texts(await chat_received(socket)) == ["before"]

    await player_socket.send_json_to({"command": "chat_spectators", "on": False})
    assert await errors_received(player_socket) == ["Only the host can turn spectators' chat on or off."]

    await host_socket.send_json_to({"command": "chat_spectators", "on": False})
    for socket in (host_socket, player_socket, watcher):
        [state] = await chat_received(socket)
        assert state["type"] == "state" and state["spectator_chat"] is False
        assert [m["text"] for m in state["messages"]] == []  # RULING P26: nobody sees it while off
    assert state["notice"] == "The host has turned spectators' chat off at this table." and not state["can_write"]

    await say(watcher, "after", channel="spectators")
    assert await errors_received(watcher) == ["The host has turned spectators' chat off at this table."]
    assert await count_messages() == 1
    await close(host_socket, player_socket, watcher)


async def test_anyone_who_sees_a_message_may_report_it_once(host, player, outsider) -> None:
    table = await sita_table(host, player, start=True)
    host_socket, player_socket, watcher = await open_sockets(table.pk, host, player, outsider)
    await say(watcher, "spectator talk", channel="spectators")
    spectator_message = (await chat_received(watcher))[0]["message"]["id"]
    await say(host_socket, "you are all bad")
    message_id = (await chat_received(host_socket))[0]["message"]["id"]
    await chat_received(player_socket)
    await chat_received(watcher)

    report = {"command": "chat_report", "id": message_id, "reason": "Insult"}
    await watcher.send_json_to(report)
    assert await chat_received(watcher) == [
        {"type": "notice", "message": "Thank you: a moderator will look at that message."}
    ]
    await watcher.send_json_to(report)
    assert await errors_received(watcher) == ["You have already reported this message."]
    await host_socket.send_json_to(report)
    assert await errors_received(host_socket) == ["You cannot report your own message."]
    await player_socket.send_json_to({"command": "chat_report", "id": message_id, "reason": " "})
    assert await errors_received(player_socket) == ["Say why you report this message."]
    # A player cannot see (so cannot report) the spectators' chat during the game.
    await player_socket.send_json_to({"command": "chat_report", "id": spectator_message, "reason": "x"})
    assert await errors_received(player_socket) == ["There is no such message."]
    reports = await database_sync_to_async(lambda: list(ChatReport.objects.values_list("message_id", "reporter_id")))()
    assert reports == [(message_id, outsider.pk)]
    await close(host_socket, player_socket, watcher)


async def test_chat_on_a_closed_table_is_refused(host, player) -> None:
    table = await sita_table(host, player, start=False)
    await database_sync_to_async(services.message_post)(table_id=table.pk, user=host, channel="players", text="bye")
    from tables.services import lobby

    await database_sync_to_async(lobby.table_close)(table_id=table.pk, by=host)
    with pytest.raises(services.ChatError, match="closed"):
        await database_sync_to_async(services.message_post)(
            table_id=table.pk, user=host, channel="players", text="anyone?"
        )


async def test_bad_chat_commands_get_a_clear_message(host, player) -> None:
    table = await sita_table(host, player, start=False)
    [host_socket] = await open_sockets(table.pk, host)
    await host_socket.send_json_to({"command": "chat_report", "id": "abc", "reason": "x"})
    assert await errors_received(host_socket) == ["That chat message could not be understood."]
    await host_socket.send_json_to({"command": "chat_send", "channel": "players", "text": ["not", "text"]})
    assert await errors_received(host_socket) == ["Type a message first."]
    stranger = await database_sync_to_async(make_user)("stan")
    await host_socket.send_json_to({"command": "chat_mute", "user": stranger.pk + 1000})
    assert await errors_received(host_socket) == ["There is no such player."]
    await close(host_socket)
