"""The rule-based Sitaratas bot: legal, deterministic, aiming at its bid, and clearly better than random."""

from __future__ import annotations

import json
import random
import statistics

import pytest

from games.bots import random_bot
from games.bots import sitaratas as bot
from games.catalog import get_bot
from games.engines import sitaratas as engine
from games.engines.sitaratas import scenario


def choose_in(state: engine.State, seat: int, seed: int = 0) -> dict:
    # A JSON round trip proves the bot needs nothing but the view.
    view = json.loads(json.dumps(engine.view(state, seat)))
    return bot.choose(view, random.Random(seed))


def play_game(players: int, options: dict, seed: int, bots: list) -> engine.State:
    state = engine.new_game(players, options, seed)
    rng = random.Random(seed)
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        view = engine.view(state, seat)
        action = bots[seat](view, rng)
        assert action in view["legal_actions"]
        state = engine.apply(state, seat, action)
    return state


def test_the_normal_level_plays_the_good_bot() -> None:
    state = engine.new_game(4, None, 3)
    seat = engine.to_act(state)[0]
    view = engine.view(state, seat)
    assert get_bot("sitaratas", "normal")(view, random.Random(5)) == bot.choose(view, random.Random(5))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_it_plays_whole_games_with_legal_actions_only(players: int) -> None:
    options = {"deck": "jokers" if players % 2 else "classic", "order": "down_up" if players > 4 else "up_down"}
    state = play_game(players, options, players, [bot.choose] * players)
    assert engine.record(state)["over"] is True


def test_the_same_view_and_seed_give_the_same_move() -> None:
    state = engine.new_game(4, {"deck": "jokers", "order": "down_up"}, 99)
    seat = engine.to_act(state)[0]
    assert choose_in(state, seat, 5) == choose_in(state, seat, 5)


def test_it_respects_the_dealers_forbidden_bid() -> None:
    # RULING S4: the others bid 0 + 0 and the dealer (seat 0) holds one sure winner, so 1 is out.
    state = scenario([["RJ"], ["6H"], ["7H"]], dealer=0, trump="S", indicator="8S")
    state = engine.apply(engine.apply(state, 1, {"type": "bid", "bid": 0}), 2, {"type": "bid", "bid": 0})
    action = choose_in(state, 0)
    assert action in engine.legal_actions(state, 0)
    assert action["bid"] != 1


def test_it_bids_high_with_sure_winners_and_low_with_rags() -> None:
    strong = scenario([["AS", "KS", "RJ"], ["6H", "7H", "8D"], ["7C", "8C", "9C"]], dealer=2, trump="S", indicator="6S")
    weak = scenario([["6H", "7D", "6C"], ["AS", "KS", "RJ"], ["7C", "8C", "9C"]], dealer=2, trump="S", indicator="6S")
    assert bot.estimate_tricks(engine.view(strong, 0)) > 1.5
    assert choose_in(weak, 0)["bid"] == 0


def test_it_wins_as_cheaply_as_it_can_when_it_needs_a_trick() -> None:
    # Last to play, needing one trick: the king is enough, the ace is kept.
    state = scenario(
        [["AH", "KH", "6C"], ["10H", "7C"], ["QH", "8C"]],
        dealer=0,
        trump="S",
        bids=[1, 0, 0],
        leader=1,
        plays=[(1, "9H", None), (2, "JH", None)],
    )
    assert choose_in(state, 0) == {"type": "play", "card": "KH"}


def test_it_plays_a_joker_high_when_no_standard_card_can_win_a_needed_trick() -> None:
    state = scenario(
        [["RJ", "6H", "6C"], ["10H", "7C"], ["QH", "8C"]],
        dealer=0,
        trump="S",
        bids=[1, 0, 0],
        leader=1,
        plays=[(1, "9H", None), (2, "AH", None)],
    )
    assert choose_in(state, 0) == {"type": "play", "card": "RJ", "joker": "high"}


def test_it_ducks_under_the_winning_card_once_its_bid_is_made() -> None:
    # Bid 0: it sheds its most dangerous card that still loses (the king under the ace).
    state = scenario(
        [["KH", "QH", "6C"], ["10H", "7C"], ["AH", "8C"]],
        dealer=0,
        trump="S",
        bids=[0, 1, 1],
        leader=1,
        plays=[(1, "9H", None), (2, "AH", None)],
    )
    assert choose_in(state, 0) == {"type": "play", "card": "KH"}
    # Only winners in hand but a joker: the LOW joker is a sure duck.
    state = scenario(
        [["KH", "BJ"], ["10H"], ["7H"]],
        dealer=0,
        trump="S",
        bids=[0, 1, 0],
        leader=1,
        plays=[(1, "9H", None), (2, "7H", None)],
    )
    assert choose_in(state, 0) == {"type": "play", "card": "BJ", "joker": "low"}


def test_it_beats_the_random_bot_clearly() -> None:
    # One good bot against random bots, rotating its seat, over many seeded games.
    good, rand = [], []
    for game in range(60):
        players = 3 + game % 4
        seat = game % players
        bots = [random_bot] * players
        bots[seat] = bot.choose
        options = {"deck": ("classic", "jokers")[game % 2], "order": ("up_down", "down_up")[game // 2 % 2]}
        totals = engine.record(play_game(players, options, 1000 + game, bots))["totals"]
        good.append(totals[seat])
        rand.extend(total for other, total in enumerate(totals) if other != seat)
    # Measured margin is about 40 points a game; assert a modest, safe one.
    assert statistics.mean(good) > statistics.mean(rand) + 15
