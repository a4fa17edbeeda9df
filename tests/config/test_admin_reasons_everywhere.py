"""Every admin page that changes or deletes a row, and every admin action, asks why first and does
nothing without a reason; with one, the reason is in Django's admin log (RULING P19).

Walks the admin site's registry, so an admin added later is held to the same rule: a model whose
admin may change or delete a row gets a real row here (``world``), or the test fails asking for one.
"""

from __future__ import annotations

from datetime import timedelta
from html.parser import HTMLParser
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django import forms
from django.apps import apps
from django.contrib import admin
from django.contrib.admin.models import DELETION, LogEntry
from django.contrib.auth.models import Group
from django.contrib.sessions.models import Session
from django.db.models import Model
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from away.models import Device
from chat import services as chat
from chat.models import ChatMessage, ChatMute
from core.admin_tools import ViewOnlyAdmin
from games.models import Match, Review, Signature
from payouts.models import Account
from tables.models import Table
from tests.chat.helpers import seated_sita_table
from tests.conftest import make_user
from tests.tables.helpers import start_table
from tests.tournaments import helpers as tournaments
from tournaments.models import Entry, Round, Tournament

pytestmark = pytest.mark.django_db

REGISTERED = sorted(model._meta.label for model in admin.site._registry)
# The grant's memo is its reason: shown to the player and kept in the admin log (RULING P19).
REASON_FIELDS = ("reason", "memo")


@pytest.fixture
def world(host, player, outsider, admin_user) -> dict[str, Model]:
    """One row of each model whose admin may change or delete it or has actions, each in a state
    where that change, deletion or action would do something."""
    _playing_table, match = start_table(host, "sita", seat_count=2, guests=[player])
    lobby_table = seated_sita_table(host, outsider)
    message = chat.message_post(table_id=lobby_table.pk, user=outsider, channel="players", text="hello all")
    chat.message_report(message_id=message.pk, user=host, reason="rude")
    mute = chat.mute_create(user=outsider, by=admin_user, reason="spam", until=timezone.now() + timedelta(days=1))
    now = timezone.now()
    signature = Signature.objects.create(match=match, user=host, text="well played", created_at=now)
    review = Review.objects.create(match=match, seat=0, user=host, status=Review.Status.FAILED, requested_at=now)
    cup = tournaments.create(tournaments.staff(), game="sitaratas", options={}, table_size=3, min_players=3)
    entrants = tournaments.players(3)
    tournaments.sign_up(cup, entrants)
    tournaments.start(cup)
    device = Device.objects.create(
        user=player, endpoint="https://push.example.com/1", p256dh="k", auth="a", created_at=now
    )
    return {
        "auth.Group": Group.objects.create(name="Moderators"),
        "account.EmailAddress": EmailAddress.objects.create(user=player, email="piet@example.com", primary=True),
        "accounts.User": player,
        "tables.Table": lobby_table,
        "games.Match": match,
        "games.Signature": signature,
        "games.Review": review,
        "payouts.Account": Account.objects.get(key=f"wallet:{player.pk}"),
        "chat.ChatMessage": message,
        "chat.ChatMute": mute,
        "tournaments.Tournament": cup,
        "tournaments.Entry": Entry.objects.filter(tournament=cup).first(),
        "tournaments.Round": Round.objects.get(tournament=cup),
        "away.Device": device,
    }


def snapshot() -> dict[str, list[dict[str, Any]]]:
    """Every row of every table but the sessions: what "nothing changed" compares."""
    return {
        model._meta.label: list(model._default_manager.order_by("pk").values())
        for model in apps.get_models()
        if model is not Session
    }


class FormReader(HTMLParser):
    """What a browser posts back from a page's form ``form_id`` (or its first form)."""

    def __init__(self, form_id: str | None = None) -> None:
        super().__init__()
        self.form_id, self.inside, self.data = form_id, False, {}
        self.select: str | None = None
        self.textarea: str | None = None

    def handle_starttag(self, tag: str, attrs_list: list[tuple[str, str | None]]) -> None:
        attrs = {key: value or "" for key, value in attrs_list}
        if tag == "form" and (self.form_id is None or attrs.get("id") == self.form_id):
            self.inside = True
        if not self.inside or "name" not in attrs and tag != "option":
            return
        name = attrs.get("name", "")
        if tag == "input":
            kind = attrs.get("type", "text")
            if (
                kind in ("submit", "button", "file", "image")
                or kind in ("checkbox", "radio")
                and "checked" not in attrs
            ):
                return
            self.data.setdefault(name, []).append(attrs.get("value", "on" if kind in ("checkbox", "radio") else ""))
        elif tag == "select":
            self.select = name
            self.data.setdefault(name, [])
        elif tag == "option" and self.select and "selected" in attrs:
            self.data[self.select].append(attrs.get("value", ""))
        elif tag == "textarea":
            self.textarea = name
            self.data[name] = [""]

    def handle_data(self, data: str) -> None:
        if self.textarea:
            self.data[self.textarea][0] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None
        elif tag == "textarea" and self.textarea:
            self.data[self.textarea][0] = self.data[self.textarea][0].removeprefix("\n")
            self.textarea = None
        elif tag == "form":
            self.inside = False


def form_data(page: str, form_id: str | None = None) -> dict[str, list[str]]:
    reader = FormReader(form_id)
    reader.feed(page)
    return reader.data


def a_change(form_class: type[forms.BaseForm], data: dict[str, list[str]]) -> tuple[str, dict[str, list[str]]]:
    """The first editable field of the change form, changed as an admin would."""
    for name, field in form_class.base_fields.items():
        if name == "reason" or field.disabled:
            continue
        value = data.get(name) or [""]
        if isinstance(field, forms.BooleanField):
            return name, {**data, name: [] if data.get(name) else ["on"]}
        if isinstance(field, forms.ChoiceField) and not isinstance(field, forms.ModelChoiceField):
            other = next(str(key) for key, _label in field.choices if str(key) not in value and key != "")
            return name, {**data, name: [other]}
        if isinstance(field, forms.CharField):
            return name, {**data, name: ["x" + value[0]]}
    raise AssertionError(f"{form_class.__name__}: change permission without an editable field; make it view-only")


def superuser_request(admin_user: User):
    request = RequestFactory().get("/admin/")
    request.user = admin_user
    return request


def _url(model: type[Model], view: str, *args: object) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def _asks_why(response) -> bool:
    page = response.content.decode()
    return response.status_code == 200 and any(f'name="{name}"' in page for name in REASON_FIELDS)


@pytest.mark.parametrize("label", REGISTERED)
def test_every_admin_asks_why_before_it_changes_or_deletes_a_row(label, world, admin_client, admin_user) -> None:
    # RULING P19: the change form, the deletion and every action of every registered admin.
    model = apps.get_model(label)
    model_admin = admin.site._registry[model]
    request = superuser_request(admin_user)
    row = world.get(label)
    if row is None:
        stand_in = model()
        assert isinstance(model_admin, ViewOnlyAdmin) or not model_admin.get_actions(request), label
        assert not model_admin.has_change_permission(request, stand_in), f"{label}: a row is needed here"
        assert not model_admin.has_delete_permission(request, stand_in), f"{label}: a row is needed here"
        return

    for action in model_admin.get_actions(request):
        before = snapshot()
        selected = {"action": action, "_selected_action": [row.pk]}
        asked = admin_client.post(_url(model, "changelist"), selected)
        assert _asks_why(asked), f"{label}: {action} does not ask why"
        confirmed = admin_client.post(_url(model, "changelist"), {**selected, "apply": "1", "post": "yes"})
        assert _asks_why(confirmed), f"{label}: {action} without a reason"
        assert snapshot() == before, f"{label}: {action} did something without a reason"

    if model_admin.has_change_permission(request, row):
        url = _url(model, "change", row.pk)
        data = form_data(admin_client.get(url).content.decode(), f"{model._meta.model_name}_form")
        field, changed = a_change(model_admin.get_form(request, row, change=True), data)
        before = snapshot()
        refused = admin_client.post(url, changed)
        assert refused.status_code == 200 and "reason" in refused.context_data["adminform"].form.errors, label
        assert snapshot() == before, f"{label}: changed without a reason"
        done = admin_client.post(url, {**changed, "reason": "Asked by the player"})
        assert done.status_code == 302, f"{label}: {done.context_data['adminform'].form.errors}"
        assert snapshot() != before
        entry = LogEntry.objects.filter(object_id=str(row.pk), content_type__model=model._meta.model_name).latest("pk")
        assert entry.user == admin_user and "Asked by the player" in entry.change_message, entry.change_message
        assert field in entry.change_message or label == "accounts.User"  # the User admin's own wording

    if model_admin.has_delete_permission(request, row):
        url = _url(model, "delete", row.pk)
        before = snapshot()
        refused = admin_client.post(url, {"post": "yes"})
        assert _asks_why(refused) and snapshot() == before, f"{label}: deleted without a reason"
        assert admin_client.post(url, {"post": "yes", "reason": "Spam account"}).status_code == 302
        assert not model._default_manager.filter(pk=row.pk).exists()
        entry = LogEntry.objects.get(object_id=str(row.pk), action_flag=DELETION)
        assert entry.user == admin_user and entry.change_message == "Deleted: Spam account"


def test_deleting_selected_rows_asks_why_and_logs_the_reason(world, admin_client, admin_user) -> None:
    # RULING P19: Django's "delete selected" action, on a row an admin may delete.
    device = world["away.Device"]
    url = _url(Device, "changelist")
    selected = {"action": "delete_selected", "_selected_action": [device.pk], "post": "yes"}
    refused = admin_client.post(url, selected)
    assert _asks_why(refused) and Device.objects.filter(pk=device.pk).exists()
    admin_client.post(url, {**selected, "reason": "Lost phone"})
    assert not Device.objects.filter(pk=device.pk).exists()
    entry = LogEntry.objects.get(object_id=str(device.pk), action_flag=DELETION)
    assert entry.user == admin_user and entry.change_message == "Deleted: Lost phone"


def _email_form(admin_client, address: EmailAddress) -> dict[str, list[str]]:
    return form_data(admin_client.get(_url(EmailAddress, "change", address.pk)).content.decode(), "emailaddress_form")


def test_an_address_stays_with_its_account_and_is_verified_only_by_its_owner(admin_client, player, outsider) -> None:
    # RULING P19: moving an address to another account, or marking it verified, would let whoever
    # does it reset the password and take the account over.
    address = EmailAddress.objects.create(user=player, email="piet@example.com", primary=True, verified=False)
    data = _email_form(admin_client, address)
    assert "user" not in data and "verified" not in data  # read-only
    posted = {**data, "user": [str(outsider.pk)], "verified": ["on"], "reason": "Asked by mail"}
    assert admin_client.post(_url(EmailAddress, "change", address.pk), posted).status_code == 302
    address.refresh_from_db()
    assert address.user == player and not address.verified
    added = admin_client.post(_url(EmailAddress, "add"), {"user": player.pk, "email": "new@example.com"})
    assert added.status_code == 403  # a player adds their own addresses, and confirms them
    assert not EmailAddress.objects.filter(email="new@example.com").exists()
    assert "make_verified" not in admin.site._registry[EmailAddress].get_actions(superuser_request(player))


def test_an_admin_never_writes_an_address_but_may_make_another_primary(admin_client, player) -> None:
    # RULING P19: an address an admin wrote would receive the account's password reset.
    address = EmailAddress.objects.create(user=player, email="piet@example.com", primary=True, verified=True)
    other = EmailAddress.objects.create(user=player, email="piet@work.example", primary=False, verified=True)
    assert "email" not in _email_form(admin_client, address)  # read-only
    data = {**_email_form(admin_client, address), "email": ["thief@example.com"], "reason": "Asked by mail"}
    admin_client.post(_url(EmailAddress, "change", address.pk), data)
    address.refresh_from_db()
    assert address.email == "piet@example.com" and address.verified
    data = {**_email_form(admin_client, other), "primary": ["on"], "reason": "Asked by mail"}
    assert admin_client.post(_url(EmailAddress, "change", other.pk), data).status_code == 302
    address.refresh_from_db()
    player.refresh_from_db()
    assert not address.primary and player.email == "piet@work.example"
    entry = LogEntry.objects.get(object_id=str(other.pk))
    assert entry.change_message == "Changed primary: Asked by mail"
    user_form = form_data(admin_client.get(_url(User, "change", player.pk)).content.decode(), "user_form")
    assert "email" not in user_form  # nor the account's own address, on the account's page


def test_a_table_in_play_keeps_who_may_sit_and_watch(admin_client, host, player) -> None:
    # RULING P19: once its game has started, the table's seating and watching rules are read-only.
    table, _match = start_table(host, "sita", seat_count=2, guests=[player])
    url = _url(Table, "change", table.pk)
    data = form_data(admin_client.get(url).content.decode(), "table_form")
    assert not {"practice", "private", "spectators", "invite_nonce"} & set(data)
    before = snapshot()
    forged = {**data, "practice": ["on"], "private": ["on"], "spectators": ["nobody"], "invite_nonce": ["forged"]}
    admin_client.post(url, {**forged, "reason": "Testing"})
    table.refresh_from_db()
    assert (table.practice, table.private, table.spectators, table.invite_nonce) == (False, False, "anyone", "")
    assert snapshot()["tables.Table"] == before["tables.Table"]


def test_a_lobbys_settings_change_only_with_a_reason(admin_client, admin_user, host) -> None:
    # RULING P19: a lobby's settings may still be changed here, saying why.
    table = seated_sita_table(host, make_user("zoe"))
    url = _url(Table, "change", table.pk)
    data = {**form_data(admin_client.get(url).content.decode(), "table_form"), "private": ["on"]}
    refused = admin_client.post(url, data)
    assert refused.status_code == 200 and "reason" in refused.context_data["adminform"].form.errors
    table.refresh_from_db()
    assert not table.private
    assert admin_client.post(url, {**data, "reason": "Host asked by mail"}).status_code == 302
    table.refresh_from_db()
    assert table.private
    entry = LogEntry.objects.get(object_id=str(table.pk), content_type__model="table")
    assert entry.user == admin_user and entry.change_message == "Changed private: Host asked by mail"


def test_dismissing_reports_needs_a_reason(admin_user, host, player) -> None:
    # RULING P19: the service refuses a dismissal without a reason, as it refuses a hide.
    table = seated_sita_table(host, player)
    message = chat.message_post(table_id=table.pk, user=player, channel="players", text="a fair remark")
    chat.message_report(message_id=message.pk, user=host, reason="rude")
    with pytest.raises(chat.ChatError):
        chat.reports_dismiss(message_id=message.pk, by=admin_user, reason="  ")
    assert ChatMessage.objects.get(pk=message.pk).reports.filter(resolved_at=None).count() == 1


def test_tournaments_entries_and_rounds_are_written_by_the_services(admin_user) -> None:
    # RULING P19: their rows change only through the actions that ask why.
    request = superuser_request(admin_user)
    for model in (Entry, Round):
        assert not admin.site._registry[model].has_change_permission(request, model())
        assert not admin.site._registry[model].has_delete_permission(request, model())
    assert not admin.site._registry[Tournament].has_delete_permission(request, Tournament())
    assert not admin.site._registry[Match].has_change_permission(request, Match())
    assert not admin.site._registry[ChatMute].has_change_permission(request, ChatMute())
