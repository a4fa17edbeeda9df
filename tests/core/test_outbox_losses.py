"""The outbox sends at most once (core/outbox.py): for each event that no later push repairs, the
write is stored, and what the event would have told is read again from it. Each test loses every
send of a write, with the hand-over shown, and then shows the next read or push putting it right."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from chat import selectors as chat_selectors
from chat import services as chat
from chat.events import ChatChanged, MessageHidden, MuteChanged
from chat.models import Channel
from core import outbox
from notifications import kinds, live
from notifications import services as notifications
from notifications.events import BellChanged, DeliveryDue
from social import services as social
from social.events import BlockChanged
from tables.events import AccountSaved, TableChanged
from tables.live import guard
from tables.models import Spectators, Table
from tables.services import play
from tests.chat.helpers import seated_sita_table
from tests.helpers import session_key_for
from tests.tables.helpers import start_table, state_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def lost(monkeypatch, django_capture_on_commit_callbacks):
    """Run ``write`` and lose every send its commit hands over; the events lost, in order."""

    def lose(write) -> list:
        dropped: list = []
        with monkeypatch.context() as patch, django_capture_on_commit_callbacks(execute=True):
            patch.setattr(outbox, "_deliver", dropped.append)
            write()
        return dropped

    return lose


def kinds_of(events: list) -> list[type]:
    return [type(event) for event in events]


def test_a_hidden_message_whose_event_is_lost_is_left_out_at_the_panels_next_read(lost, host, player) -> None:
    table = seated_sita_table(host, player)
    message = chat.message_post(table_id=table.pk, user=player, channel=Channel.PLAYERS, text="buy coins")
    seen = chat_selectors.panel_state(table_id=table.pk, user=host)
    assert [shown["id"] for shown in seen["messages"]] == [message.pk]
    events = lost(lambda: chat.message_hide(message_id=message.pk, by=host, reason="spam"))
    assert events == [MessageHidden(table_id=table.pk, message_id=message.pk)]
    assert chat_selectors.panel_state(table_id=table.pk, user=host)["messages"] == []


def test_a_site_wide_mute_whose_event_is_lost_holds_at_the_next_post_and_read(lost, host, player) -> None:
    table = seated_sita_table(host, player)
    until = timezone.now() + timedelta(hours=1)
    events = lost(lambda: chat.mute_create(user=player, by=host, reason="Spam", until=until))
    assert events == [MuteChanged(user_id=player.pk)]
    with pytest.raises(chat.ChatError, match="Spam"):
        chat.message_post(table_id=table.pk, user=player, channel=Channel.PLAYERS, text="still here")
    state = chat_selectors.panel_state(table_id=table.pk, user=player)
    assert state["can_write"] is False and "Spam" in state["notice"]


def test_spectators_chat_turned_off_with_its_event_lost_holds_at_the_next_post_and_read(lost, host, player, outsider):
    table = seated_sita_table(host, player)
    events = lost(lambda: chat.spectator_chat_set(table_id=table.pk, by=host, on=False))
    assert events == [ChatChanged(table_id=table.pk)]
    with pytest.raises(chat.ChatError, match="turned spectators' chat off"):
        chat.message_post(table_id=table.pk, user=outsider, channel=Channel.SPECTATORS, text="hello")
    state = chat_selectors.panel_state(table_id=table.pk, user=outsider)
    assert state["can_write"] is False and state["spectator_chat"] is False


def test_a_block_whose_events_are_lost_holds_at_the_next_chat_read_and_notice(lost, host, player) -> None:
    table = seated_sita_table(host, player)
    chat.message_post(table_id=table.pk, user=player, channel=Channel.PLAYERS, text="hello")
    events = lost(lambda: social.block(user=host, blocked_id=player.pk))
    assert BlockChanged(user_ids=(host.pk, player.pk)) in events and BellChanged(user_id=host.pk) in events
    state = chat_selectors.panel_state(table_id=table.pk, user=host)
    assert player.pk in state["unseen"] and state["messages"] == []
    assert notifications.notify(user=host, kind=kinds.FRIEND_REQUEST, actor=player) is None  # RULING P67


def test_a_bell_notice_whose_events_are_lost_is_in_the_next_push(lost, host, player, outsider) -> None:
    first = None

    def write() -> None:
        nonlocal first
        first = notifications.notify(user=player, kind=kinds.FRIEND_REQUEST, actor=host)

    events = lost(write)
    assert first is not None
    assert events == [BellChanged(user_id=player.pk, notification_id=first.pk), DeliveryDue(notification_id=first.pk)]
    # The next push (another notice) or page reads the count from the rows: the lost one is in it.
    second = notifications.notify(user=player, kind=kinds.FRIEND_REQUEST, actor=outsider)
    assert second is not None
    frame = live.bell_frame(player.pk, second.pk)["bell"]
    assert frame["unread"] == 2 and frame["new"]["id"] == second.pk


def test_a_login_ended_by_a_save_whose_event_is_lost_is_found_at_the_sockets_recheck(lost, player) -> None:
    session_key = session_key_for(player)
    assert guard.session_now(session_key, player.pk) == session_key

    def new_password() -> None:
        player.set_password("another-long-pass-phrase")
        player.save()

    assert kinds_of(lost(new_password)) == [AccountSaved]
    # RULING P18: the socket's next message after SESSION_RECHECK_SECONDS reads this, and closes.
    assert guard.session_now(session_key, player.pk) is None


def test_a_revoke_whose_event_is_lost_is_carried_by_the_next_moves_push(lost, host, player, outsider) -> None:
    # RULING P66; the sockets' side of this is tests/tables/test_access_sockets.py.
    table, match = start_table(host, "sita", seat_count=2, guests=[player])
    Table.objects.filter(pk=table.pk).update(private=True, spectators=Spectators.ANYONE)
    before = Table.objects.get(pk=table.pk).access_version
    events = lost(lambda: social.block(user=host, blocked_id=outsider.pk))
    assert TableChanged(table_id=table.pk, lobby=True, access_users=(host.pk, outsider.pk)) in events

    def a_move() -> None:
        engine, state = state_of(match)
        action = random.Random(0).choice(engine.legal_actions(state, 0))
        play.match_act(match_id=match.pk, user=host, action=action, version=match.version)

    pushes = [event for event in lost(a_move) if isinstance(event, TableChanged)]
    assert [push.access for push in pushes] == [before + 1]  # a socket under an older version decides again
