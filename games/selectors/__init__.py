"""Reads of games (docs/style.md §5): nothing here writes.

``history`` (ended games: lists, a game's page, replays rebuilt from the record alone, RULING
P2), ``fairness`` (the "Verify this deal" panel and the server's deal check, docs/fairness.md),
``player_stats`` (the profile's figures per game), ``reviews`` (reviews shown, and the one
visibility filter, docs/reviews.md). This module holds what no page shows whole: a player's own
games for their data export (RULING P55).
"""

from __future__ import annotations

from collections import defaultdict

from accounts.models import User
from games.models import MatchEvent, MatchPlayer, Rating, Signature


def games_export(user: User) -> list[dict]:
    """Every game the player sat in: the seat, how it went, and their own moves in order (the
    other seats' moves and hands are in a finished game's public record, not here)."""
    moves: dict[int, list[dict]] = defaultdict(list)
    for event in MatchEvent.objects.filter(user=user).order_by("match_id", "version"):
        moves[event.match_id].append(
            {
                "version": event.version,
                "at": event.created_at.isoformat(),
                "action": event.action,
                "by_clock": event.by_clock,
            }
        )
    signatures = dict(Signature.objects.filter(user=user).values_list("match_id", "text"))
    return [
        {
            "game": player.match_id,
            "kind": player.match.game,
            "table": player.match.table_id,
            "status": player.match.status,
            "started_at": player.match.started_at.isoformat(),
            "ended_at": player.match.ended_at.isoformat() if player.match.ended_at else None,
            "seat": player.seat,
            "place": player.place,
            "total": player.total,
            "payout": player.payout,
            "rating_before": player.rating_before,
            "rating_after": player.rating_after,
            "signature": signatures.get(player.match_id),
            "moves": moves.get(player.match_id, []),
        }
        for player in MatchPlayer.objects.filter(user=user).select_related("match").order_by("match_id")
    ]


def ratings_export(user: User) -> list[dict]:
    return [
        {"kind": rating.game, "rating": rating.ordinal, "mu": rating.mu, "sigma": rating.sigma, "games": rating.games}
        for rating in Rating.objects.filter(user=user).order_by("game")
    ]
