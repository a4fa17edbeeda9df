"""Strong bot against today's normal bots, on duplicate deals (issues 25, 38). Not a test.

Run: ``.venv/bin/python tests/benchmarks/bots.py --game sita --deals 200 [--jobs 2] [--samples 200]
[--players 4] [--results FILE]`` and the load check:
``.venv/bin/python tests/benchmarks/bots.py --game sita --starved 20``.

``--results FILE`` makes a long run resumable: each finished deal is appended to FILE as one JSON
line, and a run started again with the same file (and the same game, options, players and
samples) reads the deals already there and plays only the rest, so the summary covers them all.

Every deal is one game seed played once per rotation of the seats: the strong bot sits at
seat 0, then 1, … at a table of ``--players`` (four by default; SITA seats 2 to 10) with normal
bots in the other seats, so the luck of the cards cancels out over a deal. Printed per game: the
strong bot's first-place rate with ties split (a first place shared by k seats counts 1/k; 1/n is
parity at n seats),
its mean score margin per game (its total minus the other seats' mean; for SITA, where fewer
points are better, the other seats' mean minus its total) with a 95 % confidence interval
over deals, its samples and move times (p50 / p95 / max, counting only moves with a choice),
and how many moves the CPU safety cap stopped (RULING P49). The shortest game options are
used (Sitaratas has no shorter option than its 26-round schedule; Estimation micro, 5 fixed
rounds, unless ``--estimation-length`` asks for one with call rounds; SITA one match).

``--starved N`` plays N deals twice in this process, once as it is and once with
``--burners`` processes (default 1) burning the CPU beside it, and says whether the strong bot chose exactly the same
moves: its budget is a count of samples, so load must not change a single move.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.bots.budget import DEFAULT_CPU_SECONDS, DEFAULT_SAMPLES, Budget  # noqa: E402
from games.bots.registry import bot_for  # noqa: E402  (the library's own lookup: no Django set-up needed)
from games.engines.registry import engine_for  # noqa: E402

PLAYERS = 4
OPTIONS = {
    "sitaratas": {"deck": "classic", "order": "up_down"},
    "estimation": {"length": "micro"},
    "sita": {"matches": 1},
}
LOWER_IS_BETTER = {"sita"}


@dataclass
class Game:
    first: float  # 1 for a first place alone, 1/k for one shared by k seats, else 0
    margin: float
    times: list[float] = field(default_factory=list)
    samples: list[int] = field(default_factory=list)
    capped: int = 0
    moves: str = ""  # a digest of the strong bot's moves, to compare runs


def play(
    game: str, options: dict, seed: int, strong_seat: int, samples: int, cpu_seconds: float, players: int = PLAYERS
) -> Game:
    """One game of ``players`` seats, the strong bot at ``strong_seat``."""
    engine = engine_for(game)
    strong, normal = bot_for(game, "strong"), bot_for(game, "normal")
    state = engine.new_game(players, options, seed)
    result = Game(0.0, 0.0)
    chosen = hashlib.sha256()
    moves = 0
    while not engine.is_over(state):
        for seat in engine.to_act(state):
            if seat not in engine.to_act(state):
                continue
            view = engine.view(state, seat)
            rng = random.Random(f"{seed}:{strong_seat}:{moves}:{seat}")
            if seat == strong_seat:
                budget = Budget(samples=samples, cpu_seconds=cpu_seconds)
                started = time.perf_counter()
                action = strong(view, rng, budget)
                if len(view["legal_actions"]) > 1:
                    result.times.append(time.perf_counter() - started)
                    result.samples.append(budget.done)
                    result.capped += budget.capped
                chosen.update(json.dumps(action, sort_keys=True).encode())
            else:
                action = normal(view, rng)
            state = engine.apply(state, seat, action)
            moves += 1
    final = engine.view(state, None)
    totals = final["totals"]
    others = [total for seat, total in enumerate(totals) if seat != strong_seat]
    result.margin = totals[strong_seat] - sum(others) / len(others)
    if game in LOWER_IS_BETTER:
        result.margin = -result.margin
    best = final["placements"][0]
    result.first = 1 / len(best) if strong_seat in best else 0.0
    result.moves = chosen.hexdigest()
    return result


def deal(args: tuple[str, dict, int, int, float, int]) -> tuple[int, list[Game]]:
    game, options, seed, samples, cpu_seconds, players = args
    return seed, [play(game, options, seed, seat, samples, cpu_seconds, players) for seat in range(players)]


def run_key(game: str, options: dict, players: int, samples: int) -> dict:
    """What a results file's deals were played with: a resumed run must match it."""
    return {"game": game, "options": options, "players": players, "samples": samples}


def load_results(path: Path, key: dict) -> dict[int, list[Game]]:
    """The deals a stopped run appended to ``path`` (none if it does not exist yet)."""
    done: dict[int, list[Game]] = {}
    if not path.exists():
        return done
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut off when the run was stopped mid-write: that deal is played again
        if row["key"] != key:
            raise SystemExit(f"{path}:{number} holds deals of another run ({row['key']}), not {key}")
        done[row["seed"]] = [Game(**played) for played in row["games"]]
    return done


def append_result(path: Path, key: dict, seed: int, games: list[Game]) -> None:
    with path.open("a") as out:
        out.write(json.dumps({"key": key, "seed": seed, "games": [asdict(played) for played in games]}) + "\n")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def summary(game: str, deals: list[list[Game]]) -> str:
    games = [played for rotation in deals for played in rotation]
    per_deal = [statistics.fmean(played.margin for played in rotation) for rotation in deals]
    times = [moved for played in games for moved in played.times]
    samples = [count for played in games for count in played.samples]
    firsts = [played.first for played in games]
    # The first-place rate's interval over deals too: the four rotations of a deal are not independent.
    first_per_deal = [statistics.fmean(played.first for played in rotation) for rotation in deals]
    mean = statistics.fmean(per_deal)
    half = 1.96 * statistics.stdev(per_deal) / math.sqrt(len(per_deal)) if len(per_deal) > 1 else float("nan")
    first = statistics.fmean(first_per_deal)
    first_half = (
        1.96 * statistics.stdev(first_per_deal) / math.sqrt(len(first_per_deal)) if len(deals) > 1 else float("nan")
    )
    capped = sum(played.capped for played in games)
    return (
        f"{game}: deals {len(deals)} (games {len(games)}) · first place, ties split, "
        f"{100 * sum(firsts) / len(firsts):.1f} % (95 % CI {100 * (first - first_half):.1f} … "
        f"{100 * (first + first_half):.1f}; parity {100 / len(deals[0]):.1f}) · margin per game {mean:+.2f} "
        f"(95 % CI {mean - half:+.2f} … "
        f"{mean + half:+.2f}) · samples per move p50 {percentile(samples, 0.5):.0f}, min {min(samples, default=0)} · "
        f"capped {capped} of {len(samples)} moves · move time p50 {1000 * percentile(times, 0.5):.0f} ms, "
        f"p95 {1000 * percentile(times, 0.95):.0f} ms, max {1000 * max(times, default=float('nan')):.0f} ms"
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


def burn() -> None:
    """Keep one core busy until terminated."""
    while True:
        pass


def starved(args: argparse.Namespace, options: dict) -> None:
    """The same deals as they are and beside a burner per core: the moves must not differ."""
    work = [
        (args.game, options, seed, args.samples, args.cpu_cap, args.players)
        for seed in range(args.first_seed, args.first_seed + args.starved)
    ]
    started = time.perf_counter()
    plain = [deal(item)[1] for item in work]
    plain_seconds = time.perf_counter() - started
    burners = [multiprocessing.Process(target=burn, daemon=True) for _ in range(args.burners)]
    for burner in burners:
        burner.start()
    try:
        started = time.perf_counter()
        loaded = [deal(item)[1] for item in work]
        loaded_seconds = time.perf_counter() - started
    finally:
        for burner in burners:
            burner.terminate()
    games = [(a, b) for rotation_a, rotation_b in zip(plain, loaded) for a, b in zip(rotation_a, rotation_b)]
    same = sum(a.moves == b.moves for a, b in games)
    moves = sum(len(a.samples) for a, _ in games)
    print(
        f"STARVED {args.game}: deals {len(work)} (games {len(games)}, {moves} strong moves with a choice) · "
        f"identical moves in {same} of {len(games)} games · capped {sum(a.capped for a, _ in games)} as it is, "
        f"{sum(b.capped for _, b in games)} with {len(burners)} burner(s) · wall {plain_seconds:.0f} s as it is, "
        f"{loaded_seconds:.0f} s starved",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(OPTIONS), required=True)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="BOT_STRONG_SAMPLES for the strong bot")
    parser.add_argument(
        "--cpu-cap", type=float, default=DEFAULT_CPU_SECONDS, help="the safety cap per move, CPU seconds"
    )
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=PLAYERS, help="seats at the table (SITA: 2 to 10)")
    parser.add_argument("--results", type=Path, help="append each deal here, and resume from what is there")
    parser.add_argument("--starved", type=int, default=0, help="compare N deals as they are and starved of CPU")
    parser.add_argument("--burners", type=int, default=1, help="processes burning the CPU in the starved run")
    parser.add_argument(
        "--estimation-length",
        choices=("micro", "mini", "full"),
        default="micro",
        help="Estimation's length: micro (5 fixed rounds) or longer, with call rounds",
    )
    parser.add_argument("--every", type=int, default=10, help="print a running summary every N deals")
    args = parser.parse_args()
    options = {"length": args.estimation_length} if args.game == "estimation" else OPTIONS[args.game]
    print(
        f"game {args.game} · options {options} · {args.players} players · 1 strong vs {args.players - 1} normal · "
        f"{args.samples} samples per move, CPU cap {args.cpu_cap} s · jobs {args.jobs} · "
        f"machine {platform.node()} ({os.cpu_count()} cores, {platform.python_implementation()} "
        f"{platform.python_version()}) · commit {commit()}",
        flush=True,
    )
    if args.starved:
        starved(args, options)
        return
    seeds = range(args.first_seed, args.first_seed + args.deals)
    key = run_key(args.game, options, args.players, args.samples)
    earlier = load_results(args.results, key) if args.results else {}
    done = [earlier[seed] for seed in seeds if seed in earlier]
    if done:
        print(f"resumed: {len(done)} deals already in {args.results}", flush=True)
    todo = [seed for seed in seeds if seed not in earlier]
    work = [(args.game, options, seed, args.samples, args.cpu_cap, args.players) for seed in todo]
    started = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        for seed, result in pool.imap_unordered(deal, work):
            if args.results:
                append_result(args.results, key, seed, result)
            done.append(result)
            if len(done) % args.every == 0 and len(done) < args.deals:
                print(f"[{time.perf_counter() - started:.0f} s] {summary(args.game, done)}", flush=True)
    print(f"[{time.perf_counter() - started:.0f} s] FINAL {summary(args.game, done)}", flush=True)


if __name__ == "__main__":
    main()
