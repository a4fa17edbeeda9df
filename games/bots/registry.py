"""The bots by game, and the players each offers, for the pure tools that run without Django (the
bot benchmarks, tests/benchmarks/). The site asks the catalogue (``games.catalog.get_bot``), which
checks the host's level (``accounts.bots.BOT_LEVELS``, RULING P45) and builds on this; a test
checks that both hold the same bots.
"""

from __future__ import annotations

from typing import Any

from games.bots import (
    Bot,
    Move,
    StrongBot,
    easy,
    estimation,
    guarded,
    plain,
    random_bot,
    sita,
    sitaratas,
    strong_estimation,
    strong_sita,
    strong_sitaratas,
)

# Each game's normal (rule-based) and strong (sampling) bot, by the engine's name.
BOTS: dict[str, tuple[Bot[Any], StrongBot[Any]]] = {
    "sitaratas": (sitaratas, strong_sitaratas),
    "estimation": (estimation, strong_estimation),
    "sita": (sita, strong_sita),
}
# The players a game's bots make: the host's levels (RULING P45: "easy" is the normal bot with
# mistakes, P47; "strong" the sampling bot with the normal one standing in should it fail, P48)
# and "random", the engine tests' baseline.
PLAYERS = ("random", "easy", "normal", "strong")


def bot_for(name: str, player: str = "normal") -> Move[Any]:
    """The move of ``name``'s ``player`` (one of ``PLAYERS``); ValueError for any other game or player."""
    pair = BOTS.get(name)
    if pair is None or player not in PLAYERS:
        raise ValueError(f"No {player!r} bot for {name!r}.")
    normal, strong = pair
    if player == "random":
        return plain(random_bot)
    if player == "strong":
        return guarded(strong, normal, name)
    if player == "easy":
        return easy(normal)
    return plain(normal.choose)
