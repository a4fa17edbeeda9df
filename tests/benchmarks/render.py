"""The cost of one seat's live fragment (issue 26: per-viewer languages). Not a test.

Run: ``DATABASE_URL=… REDIS_URL=… .venv/bin/python tests/benchmarks/render.py [--language en]
[--repeat 7] [--profile]``

An Estimation game (four seats, default options, seed 7) is played by normal bots and 61
positions are taken evenly across it. Each position's fragment is rendered for each of the four
seats once to warm the process (templates compiled, the shared blocks of every position in the
cache, as on a site where the other seats rendered them first), then ``--repeat`` times more;
the best pass's CPU time per render is printed, in µs, with DEBUG off and the viewer's language
active as the table socket activates it. Each position is its own match, so its parsed state
stays in the process's cache as a move's does while its seats render: the figure is the render.
``--profile`` prints where one pass's time goes (cProfile, by own time). Nothing reaches the
database or Redis; the two URLs only satisfy the
settings.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ["DJANGO_DEBUG"] = "false"
os.environ.setdefault("DJANGO_SECRET_KEY", "render-benchmark-only-" + "k" * 40)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# The settings ask for the services' addresses; the render reads no row and no key of either.
os.environ.setdefault("DATABASE_URL", "postgres://127.0.0.1/unused")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1/0")

import django  # noqa: E402

django.setup()

from django.utils import translation  # noqa: E402

from games.catalog import get_bot, get_engine  # noqa: E402

try:
    from tables.render.fragment import SeatInfo, Snapshot, render_live  # noqa: E402
except ImportError:  # a commit before tables/render/ (to compare with the start)
    from tables.live.snapshot import SeatInfo, Snapshot, render_live  # noqa: E402

GAME, SEATS, SEED, POSITIONS = "estimation", 4, 7, 61


def positions() -> list[Snapshot]:
    """``POSITIONS`` snapshots taken evenly across one bot-played game."""
    engine, bot = get_engine(GAME), get_bot(GAME, "normal")
    options = engine.validate_options(SEATS, {})
    state = engine.new_game(SEATS, options, SEED)
    texts = [engine.dumps(state)]
    rng = random.Random(SEED)
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        state = engine.apply(state, seat, bot(engine.view(state, seat), rng))
        texts.append(engine.dumps(state))
    step = (len(texts) - 1) / (POSITIONS - 1)
    chosen = [round(index * step) for index in range(POSITIONS)]
    seats = tuple(SeatInfo(seat, seat + 1, f"Player {seat + 1}", f"p{seat}", False, True) for seat in range(SEATS))
    return [
        Snapshot(
            table_id=1,
            game=GAME,
            status="playing",
            options=options,
            seat_count=SEATS,
            stake=0,
            host_id=1,
            host_name="Player 1",
            closed_reason="",
            seats=seats,
            match_id=index + 1,
            seed=SEED + index,
            match_status="playing",
            version=version,
            state=texts[version],
        )
        for index, version in enumerate(chosen)
    ]


def one_pass(snapshots: list[Snapshot]) -> float:
    """CPU seconds to render every seat of every position once (this process's CPU time, so that
    other work on a shared machine, which delays the pass, does not count)."""
    started = time.process_time()
    for snapshot in snapshots:
        for seat in range(SEATS):
            render_live(snapshot, user_id=seat + 1, connected={1, 2, 3, 4})
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--language", default="en")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--profile", action="store_true")
    arguments = parser.parse_args()
    snapshots = positions()
    renders = len(snapshots) * SEATS
    with translation.override(arguments.language):
        one_pass(snapshots)  # warm: templates compiled, shared blocks cached
        best = min(one_pass(snapshots) for _ in range(arguments.repeat))
        print(
            f"{GAME}, {len(snapshots)} positions × {SEATS} seats, language {arguments.language}: "
            f"{best / renders * 1e6:.1f} µs per render (best of {arguments.repeat} passes)"
        )
        if arguments.profile:
            profiler = cProfile.Profile()
            profiler.runcall(one_pass, snapshots)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
