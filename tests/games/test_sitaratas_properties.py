"""Sitaratas properties over seeded random games: every player count, both decks, both orders.

What every engine promises (views, refusals, ``dumps``/``loads``, leaks) is checked once for all
three in test_engine_conformance.py; here only what the Sitaratas rules add.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bots import random_bot
from games.engines import sitaratas as engine
from games.engines.cards import make_deck
from games.engines.sitaratas import CLASSIC_RANKS

PLAYERS = st.sampled_from([3, 4, 5, 6])
DECKS = st.sampled_from(["classic", "jokers"])
ORDERS = st.sampled_from(["up_down", "down_up"])
SEEDS = st.integers(min_value=0, max_value=2**40)
SHEET_KEYS = {"number", "cards", "dealer", "trump", "indicator", "bids", "tricks_won", "points"}


def _check_position(state: engine.State) -> None:
    assert len(engine.to_act(state)) == 1  # one seat at a time (RULINGS S4, S5)
    for entry in engine.view(state, None)["score_sheet"]:
        assert set(entry) == SHEET_KEYS


def _check_record(record: dict, players: int, deck: str, order: str) -> None:
    pack = set(make_deck(CLASSIC_RANKS, jokers=deck == "jokers"))
    sizes = engine.schedule(players, order)
    assert [round_["cards"] for round_ in record["rounds"]] == list(sizes)
    for round_ in record["rounds"]:
        dealt = [card for hand in round_["hands"] for card in hand]
        # Every hand has the scheduled size; cards are conserved; the indicator is in no hand.
        assert all(len(hand) == round_["cards"] for hand in round_["hands"])
        assert len(set(dealt)) == len(dealt) and set(dealt) <= pack
        played = [play["card"] for trick in round_["tricks"] for play in trick["plays"]]
        assert sorted(played) == sorted(dealt)
        for trick in round_["tricks"]:
            assert {play["seat"] for play in trick["plays"]} == set(range(players))
        if len(dealt) < len(pack):
            assert round_["indicator"] in pack - set(dealt)
            assert round_["trump"] == (None if round_["indicator"] in ("RJ", "BJ") else round_["indicator"][-1])
        else:
            assert round_["indicator"] is None and round_["trump"] in ("S", "H", "D", "C")
        # RULING S4: the bids never total the number of tricks; tricks are all won.
        assert sum(entry["bid"] for entry in round_["bids"]) != round_["cards"]
        assert sum(round_["tricks_won"]) == round_["cards"] == len(round_["tricks"])
        bids = {entry["seat"]: entry["bid"] for entry in round_["bids"]}
        assert round_["points"] == [engine.round_points(bids[s], round_["tricks_won"][s]) for s in range(players)]
    assert record["totals"] == [sum(round_["points"][seat] for round_ in record["rounds"]) for seat in range(players)]


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=PLAYERS, deck=DECKS, order=ORDERS, seed=SEEDS)
def test_random_games_keep_every_rule(players: int, deck: str, order: str, seed: int) -> None:
    state = engine.new_game(players, {"deck": deck, "order": order}, seed)
    rng = random.Random(seed)
    step = 0
    while not engine.is_over(state):
        if step % 11 == 0:
            _check_position(state)
        seat = engine.to_act(state)[0]
        state = engine.apply(state, seat, random_bot(engine.view(state, seat), rng))
        step += 1
    record = engine.record(state)
    _check_record(record, players, deck, order)
    assert record["placements"] == [[seat] for seat in engine.ranking(record["totals"])]
    assert record["sitaratas"] == engine.sitaratas_seat(record["totals"])
    assert engine.view(state, None)["score_sheet"][-1]["points"] == record["rounds"][-1]["points"]


@settings(max_examples=20, deadline=None)
@given(players=PLAYERS, deck=DECKS, order=ORDERS, seed=SEEDS)
def test_the_same_seed_and_actions_give_the_same_game(players: int, deck: str, order: str, seed: int) -> None:
    first = engine.new_game(players, {"deck": deck, "order": order}, seed)
    again = engine.new_game(players, {"deck": deck, "order": order}, str(seed))
    # An int seed and its string deal the same cards (seeded_rng joins the parts as text).
    assert engine.record(first)["rounds"] == engine.record(again)["rounds"]
