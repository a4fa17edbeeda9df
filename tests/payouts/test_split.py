"""The pot split (Estimation rule book, "Winning"; RULING P5): exhaustive cases and properties."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from payouts.split import split_pot


def test_one_staker_gets_the_whole_pot_back() -> None:
    assert split_pot(100, [(3, 2)]) == {2: 100}


def test_two_stakers_best_takes_all() -> None:
    assert split_pot(200, [(4, 0), (1, 3)]) == {3: 200, 0: 0}


def test_three_stakers_split_70_30_and_the_last_gets_nothing() -> None:
    assert split_pot(300, [(1, 0), (2, 1), (3, 2)]) == {0: 210, 1: 90, 2: 0}


def test_four_stakers_split_60_30_10_0() -> None:
    assert split_pot(400, [(2, 1), (1, 0), (4, 3), (3, 2)]) == {0: 240, 1: 120, 2: 40, 3: 0}


def test_stakers_are_ranked_among_themselves_around_bots() -> None:
    # Places 2 and 4 of the game (bots took 1 and 3) are ranks 1 and 2 among the stakers.
    assert split_pot(100, [(4, 3), (2, 1)]) == {1: 100, 3: 0}


@pytest.mark.parametrize(
    ("stakers", "expected"),
    [
        # two stakers tied: they span 100 + 0
        ([(1, 0), (1, 1)], {0: 50, 1: 50}),
        # three: tie for first spans 70 + 30
        ([(1, 0), (1, 1), (3, 2)], {0: 50, 1: 50, 2: 0}),
        # three: tie for second spans 30 + 0
        ([(1, 0), (2, 1), (2, 2)], {0: 70, 1: 15, 2: 15}),
        # three all tied: 100 / 3 each; the left-over coin to the earliest seat
        ([(1, 0), (1, 1), (1, 2)], {0: 34, 1: 33, 2: 33}),
        # four: first two tied span 60 + 30
        ([(1, 0), (1, 1), (3, 2), (4, 3)], {0: 45, 1: 45, 2: 10, 3: 0}),
        # four: middle two tied span 30 + 10
        ([(1, 0), (2, 1), (2, 2), (4, 3)], {0: 60, 1: 20, 2: 20, 3: 0}),
        # four: last two tied span 10 + 0
        ([(1, 0), (2, 1), (3, 2), (3, 3)], {0: 60, 1: 30, 2: 5, 3: 5}),
        # four: first three tied span 100
        ([(1, 0), (1, 1), (1, 2), (4, 3)], {0: 34, 1: 33, 2: 33, 3: 0}),
        # four: last three tied span 40 → 13.33 each; RULING P5 gives the left-over coin to the
        # best-placed recipient, who is the winner here (not one of the tied three).
        ([(1, 0), (2, 1), (2, 2), (2, 3)], {0: 61, 1: 13, 2: 13, 3: 13}),
        # four: two pairs
        ([(1, 0), (1, 1), (3, 2), (3, 3)], {0: 45, 1: 45, 2: 5, 3: 5}),
        # four all tied
        ([(1, 0), (1, 1), (1, 2), (1, 3)], {0: 25, 1: 25, 2: 25, 3: 25}),
    ],
)
def test_tied_stakers_share_the_shares_of_the_places_they_span(stakers, expected) -> None:
    assert split_pot(100, stakers) == expected


def test_odd_pots_round_down_and_give_left_overs_to_the_best_placed_earliest_seat_first() -> None:
    # 70/30 of 7 = 4.9 / 2.1 → 4 / 2, one coin left → the best placed.
    assert split_pot(7, [(1, 2), (2, 0), (3, 1)]) == {2: 5, 0: 2, 1: 0}
    # 60/30/10 of 11 = 6.6 / 3.3 / 1.1 → 6 / 3 / 1, one left → first.
    assert split_pot(11, [(1, 0), (2, 1), (3, 2), (4, 3)]) == {0: 7, 1: 3, 2: 1, 3: 0}
    # Tie for first of 3 stakers, pot 5: each 2.5 → 2 and 2; one left → the earlier seat of the tie.
    assert split_pot(5, [(1, 3), (1, 1), (3, 0)]) == {1: 3, 3: 2, 0: 0}
    assert split_pot(1, [(1, 0), (2, 1), (3, 2), (4, 3)]) == {0: 1, 1: 0, 2: 0, 3: 0}
    assert split_pot(0, [(1, 0), (2, 1)]) == {0: 0, 1: 0}


def test_it_refuses_more_than_four_stakers_or_a_negative_pot() -> None:
    with pytest.raises(ValueError):
        split_pot(10, [(1, seat) for seat in range(5)])
    with pytest.raises(ValueError):
        split_pot(-1, [(1, 0)])


def test_every_tie_pattern_of_one_to_four_stakers_conserves_the_pot() -> None:
    for count in range(1, 5):
        for places in product(range(1, 5), repeat=count):
            for pot in (0, 1, 7, 100, 999, 1001):
                payouts = split_pot(pot, list(zip(places, range(count))))
                _assert_fair(pot, list(zip(places, range(count))), payouts)


def _assert_fair(pot: int, stakers: list[tuple[int, int]], payouts: dict[int, int]) -> None:
    assert sum(payouts.values()) == pot
    assert set(payouts) == {seat for _, seat in stakers}
    assert all(amount >= 0 for amount in payouts.values())
    place = dict((seat, place) for place, seat in stakers)
    for a, b in product(payouts, repeat=2):
        if place[a] < place[b]:
            assert payouts[a] >= payouts[b], (stakers, payouts)
    if len(stakers) > 1 and len(set(place.values())) == len(stakers):
        worst = max(stakers)[1]
        assert payouts[worst] == 0  # the last of them takes nothing


@given(
    pot=st.integers(min_value=0, max_value=10**9),
    places=st.lists(st.integers(min_value=1, max_value=4), min_size=1, max_size=4),
    seats=st.permutations(range(4)),
)
def test_payouts_sum_to_the_pot_none_negative_and_a_better_place_never_gets_less(pot, places, seats) -> None:
    stakers = list(zip(places, seats[: len(places)]))
    _assert_fair(pot, stakers, split_pot(pot, stakers))
