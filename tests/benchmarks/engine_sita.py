"""SITA benchmark (not a test): engine speed, bot decision time, good bot vs random bot.

Run: ``.venv/bin/python tests/benchmarks/engine_sita.py [--seconds 3] [--matches 300]``

Prints full random matches per second for 2, 4, 6 and 10 players (random legal
actions straight from the engine, the bots' hot path), the good bot's median and
95th-percentile time per decision, and its mean penalty against random bots.
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
from games.bots.sita import choose as good_bot  # noqa: E402
from games.engines import sita  # noqa: E402


def random_match(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = sita.new_game(players, None, seed)
    while not sita.is_over(state):
        seat = rng.choice(sita.to_act(state))
        state = sita.apply(state, seat, rng.choice(sita.legal_actions(state, seat)))


def matches_per_second(players: int, seconds: float) -> float:
    played, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        random_match(players, played)
        played += 1
    return played / (time.perf_counter() - start)


def bot_match(players: int, seed: int, good_seats: set[int], timings: list[float]) -> list[int]:
    """One match, the good bot at ``good_seats``, random bots elsewhere; returns the totals."""
    rng = random.Random(seed)
    state = sita.new_game(players, None, seed)
    while not sita.is_over(state):
        seat = sita.to_act(state)[0]
        view = sita.view(state, seat)
        if seat in good_seats:
            start = time.perf_counter()
            action = good_bot(view, rng)
            timings.append(time.perf_counter() - start)
        else:
            action = random_bot(view, rng)
        state = sita.apply(state, seat, action)
    return sita.totals(state)


def margin(players: int, matches: int, timings: list[float]) -> tuple[float, float, float]:
    """Mean penalty of the good bot (seat rotating), of a random seat, and the good bot's win share."""
    good = other = wins = 0.0
    for seed in range(matches):
        seat = seed % players
        tally = bot_match(players, seed, {seat}, timings)
        rest = tally[:seat] + tally[seat + 1 :]
        good += tally[seat]
        other += sum(rest) / len(rest)
        wins += tally[seat] <= min(rest)
    return good / matches, other / matches, wins / matches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per player count for the speed test")
    parser.add_argument("--matches", type=int, default=100, help="bot matches per player count")
    args = parser.parse_args()

    print("Full random matches per second (engine only):")
    for players in (2, 4, 6, 10):
        print(f"  {players:2d} players: {matches_per_second(players, args.seconds):8.1f}")

    print(f"\nGood bot (one seat) against random bots, {args.matches} seeded matches each:")
    timings: list[float] = []
    for players in (2, 4, 6, 10):
        good, other, wins = margin(players, args.matches, timings)
        print(
            f"  {players:2d} players: good bot {good:5.2f} points, random seat {other:5.2f}, "
            f"margin {other - good:5.2f}, good bot best or tied best {wins:.0%}"
        )

    timings.sort()
    p95 = timings[int(0.95 * (len(timings) - 1))]
    print(
        f"\nGood bot time per decision over {len(timings)} decisions: "
        f"median {statistics.median(timings) * 1000:.2f} ms, 95th percentile {p95 * 1000:.2f} ms"
    )


if __name__ == "__main__":
    main()
