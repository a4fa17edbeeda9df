"""Seating, Swiss regrouping, points by place, standings and the prize split (RULINGS P77–P83).

Pure Python: no Django, no I/O, so the benchmark and the property tests drive it directly and
the services only hand it ids, ratings and results. Players are plain ints (user ids).

Chess pairing is one against one; a card table seats 2 to 10, so the Swiss idea is ours:
neighbours in the standings sit together, and a player who already shared a table with
someone is moved one place along the standings when a fresh table-mate is near (a window of
a few table sizes), never further, so the strong still meet the strong.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import groupby

# How far down the standings a seat looks for someone not yet met, in table sizes.
REPEAT_WINDOW = 3


@dataclass(frozen=True)
class Layout:
    """The tables of one round: how many humans sit at each and how many bots fill it."""

    humans: tuple[int, ...]  # per table, in table order
    bots: tuple[int, ...]

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(h + b for h, b in zip(self.humans, self.bots, strict=True))


def layout(players: int, size: int, smallest: int, largest: int) -> Layout:
    """RULING P79: ``players`` humans at tables of ``size`` seats, the game seating ``smallest`` to
    ``largest``. Sizes are balanced (they differ by at most one) with the fewest tables of another
    size; a tie goes to the smaller tables. Only when no balanced split fits the game do bots fill
    the tables that would be short, one bot per table from the last table back."""
    if players < 1:
        raise ValueError("A round needs players.")
    if not smallest <= size <= largest:
        raise ValueError("The table size is outside the game's seats.")
    best: tuple[int, int, tuple[int, ...]] | None = None
    for count in {max(1, players // size), -(-players // size)}:
        quotient, remainder = divmod(players, count)
        sizes = (quotient + 1,) * remainder + (quotient,) * (count - remainder)
        if not all(smallest <= s <= largest for s in sizes):
            continue
        # Fewest tables off the chosen size; then more (smaller) tables.
        key = (sum(1 for s in sizes if s != size), -count, sizes)
        if best is None or key < best:
            best = key
    if best is not None:
        sizes = best[2]
        return Layout(humans=sizes, bots=(0,) * len(sizes))
    # RULING P81: bots only where a table would otherwise be short.
    count = -(-max(players, smallest) // size)
    short = count * size - players
    bots = [0] * count
    for index in range(short):
        bots[count - 1 - index % count] += 1
    humans = tuple(size - b for b in bots)
    return Layout(humans=humans, bots=tuple(bots))


def seat_by_rating(ratings: Mapping[int, float], order: Mapping[int, int], shape: Layout) -> list[list[int]]:
    """RULING P79, round 1: the players by rating (best first; equal ratings by sign-up order) fill
    the tables in turn, so players of like strength meet from the start."""
    ranked = sorted(ratings, key=lambda player: (-ratings[player], order[player]))
    return _fill(ranked, shape.humans)


def _fill(ranked: list[int], humans: Sequence[int]) -> list[list[int]]:
    tables, start = [], 0
    for count in humans:
        tables.append(ranked[start : start + count])
        start += count
    return tables


def regroup(ranked: Sequence[int], met: Mapping[int, set[int]], shape: Layout) -> list[list[int]]:
    """RULING P79, later rounds: Swiss for tables. The standings (best first) fill the tables in
    turn; each seat after a table's first takes the best-ranked player still unseated who has met
    nobody at that table yet, looking at most ``REPEAT_WINDOW`` table sizes down the standings, and
    otherwise the best-ranked one (a repeat is allowed when nobody fresh is near)."""
    remaining = list(ranked)
    tables: list[list[int]] = []
    for count in shape.humans:
        table = [remaining.pop(0)]
        seen = set(met.get(table[0], ()))
        while len(table) < count:
            window = min(len(remaining), REPEAT_WINDOW * count)
            pick = next((i for i in range(window) if remaining[i] not in seen), 0)
            player = remaining.pop(pick)
            table.append(player)
            seen |= met.get(player, set())
        tables.append(table)
    return tables


def repeats(tables: Iterable[Sequence[int]], met: Mapping[int, set[int]]) -> int:
    """How many pairs at these tables have sat together before."""
    return sum(1 for table in tables for i, a in enumerate(table) for b in table[i + 1 :] if b in met.get(a, set()))


def half_points(place: int, seats: int, tied: int = 1) -> int:
    """RULING P77: at a table of ``seats`` seats, place p scores ``seats − p`` points (the winner
    ``seats − 1``, the last 0), in half-points so that ``tied`` players sharing places p … p+tied−1
    share those places' points evenly and exactly."""
    spanned = sum(seats - p for p in range(place, place + tied))
    total = Fraction(2 * spanned, tied)
    if total.denominator != 1:  # the mean of consecutive integers is a whole or half number
        raise ValueError("Tied points are always whole half-points.")
    return int(total)


def table_points(places: Mapping[int, int], seats: int) -> dict[int, int]:
    """Half-points per seat from each seat's place (equal places are tied; bots included)."""
    tied: dict[int, int] = {}
    for place in places.values():
        tied[place] = tied.get(place, 0) + 1
    return {seat: half_points(place, seats, tied[place]) for seat, place in places.items()}


@dataclass
class Line:
    """One player's line in the standings; ``half`` is points × 2."""

    player: int
    half: int = 0
    wins: Fraction = field(default_factory=Fraction)
    opponents: list[int] = field(default_factory=list)
    order: int = 0
    buchholz: int = 0
    rank: int = 0

    def key(self) -> tuple:
        return (-self.half, -self.wins, -self.buchholz)


def standings(lines: Iterable[Line]) -> list[Line]:
    """RULING P78: points; then table wins (a shared first place counts its share); then the sum of
    the points of everyone met at a table (Buchholz, each meeting counted once per table); equal on
    all three, players share a rank and are listed by sign-up order."""
    lines = list(lines)
    by_player = {line.player: line for line in lines}
    for line in lines:
        line.buchholz = sum(by_player[other].half for other in line.opponents if other in by_player)
    lines.sort(key=lambda line: (*line.key(), line.order))
    position = 0
    for _key, group in groupby(lines, key=Line.key):
        members = list(group)
        for line in members:
            line.rank = position + 1
        position += len(members)
    return lines


def split_prizes(pot: int, percents: Sequence[int], ranked: Sequence[tuple[int, int]]) -> dict[int, int]:
    """RULING P83: ``ranked`` is (rank, player) in standings order. Rank r takes ``percents[r−1]``;
    when fewer players finish than there are prizes, the prizes for the missing ranks go to the
    ranks that exist in the same proportions. Tied players share evenly the prizes of the ranks they
    span. Each share is rounded down, and the coins left over go one each to the best-placed
    recipients in standings order (RULING P5's rounding), so the pot is paid out exactly."""
    if pot < 0:
        raise ValueError("A pot cannot be negative.")
    if not ranked:
        return {}
    shares = list(percents[: len(ranked)]) + [0] * max(0, len(ranked) - len(percents))
    whole = sum(shares)
    if whole <= 0:
        raise ValueError("The prize split gives nothing.")
    exact: dict[int, Fraction] = {}
    index = 0
    for _rank, group in groupby(ranked, key=lambda entry: entry[0]):
        players = [player for _, player in group]
        spanned = sum(shares[index : index + len(players)])
        for player in players:
            exact[player] = Fraction(pot * spanned, whole * len(players))
        index += len(players)
    paid = {player: int(share) for player, share in exact.items()}
    left = pot - sum(paid.values())
    recipients = [player for _, player in ranked if exact[player] > 0]
    for player in recipients[:left]:
        paid[player] += 1
    return paid


def parse_split(text: str) -> tuple[int, ...]:
    """ "50/30/20" → (50, 30, 20): whole percents, best first, each above 0, non-increasing, 100 in all."""
    try:
        parts = tuple(int(part) for part in text.replace(",", "/").split("/") if part.strip())
    except ValueError:
        raise ValueError("Write the prize split as whole percents, best first, such as 50/30/20.") from None
    if not parts or any(p <= 0 for p in parts) or sum(parts) != 100:
        raise ValueError("The prize split must be whole percents above 0 that add up to 100.")
    if list(parts) != sorted(parts, reverse=True):
        raise ValueError("A better place never takes less: list the prizes best first.")
    return parts
