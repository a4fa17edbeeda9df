"""What a game review costs, and how far its figures can be trusted (issue 42). Not a test.

Run: ``.venv/bin/python tests/benchmarks/review.py [--games sitaratas,estimation,sita]
[--samples 200] [--points 100] [--playouts 4] [--seed 1]``

Per game, two parts, both on the pure library (``games.bots.evaluate``, as the review task
calls it), at four seats with normal bots, the reviewed seat 0 played by the easy bot:

1. **Cost.** One whole game is played and every decision of seat 0 that has a choice is
   evaluated with ``--samples`` sampled deals (the review's count, ``REVIEW_SAMPLES``, RULING
   P64): CPU per decision and per game.
2. **Calibration.** ``--points`` decision points (any seat with a choice) are drawn from
   further games; each is evaluated with ``--samples`` and with ten times as many, each on
   its own generator. Printed: how often the two agree on the best action, the mean absolute
   difference of the values (over every action) and of the best action's loss estimate, and,
   for every action the smaller budget marks a blunder (RULING P64), paired playouts from
   the true position: the blunder and the preferred action each played, then the rest of the
   round (SITA: the match) by normal bots on the same generators, ``--playouts`` times.
   "Blunders lose" is the mean of (preferred − blunder) in the seat's total (SITA: blunder −
   preferred in penalty points), with a 95 % interval.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from django.conf import settings  # noqa: E402

settings.configure(USE_I18N=False)  # the catalogue's titles are lazy texts; only its thresholds are read

from games import catalog  # noqa: E402
from games.catalog import (  # noqa: E402
    evaluate,  # noqa: E402
    get_bot,
    get_engine,
)

PLAYERS = 4
OPTIONS = {
    "sitaratas": {"deck": "classic", "order": "up_down"},
    "estimation": {"length": "mini"},
    "sita": {"matches": 1},
}


def choices_in_game(game: str, seed: int):
    """Every position of a game (normal bots, seat 0 the easy bot) where the seat to act has a choice."""
    engine = get_engine(game)
    bots = [get_bot(game, "easy")] + [get_bot(game, "normal")] * (PLAYERS - 1)
    state = engine.new_game(PLAYERS, OPTIONS[game], seed)
    moves = 0
    while not engine.is_over(state):
        for seat in engine.to_act(state):
            if seat not in engine.to_act(state):
                continue
            view = engine.view(state, seat)
            if len(view["legal_actions"]) > 1:
                yield state, seat
            action = bots[seat](view, random.Random(f"{seed}:{moves}:{seat}"))
            state = engine.apply(state, seat, action)
            moves += 1


def cost(game: str, samples: int, seed: int) -> dict:
    engine = get_engine(game)
    spent, decisions = 0.0, 0
    for state, seat in choices_in_game(game, seed):
        if seat != 0:
            continue
        view = engine.view(state, seat)
        started = time.process_time()
        evaluate(view, random.Random(f"cost:{decisions}"), samples)
        spent += time.process_time() - started
        decisions += 1
    per = spent / max(1, decisions)
    return {
        "decisions": decisions,
        "per_decision": per,
        "per_game": spent,
    }


def play_out(game: str, state, seat: int, first: dict, seed: str) -> float:
    """The seat's total once ``first`` is played and the round (SITA: the match) is over."""
    engine = get_engine(game)
    normal = get_bot(game, "normal")
    state = engine.apply(state, seat, first)
    start_round = engine.view(state, None)["round_number"]
    moves = 0
    while not engine.is_over(state) and engine.view(state, None)["round_number"] == start_round:
        for other in engine.to_act(state):
            if other not in engine.to_act(state):
                continue
            action = normal(engine.view(state, other), random.Random(f"{seed}:{moves}:{other}"))
            state = engine.apply(state, other, action)
            moves += 1
    return float(engine.view(state, None)["totals"][seat])


def interval(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return (math.nan, math.nan)
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean - half, mean + half


def calibrate(game: str, samples: int, points: int, playouts: int, seed: int) -> dict:
    engine = get_engine(game)
    blunder = catalog.get(game).blunder
    lower = catalog.get(game).numbered_cards
    rng = random.Random(seed)
    drawn = []
    game_seed = seed * 1000
    while len(drawn) < points:
        game_seed += 1
        positions = list(choices_in_game(game, game_seed))
        drawn += rng.sample(positions, min(len(positions), 6, points - len(drawn)))
    agree, value_diffs, loss_diffs, blunder_gaps, blunders = 0, [], [], [], 0
    started = time.process_time()
    for index, (state, seat) in enumerate(drawn):
        view = engine.view(state, seat)
        small = evaluate(view, random.Random(f"small:{index}"), samples)
        large = evaluate(view, random.Random(f"large:{index}"), samples * 10)
        agree += small.best.action == large.best.action
        for value in small.values:
            other = large.value_of(value.action)
            value_diffs.append(abs(value.points - other.points))
            loss_diffs.append(abs(small.loss(value.action) - large.loss(value.action)))
        for value in small.values:
            if small.loss(value.action) < blunder:
                continue
            blunders += 1
            for trial in range(playouts):
                paired = f"{index}:{trial}"
                best = play_out(game, state, seat, small.best.action, paired)
                worse = play_out(game, state, seat, value.action, paired)
                blunder_gaps.append(worse - best if lower else best - worse)
    return {
        "points": len(drawn),
        "agree": agree / len(drawn),
        "value_diff": statistics.fmean(value_diffs),
        "loss_diff": statistics.fmean(loss_diffs),
        "blunders": blunders,
        "gap": statistics.fmean(blunder_gaps) if blunder_gaps else math.nan,
        "gap_ci": interval(blunder_gaps),
        "lost": sum(gap > 0 for gap in blunder_gaps) / len(blunder_gaps) if blunder_gaps else math.nan,
        "seconds": time.process_time() - started,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="sitaratas,estimation,sita")
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--points", type=int, default=100, help="decision points per game")
    parser.add_argument("--playouts", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores")
    print(f"samples {args.samples} (10x: {args.samples * 10}), {args.points} points per game, seed {args.seed}")
    for game in args.games.split(","):
        spent = cost(game, args.samples, args.seed)
        print(
            f"{game} {OPTIONS[game]}: {spent['decisions']} decisions of seat 0, "
            f"CPU {spent['per_decision'] * 1000:.1f} ms per decision, {spent['per_game']:.1f} s per game",
            flush=True,
        )
        result = calibrate(game, args.samples, args.points, args.playouts, args.seed)
        low, high = result["gap_ci"]
        print(
            f"  calibration on {result['points']} points ({result['seconds']:.0f} s CPU): best action agrees "
            f"{result['agree'] * 100:.0f} %, mean |value difference| {result['value_diff']:.2f}, "
            f"mean |loss difference| {result['loss_diff']:.2f}; {result['blunders']} blunders, "
            f"played out they lose {result['gap']:+.2f} on average (95 % CI {low:+.2f} … {high:+.2f}), "
            f"worse in {result['lost'] * 100:.0f} % of playouts",
            flush=True,
        )


if __name__ == "__main__":
    main()
