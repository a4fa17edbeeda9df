"""Estimation bots: the rule-based bot stays legal, judges its hand and beats the random bot."""

from __future__ import annotations

import random
import statistics

from games.bots import estimation as bot
from games.bots import random_bot
from games.catalog import get_bot
from games.engines import estimation as E
from games.engines.cards import RANKS, SUITS

SUIT_HANDS = [[rank + suit for rank in RANKS] for suit in SUITS]


def _play(seed: int, players: list, length: str = "micro") -> dict:
    state = E.new_game(4, {"length": length}, seed)
    rng = random.Random(seed)
    while not E.is_over(state):
        seat = E.to_act(state)[0]
        view = E.view(state, seat)
        action = players[seat](view, rng)
        assert action in view["legal_actions"]
        state = E.apply(state, seat, action)
    return E.record(state)


def test_the_normal_level_plays_the_good_bot() -> None:
    state = E.new_game(4, None, 3)
    view = E.view(state, E.to_act(state)[0])
    assert get_bot("estimation", "normal")(view, random.Random(5)) == bot.choose(view, random.Random(5))


def test_four_good_bots_play_whole_mini_games_legally() -> None:
    for seed in range(3):
        record = _play(seed, [bot.choose] * 4, "mini")
        assert record["over"]


def test_the_same_view_and_generator_give_the_same_action() -> None:
    state = E.new_game(4, {"length": "mini"}, 5)
    view = E.view(state, E.to_act(state)[0])
    assert bot.choose(view, random.Random(1)) == bot.choose(view, random.Random(1))


def test_it_dash_calls_a_hand_without_honours_and_calls_with_a_strong_one() -> None:
    weak = ["2S", "3S", "4S", "5S", "2H", "3H", "4H", "2D", "3D", "4D", "2C", "3C", "4C"]
    view = {"phase": "dash_call", "hand": weak, "legal_actions": [{"type": "dash_call"}, {"type": "decline"}]}
    assert bot.choose(view, random.Random(0)) == {"type": "dash_call"}
    strong = SUIT_HANDS[0]
    legal = [{"type": "pass"}] + [
        {"type": "call", "tricks": t, "trump": tr} for t in range(4, 14) for tr in ("C", "D", "H", "S", "NT")
    ]
    action = bot.choose({"phase": "auction", "hand": strong, "legal_actions": legal}, random.Random(0))
    assert action["type"] == "call" and action["trump"] in ("S", "NT")
    assert bot.choose({"phase": "auction", "hand": weak, "legal_actions": legal}, random.Random(0)) == {"type": "pass"}


def test_it_super_calls_when_its_hand_warrants_it() -> None:
    # RULING E7: all thirteen hearts in the fixed spades round: name hearts.
    state = E.scenario(SUIT_HANDS, dealer=0, round_number=2)
    action = bot.choose(E.view(state, 1), random.Random(0))
    assert action == {"type": "estimate", "value": 13, "trump": "H"}


def test_it_respects_the_limits_when_estimating() -> None:
    state = E.scenario(dealer=0)
    for value in (3, 3, 3):
        state = E.apply(state, E.to_act(state)[0], {"type": "estimate", "value": value})
    view = E.view(state, 0)
    assert bot.choose(view, random.Random(0)) in view["legal_actions"]


def test_the_good_bot_beats_the_random_bot_clearly() -> None:
    good, others, wins = [], [], 0
    games = 200
    for seed in range(games):
        seat = seed % 4
        players = [random_bot] * 4
        players[seat] = bot.choose
        record = _play(seed, players)
        good.append(record["totals"][seat])
        others.append(statistics.mean(t for s, t in enumerate(record["totals"]) if s != seat))
        wins += seat in record["placements"][0]
    assert statistics.mean(good) > statistics.mean(others) + 100
    assert wins / games > 0.75
