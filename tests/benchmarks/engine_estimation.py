"""Estimation engine benchmark (a script, not a test).

Prints full random games per second for each length, the rule-based bot's median and
95th-percentile time per move, and the rule-based bot's margin over the random bot.

    .venv/bin/python tests/benchmarks/engine_estimation.py [--seconds 5] [--margin-games 300]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.bots import random_bot  # noqa: E402
from games.bots.estimation import choose  # noqa: E402
from games.engines import estimation as E  # noqa: E402


def play(seed: int, players: list, length: str, timings: list[float] | None = None) -> dict:
    state = E.new_game(4, {"length": length}, seed)
    rng = random.Random(seed)
    while not E.is_over(state):
        seat = E.to_act(state)[0]
        player = players[seat]
        view = E.view(state, seat)
        started = time.perf_counter()
        action = player(view, rng)
        if timings is not None and player is choose:
            timings.append(time.perf_counter() - started)
        state = E.apply(state, seat, action)
    return state


def games_per_second(length: str, seconds: float) -> float:
    count, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        play(count, [random_bot] * 4, length)
        count += 1
    return count / (time.perf_counter() - started)


def bot_move_times(games: int) -> tuple[float, float, int]:
    timings: list[float] = []
    for seed in range(games):
        play(seed, [choose] * 4, "mini", timings)
    timings.sort()
    return statistics.median(timings), timings[int(len(timings) * 0.95)], len(timings)


def margin(games: int) -> tuple[float, float, float]:
    good, others, wins = [], [], 0
    for seed in range(games):
        seat = seed % 4
        players = [random_bot] * 4
        players[seat] = choose
        totals = E.record(play(seed, players, "micro"))["totals"]
        good.append(totals[seat])
        others.append(statistics.mean(t for s, t in enumerate(totals) if s != seat))
        wins += totals[seat] == max(totals)
    return statistics.mean(good), statistics.mean(others), wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per length for random games")
    parser.add_argument("--bot-games", type=int, default=20, help="mini games of four rule-based bots timed")
    parser.add_argument("--margin-games", type=int, default=300, help="micro games: one good bot, three random")
    args = parser.parse_args()
    for length in ("micro", "mini", "full"):
        print(f"random {length:5} games: {games_per_second(length, args.seconds):8.1f} games/s")
    median, p95, moves = bot_move_times(args.bot_games)
    print(f"rule-based bot, {moves} moves: median {median * 1e6:.0f} µs, 95th percentile {p95 * 1e6:.0f} µs per move")
    good, others, win_rate = margin(args.margin_games)
    print(
        f"margin over {args.margin_games} micro games (1 good vs 3 random): good bot {good:+.1f} per game, "
        f"random bots {others:+.1f}, margin {good - others:+.1f}; good bot first in {win_rate:.0%}"
    )


if __name__ == "__main__":
    main()
