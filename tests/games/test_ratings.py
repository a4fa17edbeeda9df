"""Ratings: OpenSkill Plackett-Luce, once per finished game, never for dismissed or aborted ones."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.models import Match, MatchPlayer, Rating
from games.selectors.ratings import leaderboard
from games.services.ratings import ratings_update
from tables.services import endings
from tests.games.history_helpers import finished_match, play_to_end, started_match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", ["sitaratas", "estimation", "sita"])
def test_a_finished_game_rates_each_player_once(host, player, game) -> None:
    match = finished_match(host, game, humans=(player,))
    players = list(match.match_players.select_related("user"))
    assert all(mp.rating_before == 0.0 and mp.rating_after is not None for mp in players)
    ratings = Rating.objects.filter(game=game)
    assert ratings.count() == match.players
    assert all(rating.games == 1 for rating in ratings)
    # Bots are rated too, so a player can see how they fare against them.
    assert ratings.filter(user__is_bot=True).count() == match.players - 2
    winner = min(players, key=lambda mp: (mp.place, mp.seat))
    loser = max(players, key=lambda mp: (mp.place, mp.seat))
    assert Rating.objects.get(user=winner.user, game=game).mu > Rating.objects.get(user=loser.user, game=game).mu
    # The board ranks by the cautious figure (mu - 3 sigma), not by this game's places: with ties a
    # lower place can end with the smaller sigma.
    board = list(leaderboard(game=game))
    assert [rating.ordinal for rating in board] == sorted((r.ordinal for r in ratings), reverse=True)


def test_a_retried_save_does_not_rate_twice(host, player) -> None:
    match = finished_match(host, "sita", humans=(player,))
    before = {(r.user_id, r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    # A retried save: the same players in hand, or fresh from the database.
    assert ratings_update(match=match, players=list(match.match_players.all())) is False
    fresh = list(MatchPlayer.objects.filter(match=match))
    for mp in fresh:
        mp.rating_after = None  # even a caller holding stale rows must not count the game again
    assert ratings_update(match=match, players=fresh) is False
    assert {(r.user_id, r.mu, r.sigma, r.games) for r in Rating.objects.all()} == before


def test_two_games_accumulate(host, player) -> None:
    finished_match(host, "sita", humans=(player,))
    finished_match(host, "sita", humans=(player,))
    assert Rating.objects.get(user=host, game="sita").games == 2
    second = MatchPlayer.objects.filter(user=host).order_by("-match_id").first()
    assert second.rating_before == pytest.approx(
        MatchPlayer.objects.filter(user=host).order_by("match_id").first().rating_after
    )


def test_an_aborted_game_changes_no_rating(host, player, admin_user) -> None:
    match = play_to_end(started_match(host, "sita", humans=(player,)), stop_after=1)
    endings.match_abort(match_id=match.pk, by=admin_user, reason="testing")
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED
    assert not Rating.objects.exists()
    assert not MatchPlayer.objects.filter(match=match, rating_after__isnull=False).exists()
    # Even if asked directly, an aborted or dismissed game is not rated.
    assert ratings_update(match=match, players=list(match.match_players.all())) is False
    match.status = Match.Status.DISMISSED
    assert ratings_update(match=match, players=list(match.match_players.all())) is False
    assert not Rating.objects.exists()


def test_a_game_in_progress_is_not_rated(host, player) -> None:
    match = started_match(host, "sita", humans=(player,))
    assert ratings_update(match=match, players=list(match.match_players.all())) is False
    assert get_user_model().objects.filter(ratings__isnull=False).count() == 0
