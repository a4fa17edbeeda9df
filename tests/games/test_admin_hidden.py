"""Staff see a game in play no better than a spectator does (issue 34, RULING P57).

A staff member may sit at a table; the admin's match pages must not show them the others'
SITA choices before the reveal, nor any hand. Once the game has ended the full record is theirs.
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils.html import escape

from games.models import Match, MatchEvent
from tables.services import endings, play
from tests.games.history_helpers import started_match
from tests.tables.helpers import play_bots_until_human, state_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated_staff(player):
    """The player is also the site's superuser, seated at the SITA table."""
    player.is_staff = player.is_superuser = True
    player.save(update_fields=["is_staff", "is_superuser"])
    return player


@pytest.fixture
def chosen(host, seated_staff):
    """A SITA game where the host has chosen a card and the staff player has not: (match, card)."""
    match = play_bots_until_human(started_match(host, "sita", humans=(seated_staff,)))
    engine, state = state_of(match)
    host_seat = match.match_players.get(user=host).seat
    assert host_seat in engine.to_act(state)
    card = engine.legal_actions(state, host_seat)[0]["card"]
    play.match_act(match_id=match.pk, user=host, action={"type": "choose", "card": card}, version=match.version)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    return match, card


def admin_pages(client, match: Match) -> str:
    event = MatchEvent.objects.get(match=match, action__type="choose", seat=match.match_players.get(seat=0).seat)
    pages = [
        reverse("admin:games_match_change", args=[match.pk]),
        reverse("admin:games_matchevent_changelist"),
        reverse("admin:games_matchevent_change", args=[event.pk]),
    ]
    texts = []
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        texts.append(response.content.decode())
    return "\n".join(texts)


def hands_of(match: Match) -> list[list[int]]:
    engine, state = state_of(match)
    return [engine.view(state, seat)["hand"] for seat in range(match.players)]


def test_a_seated_staff_member_cannot_read_a_choice_before_its_reveal(client, chosen, seated_staff) -> None:
    match, card = chosen
    client.force_login(seated_staff)

    text = admin_pages(client, match)

    assert f'"card": {card}' not in text and f"&quot;card&quot;: {card}" not in text
    assert "hidden until the game ends" in text


def test_no_hand_shows_on_the_staff_pages_while_the_game_is_played(admin_client, chosen) -> None:
    match, _ = chosen
    text = admin_pages(admin_client, match)

    assert all(hands_of(match)), "each seat still holds cards"
    assert '"hands"' not in text and "&quot;hands&quot;" not in text  # the record's dealt hands
    assert '"hand": [' not in text and "&quot;hand&quot;: [" not in text  # a seat's view of its hand
    assert match.state[:40] not in text


def test_the_spectator_s_view_is_what_the_staff_see_while_it_is_played(admin_client, chosen) -> None:
    match, _ = chosen
    page = admin_client.get(reverse("admin:games_match_change", args=[match.pk])).content.decode()
    engine, state = state_of(match)

    assert escape(json.dumps(engine.view(state, None), indent=1)) in page


def test_once_the_game_has_ended_its_record_and_every_action_are_shown(admin_client, chosen, seated_staff) -> None:
    match, card = chosen
    endings.match_abort(match_id=match.pk, by=seated_staff, reason="Checking the record.")

    text = admin_pages(admin_client, match)

    assert f'"card": {card}' in text or f"&quot;card&quot;: {card}" in text
    assert "hidden until the game ends" not in text
