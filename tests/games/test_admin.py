"""Admin: every model's pages load; abort and close go through the services."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse

from games.models import Match, MatchEvent
from payouts.selectors import coin_balance
from tables.models import Table
from tests.games.history_helpers import play_to_end, started_match
from tests.helpers import fair_value
from tests.tables.helpers import open_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(admin_client):
    return admin_client


def _admin_url(model, view: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def test_every_registered_model_has_a_list_and_a_detail_page_that_load(staff, host, player) -> None:
    match = play_to_end(started_match(host, "sita", humans=(player,)), stop_after=2)
    assert MatchEvent.objects.filter(match=match).exists()
    for model in admin.site._registry:
        assert staff.get(_admin_url(model, "changelist")).status_code == 200, model
        assert staff.get(_admin_url(model, "changelist"), {"q": "hana"}).status_code == 200, model
        row = model._default_manager.first()
        if row is not None:
            assert staff.get(_admin_url(model, "change", row.pk)).status_code == 200, model
    # The apps this issue covers are all registered.
    for label in (
        "games.Match",
        "games.MatchEvent",
        "games.Rating",
        "tables.Table",
        "tables.Seat",
        "tables.DismissalVote",
    ):
        assert apps.get_model(label) in admin.site._registry


def test_a_match_page_shows_its_event_log_and_not_its_hidden_state(staff, host, player) -> None:
    match = play_to_end(started_match(host, "sita", humans=(player,)), stop_after=2)
    page = staff.get(_admin_url(Match, "change", match.pk)).content.decode()
    assert match.status == Match.Status.PLAYING
    assert page.count("hidden until the game ends") == MatchEvent.objects.filter(match=match).count()
    assert match.state[:40] not in page  # RULING P2: the engine state (every hand) stays out
    # Append-only rows cannot be added, changed or deleted from the admin.
    event = MatchEvent.objects.filter(match=match).first()
    assert staff.post(_admin_url(MatchEvent, "delete", event.pk), {"post": "yes"}).status_code == 403
    assert staff.get(_admin_url(MatchEvent, "add")).status_code == 403
    assert staff.get(_admin_url(Match, "add")).status_code == 403


def test_the_abort_action_goes_through_the_service(staff, host, player) -> None:
    match = play_to_end(started_match(host, "sita", humans=(player,)), stop_after=1)
    response = staff.post(
        _admin_url(Match, "changelist"),
        {"action": "abort_games", "_selected_action": [match.pk], "apply": "1", "reason": "Left for good"},
        follow=True,
    )
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and "Aborted by" in match.end_reason
    assert Table.objects.get(pk=match.table_id).status == Table.Status.CLOSED
    # A second abort is refused by the service, and says so.
    again = staff.post(
        _admin_url(Match, "changelist"),
        {"action": "abort_games", "_selected_action": [match.pk], "apply": "1", "reason": "Left for good"},
        follow=True,
    )
    assert "Only a game in play can be aborted" in again.content.decode()


def test_the_abort_action_refunds_stakes(staff, host, player, settings) -> None:
    table = open_table(host, "estimation", options={"length": "micro"}, stake=50)
    from tables.services import lobby
    from tests.tables.helpers import fill_with_bots

    lobby.seat_take(table_id=table.pk, user=player, position=1)
    lobby.seat_ready(table_id=table.pk, user=player, ready=True, entropy=fair_value())
    fill_with_bots(table, host)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    # RULING P5: the stakes went into the pot at the start; an abort refunds every one.
    assert [coin_balance(user=user) for user in (host, player)] == [settings.STARTING_COINS - 50] * 2
    staff.post(
        _admin_url(Match, "changelist"),
        {"action": "abort_games", "_selected_action": [match.pk], "apply": "1", "reason": "Left for good"},
    )
    assert [coin_balance(user=user) for user in (host, player)] == [settings.STARTING_COINS] * 2


def test_the_close_lobby_action_goes_through_the_service(staff, host, player) -> None:
    from tables.services import lobby

    table = open_table(host, "sita")
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    staff.post(
        _admin_url(Table, "changelist"),
        {"action": "close_lobbies", "_selected_action": [table.pk], "apply": "1", "reason": "Spam table"},
    )
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED and table.closed_reason == "Closed by admin: Spam table"
    assert not table.seats.exclude(user=None).exists()
