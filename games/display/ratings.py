"""The rating a player reads (issue 53).

The site stores OpenSkill's cautious estimate of a player's skill, μ − 3σ (``Rating.ordinal``):
a newcomer's is 0, and a few losses make it negative, which no player understood. Players read
it on the scale chess sites taught them: 1500 for a newcomer, 40 for each point of the estimate
(a point of skill is roughly 40 points of a chess rating), whole numbers. The order is the
stored one, so the leaderboard, the tournaments' seeding and the season ladders (RULINGS P78,
P84) are unchanged. A rating is *provisional* until its player has finished
``PROVISIONAL_GAMES`` rated games of that game: the estimate is still unsure (σ is large), so it
moves a lot from game to game.
"""

from __future__ import annotations

NEWCOMER = 1500
SCALE = 40
PROVISIONAL_GAMES = 10


def shown(ordinal: float) -> int:
    """The stored estimate on the players' scale: 0 → 1500."""
    return round(NEWCOMER + SCALE * ordinal)


def shown_change(before: float, after: float) -> int:
    """How much a game moved the rating the player reads (the difference of the two shown)."""
    return shown(after) - shown(before)


def provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES
