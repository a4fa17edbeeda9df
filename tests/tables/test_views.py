"""The lobby and the New table page through the real views (issue 6)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import Table
from tests.tables.helpers import open_table

pytestmark = pytest.mark.django_db


def test_the_new_table_form_offers_each_game_as_a_choice(client, host) -> None:
    client.force_login(host)
    page = client.get(reverse("table_new")).content.decode()
    for game in ("sitaratas", "estimation", "sita"):
        assert f'type="radio" name="game" value="{game}"' in page


@pytest.mark.parametrize(
    ("form", "expected"),
    [
        (
            {"game": "sitaratas", "players": 5, "deck": "jokers", "order": "down_up"},
            {"deck": "jokers", "order": "down_up"},
        ),
        ({"game": "estimation", "length": "mini", "stake": 0}, {"length": "mini"}),
        ({"game": "sita", "players": 7, "match_count": 3}, {"matches": 3}),
    ],
)
def test_a_player_opens_a_table_of_each_game(client, host, form, expected) -> None:
    client.force_login(host)
    response = client.post(reverse("table_new"), form)
    table = Table.objects.get()
    assert response.status_code == 302 and response.url == reverse("table", args=[table.pk])
    assert table.options == expected
    assert table.seats.get(position=0).user == host


def test_bad_settings_get_a_clear_error_and_create_nothing(client, host) -> None:
    client.force_login(host)
    response = client.post(reverse("table_new"), {"game": "sitaratas", "players": 9})
    assert response.status_code == 200
    assert b"players" in response.content.lower()
    assert not Table.objects.exists()


def test_the_lobby_lists_open_tables_and_filters_by_game(client, host) -> None:
    open_table(host, "sita")
    open_table(host, "estimation")
    page = client.get(reverse("lobby")).content.decode()
    assert "SITA" in page and "Estimation" in page
    only_sita = client.get(reverse("lobby") + "?game=sita").content.decode()
    assert "SITA" in only_sita and "Estimation</strong>" not in only_sita
    fragment = client.get(reverse("lobby"), HTTP_HX_REQUEST="true").content.decode()
    assert fragment.lstrip().startswith('<div id="table-list"')


def test_anyone_signed_in_may_watch_a_table(client, host, outsider) -> None:
    # RULING P3
    table = open_table(host, "sita")
    client.force_login(outsider)
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert 'id="live"' in page and "watching" in page
