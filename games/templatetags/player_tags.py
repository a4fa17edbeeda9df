"""A player's games on their profile page: the profile (accounts) sits below games, so its
template asks for them here rather than its view importing games."""

from __future__ import annotations

from django import template

from games.selectors.player_stats import profile_stats

register = template.Library()


@register.inclusion_tag("games/_player_stats.html", takes_context=True)
def player_games(context: template.Context, player) -> dict:
    """``{% player_games player %}``: per game, what the player has played and how it went."""
    return {"player": player, "own": context.get("own", False), **profile_stats(player=player)}
