"""The game page's words about a pot (templates/games/match.html): why a staker took no share."""

from __future__ import annotations

from django import template

from games.models import Match
from payouts import selectors
from payouts.memos import memo_text

register = template.Library()


@register.simple_tag
def pot_forfeits(match: Match) -> dict[int, str]:
    """``{% pot_forfeits match as forfeits %}``: RULING P50, each staker who took no share (user id →
    why, in the reader's language), as the wallet's "Stake lost" row says it."""
    return {user_id: memo_text(memo) for user_id, memo in selectors.forfeits(match=match).items()}


@register.filter
def of_user(forfeits: dict[int, str], user_id: int) -> str:
    return forfeits.get(user_id, "")
