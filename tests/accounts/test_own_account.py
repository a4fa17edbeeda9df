"""A player deletes their own account and downloads their own data (issue 34; RULING P55)."""

from __future__ import annotations

import json

import pytest
from allauth.account.models import EmailAddress
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import AccountError, account_delete_own
from chat import services as chat
from games.models import MatchEvent, MatchPlayer
from games.selectors.history import sitaratas_player
from games.services import signature_add
from payouts.models import Entry, Transfer
from tables.live import guard
from tests.games.history_helpers import finished_match
from tests.payouts.helpers import assert_coins_conserved, assert_passes_conserved, wallet
from tests.tables.helpers import open_table
from tests.tables.socket_helpers import closed_with, connect, connect_with_cookie, drain, session_cookie

PASSWORD = "a-long-pass-phrase"  # tests/conftest.py's make_user


def _delete(client: Client, password: str = PASSWORD):
    return client.post(reverse("account_delete"), {"password": password})


# --- deleting -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_profile_offers_both_to_its_owner_only(client, player, outsider) -> None:
    client.force_login(player)
    own = client.get(reverse("profile", args=[player.username])).content.decode()
    assert reverse("account_delete") in own and reverse("my_data") in own
    other = client.get(reverse("profile", args=[outsider.username])).content.decode()
    assert reverse("account_delete") not in other


@pytest.mark.django_db
def test_the_confirm_page_asks_for_the_password(client, player) -> None:
    client.force_login(player)
    page = client.get(reverse("account_delete")).content.decode()
    assert 'type="password"' in page and "cannot be undone" in page


@pytest.mark.django_db
def test_a_wrong_password_deletes_nothing(client, player) -> None:
    client.force_login(player)
    response = _delete(client, "not-my-password")
    assert response.status_code == 200 and "not your password" in response.content.decode()
    player.refresh_from_db()
    assert player.username == "piet" and player.is_active and player.has_usable_password()


@pytest.mark.django_db
def test_deleting_anonymises_as_the_admin_does_and_keeps_games_and_ledger(client, host, player, outsider) -> None:
    match = finished_match(host, "sitaratas", humans=(player, outsider))
    chosen = sitaratas_player(match).user
    signature_add(match_id=match.pk, user=chosen, text="my name is on this")
    EmailAddress.objects.create(user=chosen, email=chosen.email, primary=True, verified=True)
    elsewhere = Client()
    elsewhere.force_login(chosen)  # another browser of theirs
    entries, coins = Entry.objects.filter(account__user=chosen).count(), wallet(chosen)
    seats = list(MatchPlayer.objects.filter(user=chosen).values_list("match_id", "seat", "place", "total"))
    client.force_login(chosen)

    response = _delete(client, PASSWORD)

    assert response.status_code == 302 and response.url == reverse("lobby")
    chosen.refresh_from_db()
    assert chosen.username == f"deleted-{chosen.pk}"
    assert (chosen.email, chosen.display_name, chosen.is_active, chosen.has_usable_password()) == ("", "", False, False)
    assert not EmailAddress.objects.filter(user=chosen).exists()
    assert not any(s.get_decoded().get("_auth_user_id") == str(chosen.pk) for s in Session.objects.all())
    assert client.get(reverse("wallet")).status_code == 302  # logged out here
    assert elsewhere.get(reverse("wallet")).status_code == 302  # and everywhere else
    assert chosen.signatures.get().text == ""
    assert Entry.objects.filter(account__user=chosen).count() == entries and wallet(chosen) == coins
    assert list(MatchPlayer.objects.filter(user=chosen).values_list("match_id", "seat", "place", "total")) == seats
    assert_coins_conserved()
    assert_passes_conserved()
    assert LogEntry.objects.filter(object_id=str(chosen.pk), change_message__contains="own account").exists()
    assert not Client().post(reverse("account_login"), {"login": "piet", "password": PASSWORD}).wsgi_request.user.pk


@pytest.mark.django_db
def test_a_seated_player_is_told_to_leave_first_and_nothing_changes(client, host) -> None:
    table = open_table(host, "sitaratas")
    client.force_login(host)
    response = _delete(client)
    assert response.status_code == 200 and "leave it" in response.content.decode()
    host.refresh_from_db()
    assert host.username == "hana" and host.is_active and table.seats.filter(user=host).exists()


@pytest.mark.django_db
def test_the_service_refuses_staff_bots_and_the_already_deleted(admin_user, player) -> None:
    with pytest.raises(AccountError):
        account_delete_own(user_id=admin_user.pk)
    with pytest.raises(AccountError):
        account_delete_own(user_id=User.objects.filter(is_bot=True).first().pk)
    account_delete_own(user_id=player.pk)
    with pytest.raises(AccountError):
        account_delete_own(user_id=player.pk)
    assert User.objects.get(pk=admin_user.pk).is_active


@pytest.mark.django_db
def test_the_pages_need_a_login(client) -> None:
    for name in ("account_delete", "my_data", "my_data_download"):
        assert client.get(reverse(name)).status_code == 302


# Transactional: the consumer works on Channels' threads, on connections of their own.
@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_deleting_closes_the_players_table_sockets_here_and_elsewhere(host, player) -> None:
    table = await database_sync_to_async(open_table)(host, "sita")
    cookie = await session_cookie(player)
    here, _ = await connect_with_cookie(table.pk, cookie)
    elsewhere, _ = await connect(table.pk, player)
    await drain(here)
    await drain(elsewhere)

    def delete():
        client = Client()
        client.cookies[settings.SESSION_COOKIE_NAME] = cookie.split("=", 1)[1]
        assert _delete(client).status_code == 302

    await database_sync_to_async(delete)()
    assert await closed_with(here) == guard.CLOSE_LOGGED_OUT
    assert await closed_with(elsewhere) == guard.CLOSE_LOGGED_OUT
    # The server closed them; their disconnects also take them off the presence list in Redis,
    # which counts a user's sockets per table id (RULING P16) across test runs within its TTL.
    await here.disconnect()
    await elsewhere.disconnect()


# --- the data download -----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_data_page_explains_and_links_the_download(client, player) -> None:
    client.force_login(player)
    page = client.get(reverse("my_data")).content.decode()
    assert reverse("my_data_download") in page and "JSON" in page


@pytest.mark.django_db
def test_the_download_holds_the_profile_games_ledger_and_chat(client, host, player, outsider) -> None:
    match = finished_match(host, "sitaratas", humans=(player,))
    table = open_table(outsider, "sita")
    chat.message_post(table_id=table.pk, user=player, channel="spectators", text="good luck all")
    player.display_name = "Piet K"
    player.save()
    client.force_login(player)

    response = client.get(reverse("my_data_download"))

    assert response["Content-Type"].startswith("application/json")
    assert "attachment" in response["Content-Disposition"] and response["Cache-Control"] == "no-store"
    data = json.loads(response.content)
    assert data["account"]["username"] == "piet" and data["account"]["display_name"] == "Piet K"
    assert data["account"]["email"] == "piet@example.com"
    [game] = data["games"]
    assert game["game"] == match.pk and game["kind"] == "sitaratas" and game["place"] is not None
    # Only the last action of a ``finished_match`` is an event; whichever seat's it was, the
    # player's own events are there and no one else's.
    events = MatchEvent.objects.filter(match=match, user=player).order_by("version")
    assert [move["action"] for move in game["moves"]] == [event.action for event in events]
    assert len(data["ledger"]) == Transfer.objects.filter(user=player).count()
    assert all(row["by"] is None for row in data["ledger"])
    assert sum(e["amount"] for row in data["ledger"] for e in row["entries"] if e["account"] == "wallet") == wallet(
        player
    )
    assert [m["text"] for m in data["chat"]["messages"]] == ["good luck all"]


@pytest.mark.django_db
def test_the_download_holds_nobody_elses_data(client, host, player, outsider) -> None:
    finished_match(host, "sitaratas", humans=(player, outsider))
    table = open_table(outsider, "sita")
    chat.message_post(table_id=table.pk, user=outsider, channel="players", text="olga was here")
    client.force_login(player)
    text = client.get(reverse("my_data_download")).content.decode()
    assert "olga was here" not in text and "olga@example.com" not in text
    data = json.loads(text)
    assert {row["id"] for row in data["ledger"]} == set(
        Transfer.objects.filter(user=player).values_list("pk", flat=True)
    )


@pytest.mark.django_db
def test_the_privacy_page_links_to_the_download_and_the_deletion_in_every_language(client) -> None:
    for language in ("en", "et", "ar"):
        page = client.get(reverse("privacy"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f'href="{reverse("my_data")}"' in page and f'href="{reverse("account_delete")}"' in page
