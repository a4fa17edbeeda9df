"""Estimation: properties over many seeded random games of each length.

The random player passes often in the auction, so redeals and the fixed NT deal (RULING E4)
show up too.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import IllegalAction
from games.engines import estimation as E
from games.engines.cards import make_deck
from games.records.estimation import explain_points

DECK = sorted(make_deck())
SEEDS = st.one_of(st.integers(min_value=0, max_value=2**40), st.text(min_size=1, max_size=8))


def _choose(state: E.State, seat: int, rng: random.Random) -> dict:
    legal = E.legal_actions(state, seat)
    if {"type": "pass"} in legal and rng.random() < 0.85:
        return {"type": "pass"}
    return rng.choice(legal)


def _strings(value: object) -> set[str]:
    if isinstance(value, dict):
        return set().union(*map(_strings, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(_strings, value)) if value else set()
    return {value} if isinstance(value, str) else set()


def _check_state(state: E.State) -> None:
    # 52 cards conserved: in hands, in the trick, or in the tricks played this deal.
    played = [p.card for t in state.tricks for p in t.plays] + [p.card for p in state.trick]
    assert sorted(sum(state.hands, ()) + tuple(played)) == DECK
    text = E.dumps(state)
    assert E.dumps(E.loads(text)) == text and E.loads(text) == state
    acting = E.to_act(state)
    assert len(acting) == 1
    for seat in range(4):
        if seat not in acting:
            assert E.legal_actions(state, seat) == []
            with pytest.raises(IllegalAction):
                E.apply(state, seat, E.legal_actions(state, acting[0])[0])
        view = E.view(state, seat)
        json.dumps(view)
        shown = _strings(view)
        for other in range(4):
            if other != seat:
                assert not shown & set(state.hands[other]), "a view shows another seat's cards"
    assert not _strings(E.view(state, None)) & set(sum(state.hands, ()))
    assert E.dumps(state) == text, "a refused action must change nothing"


def _check_finished(record: dict) -> None:
    assert record["over"] is True
    assert len(record["rounds"]) == {"micro": 5, "mini": 10, "full": 18}[record["options"]["length"]]
    totals = [0] * 4
    multiplier = 1
    for round_ in record["rounds"]:
        assert len(round_["tricks"]) == 13 and sum(round_["tricks_won"]) == 13
        assert sum(round_["estimate"]) != 13  # RULINGS E5, E6
        assert sum(1 for v in round_["estimate"] if v == 0) <= 2
        assert round_["multiplier"] == multiplier  # RULING E11
        multiplier = min(multiplier * 2, 4) if round_["saaydeh"] else 1
        for deal in round_["deals"]:
            assert sorted(sum(deal["hands"], [])) == DECK
        totals = [t + p for t, p in zip(totals, round_["points"])]
        for seat in range(4):
            assert explain_points(round_, seat).startswith(f"{round_['points'][seat]:+d}:".replace("+0:", "0:"))
    assert totals == record["totals"]
    assert sorted(s for group in record["placements"] for s in group) == [0, 1, 2, 3]


def _play(length: str, seed: int | str, check_every: int) -> None:
    rng = random.Random(str(seed))
    state = E.new_game(4, {"length": length}, seed)
    assert E.dumps(state) == E.dumps(E.new_game(4, {"length": length}, seed))
    step = 0
    while not E.is_over(state):
        if step % check_every == 0:
            _check_state(state)
        seat = E.to_act(state)[0]
        old, before = state, E.dumps(state)
        state = E.apply(state, seat, _choose(state, seat, rng))
        step += 1
        assert E.dumps(old) == before, "apply must leave its input untouched"
    assert E.to_act(state) == [] and all(E.legal_actions(state, s) == [] for s in range(4))
    with pytest.raises(IllegalAction):
        E.apply(state, 0, {"type": "pass"})
    _check_finished(E.record(state))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_random_micro_games_keep_every_invariant(seed: int | str) -> None:
    _play("micro", seed, check_every=3)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_random_mini_games_keep_every_invariant(seed: int | str) -> None:
    _play("mini", seed, check_every=5)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_random_full_games_keep_every_invariant(seed: int | str) -> None:
    _play("full", seed, check_every=9)


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, picks=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=60))
def test_apply_never_changes_its_input_and_the_same_actions_give_the_same_game(
    seed: int | str, picks: list[int]
) -> None:
    state = again = E.new_game(4, {"length": "mini"}, seed)
    for pick in picks:
        seat = E.to_act(state)[0]
        legal = E.legal_actions(state, seat)
        action = legal[pick % len(legal)]
        before = E.dumps(state)
        state = E.apply(state, seat, action)
        again = E.apply(E.loads(before), seat, action)
        assert E.dumps(E.loads(before)) == before
        assert E.dumps(state) == E.dumps(again)


@settings(max_examples=30, deadline=None)
@given(
    seed=SEEDS,
    garbage=st.one_of(
        st.none(),
        st.integers(),
        st.text(max_size=5),
        st.lists(st.integers(), max_size=3),
        st.dictionaries(
            st.sampled_from(["type", "card", "value", "tricks", "trump", "x"]),
            st.one_of(
                st.integers(min_value=-2, max_value=20),
                st.booleans(),
                st.text(max_size=3),
                st.sampled_from(["play", "call", "estimate", "pass", "dash_call", "AS", "NT"]),
            ),
            max_size=4,
        ),
    ),
)
def test_anything_not_legal_is_refused_with_illegal_action(seed: int | str, garbage: object) -> None:
    state = E.new_game(4, {"length": "mini"}, seed)
    rng = random.Random(str(seed))
    for _ in range(rng.randrange(40)):
        state = E.apply(state, E.to_act(state)[0], _choose(state, E.to_act(state)[0], rng))
    seat = E.to_act(state)[0]
    if garbage in E.legal_actions(state, seat):
        return
    before = E.dumps(state)
    with pytest.raises(IllegalAction):
        E.apply(state, seat, garbage)
    assert E.dumps(state) == before
