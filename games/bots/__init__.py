"""Bots: pure-Python players that see only a seat's view (no Django import).

A bot is a function ``choose(view, rng) -> action``: ``view`` is exactly what
``engine.view(state, seat)`` gives that seat, ``rng`` a ``random.Random``. The
same view and the same generator state give the same action, so a retried
Celery task makes the same move.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable

Bot = Callable[[dict, random.Random], dict]

BOT_MODULES = {
    "sitaratas": "games.bots.sitaratas",
    "estimation": "games.bots.estimation",
    "sita": "games.bots.sita",
}
LEVELS = ("good", "random")


def random_bot(view: dict, rng: random.Random) -> dict:
    """Any legal action, uniformly: the baseline the good bots must beat."""
    return rng.choice(view["legal_actions"])


def get_bot(game: str, level: str = "good") -> Bot:
    if level == "random":
        return random_bot
    if level != "good" or game not in BOT_MODULES:
        raise ValueError(f"No {level!r} bot for {game!r}.")
    return importlib.import_module(BOT_MODULES[game]).choose
