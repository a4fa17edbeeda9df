"""Moderation in the admin, the append-only record, and a finished game's chat on its page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from chat import services
from chat.models import ChatMessage, ChatMute, ChatReport
from games.models import Match
from tables.services import lobby, play
from tests.chat.helpers import seated_sita_table
from tests.conftest import make_user
from tests.helpers import fair_value
from tests.tables.helpers import state_of

CHANGELIST = "/admin/chat/chatmessage/"


def post(table, user, text, channel="players"):
    return services.message_post(table_id=table.pk, user=user, channel=channel, text=text)


@pytest.mark.django_db
def test_the_admin_lists_reported_messages_first(client, admin_user, host, player, outsider) -> None:
    table = seated_sita_table(host, player)
    quiet = post(table, host, "first, never reported")
    once = post(table, player, "reported once")
    twice = post(table, host, "reported twice")
    post(table, player, "the newest")
    services.message_report(message_id=once.pk, user=outsider, reason="rude")
    services.message_report(message_id=twice.pk, user=outsider, reason="rude")
    services.message_report(message_id=twice.pk, user=player, reason="very rude")
    client.force_login(admin_user)
    page = client.get(CHANGELIST).content.decode()
    order = [
        text for text in ("reported twice", "reported once", "the newest", "first, never reported") if text in page
    ]
    assert order == sorted(order, key=page.index) and len(order) == 4
    reported = client.get(CHANGELIST, {"reported": "open"}).content.decode()
    assert "reported twice" in reported and "reported once" in reported
    assert quiet.text not in reported and "the newest" not in reported


@pytest.mark.django_db
def test_hiding_from_the_admin_asks_for_a_reason_and_writes_a_log_entry(
    client, admin_user, host, player, outsider
) -> None:
    table = seated_sita_table(host, player)
    message = post(table, player, "buy cheap coins at example.com")
    services.message_report(message_id=message.pk, user=outsider, reason="spam")
    client.force_login(admin_user)
    action = {"action": "hide_messages", "_selected_action": [message.pk]}

    asked = client.post(CHANGELIST, action)
    assert asked.status_code == 200 and b'name="reason"' in asked.content
    refused = client.post(CHANGELIST, {**action, "apply": "1", "reason": ""})
    assert b"This field is required" in refused.content
    message.refresh_from_db()
    assert not message.hidden and not LogEntry.objects.exists()

    done = client.post(CHANGELIST, {**action, "apply": "1", "reason": "Advertising"})
    assert done.status_code == 302
    message.refresh_from_db()
    assert (message.hidden, message.hidden_by, message.hidden_reason) == (True, admin_user, "Advertising")
    assert ChatReport.objects.get().resolved_at is not None
    entry = LogEntry.objects.get()
    assert (entry.action_flag, entry.object_id, entry.user) == (CHANGE, str(message.pk), admin_user)
    assert entry.change_message == "Hid the message: Advertising"
    assert client.get(f"{CHANGELIST}{message.pk}/change/").status_code == 200  # read, never edited


@pytest.mark.django_db
def test_muting_from_the_admin_takes_a_reason_and_a_period_once_per_author(client, admin_user, host, player) -> None:
    table = seated_sita_table(host, player)
    first, second = post(table, player, "spam one"), post(table, player, "spam two")
    client.force_login(admin_user)
    before = timezone.now()
    response = client.post(
        CHANGELIST,
        {
            "action": "mute_authors",
            "_selected_action": [first.pk, second.pk],
            "apply": "1",
            "reason": "Spamming",
            "hours": "24",
        },
    )
    assert response.status_code == 302
    mute = ChatMute.objects.get()
    assert (mute.user, mute.reason, mute.created_by) == (player, "Spamming", admin_user)
    assert timedelta(hours=23, minutes=59) < mute.until - before < timedelta(hours=24, minutes=1)
    entry = LogEntry.objects.get()
    assert entry.action_flag == ADDITION and "Spamming" in entry.change_message
    with pytest.raises(services.ChatError, match="Reason: Spamming"):
        post(table, player, "still here?")

    # RULING P19: lifting asks why, as muting did (tests/accounts/test_admin_reasons.py).
    lifted = client.post(
        "/admin/chat/chatmute/", {"action": "lift", "_selected_action": [mute.pk], "apply": "1", "reason": "Served"}
    )
    assert lifted.status_code == 302
    assert LogEntry.objects.count() == 2
    post(table, player, "back again")


@pytest.mark.django_db
def test_dismissing_reports_keeps_the_message_and_is_logged(admin_user, host, player, outsider) -> None:
    table = seated_sita_table(host, player)
    message = post(table, player, "a fair remark")
    services.message_report(message_id=message.pk, user=outsider, reason="I disagree")
    assert services.reports_dismiss(message_id=message.pk, by=admin_user, reason="Fair play") == 1
    assert services.reports_dismiss(message_id=message.pk, by=admin_user, reason="Fair play") == 0
    message.refresh_from_db()
    assert not message.hidden
    assert LogEntry.objects.count() == 1


@pytest.mark.django_db
def test_moderation_without_a_reason_is_refused(admin_user, host, player) -> None:
    table = seated_sita_table(host, player)
    message = post(table, player, "hm")
    with pytest.raises(services.ChatError):
        services.message_hide(message_id=message.pk, by=admin_user, reason="  ")
    with pytest.raises(services.ChatError):
        services.mute_create(user=player, by=admin_user, reason="", until=timezone.now() + timedelta(hours=1))
    with pytest.raises(services.ChatError, match="future"):
        services.mute_create(user=player, by=admin_user, reason="x", until=timezone.now())
    services.message_hide(message_id=message.pk, by=admin_user, reason="noise")
    with pytest.raises(services.ChatError, match="already hidden"):
        services.message_hide(message_id=message.pk, by=admin_user, reason="noise")
    assert LogEntry.objects.count() == 1 and not ChatMute.objects.exists()


@pytest.mark.django_db
def test_messages_are_append_only_in_the_database(admin_user, host, player) -> None:
    table = seated_sita_table(host, player)
    message = post(table, player, "what I said")
    for change in ({"text": "what I did not say"}, {"author": host}, {"hidden": False}):
        with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
            ChatMessage.objects.filter(pk=message.pk).update(**change)
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        ChatMessage.objects.filter(pk=message.pk).delete()
    services.message_hide(message_id=message.pk, by=admin_user, reason="noise")
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        ChatMessage.objects.filter(pk=message.pk).update(hidden_reason="changed my mind")
    assert ChatMessage.objects.get().text == "what I said"


@pytest.mark.django_db
def test_a_finished_games_chat_is_on_its_page_for_its_players_only(client, host, player, outsider) -> None:
    table = seated_sita_table(host, player)
    post(table, outsider, "lobby talk", channel="spectators")  # before the game: not the game's
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    post(table, host, "Good luck <script>alert(1)</script> see https://example.com")
    post(table, outsider, "go piet", channel="spectators")
    hidden = post(table, player, "something rude")
    services.message_hide(message_id=hidden.pk, by=make_user("mod"), reason="rude")
    match = _finish(match, host, player)
    post(table, player, "Good game")  # after the end: still the game's

    client.force_login(player)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    chat = page[page.index('id="match-chat"') :]
    assert re.findall(r'class="chat-text">([^<]*)<', chat) == [
        "Good luck &lt;script&gt;alert(1)&lt;/script&gt; see https://example.com",
        "go piet",
        "Good game",
    ]
    assert "<a " not in chat.split("</section>")[0]  # links stay text
    client.force_login(outsider)
    assert 'id="match-chat"' not in client.get(reverse("match", args=[match.pk])).content.decode()


def _finish(match: Match, host, player) -> Match:
    """Play the two humans' SITA match to its end through the service."""
    users = {0: host, 1: player}
    while True:
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return match
        engine, state = state_of(match)
        seat = engine.to_act(state)[0]
        action = engine.legal_actions(state, seat)[0]
        play.match_act(match_id=match.pk, user=users[seat], action=action, version=match.version)


@pytest.mark.django_db
def test_quick_phrases_are_offered_and_sent_in_the_writer_language(host, player) -> None:
    # Issue 26: a quick phrase is a message like a typed one: what was sent is what everyone reads.
    from django.utils import translation

    from chat import selectors

    table = seated_sita_table(host, player)
    with translation.override("et"):
        estonian = selectors.panel_state(table_id=table.pk, user=player)["phrases"]
    with translation.override("ar"):
        arabic = selectors.panel_state(table_id=table.pk, user=host)["phrases"]
    assert estonian == ["Edu!", "Hästi mängitud", "Hea mäng", "Oih", "Aitäh"]
    assert arabic[0] == "بالتوفيق"
    post(table, player, estonian[0])
    assert ChatMessage.objects.get(table=table).text == "Edu!"
