"""Strong bot against today's normal bots, on duplicate deals (issue 25). Not a test.

Run: ``.venv/bin/python tests/benchmarks/bots.py --game sita --deals 400 [--jobs 2] [--budget-ms 150]``

Every deal is one game seed played once per rotation of the seats: the strong bot sits at
seat 0, then 1, … at a four-player table with normal bots in the other seats, so the luck
of the cards cancels out over a deal. Printed per game: the strong bot's first-place rate
(25 % is parity at four seats), its mean score margin per game (its total minus the other
seats' mean; for SITA, where fewer points are better, the other seats' mean minus its
total) with a 95 % confidence interval over deals, and its move times (p50 / p95 / max,
counting only moves with a choice). The shortest game options are used (Sitaratas has no
shorter option than its 26-round schedule; Estimation micro, 5 fixed rounds, unless
``--estimation-length`` asks for one with call rounds; SITA one match) and printed. A
running summary is printed every ``--every`` deals, so a long run that is stopped still
leaves figures.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.bots import get_bot  # noqa: E402
from games.engines import get_engine  # noqa: E402

PLAYERS = 4
OPTIONS = {
    "sitaratas": {"deck": "classic", "order": "up_down"},
    "estimation": {"length": "micro"},
    "sita": {"matches": 1},
}
LOWER_IS_BETTER = {"sita"}


def play(game: str, options: dict, seed: int, strong_seat: int) -> tuple[bool, float, list[float]]:
    """One game: (strong bot placed first, its margin, its move times in seconds)."""
    engine = get_engine(game)
    strong, normal = get_bot(game, "strong"), get_bot(game, "normal")
    state = engine.new_game(PLAYERS, options, seed)
    times: list[float] = []
    moves = 0
    while not engine.is_over(state):
        for seat in engine.to_act(state):
            if seat not in engine.to_act(state):
                continue
            view = engine.view(state, seat)
            rng = random.Random(f"{seed}:{strong_seat}:{moves}:{seat}")
            if seat == strong_seat:
                started = time.perf_counter()
                action = strong(view, rng)
                if len(view["legal_actions"]) > 1:
                    times.append(time.perf_counter() - started)
            else:
                action = normal(view, rng)
            state = engine.apply(state, seat, action)
            moves += 1
    final = engine.view(state, None)
    totals = final["totals"]
    others = [total for seat, total in enumerate(totals) if seat != strong_seat]
    margin = totals[strong_seat] - sum(others) / len(others)
    if game in LOWER_IS_BETTER:
        margin = -margin
    return strong_seat in final["placements"][0], margin, times


def deal(args: tuple[str, dict, int]) -> tuple[list[bool], list[float], list[float]]:
    game, options, seed = args
    firsts, margins, times = [], [], []
    for seat in range(PLAYERS):
        first, margin, moved = play(game, options, seed, seat)
        firsts.append(first)
        margins.append(margin)
        times.extend(moved)
    return firsts, margins, times


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def summary(game: str, deals: list[tuple[list[bool], list[float], list[float]]]) -> str:
    firsts = [first for firsts, _, _ in deals for first in firsts]
    per_deal = [statistics.fmean(margins) for _, margins, _ in deals]
    times = [moved for _, _, moves in deals for moved in moves]
    mean = statistics.fmean(per_deal)
    half = 1.96 * statistics.stdev(per_deal) / math.sqrt(len(per_deal)) if len(per_deal) > 1 else float("nan")
    return (
        f"{game}: deals {len(deals)} (games {len(firsts)}) · first place {100 * sum(firsts) / len(firsts):.1f} % · "
        f"margin per game {mean:+.2f} (95 % CI {mean - half:+.2f} … {mean + half:+.2f}) · "
        f"move time p50 {1000 * percentile(times, 0.5):.0f} ms, p95 {1000 * percentile(times, 0.95):.0f} ms, "
        f"max {1000 * max(times, default=float('nan')):.0f} ms over {len(times)} moves"
    )


def commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=Path(__file__).parent,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        # A copy outside the repository (so that edits cannot reach a long run) names its commit.
        return os.environ.get("BENCH_COMMIT", "unknown")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(OPTIONS), required=True)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--budget-ms", type=float, default=None, help="BOT_MOVE_BUDGET_MS for the strong bot")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument(
        "--estimation-length",
        choices=("micro", "mini", "full"),
        default="micro",
        help="Estimation's length: micro (5 fixed rounds) or longer, with call rounds",
    )
    parser.add_argument("--every", type=int, default=10, help="print a running summary every N deals")
    args = parser.parse_args()
    options = {"length": args.estimation_length} if args.game == "estimation" else OPTIONS[args.game]
    if args.budget_ms is not None:
        os.environ["BOT_MOVE_BUDGET_MS"] = str(args.budget_ms)
    print(
        f"game {args.game} · options {options} · {PLAYERS} players · 1 strong vs {PLAYERS - 1} normal · "
        f"budget {os.environ.get('BOT_MOVE_BUDGET_MS', '150 (default)')} ms · jobs {args.jobs} · "
        f"machine {platform.node()} ({os.cpu_count()} cores, {platform.python_implementation()} "
        f"{platform.python_version()}) · commit {commit()}",
        flush=True,
    )
    work = [(args.game, options, seed) for seed in range(args.first_seed, args.first_seed + args.deals)]
    done: list = []
    started = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        for result in pool.imap_unordered(deal, work):
            done.append(result)
            if len(done) % args.every == 0 and len(done) < len(work):
                print(f"[{time.perf_counter() - started:.0f} s] {summary(args.game, done)}", flush=True)
    print(f"[{time.perf_counter() - started:.0f} s] FINAL {summary(args.game, done)}", flush=True)


if __name__ == "__main__":
    main()
