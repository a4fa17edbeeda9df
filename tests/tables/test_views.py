"""The lobby and the New table page through the real views (issue 6)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables import views
from tables.errors import TableError
from tables.models import Table
from tables.services import lobby
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


def many_hosts(count: int) -> list:
    from accounts.models import User

    return [
        User.objects.create_user(f"host{number}", f"host{number}@example.com", "pass-phrase-9")
        for number in range(count)
    ]


def test_the_lobby_list_is_paged(client, settings) -> None:
    # Issue 34, finding 8: every open table on every poll (127 rows, 58 KB).
    settings.LOBBY_PAGE_SIZE = 4
    tables = [open_table(host, "sita") for host in many_hosts(10)]
    first = client.get(reverse("lobby"), HTTP_HX_REQUEST="true").content.decode()
    shown = [table.pk for table in tables if f"/tables/{table.pk}/" in first]
    assert shown == [table.pk for table in tables[-4:]]  # the newest first
    assert "Page 1 of 3" in first and "?page=2" in first
    last = client.get(reverse("lobby") + "?page=3").content.decode()
    assert [table.pk for table in tables if f"/tables/{table.pk}/" in last] == [tables[0].pk, tables[1].pk]
    # The poll keeps its page; a page past the end, or not a number, is the last or the first.
    assert 'hx-get="/?page=3"' in last
    assert "Page 3 of 3" in client.get(reverse("lobby") + "?page=99").content.decode()
    assert "Page 1 of 3" in client.get(reverse("lobby") + "?page=x").content.decode()


def test_viewers_polling_the_lobby_share_one_render(
    client, host, outsider, monkeypatch, django_assert_max_num_queries
) -> None:
    # Issue 34, finding 8: the fragment has nothing of its viewer; it is rendered once a while.
    now = [1000.0]
    monkeypatch.setattr(views, "clock", lambda: now[0])
    open_table(host, "sita")
    client.force_login(host)
    mine = client.get(reverse("lobby"), HTTP_HX_REQUEST="true").content
    other = Client()
    other.force_login(outsider)
    with django_assert_max_num_queries(2):  # the session and the user: nothing of the list
        theirs = other.get(reverse("lobby"), HTTP_HX_REQUEST="true").content
    assert theirs == mine
    # A change to what it lists shows once the shared fragment is older than its few seconds.
    open_table(outsider, "estimation")
    now[0] += views.LOBBY_FRAGMENT_SECONDS
    assert b"Estimation" in other.get(reverse("lobby"), HTTP_HX_REQUEST="true").content


def test_a_player_may_have_three_lobbies_open_and_is_told_why_not_a_fourth(client, host) -> None:
    # RULING P52 (issue 34, finding 8: one account opened 22 lobbies in a second).
    for _ in range(3):
        open_table(host, "sita")
    client.force_login(host)
    response = client.post(reverse("table_new"), {"game": "sita", "players": 4, "match_count": 1})
    assert response.status_code == 200
    assert "You already have 3 tables waiting for players" in response.content.decode()
    assert Table.objects.filter(host=host).count() == 3
    # A started or closed table no longer counts.
    lobby.table_close(table_id=Table.objects.filter(host=host).first().pk, by=host)
    assert client.post(reverse("table_new"), {"game": "sita", "players": 4, "match_count": 1}).status_code == 302


def test_the_cap_is_a_setting_and_holds_in_the_service(host, settings) -> None:
    settings.MAX_OPEN_LOBBIES = 1
    open_table(host, "sita")
    with pytest.raises(TableError, match="You already have 1 table waiting for players"):
        open_table(host, "estimation")
    assert Table.objects.filter(host=host).count() == 1
