"""Seating and Swiss regrouping of a tournament round (issue 41), timed per round.

    .venv/bin/python tests/benchmarks/tournaments.py            # 1,000 and 10,000 players
    .venv/bin/python tests/benchmarks/tournaments.py --players 500,2000 --size 6

Each size is timed over ``--rounds`` rounds: round 1 seats the players by rating, every later
round regroups them by a shuffled standings order with the table-mates of all the earlier
rounds to avoid (tournaments.pairing). Printed per round: the seating time, the standings time
(points, wins, Buchholz) and the repeats left. What must show: well under a second per round
for 1,000 players.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tournaments import pairing  # noqa: E402  (pure Python: no Django set-up needed)


def run(players: int, size: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    ids = list(range(players))
    ratings = {p: rng.gauss(25, 8) for p in ids}
    order = {p: p for p in ids}
    shape = pairing.layout(players, size, 2, 10)
    met: dict[int, set[int]] = {}
    half = dict.fromkeys(ids, 0)
    opponents: dict[int, list[int]] = {p: [] for p in ids}
    for number in range(1, rounds + 1):
        started = time.perf_counter()
        if number == 1:
            tables = pairing.seat_by_rating(ratings, order, shape)
        else:
            lines = [pairing.Line(player=p, half=half[p], opponents=opponents[p], order=p) for p in ids]
            ranked = [line.player for line in pairing.standings(lines)]
            tables = pairing.regroup(ranked, met, shape)
        seating = time.perf_counter() - started
        repeats = pairing.repeats(tables, met)
        for table in tables:
            places = list(range(1, len(table) + 1))
            rng.shuffle(places)
            points = pairing.table_points(dict(zip(table, places, strict=True)), len(table))
            for p in table:
                half[p] += points[p]
                others = [q for q in table if q != p]
                opponents[p].extend(others)
                met.setdefault(p, set()).update(others)
        started = time.perf_counter()
        lines = [pairing.Line(player=p, half=half[p], wins=Fraction(0), opponents=opponents[p], order=p) for p in ids]
        pairing.standings(lines)
        standing = time.perf_counter() - started
        print(
            f"{players:>6} players, {len(tables):>5} tables of {size}: round {number}: "
            f"seating {seating * 1000:8.1f} ms, standings {standing * 1000:7.1f} ms, repeats {repeats}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", default="1000,10000")
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=41)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    for count in (int(part) for part in args.players.split(",")):
        run(count, args.size, args.rounds, args.seed)


if __name__ == "__main__":
    main()
