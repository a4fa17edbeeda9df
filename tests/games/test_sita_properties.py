"""SITA properties over many seeded random matches, 2–10 players (rulings T1–T6)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import IllegalAction, sita
from games.engines.sita import PENALTY


def card_fields(view: dict) -> list[int]:
    """Every card a view shows, wherever it is (SITA cards are bare numbers, so look by key)."""
    cards = list(view["hand"] or []) + [action["card"] for action in view["legal_actions"] if "card" in action]
    if view["my_choice"] is not None:
        cards.append(view["my_choice"])
    cards += [card for row in view["rows"] for card in row]
    cards += [card for pile in view["taken"] for card in pile]
    if view["revealed"]:
        cards += view["revealed"]["chosen"]
        for placement in view["revealed"]["placements"]:
            cards += [placement["card"], *placement["took"]]
    if view["pending_too_low"]:
        cards.append(view["pending_too_low"]["card"])
    return cards


def check_conservation(state: sita.State, players: int) -> None:
    """The match's 10n + 4 cards are each in exactly one place; rows hold at most five."""
    public = sita.view(state, None)
    hands = [sita.view(state, seat)["hand"] for seat in range(players)]
    in_flight = public["revealed"]["chosen"] if public["pending_too_low"] else []
    places = [card for hand in hands for card in hand] + in_flight
    places += [card for row in public["rows"] for card in row] + [card for pile in public["taken"] for card in pile]
    dealt = sita.record(state)["rounds"][-1]
    match_cards = [card for hand in dealt["hands"] for card in hand] + [row[0] for row in dealt["rows"]]
    assert len(match_cards) == 10 * players + 4
    assert sorted(places) == sorted(match_cards) and len(set(places)) == len(places)
    assert all(1 <= len(row) <= 5 for row in public["rows"])  # RULING T3


def check_penalties_counted_once(state: sita.State) -> None:
    public = sita.view(state, None)
    assert public["penalties"] == [sum(PENALTY[c] for c in pile) for pile in public["taken"]]
    per_turn = public["turn_penalties"]
    assert [sum(turn[seat] for turn in per_turn) for seat in range(public["players"])] == public["penalties"]
    earlier = public["score_sheet"][-1]["totals"] if public["score_sheet"] and not public["over"] else None
    if earlier is not None:
        assert public["totals"] == [a + b for a, b in zip(earlier, public["penalties"])]


def check_no_leak(state: sita.State, players: int) -> None:
    """No view holds another seat's hand or unrevealed choice (RULING T2, P2)."""
    hands = {seat: set(sita.view(state, seat)["hand"]) for seat in range(players)}
    for viewer in [None, *range(players)]:
        view = sita.view(state, viewer)
        shown = set(card_fields(view))
        for other, hand in hands.items():
            if other != viewer:
                assert not shown & hand, f"seat {viewer} sees cards of seat {other}"
        if view["my_choice"] is not None:
            assert view["my_choice"] in hands[viewer]


def check_refusals(state: sita.State, players: int, rng: random.Random) -> None:
    text = sita.dumps(state)
    acting = sita.to_act(state)
    legal_by_seat = {seat: sita.legal_actions(state, seat) for seat in range(players)}
    wrong = [
        {"type": "choose", "card": rng.randint(-3, 110)},
        {"type": "take_row", "row": rng.randint(-2, 6)},
        {"type": "choose", "card": 1, "row": 0},
        {"type": "take_row", "row": "0"},
    ]
    for seat in range(players):
        for action in wrong + [legal for other in acting for legal in legal_by_seat[other]][:3]:
            if action in legal_by_seat[seat]:
                continue
            with pytest.raises(IllegalAction):
                sita.apply(state, seat, action)
    assert sita.dumps(state) == text


def play_checked_game(players: int, matches: int, seed: int) -> sita.State:
    rng = random.Random(seed)
    state = sita.new_game(players, {"matches": matches}, seed)
    while not sita.is_over(state):
        check_conservation(state, players)
        check_penalties_counted_once(state)
        check_no_leak(state, players)
        if rng.random() < 0.2:
            check_refusals(state, players, rng)
        text = sita.dumps(state)
        assert sita.loads(text) == state and sita.dumps(sita.loads(text)) == text
        seat = rng.choice(sita.to_act(state))
        after = sita.apply(state, seat, rng.choice(sita.legal_actions(state, seat)))
        assert sita.dumps(state) == text, "apply changed its input"
        state = after
    return state


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**31),
    players=st.integers(min_value=2, max_value=10),
    matches=st.integers(min_value=1, max_value=2),
)
def test_random_matches_conserve_cards_count_penalties_once_and_leak_nothing(
    seed: int, players: int, matches: int
) -> None:
    state = play_checked_game(players, matches, seed)
    record = sita.record(state)
    assert len(record["rounds"]) == matches
    for round_ in record["rounds"]:
        # At a match's end every card is in a row or in exactly one penalty pile.
        cards = [c for hand in round_["hands"] for c in hand] + [row[0] for row in round_["rows"]]
        left_in_rows = [c for row in round_["turns"][-1]["rows"] for c in row]
        assert sum(round_["penalties"]) + sum(PENALTY[c] for c in left_in_rows) == sum(PENALTY[c] for c in cards)
        assert len(round_["turns"]) == 10
    assert record["totals"] == [sum(r["penalties"][seat] for r in record["rounds"]) for seat in range(players)]
    assert sita.view(state, None)["score_sheet"][-1]["totals"] == record["totals"]
    # RULING T6: fewest first, equal totals together, everyone placed once.
    groups = record["placements"]
    assert sorted(seat for group in groups for seat in group) == list(range(players))
    group_totals = [{record["totals"][seat] for seat in group} for group in groups]
    assert all(len(values) == 1 for values in group_totals)
    flat = [values.pop() for values in group_totals]
    assert flat == sorted(set(flat))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31), players=st.integers(min_value=2, max_value=10))
def test_the_same_seed_and_actions_give_the_same_game(seed: int, players: int) -> None:
    def run() -> str:
        rng = random.Random(seed)
        state = sita.new_game(players, None, seed)
        while not sita.is_over(state):
            seat = rng.choice(sita.to_act(state))
            state = sita.apply(state, seat, rng.choice(sita.legal_actions(state, seat)))
        return sita.dumps(state)

    assert run() == run()
