"""The lobby that invites: a card per game with "Play now", its tables, the player's offers (issue 39)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables import lobby_slots
from tables.models import SeatAddress, Table
from tables.services import lobby as services
from tests.games.history_helpers import finished_table
from tests.tables.helpers import open_table

pytestmark = pytest.mark.django_db


def test_every_game_has_a_card_with_its_picture_and_play_now(client, host) -> None:
    client.force_login(host)
    page = client.get(reverse("lobby")).content.decode()
    for game in ("sitaratas", "estimation", "sita"):
        assert f'id="game-{game}"' in page
        assert f"img/games/{game}.svg" in page
        assert reverse("play_now", args=[game]) in page
    assert page.index('id="game-sitaratas"') < page.index('id="table-list"')  # "Play now" first


def test_a_card_lists_its_waiting_tables_and_games_in_play_but_no_practice_table(
    client, host, player, started_table
) -> None:
    waiting = open_table(host, "sita", seat_count=4)
    practice = services.table_create(host=player, game="sita", seat_count=3, practice=True)
    playing, _match = started_table("sitaratas", guests=[player])
    client.force_login(host)
    page = client.get(reverse("lobby")).content.decode()
    sita_card = page[page.index('id="game-sita"') : page.index("</article>", page.index('id="game-sita"'))]
    assert reverse("table", args=[waiting.pk]) in sita_card
    assert reverse("table", args=[practice.pk]) not in sita_card
    card = page[page.index('id="game-sitaratas"') : page.index("</article>", page.index('id="game-sitaratas"'))]
    assert reverse("table", args=[playing.pk]) in card and "Watch" in card


def test_a_rematch_waiting_for_your_answer_is_offered(client, host, player) -> None:
    from tables.services import rematch

    source = finished_table(host, "sitaratas", [player])
    rematch.rematch_accept(table_id=source.pk, user=player)
    client.force_login(host)
    page = client.get(reverse("lobby")).content.decode()
    assert 'id="my-offers"' in page and f"{reverse('table', args=[source.pk])}#rematch" in page
    client.force_login(player)  # who accepted has nothing left to answer
    assert 'id="my-offers"' not in client.get(reverse("lobby")).content.decode()


def test_an_empty_slot_leaves_no_trace_and_a_filled_one_shows(client, host, monkeypatch) -> None:
    client.force_login(host)
    assert "lobby-side" not in client.get(reverse("lobby")).content.decode()
    slots = [(1, lambda request: ""), (2, lambda request: '<section id="next-cup"></section>')]
    monkeypatch.setattr(lobby_slots, "SLOTS", slots)
    page = client.get(reverse("lobby")).content.decode()
    assert page.count('id="next-cup"') == 1 and "lobby-side" in page


def test_the_polled_list_is_the_same_for_everyone_and_has_no_cards(client, host, player) -> None:
    open_table(host, "sita", seat_count=4)
    client.force_login(host)
    first = client.get(reverse("lobby"), headers={"HX-Request": "true"}).content
    client.force_login(player)
    second = client.get(reverse("lobby"), headers={"HX-Request": "true"}).content
    assert first == second and b"game-card" not in first


def test_play_now_seats_you_and_keeps_the_address_as_a_digest(client, host, player) -> None:
    table = open_table(host, "sita", seat_count=4)
    client.force_login(player)
    response = client.post(reverse("play_now", args=["sita"]), {"wait": "60"}, REMOTE_ADDR="198.51.100.4")
    assert response.status_code == 302 and response.url == reverse("table", args=[table.pk])
    assert table.seats.filter(user=player).exists()
    assert "198.51.100.4" not in SeatAddress.objects.get(table=table, user=player).digest


def test_play_now_is_a_post_for_a_signed_in_player(client, host) -> None:
    assert client.post(reverse("play_now", args=["sita"])).status_code == 302  # to the login
    client.force_login(host)
    assert client.get(reverse("play_now", args=["sita"])).status_code == 405
    response = client.post(reverse("play_now", args=["chess"]), follow=True)
    assert b"There is no such game" in response.content
    assert not Table.objects.exists()
