"""A player's own games are one click from the navigation (issue 8)."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_my_games_is_in_the_navigation_and_filters_history_to_me(client, player) -> None:
    client.force_login(player)
    page = client.get(reverse("lobby")).content.decode()
    link = f'href="{reverse("history")}?player={player.username}"'
    assert link in page and "My games" in page
    mine = client.get(f"{reverse('history')}?player={player.username}")
    assert mine.status_code == 200 and mine.context["player"] == player
