"""The pot split (Estimation rule book, "Winning"; RULING P5). Pure: no Django, no I/O.

Stakers are ranked among themselves by their place in the game (bots never stake and
are simply not in the list). Two stakers: 100 % to the best; three: 70/30; four:
60/30/10; the last of them takes nothing; one staker gets the whole pot back. Tied
stakers share the shares of the places they span evenly. Each share is rounded down
and the coins left over go one by one to the best-placed recipients, earliest seat
first, so the payouts always sum to the pot exactly.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import groupby

# Percent of the pot for each rank among the stakers, best first.
SHARES: dict[int, tuple[int, ...]] = {1: (100,), 2: (100, 0), 3: (70, 30, 0), 4: (60, 30, 10, 0)}


def split_pot(pot: int, stakers: list[tuple[int, int]]) -> dict[int, int]:
    """``stakers`` is ``(place, seat)`` per staker (place 1 = best; equal places are tied).

    Returns coins per seat. Every seat in ``stakers`` appears, possibly with 0.
    """
    if pot < 0:
        raise ValueError("A pot cannot be negative.")
    if not stakers:
        return {}
    if len(stakers) not in SHARES:
        raise ValueError(f"A pot is split among 1 to 4 stakers, not {len(stakers)}.")
    if len({seat for _, seat in stakers}) != len(stakers):
        raise ValueError("Each staker has one seat.")
    percents = SHARES[len(stakers)]
    ordered = sorted(stakers)  # by place, then seat
    exact: dict[int, Fraction] = {}
    rank = 0
    for _, group in groupby(ordered, key=lambda staker: staker[0]):
        seats = [seat for _, seat in group]
        # The tied group spans ranks rank .. rank+len-1 and shares their percentages evenly.
        spanned = sum(percents[rank : rank + len(seats)])
        for seat in seats:
            exact[seat] = Fraction(pot * spanned, 100 * len(seats))
        rank += len(seats)
    payouts = {seat: int(share) for seat, share in exact.items()}  # floor: shares are non-negative
    left_over = pot - sum(payouts.values())
    recipients = [seat for _, seat in ordered if exact[seat] > 0]
    # RULING P5: the remainder goes one coin each to the best-placed recipients, earliest seat
    # first. It is smaller than the number of fractional shares, so one pass is enough.
    for seat in recipients[:left_over]:
        payouts[seat] += 1
    return payouts
