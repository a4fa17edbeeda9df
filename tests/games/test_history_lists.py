"""History's lists and leaderboard on a database of their own (test_history.py's tests share
their finished games): pagination, the empty board, the navigation."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.games.history_helpers import finished_match

pytestmark = pytest.mark.django_db


def test_the_list_paginates(client, host, player, settings) -> None:
    from games import views

    for _ in range(3):
        finished_match(host, "sita", humans=(player,), options={"matches": 1})
    views.PAGE_SIZE, size = 2, views.PAGE_SIZE
    try:
        first = client.get(reverse("history")).content.decode()
        second = client.get(reverse("history"), {"page": 2}).content.decode()
    finally:
        views.PAGE_SIZE = size
    assert "Page 1 of 2" in first and "Page 2 of 2" in second
    assert first.count('class="button small secondary" href="/games/') == 2
    assert second.count('class="button small secondary" href="/games/') == 1


def test_an_empty_leaderboard_says_nobody_has_finished(client, db) -> None:
    page = client.get(reverse("ratings"), {"game": "estimation"}).content.decode()
    assert "Nobody has finished a game of Estimation yet." in page


def test_the_navigation_links_history_and_ratings(client, host) -> None:
    client.force_login(host)
    page = client.get(reverse("history")).content.decode()
    assert f'href="{reverse("history")}"' in page and f'href="{reverse("ratings")}"' in page
    assert f"?player={host.username}" in page  # my own games, one click away
