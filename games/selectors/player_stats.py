"""Reads for the profile page: per game, what a player has played and how it went
(games/templatetags/player_tags.py puts them on the page)."""

from __future__ import annotations

from accounts.models import User
from games import catalog
from games.models import Match, MatchPlayer, Rating

RECENT = 10


def profile_stats(*, player: User) -> dict:
    """``games``: one summary per game played; ``recent``: the latest ended games."""
    finished = list(
        MatchPlayer.objects.filter(user=player, match__status=Match.Status.FINISHED)
        .select_related("match")
        .order_by("-match__ended_at")
    )
    ratings = {rating.game: rating for rating in Rating.objects.filter(user=player)}
    summaries = []
    for game in catalog.GAMES:
        mine = [mp for mp in finished if mp.match.game == game.name]
        if not mine:
            continue
        figures = game.records.profile_figures([(mp.match.record, mp.seat) for mp in mine if mp.match.record])
        summaries.append(
            {
                "game": game.name,
                "label": game.title,
                "rating": ratings.get(game.name),
                **_summary(mine),
                "figures": figures,
            }
        )
    recent = (
        MatchPlayer.objects.filter(
            user=player, match__status__in=[Match.Status.FINISHED, Match.Status.DISMISSED, Match.Status.ABORTED]
        )
        .select_related("match")
        .defer("match__state", "match__record")
        .order_by("-match__ended_at")[:RECENT]
    )
    return {"game_stats": summaries, "recent_games": list(recent)}


def _summary(mine: list[MatchPlayer]) -> dict:
    places: dict[int, int] = {}
    for mp in mine:
        if mp.place is not None:
            places[mp.place] = places.get(mp.place, 0) + 1
    totals = [mp.total for mp in mine if mp.total is not None]
    return {
        "played": len(mine),
        "wins": places.get(1, 0),
        "placements": sorted(places.items()),
        "average": sum(totals) / len(totals) if totals else None,
    }
