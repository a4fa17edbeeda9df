"""The profile's review figures (issue 42): asked for by the profile's template, as the player's
games are (player_tags), since accounts sits below games."""

from __future__ import annotations

from django import template

from games.selectors.reviews import accuracy_by_game

register = template.Library()


@register.inclusion_tag("games/_player_accuracy.html", takes_context=True)
def player_accuracy(context: template.Context, player) -> dict:
    """``{% player_accuracy player %}``: per game, the average accuracy over recent reviewed games."""
    request = context.get("request")
    viewer = getattr(request, "user", None)
    return {"rows": accuracy_by_game(player=player, viewer=viewer), "own": context.get("own", False)}
