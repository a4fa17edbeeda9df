"""Skill ratings: OpenSkill's Plackett-Luce model, one rating per (player, game).

``ratings_update`` runs inside the transaction that settles a finished game
(``tables.services.handoff.match_finished``), with the Match row already locked by the move
that ended it. It is idempotent: a match whose players already carry
``rating_after`` is never counted again, so a retried save changes nothing.
Dismissed and aborted games are never rated. Bots are rated like anyone, so a
player can see how they fare against them. The leaderboard reads them (``games.selectors.ratings``).
"""

from __future__ import annotations

from django.db import transaction
from openskill.models import PlackettLuce

from games.models import Match, MatchPlayer, Rating

MU = 25.0
SIGMA = MU / 3


def _model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA)


def ordinal(mu: float, sigma: float) -> float:
    """The displayed, cautious figure: mu − 3σ (0 for a newcomer)."""
    return mu - 3 * sigma


def ratings_update(*, match: Match, players: list[MatchPlayer]) -> bool:
    """Rate one finished match once. Returns whether anything changed.

    Call it inside the settling transaction; the caller holds the Match row lock,
    which serialises two saves of the same match.
    """
    if match.status != Match.Status.FINISHED or not players:
        return False
    # Idempotence: the players in hand or in the database already carry a rating.
    if any(player.rating_after is not None for player in players):
        return False
    if MatchPlayer.objects.filter(match_id=match.pk, rating_after__isnull=False).exists():
        return False
    if any(player.place is None for player in players):
        return False
    with transaction.atomic():
        ratings = _lock_ratings(game=match.game, user_ids={player.user_id for player in players})
        model = _model()
        ordered = sorted(players, key=lambda player: player.seat)
        teams = [[model.create_rating([ratings[p.user_id].mu, ratings[p.user_id].sigma])] for p in ordered]
        # Plackett-Luce ranks: lower is better and equal ranks are ties, exactly our places.
        rated = model.rate(teams, ranks=[float(p.place or 0) for p in ordered])  # every seat is placed by now
        for player, (new,) in zip(ordered, rated):
            rating = ratings[player.user_id]
            player.rating_before = rating.ordinal
            rating.mu, rating.sigma = new.mu, new.sigma
            rating.ordinal = ordinal(new.mu, new.sigma)
            rating.games += 1
            rating.updated_at = match.ended_at or rating.updated_at  # the game's end, as the settling move recorded it
            player.rating_after = rating.ordinal
        Rating.objects.bulk_update(ratings.values(), ["mu", "sigma", "ordinal", "games", "updated_at"])
        MatchPlayer.objects.bulk_update(ordered, ["rating_before", "rating_after"])
    return True


def _lock_ratings(*, game: str, user_ids: set[int]) -> dict[int, Rating]:
    """Create missing ratings, then lock them all in user-id order (two games ending at once never deadlock)."""
    Rating.objects.bulk_create(
        [Rating(user_id=user_id, game=game, mu=MU, sigma=SIGMA, ordinal=ordinal(MU, SIGMA)) for user_id in user_ids],
        ignore_conflicts=True,
    )
    rows = Rating.objects.select_for_update().filter(game=game, user_id__in=user_ids).order_by("user_id")
    return {rating.user_id: rating for rating in rows}
