"""The evaluator (issue 42): every legal action's expected result from a seat's view alone,
the same for the same samples and seed, blind to the cards the seat cannot see."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.catalog import evaluate, get_engine
from games.engines import sita, sitaratas
from tests.games.deal_helpers import others_redealt

GAMES = {
    "sitaratas": (4, {"deck": "jokers"}),
    "estimation": (4, {"length": "mini"}),
    "sita": (5, {"matches": 1}),
}


def position(game: str, seed: int, moves: int):
    """The state after at least ``moves`` random legal actions from ``seed``'s deal, played on
    until a seat to act has a choice; that seat (None when the game ended first)."""
    players, options = GAMES[game]
    engine = get_engine(game)
    state = engine.new_game(players, options, seed)
    rng = random.Random(seed)
    played = 0
    while not engine.is_over(state):
        seats = [seat for seat in engine.to_act(state) if len(engine.legal_actions(state, seat)) > 1]
        if played >= moves and seats:
            return state, seats[0]
        seat = rng.choice(engine.to_act(state))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        played += 1
    return state, None


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_same_budget_and_seed_give_the_same_values(game) -> None:
    state, seat = position(game, 3, 5)
    view = get_engine(game).view(state, seat)
    first = evaluate(view, random.Random(11), samples=8)
    again = evaluate(json.loads(json.dumps(view)), random.Random(11), samples=8)
    assert first == again
    assert first.samples == 8


@pytest.mark.parametrize("game", sorted(GAMES))
def test_it_scores_legal_actions_only_best_first(game) -> None:
    state, seat = position(game, 5, 9)
    view = get_engine(game).view(state, seat)
    evaluation = evaluate(view, random.Random(1), samples=6)
    legal = view["legal_actions"]
    assert all(value.action in legal for value in evaluation.values)
    assert len({json.dumps(value.action, sort_keys=True) for value in evaluation.values}) == len(evaluation.values)
    assert evaluation.loss(evaluation.best.action) == 0
    assert all(evaluation.loss(value.action) >= 0 for value in evaluation.values)
    assert all(0 <= value.first <= 1 for value in evaluation.values)
    assert evaluation.loss({"type": "nothing"}) is None


def test_sita_counts_penalty_points_where_fewer_is_better() -> None:
    state, seat = position("sita", 2, 0)
    evaluation = evaluate(sita.view(state, seat), random.Random(2), samples=10)
    assert evaluation.lower_is_better
    points = [value.points for value in evaluation.values]
    assert points == sorted(points)
    worst = evaluation.values[-1]
    assert evaluation.loss(worst.action) == pytest.approx(worst.points - evaluation.best.points)


def test_an_estimation_super_call_is_left_out() -> None:
    engine = get_engine("estimation")
    for seed in range(40):
        state, seat = position("estimation", seed, 0)
        while seat is not None and engine.view(state, seat)["phase"] != "estimating":
            state = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
            seats = engine.to_act(state)
            seat = seats[0] if seats else None
        if seat is None:
            continue
        view = engine.view(state, seat)
        if any("trump" in action for action in view["legal_actions"]):
            evaluation = evaluate(view, random.Random(0), samples=3)
            assert all("trump" not in value.action for value in evaluation.values)
            return
    pytest.fail("no estimating decision with a Super Call in 40 deals")


def _others_redealt(hands, me: int, rng: random.Random) -> tuple:
    return tuple(tuple(hand) for hand in others_redealt(hands, me, rng))


@pytest.mark.parametrize("game", ["sitaratas", "estimation"])
def test_other_seats_hidden_cards_never_change_a_value(game) -> None:
    engine = get_engine(game)
    state, seat = position(game, 8, 7)
    values = evaluate(engine.view(state, seat), random.Random(5), samples=6)
    for trial in range(3):
        other = dataclasses.replace(state, hands=_others_redealt(state.hands, seat, random.Random(trial)))
        assert other.hands != state.hands
        assert evaluate(engine.view(other, seat), random.Random(5), samples=6) == values


def test_a_locked_sita_choice_and_other_hands_never_change_a_value() -> None:
    state = sita.new_game(5, None, 2)
    state = sita.apply(state, 3, {"type": "choose", "card": state.hands[3][0]})
    values = evaluate(sita.view(state, 0), random.Random(5), samples=6)
    for trial in range(3):
        hands = _others_redealt(state.hands, 0, random.Random(trial))
        other = dataclasses.replace(state, hands=hands, chosen=(None, None, None, hands[3][0], None))
        assert evaluate(sita.view(other, 0), random.Random(5), samples=6) == values


def test_a_spectators_view_or_no_samples_is_refused() -> None:
    state = sitaratas.new_game(3, None, 1)
    with pytest.raises(ValueError):
        evaluate(sitaratas.view(state, None), random.Random(0), samples=4)
    with pytest.raises(ValueError):
        evaluate(sitaratas.view(state, 0), random.Random(0), samples=0)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(sorted(GAMES)),
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 40),
    samples=st.integers(1, 4),
)
def test_any_position_gets_a_value_for_legal_actions_within_the_results_range(game, seed, moves, samples) -> None:
    state, seat = position(game, seed, moves)
    if seat is None:
        return
    view = get_engine(game).view(state, seat)
    evaluation = evaluate(view, random.Random(seed), samples=samples)
    assert evaluation.values
    assert all(value.action in view["legal_actions"] for value in evaluation.values)
    total = view["totals"][seat]
    if game == "sita":
        # Penalty points only grow.
        assert all(value.points >= total for value in evaluation.values)
    assert evaluation.values == tuple(sorted(evaluation.values, key=lambda value: evaluation.loss(value.action)))
