"""Sitaratas engine benchmark (a script, not a test): ``.venv/bin/python tests/benchmarks/engine_sitaratas.py``.

Prints full random games per second for 3–6 players, the rule-based bot's median and
95th-percentile time per move, and its margin over the random bot (one good bot against
random bots, its seat rotating, over seeded games). ``--quick`` runs a smaller sample.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.bots import random_bot  # noqa: E402
from games.bots import sitaratas as good_bot  # noqa: E402
from games.engines import sitaratas as engine  # noqa: E402

OPTIONS = [{"deck": deck, "order": order} for deck in ("classic", "jokers") for order in ("up_down", "down_up")]


def random_game(players: int, seed: int) -> None:
    """A whole game through the engine alone (legal_actions + apply), no views."""
    state = engine.new_game(players, OPTIONS[seed % len(OPTIONS)], seed)
    rng = random.Random(seed)
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))


def games_per_second(players: int, seconds: float) -> float:
    start, games = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        random_game(players, games)
        games += 1
    return games / (time.perf_counter() - start)


def mixed_game(players: int, seed: int, good_seat: int, move_times: list[float]) -> list[int]:
    """One good bot at ``good_seat``, random bots elsewhere; the good bot's move times are collected."""
    state = engine.new_game(players, OPTIONS[seed % len(OPTIONS)], seed)
    rng = random.Random(seed)
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        view = engine.view(state, seat)
        if seat == good_seat:
            start = time.perf_counter()
            action = good_bot.choose(view, rng)
            move_times.append(time.perf_counter() - start)
        else:
            action = random_bot(view, rng)
        state = engine.apply(state, seat, action)
    return list(state.totals)


def main() -> None:
    quick = "--quick" in sys.argv
    seconds = 1.0 if quick else 4.0
    games = 40 if quick else 400
    print("Sitaratas engine benchmark")
    for players in (3, 4, 5, 6):
        print(f"  {players} players: {games_per_second(players, seconds):7.1f} full random games/s")
    move_times: list[float] = []
    good, rand, wins = [], [], 0
    for game in range(games):
        players = 3 + game % 4
        seat = game % players
        totals = mixed_game(players, 10_000 + game, seat, move_times)
        good.append(totals[seat])
        rand.extend(total for other, total in enumerate(totals) if other != seat)
        wins += engine.ranking(totals)[0] == seat
    move_times.sort()
    median = statistics.median(move_times) * 1e6
    p95 = move_times[int(0.95 * (len(move_times) - 1))] * 1e6
    print(f"  rule-based bot: median {median:.0f} µs, 95th percentile {p95:.0f} µs per move ({len(move_times)} moves)")
    print(
        f"  good vs random over {games} games (3–6 players, one good bot): mean total {statistics.mean(good):.1f} "
        f"vs {statistics.mean(rand):.1f}, margin {statistics.mean(good) - statistics.mean(rand):+.1f} points; "
        f"good bot first in {100 * wins / games:.0f}% of games"
    )


if __name__ == "__main__":
    main()
