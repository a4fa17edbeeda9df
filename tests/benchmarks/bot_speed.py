"""The strong bots' samples per second, compiled and as plain Python, in one run (issue 55). Not a test.

Run: ``.venv/bin/python tests/benchmarks/bot_speed.py [--games 3] [--samples 200] [--before DIR]``

Plays the same games (seeds 0 … N-1, four seats, one strong bot rotating through the seats,
normal bots elsewhere, the benchmark's shortest options) twice: in this interpreter, with the bots
as they are imported here (compiled where ``config/compile_bots.py`` built them), and in a fresh
one that imports them from their sources (``games.bots.sources``). Printed per game: the strong
moves' samples per CPU second (thread time) of each, their ratio, move CPU p50 / p95 / max, and a
digest of every move made, which must be the same in both: compiling changes no move.
``--before DIR`` measures a third time, in a fresh interpreter importing the library of another
checkout (an earlier commit, ``git worktree add DIR <commit>``), so a change's speed-up is a ratio
taken in one run on one machine.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

OPTIONS: dict[str, dict] = {
    "sitaratas": {"deck": "classic", "order": "up_down"},
    "estimation": {"length": "micro"},
    "sita": {"matches": 1},
}


def measure(game: str, games: int, samples: int) -> dict:
    """Every strong move of ``games`` games: samples, CPU seconds per move, and the moves' digest."""
    from games.bots.budget import Budget
    from games.bots.registry import bot_for
    from games.engines.registry import engine_for

    engine = engine_for(game)
    strong, normal = bot_for(game, "strong"), bot_for(game, "normal")
    digest, times, done = hashlib.sha256(), [], 0
    for seed in range(games):
        state, moves = engine.new_game(4, OPTIONS[game], seed), 0
        while not engine.is_over(state):
            for seat in engine.to_act(state):
                if seat not in engine.to_act(state):
                    continue
                view = engine.view(state, seat)
                rng = random.Random(f"{seed}:{moves}:{seat}")
                if seat == seed % 4 and len(view["legal_actions"]) > 1:
                    budget = Budget(samples=samples, cpu_seconds=None)
                    started = time.thread_time()
                    action = strong(view, rng, budget)
                    times.append(time.thread_time() - started)
                    done += budget.done
                else:
                    action = normal(view, rng)
                digest.update(json.dumps(action, sort_keys=True).encode())
                state = engine.apply(state, seat, action)
                moves += 1
    return {"samples": done, "times": times, "digest": digest.hexdigest()[:16]}


def elsewhere(game: str, games: int, samples: int, root: Path, sources: bool) -> dict:
    """The same in a fresh interpreter importing the library under ``root``; ``sources``: from its
    Python sources even where it is compiled."""
    first = "from games.bots.sources import prefer_sources; prefer_sources()\n" if sources else ""
    code = (
        f"import sys, json; sys.path[:0] = [{str(HERE)!r}, {str(root)!r}]\n{first}"
        f"import bot_speed; print(json.dumps(bot_speed.measure({game!r}, {games}, {samples})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    return json.loads(out.stdout)


def rate(figures: dict) -> float:
    return figures["samples"] / sum(figures["times"])


def line(name: str, figures: dict) -> str:
    times = sorted(figures["times"])
    pick = lambda share: 1000 * times[min(len(times) - 1, int(share * len(times)))]  # noqa: E731
    return (
        f"{name} {rate(figures):,.0f} samples/s, move CPU p50 {pick(0.5):.0f} / p95 {pick(0.95):.0f} "
        f"/ max {1000 * times[-1]:.0f} ms"
    )


def main() -> None:
    from games.bots import strong_sita, tricks
    from games.bots.sources import is_compiled

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per bot game (one strong seat each)")
    parser.add_argument("--samples", type=int, default=200, help="BOT_STRONG_SAMPLES")
    parser.add_argument("--game", choices=sorted(OPTIONS), action="append", help="only this game (repeatable)")
    parser.add_argument("--before", type=Path, help="a checkout of an earlier commit to measure beside this one")
    args = parser.parse_args()
    compiled = is_compiled(tricks) and is_compiled(strong_sita)
    print(f"bots here: {'compiled' if compiled else 'plain Python (run config/compile_bots.py to compile)'}")
    for game in args.game or sorted(OPTIONS):
        here = measure(game, args.games, args.samples)
        source = elsewhere(game, args.games, args.samples, ROOT, sources=True)
        same = "same moves" if here["digest"] == source["digest"] else "MOVES DIFFER"
        text = (
            f"{game}: {len(here['times'])} strong moves · here{line('', here)} · plain{line('', source)} · "
            f"here ÷ plain {rate(here) / rate(source):.2f}× · {same} ({here['digest']})"
        )
        if args.before:
            before = elsewhere(game, args.games, args.samples, args.before.resolve(), sources=False)
            moves = "same moves" if before["digest"] == here["digest"] else "other moves"
            text += f" · before{line('', before)} · here ÷ before {rate(here) / rate(before):.2f}× ({moves})"
        print(text, flush=True)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
