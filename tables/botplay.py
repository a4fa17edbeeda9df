"""The bots' and the house's moves at a live table: their generator and their budget.

The generator comes from the attempt's secret under its own label (``fairness.bot_rng``),
never from the match's seed, so a bot's stream is independent of every deal (issue 38). The
strong bots' budget is a count of samples from the settings, with a cap in the thread's CPU
time as a safety net (RULING P49); each strong move's samples go to the metrics, so a bot
the cap weakened shows.
"""

from __future__ import annotations

import time

from django.conf import settings

from core import metrics
from games.bots.budget import Budget
from games.catalog import bot_move, house_move
from games.models import Match
from tables.selectors import fairness


def bot_action(*, match: Match, seat: int, level: str, view: dict) -> dict:
    """The move of the bot (or the house, for an away seat) at ``seat``, at ``level``."""
    rng = fairness.bot_rng(match=match, seat=seat)
    budget = Budget(samples=settings.BOT_STRONG_SAMPLES, cpu_seconds=settings.BOT_MOVE_CPU_CAP_MS / 1000)
    started = time.perf_counter()
    action = bot_move(match.game, level, view, rng, budget)
    metrics.bot_timed(match.game, time.perf_counter() - started)
    if budget.done:
        metrics.bot_sampled(match.game, budget.done, capped=budget.capped)
    return action


def clock_action(*, match: Match, seat: int, view: dict) -> dict:
    """RULING P11: the house's action for a seat whose time ran out (``catalog.house_move``)."""
    return house_move(match.game)(view, fairness.bot_rng(match=match, seat=seat, label="clock"))


def away_action(*, match: Match, seat: int, view: dict) -> dict:
    """RULING P12: the house's action for an away player's seat, from the bot's own generator."""
    return house_move(match.game)(view, fairness.bot_rng(match=match, seat=seat))
