"""Names on pages: each isolated in <bdi>, and a player muted site-wide is listed without their own
words for a name (issue 34, finding 5; RULING P54)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.selectors import users_named_publicly
from chat import services as chat
from chat.selectors import panel_state
from tables.render.fragment import load_snapshot, render_live
from tables.services import lobby
from tests.games.history_helpers import finished_match
from tests.tables.helpers import open_table, start_sitaratas_with_a_bot

pytestmark = pytest.mark.django_db

SPAM = "FREE COINS at evil.example"


@pytest.fixture
def spammer(player):
    player.display_name = SPAM
    player.save()
    return player


def _mute(user, by, hours: int = 24):
    return chat.mute_create(user=user, by=by, reason="spam", until=timezone.now() + timedelta(hours=hours))


def test_the_lobby_shows_a_muted_hosts_name_withheld_until_the_mute_ends(admin_user, spammer, outsider) -> None:
    open_table(spammer, "sita")
    client = Client()
    client.force_login(outsider)
    assert SPAM in client.get(reverse("lobby")).content.decode()

    mute = _mute(spammer, admin_user)
    page = client.get(reverse("lobby")).content.decode()
    assert SPAM not in page and f"<bdi>Player {spammer.pk}</bdi>" in page

    chat.mute_lift(mute_id=mute.pk, by=admin_user, reason="served")
    assert f"<bdi>{SPAM}</bdi>" in client.get(reverse("lobby")).content.decode()


def test_the_history_and_ratings_withhold_a_muted_players_name(admin_user, host, spammer) -> None:
    finished_match(host, "sita", humans=(spammer,))
    _mute(spammer, admin_user)
    client = Client()
    history = client.get(reverse("history")).content.decode()
    assert SPAM not in history and f"Player {spammer.pk}" in history and "<bdi>hana</bdi>" in history
    ratings = client.get(reverse("ratings") + "?game=sita").content.decode()
    assert SPAM not in ratings and f"Player {spammer.pk}" in ratings


def test_the_table_page_withholds_a_muted_players_name_from_everyone(admin_user, host, spammer) -> None:
    table = open_table(host, "sita")
    lobby.seat_take(table_id=table.pk, user=spammer, position=1)
    _mute(spammer, admin_user)
    html = render_live(load_snapshot(table.pk), user_id=host.pk, connected=set())
    assert SPAM not in html and f"<bdi>Player {spammer.pk}</bdi>" in html and "<bdi>hana</bdi>" in html


def test_an_ended_mute_withholds_nothing(admin_user, spammer) -> None:
    mute = _mute(spammer, admin_user)
    chat.mute_lift(mute_id=mute.pk, by=admin_user, reason="served")
    assert not users_named_publicly().get(pk=spammer.pk).name_withheld


def test_a_right_to_left_name_is_isolated_in_the_lobby_and_on_a_games_page(host, player) -> None:
    host.display_name = "مريم"
    host.save()
    open_table(host, "sita")
    match = finished_match(host, "sita", humans=(player,))
    client = Client()
    client.force_login(player)
    assert "<bdi>مريم</bdi>" in client.get(reverse("lobby")).content.decode()
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert "<bdi>مريم</bdi>" in page and "مريم</th>" not in page  # the score sheet's heads too


def test_the_live_fragment_isolates_every_seat_name(host, player) -> None:
    table = open_table(host, "sita")
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    html = render_live(load_snapshot(table.pk), user_id=player.pk, connected=set())
    assert '<span class="seat-name" title="piet"><bdi>piet</bdi></span>' in html
    assert "host <bdi>hana</bdi>" in html


def test_the_chat_history_shows_a_muted_authors_past_messages_under_a_neutral_name(admin_user, host, spammer) -> None:
    table = open_table(host, "sita")
    chat.message_post(table_id=table.pk, user=spammer, channel="spectators", text="hello")
    _mute(spammer, admin_user)
    [message] = panel_state(table_id=table.pk, user=host)["messages"]
    assert message["text"] == "hello" and message["author"] == f"Player {spammer.pk}"


def test_a_sentence_on_the_live_table_isolates_the_name_in_it_and_the_announcer_gets_text(host, player) -> None:
    host.display_name = "مريم"
    host.save()
    match = start_sitaratas_with_a_bot(host, player)
    snapshot = load_snapshot(match.table_id)
    pages = [render_live(snapshot, user_id=user.pk, connected=set()) for user in (host, player)]
    waiting = [html for html in pages if "Waiting for <bdi>" in html]
    assert waiting  # whoever is not to act reads whose turn it is, the name isolated
    announce = re.search(r'data-announce="([^"]*)"', waiting[0]).group(1)
    assert "Waiting for " in announce and "bdi" not in announce
