"""Bots: pure-Python players that see only a seat's view (no Django import).

A bot is a function ``choose(view, rng) -> action``: ``view`` is exactly what
``engine.view(state, seat)`` gives that seat, ``rng`` a ``random.Random``. The
same view and the same generator state give the same action, so a retried
Celery task makes the same move. The strong bots also take a ``Budget``: a count of
sampled deals (RULING P49), so they are deterministic too, unless their CPU safety cap
stops a move early (``Budget.capped``).
"""

from __future__ import annotations

import importlib
import logging
import random
from collections.abc import Callable

from games.bots.budget import Budget
from games.engines import get_engine

Bot = Callable[[dict, random.Random], dict]
logger = logging.getLogger(__name__)

# The levels a host chooses per bot seat (issue 25, RULING P45), weakest first. "good" is the
# rule-based bot's older name, "random" the baseline of the engine tests; neither is offered.
LEVELS = ("easy", "normal", "strong")
DEFAULT_LEVEL = "normal"
# RULING P47: the easy bot is the normal bot that, on this share of its moves, plays any legal
# action instead.
EASY_MISTAKES = 0.3


def random_bot(view: dict, rng: random.Random) -> dict:
    """Any legal action, uniformly: the baseline the good bots must beat."""
    return rng.choice(view["legal_actions"])


def get_bot(game: str, level: str = "good") -> Bot:
    """A game's bot at ``level``: its normal bot is ``games.bots.<game>``, its strong bot
    ``games.bots.strong_<game>`` (each with ``choose``); ValueError for any other."""
    if level == "random":
        return random_bot
    normal = _choose(game) if level in ("good", *LEVELS) and _is_game(game) else None
    if normal is None:
        raise ValueError(f"No {level!r} bot for {game!r}.")
    if level == "strong":
        strong = _choose(f"strong_{game}")
        if strong is None:
            raise ValueError(f"No {level!r} bot for {game!r}.")
        return _guarded(strong, normal, game)
    if level == "easy":
        return _easy(normal)
    return normal


def bot_move(game: str, level: str, view: dict, rng: random.Random, budget: Budget) -> dict:
    """The action of ``game``'s bot at ``level`` for ``view``; a strong bot spends ``budget``
    (the others sample nothing, and leave ``budget.done`` at 0)."""
    bot = get_bot(game, level)
    if level == "strong":
        return bot(view, rng, budget)  # type: ignore[call-arg]
    return bot(view, rng)


def _is_game(game: object) -> bool:
    try:
        get_engine(game)
    except ValueError:
        return False
    return True


def _choose(module: str) -> Bot | None:
    """The ``choose`` of ``games.bots.<module>``, or None when there is no such bot."""
    try:
        found = importlib.import_module(f"games.bots.{module}")
    except ModuleNotFoundError as error:
        if error.name != f"games.bots.{module}":
            raise
        return None
    return getattr(found, "choose", None)


def _guarded(strong: Bot, normal: Bot, game: str) -> Bot:
    """The strong bot, with the normal bot standing in should it ever fail: a live table must
    never wait on a bot that raised. The tests call the strong bots directly, so a failure
    there still fails loudly."""

    def choose(view: dict, rng: random.Random, budget: Budget | None = None) -> dict:
        try:
            action = strong(view, rng, budget)  # type: ignore[call-arg]
        except Exception:
            logger.exception("The strong %s bot failed; the normal bot moves instead.", game)
            return normal(view, rng)
        if action not in view["legal_actions"]:
            logger.error("The strong %s bot chose an illegal action %r; the normal bot moves instead.", game, action)
            return normal(view, rng)
        return action

    choose.strong = strong  # type: ignore[attr-defined]
    return choose


def _easy(normal: Bot) -> Bot:
    def easy(view: dict, rng: random.Random) -> dict:
        # The draw comes first and always, so the same generator state gives the same move.
        if rng.random() < EASY_MISTAKES:
            return rng.choice(view["legal_actions"])
        return normal(view, rng)

    return easy
