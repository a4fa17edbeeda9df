"""Seating, Swiss regrouping, points and the prize split: the pure rules (RULINGS P77–P83)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import pairing
from tournaments.pairing import Line, layout


@pytest.mark.parametrize("size", range(2, 11))
@pytest.mark.parametrize("players", [2, 3, 7, 11, 13, 25, 97])
def test_every_size_from_2_to_10_gives_balanced_tables_of_the_chosen_size_where_it_can(size, players) -> None:
    # SITA seats 2 to 10, so every size is a legal table.
    shape = layout(players, size, 2, 10)
    assert sum(shape.humans) == players
    assert max(shape.sizes) - min(shape.sizes) <= 1
    assert all(2 <= s <= 10 for s in shape.sizes)
    assert sum(shape.bots) == 0


def test_it_uses_the_fewest_tables_of_another_size() -> None:
    # 13 at tables of 4 (2–10 seats): 4, 4, 5 (one off-size table) rather than 4, 3, 3, 3.
    assert layout(13, 4, 2, 10).humans == (5, 4, 4)
    # 11 at tables of 4: 4, 4, 3 (one off) rather than 6, 5.
    assert layout(11, 4, 2, 10).humans == (4, 4, 3)


def test_bots_fill_only_where_a_fixed_size_table_would_be_short() -> None:
    # Estimation seats exactly 4: 13 players make four tables, three of them with a bot.
    shape = layout(13, 4, 4, 4)
    assert shape.sizes == (4, 4, 4, 4)
    assert shape.humans == (4, 3, 3, 3)
    assert shape.bots == (0, 1, 1, 1)
    assert layout(12, 4, 4, 4).bots == (0, 0, 0)
    # Too few for one table: bots make it up.
    assert layout(2, 4, 4, 4) == pairing.Layout(humans=(2,), bots=(2,))


def test_round_one_seats_like_ratings_together_and_ties_by_sign_up() -> None:
    ratings = {1: 10.0, 2: 30.0, 3: 20.0, 4: 30.0, 5: 5.0, 6: 0.0}
    order = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5}
    tables = pairing.seat_by_rating(ratings, order, layout(6, 3, 2, 10))
    assert tables == [[2, 4, 3], [1, 5, 6]]


def test_regrouping_keeps_neighbours_together_and_avoids_a_repeat_when_someone_fresh_is_near() -> None:
    ranked = [1, 2, 3, 4, 5, 6, 7, 8]
    met = {1: {2}, 2: {1}}
    tables = pairing.regroup(ranked, met, layout(8, 4, 2, 10))
    assert tables == [[1, 3, 4, 5], [2, 6, 7, 8]]
    assert pairing.repeats(tables, met) == 0


def test_regrouping_allows_a_repeat_when_nobody_fresh_is_left() -> None:
    met = {1: {2, 3}, 2: {1, 3}, 3: {1, 2}}
    tables = pairing.regroup([1, 2, 3], met, layout(3, 3, 2, 10))
    assert tables == [[1, 2, 3]]
    assert pairing.repeats(tables, met) == 3


def test_swiss_over_rounds_keeps_repeats_below_random_seating() -> None:
    rng = random.Random(7)
    players = list(range(40))
    met: dict[int, set[int]] = {}
    shape = layout(40, 4, 4, 4)
    swiss = plain = 0
    for _round in range(4):
        ranked = players[:]
        rng.shuffle(ranked)
        tables = pairing.regroup(ranked, met, shape)
        swiss += pairing.repeats(tables, met)
        plain += pairing.repeats([ranked[i : i + 4] for i in range(0, 40, 4)], met)
        for table in tables:
            for p in table:
                met.setdefault(p, set()).update(q for q in table if q != p)
    assert swiss < plain
    assert swiss <= 6  # only the last tables, when the few players left have all met


@pytest.mark.parametrize(
    ("seats", "expected"),
    [(2, [2, 0]), (4, [6, 4, 2, 0]), (10, [18, 16, 14, 12, 10, 8, 6, 4, 2, 0])],
)
def test_points_by_place_per_table_size_in_half_points(seats, expected) -> None:
    assert [pairing.half_points(place, seats) for place in range(1, seats + 1)] == expected


def test_tied_places_share_their_points_exactly() -> None:
    # Four seats, two tied for second: they share 2 and 1 points, 1½ each (3 half-points).
    assert pairing.table_points({0: 1, 1: 2, 2: 2, 3: 4}, 4) == {0: 6, 1: 3, 2: 3, 3: 0}
    assert pairing.table_points({0: 1, 1: 1, 2: 1}, 3) == {0: 2, 1: 2, 2: 2}


def test_standings_break_ties_by_wins_then_buchholz_then_share_a_rank() -> None:
    lines = [
        Line(player=1, half=6, wins=Fraction(0), opponents=[3], order=0),
        Line(player=2, half=6, wins=Fraction(1), opponents=[4], order=1),
        Line(player=3, half=4, wins=Fraction(0), opponents=[1], order=2),
        Line(player=4, half=2, wins=Fraction(0), opponents=[2], order=3),
        Line(player=5, half=6, wins=Fraction(0), opponents=[3], order=4),
    ]
    ranked = pairing.standings(lines)
    assert [line.player for line in ranked] == [2, 1, 5, 3, 4]
    assert [line.rank for line in ranked] == [1, 2, 2, 4, 5]


def test_prizes_follow_the_split_and_round_as_p5() -> None:
    assert pairing.split_prizes(100, (50, 30, 20), [(1, 7), (2, 8), (3, 9), (4, 10)]) == {7: 50, 8: 30, 9: 20, 10: 0}
    # 101 coins: 50.5, 30.3, 20.2 → 50, 30, 20 and the coin left goes to the best placed.
    assert pairing.split_prizes(101, (50, 30, 20), [(1, 7), (2, 8), (3, 9)]) == {7: 51, 8: 30, 9: 20}


def test_tied_ranks_share_the_prizes_they_span() -> None:
    paid = pairing.split_prizes(100, (50, 30, 20), [(1, 1), (2, 2), (2, 3), (4, 4)])
    assert paid == {1: 50, 2: 25, 3: 25, 4: 0}
    paid = pairing.split_prizes(10, (50, 30, 20), [(1, 1), (1, 2), (1, 3)])
    assert paid == {1: 4, 2: 3, 3: 3}


def test_fewer_finishers_than_prizes_share_the_whole_pot() -> None:
    assert pairing.split_prizes(80, (50, 30, 20), [(1, 1), (2, 2)]) == {1: 50, 2: 30}


@pytest.mark.parametrize("text", ["", "50/60", "30/70", "abc", "100/0"])
def test_a_bad_prize_split_is_refused(text) -> None:
    with pytest.raises(ValueError):
        pairing.parse_split(text)


@settings(max_examples=200, deadline=None)
@given(
    players=st.integers(min_value=1, max_value=300),
    size=st.integers(min_value=2, max_value=10),
    fixed=st.booleans(),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_every_player_is_seated_exactly_once_per_round(players, size, fixed, seed) -> None:
    low, high = (size, size) if fixed else (2, 10)
    shape = layout(players, size, low, high)
    assert all(low <= s <= high for s in shape.sizes)
    rng = random.Random(seed)
    ids = list(range(players))
    ratings = {p: rng.random() for p in ids}
    first = pairing.seat_by_rating(ratings, {p: p for p in ids}, shape)
    met = {p: {q for t in first if p in t for q in t if q != p} for p in ids}
    rng.shuffle(ids)
    second = pairing.regroup(ids, met, shape)
    for tables in (first, second):
        seated = [p for table in tables for p in table]
        assert sorted(seated) == list(range(players))
        assert [len(t) for t in tables] == list(shape.humans)


@settings(max_examples=200, deadline=None)
@given(pot=st.integers(0, 10**6), places=st.lists(st.integers(1, 6), min_size=1, max_size=12))
def test_the_prizes_always_pay_out_the_pot_exactly(pot, places) -> None:
    ranked = sorted((place, player) for player, place in enumerate(places))
    paid = pairing.split_prizes(pot, (50, 30, 20), ranked)
    assert sum(paid.values()) == pot
    assert all(amount >= 0 for amount in paid.values())
