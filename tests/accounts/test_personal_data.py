"""Deletion that deletes, and an export that holds everything (RULINGS P23, P55, P82).

One player gets one of everything the site keeps about a person: a device, a friendship (two
rows), requests both ways, blocks both ways, notifications, an invitation, a "Play now" choice, a
seat's address, a rematch waiting for their answer, an active tournament entry with a fee, a
finished game, chat messages, a report and mutes. Deleting the account leaves nothing personal,
and what stays (the game, the ledger, the chat) stays under the anonymous name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import personal_data
from accounts.models import User
from accounts.services import account_anonymise, account_delete_own
from away.models import Device
from chat import services as chat
from chat.models import ChatMessage, ChatReport, PersonalMute
from games.models import Match, MatchPlayer
from notifications import kinds
from notifications.models import Notification, Sent
from notifications.services import preferences_set
from social import services as social
from social.models import FriendRequest
from tables.models import QuickPlayChoice, RematchAnswer, SeatAddress, Table, TableInvite
from tables.services import rematch
from tables.services.invites import invite_send
from tests.conftest import make_user
from tests.games.history_helpers import finished_match
from tests.payouts.helpers import assert_coins_conserved, assert_passes_conserved, wallet
from tests.tables.helpers import open_table
from tests.tournaments.helpers import create, sign_up, staff
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db

FEE = 50
DEVICE_AUTH = "device-auth-secret"
DEVICE_KEY = "BDeviceP256dhPublicKeyOfPiet"
DEVICE_ENDPOINT = "https://fcm.googleapis.com/fcm/send/piets-phone-token"


@dataclass
class Everything:
    user: User
    match: Match
    table: Table
    tournament: Tournament
    coins_before_entry: int


def _one_of_everything(host: User, player: User, outsider: User) -> Everything:
    carl, dana, erik = make_user("carl"), make_user("dana"), make_user("erik")
    now = timezone.now()
    player.time_zone, player.review_visibility = "Europe/Tallinn", User.ReviewVisibility.ME
    player.save()
    match = finished_match(host, "sitaratas", humans=(player, outsider))
    # A rematch the outsider opened, waiting for the player's answer (it holds their seat).
    rematch.rematch_accept(table_id=match.table_id, user=outsider)
    Device.objects.create(
        user=player, endpoint=DEVICE_ENDPOINT, p256dh=DEVICE_KEY, auth=DEVICE_AUTH, name="Piet's phone", created_at=now
    )
    social.friend_request_send(sender=player, recipient_id=outsider.pk)
    social.friend_request_accept(user=outsider, request_id=FriendRequest.objects.get(sender=player).pk)
    social.friend_request_send(sender=player, recipient_id=dana.pk)  # waiting, sent: dana is notified
    social.friend_request_send(sender=host, recipient_id=player.pk)  # waiting, received
    social.block(user=player, blocked_id=carl.pk)
    social.block(user=erik, blocked_id=player.pk)
    table = open_table(outsider, "sita")
    Table.objects.filter(pk=table.pk).update(private=True)
    invite_send(table_id=table.pk, by=outsider, user_id=player.pk)  # an invitation, and its notification
    TableInvite.objects.create(table=table, user=carl, invited_by=player, created_at=now)
    preferences_set(user=player, choices={kinds.INVITE: {"email": False}})
    Sent.objects.create(user=player, channel=Sent.Channel.EMAIL, kind=kinds.INVITE, sent_at=now)
    QuickPlayChoice.objects.create(user=player, game="sita", wait=10)
    SeatAddress.objects.create(table=match.table, user=player, digest="ab" * 32)
    chat.message_post(table_id=table.pk, user=player, channel="spectators", text="good luck all")
    rude = chat.message_post(table_id=table.pk, user=outsider, channel="players", text="you lot are slow")
    chat.message_report(message_id=rude.pk, user=player, reason="rude", table_id=table.pk)
    chat.personal_mute_set(owner=player, muted_id=outsider.pk, on=True)
    chat.personal_mute_set(owner=carl, muted_id=player.pk, on=True)
    tournament = create(staff(), entry_fee=FEE, prize_split="100")
    coins = wallet(player)
    sign_up(tournament, [player])
    assert wallet(player) == coins - FEE
    return Everything(player, match, table, tournament, coins)


def _user_fields(model) -> list[str]:
    user_model = get_user_model()
    return [f.name for f in model._meta.get_fields() if f.concrete and f.is_relation and f.related_model is user_model]


# --- the registry covers every model ------------------------------------------------------------


def test_every_model_with_a_foreign_key_to_the_user_is_registered_as_erased_or_kept() -> None:
    # RULINGS P23, P55: a new app's rows about a player can be neither left out of the export's
    # reckoning nor left behind by a deletion: it registers them in accounts/personal_data.py.
    with_user = {model._meta.label for model in apps.get_models(include_auto_created=True) if _user_fields(model)}
    assert with_user, "no model points at the user?"
    assert with_user - personal_data.covered_models() == set()
    for data in personal_data.registered():
        assert data.erase is not None or data.kept, data.name
        for label in data.models:
            apps.get_model(label)  # every label names a real model


# --- deleting -----------------------------------------------------------------------------------


def _delete_by_admin(user: User) -> None:
    admin = make_user("root")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    account_anonymise(user_id=user.pk, by=admin)


def _delete_own(user: User) -> None:
    account_delete_own(user_id=user.pk)


@pytest.mark.parametrize("delete", [_delete_by_admin, _delete_own], ids=["admin", "own"])
def test_deleting_leaves_nothing_personal_and_keeps_the_games_and_the_ledger(host, player, outsider, delete) -> None:
    # RULINGS P23, P55, P82
    everything = _one_of_everything(host, player, outsider)
    seats = list(MatchPlayer.objects.filter(user=player).values_list("match_id", "seat", "place", "total"))
    assert seats

    delete(player)

    player.refresh_from_db()
    name = f"deleted-{player.pk}"
    assert player.username == name and player.time_zone == ""
    # Whatever a registration erases and keeps nothing of is gone, every foreign key to the user.
    for data in personal_data.registered():
        if data.kept:
            continue
        for label in data.models:
            model = apps.get_model(label)
            for field in _user_fields(model):
                assert not model.objects.filter(**{field: player}).exists(), f"{label}.{field} left"
    assert not Device.objects.exists()
    assert not Notification.objects.filter(Q(recipient=player) | Q(actor=player)).exists()
    assert not TableInvite.objects.filter(user=player).exists()
    assert TableInvite.objects.get(user__username="carl").invited_by is None  # still carl's way in
    assert not QuickPlayChoice.objects.filter(user=player).exists()
    assert not SeatAddress.objects.filter(user=player).exists()
    answer = RematchAnswer.objects.get(user=player)
    assert answer.answer == RematchAnswer.Answer.DECLINED  # the others' rematch no longer waits
    assert not PersonalMute.objects.filter(owner=player).exists()
    assert PersonalMute.objects.filter(owner__username="carl", muted=player).exists()  # carl's choice
    # RULING P82: before the start the entry is withdrawn, the fee back, the entry gone from the page.
    assert not Entry.objects.filter(user=player).exists()
    assert wallet(player) == everything.coins_before_entry
    page = Client().get(reverse("tournament", args=[everything.tournament.pk])).content.decode()
    assert name not in page and "piet" not in page
    assert_coins_conserved()
    assert_passes_conserved()
    # What stays, stays under the anonymous name: the finished game's seat and its chat.
    assert list(MatchPlayer.objects.filter(user=player).values_list("match_id", "seat", "place", "total")) == seats
    game_page = Client().get(f"/games/{everything.match.pk}/").content.decode()
    assert name in game_page
    assert ChatMessage.objects.filter(author=player, text="good luck all").exists()  # RULING P29
    assert ChatReport.objects.filter(reporter=player).exists()


# --- the export ---------------------------------------------------------------------------------


def test_the_export_holds_every_kind_of_data_and_no_device_keys(client, host, player, outsider) -> None:
    # RULING P55
    everything = _one_of_everything(host, player, outsider)
    client.force_login(player)

    text = client.get(reverse("my_data_download")).content.decode()

    data = json.loads(text)
    assert {d.name for d in personal_data.registered() if d.export is not None} <= set(data)
    account = data["account"]
    assert (account["time_zone"], account["review_visibility"]) == ("Europe/Tallinn", "me")
    [device] = data["devices"]
    assert device["name"] == "Piet's phone" and device["push_service"] == "fcm.googleapis.com"
    assert DEVICE_AUTH not in text and DEVICE_KEY not in text and "piets-phone-token" not in text
    [entry] = data["tournaments"]["entries"]
    assert entry["tournament"] == everything.tournament.pk and entry["state"] == "active"
    assert entry["entry_fee"] == FEE
    friends = data["friends"]
    assert friends["friends"] == ["olga"] and friends["requests_sent"] == ["dana"]
    assert friends["requests_received"] == ["hana"] and friends["blocked"] == ["carl"]
    assert kinds.INVITE in {row["kind"] for row in data["notifications"]["notifications"]}
    assert data["notifications"]["preferences"][kinds.INVITE]["email"] is False
    assert [row["way"] for row in data["notifications"]["sent"]] == ["email"]
    tables = data["tables"]
    assert [row["table"] for row in tables["invitations"]] == [everything.table.pk]
    assert [row["game"] for row in tables["quick_play"]] == ["sita"]
    assert [row["answer"] for row in tables["rematch_answers"]] == ["pending"]
    assert [m["text"] for m in data["chat"]["messages"]] == ["good luck all"]
    assert data["chat"]["muted_players"] == ["olga"] and len(data["chat"]["reports"]) == 1
    assert [game["game"] for game in data["games"]] == [everything.match.pk]
    assert data["ratings"] and data["ledger"]
