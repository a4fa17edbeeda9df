"""The strong bots and bot levels (issue 25): legal over whole games, within their budget of
samples, deterministic, blind to what the seat cannot see, and their lean simulator agreeing
with the engines. How strong they are is the benchmark's to show (tests/benchmarks/bots.py)."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from accounts.bots import BOT_LEVELS as LEVELS
from games.bots import budget as budget_module
from games.bots import estimation as rule_based_estimation
from games.bots import strong_estimation, strong_sita, strong_sitaratas, tricks
from games.bots.budget import Budget
from games.catalog import get_bot, get_engine
from games.engines import estimation, sita, sitaratas
from tests.games.deal_helpers import others_redealt

BOTS = Path(budget_module.__file__).parent  # the plain module's place: a compiled one's __file__ is not
STRONG = {"sitaratas": strong_sitaratas, "estimation": strong_estimation, "sita": strong_sita}


@pytest.fixture
def small_budget(monkeypatch):
    monkeypatch.setattr(budget_module, "DEFAULT_SAMPLES", 3)


def play_game(game: str, players: int, options: dict, seed: int, levels: list[str]) -> object:
    """A whole game, each seat at its level; every action is checked against the legal ones."""
    engine = get_engine(game)
    # The strong bots themselves, not the registry's guarded ones: a failure must show here.
    bots = [STRONG[game].choose if level == "strong" else get_bot(game, level) for level in levels]
    state = engine.new_game(players, options, seed)
    moves = 0
    while not engine.is_over(state):
        for seat in engine.to_act(state):
            if seat not in engine.to_act(state):
                continue  # SITA: an earlier choice this turn revealed the cards and moved on.
            # A JSON round trip proves the bot needs nothing but the view.
            view = json.loads(json.dumps(engine.view(state, seat)))
            action = bots[seat](view, random.Random(f"{seed}:{moves}"))
            assert action in view["legal_actions"], (game, moves, action)
            state = engine.apply(state, seat, action)
            moves += 1
    return state


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("sitaratas", 3, {"deck": "jokers", "order": "down_up"}),
        ("sitaratas", 6, {"deck": "classic"}),
        ("estimation", 4, {"length": "micro"}),
        ("estimation", 4, {"length": "mini"}),  # call rounds: Dash Calls and the auction
        ("sita", 4, {"matches": 2}),
        ("sita", 10, {}),
    ],
)
def test_strong_bots_play_whole_games_with_legal_actions_only(small_budget, game, players, options) -> None:
    # Every other seat is strong too, with easy and random seats among them for odd positions.
    levels = ["strong", "easy", "strong", "random", "strong", "strong", "easy", "strong", "strong", "strong"][:players]
    state = play_game(game, players, options, seed=7, levels=levels)
    assert get_engine(game).is_over(state)


def test_every_level_has_a_bot_for_every_game() -> None:
    for game in ("sitaratas", "estimation", "sita"):
        for level in LEVELS:
            assert callable(get_bot(game, level))
    view = get_engine("sita").view(get_engine("sita").new_game(3, None, 2), 0)
    budget = Budget(samples=4, cpu_seconds=None)
    assert get_bot("sita", "strong")(view, random.Random(1), budget) == strong_sita.choose(
        view, random.Random(1), Budget(samples=4, cpu_seconds=None)
    )
    with pytest.raises(ValueError):
        get_bot("sita", "grandmaster")


def test_the_normal_bot_stands_in_if_a_strong_bot_ever_fails(monkeypatch, caplog) -> None:
    def broken(view, rng, budget=None):
        raise RuntimeError("a bug")

    monkeypatch.setattr(strong_sita, "choose", broken)
    state = sita.new_game(3, None, 1)
    view = sita.view(state, 0)
    action = get_bot("sita", "strong")(view, random.Random(0))
    assert action == get_bot("sita", "normal")(view, random.Random(0))
    assert "normal bot moves instead" in caplog.text


def test_the_easy_bot_errs_sometimes_and_is_otherwise_the_normal_bot() -> None:
    state = estimation.new_game(4, {"length": "micro"}, 3)
    while state.phase != "playing":
        seat = estimation.to_act(state)[0]
        state = estimation.apply(
            state, seat, rule_based_estimation.choose(estimation.view(state, seat), random.Random(0))
        )
    seat = estimation.to_act(state)[0]
    view = estimation.view(state, seat)
    normal = rule_based_estimation.choose(view, random.Random(0))
    easy = get_bot("estimation", "easy")
    picks = [easy(view, random.Random(index)) for index in range(200)]
    assert all(pick in view["legal_actions"] for pick in picks)
    differing = sum(pick != normal for pick in picks)
    assert 10 < differing < 100  # RULING P47: about 30 % random moves, some of which hit the normal move


# --------------------------------------------------------------------------- the time budget


def heavy_views() -> dict[str, dict]:
    """A position with many candidates and long rollouts per game."""
    views = {}
    state = sitaratas.new_game(4, {"deck": "jokers"}, 11)
    while state.round.cards < 9:
        seat = sitaratas.to_act(state)[0]
        state = sitaratas.apply(state, seat, sitaratas.legal_actions(state, seat)[0])
    views["sitaratas"] = sitaratas.view(state, sitaratas.to_act(state)[0])
    state = estimation.new_game(4, {"length": "micro"}, 5)
    while state.phase != "playing":
        seat = estimation.to_act(state)[0]
        state = estimation.apply(
            state, seat, rule_based_estimation.choose(estimation.view(state, seat), random.Random(0))
        )
    views["estimation"] = estimation.view(state, estimation.to_act(state)[0])
    state = estimation.new_game(4, {"length": "mini"}, 5)  # a call round: the auction
    while state.phase != "auction":
        seat = estimation.to_act(state)[0]
        state = estimation.apply(state, seat, {"type": "decline"})
    views["estimation auction"] = estimation.view(state, estimation.to_act(state)[0])
    state = sita.new_game(4, None, 5)
    views["sita"] = sita.view(state, 0)
    return views


@pytest.mark.parametrize("position", ["sitaratas", "estimation", "estimation auction", "sita"])
def test_a_strong_bot_weighs_exactly_its_samples_and_the_same_samples_and_seed_give_the_same_move(position) -> None:
    # RULING P49: the budget is a count, so the move does not depend on the machine's load.
    view = heavy_views()[position]
    game = view["game"]
    assert len(view["legal_actions"]) > 2
    moves = []
    for _ in range(2):
        budget = Budget(samples=40, cpu_seconds=None)
        moves.append(STRONG[game].choose(view, random.Random(1), budget))
        assert budget.done == 40 and not budget.capped
    assert moves[0] == moves[1] and moves[0] in view["legal_actions"]
    assert get_bot(game, "strong")(view, random.Random(1), Budget(samples=40, cpu_seconds=None)) == moves[0]


def test_the_cpu_cap_stops_a_move_early_and_says_so(monkeypatch) -> None:
    view = heavy_views()["estimation"]
    readings = iter([0.0, 0.0, 0.5, 3.0])  # the thread's CPU clock: at the start, then after each sample
    monkeypatch.setattr(budget_module.time, "thread_time", lambda: next(readings))
    budget = Budget(samples=1000, cpu_seconds=2.0)
    action = strong_estimation.choose(view, random.Random(1), budget)
    assert action in view["legal_actions"]
    assert budget.capped and budget.done == 3  # the first sample always runs; the cap is checked after each


def test_a_budget_needs_a_sample() -> None:
    with pytest.raises(ValueError, match="at least one sample"):
        Budget(samples=0)


def test_the_bots_library_reads_no_environment() -> None:
    # The site passes the budget in (BOT_STRONG_SAMPLES); the pure library has no settings of its own.
    for module in (budget_module, strong_estimation, strong_sita, strong_sitaratas, tricks):
        # The module's source, also where it is compiled (config/compile_bots.py).
        source = (BOTS / f"{module.__name__.rpartition('.')[2]}.py").read_text(encoding="utf-8")
        assert "os.environ" not in source and "getenv" not in source, module.__name__


# --------------------------------------------------------------------------- only the seat's view


def _others_shuffled(hands: list[list], me: int, rng: random.Random) -> list[list]:
    dealt = others_redealt(hands, me, rng)
    assert dealt != [list(hand) for hand in hands]
    return dealt


def _strong_choice(game: str, state, seat: int) -> dict:
    view = get_engine(game).view(state, seat)
    return STRONG[game].choose(view, random.Random(4), Budget(samples=12))


@pytest.mark.parametrize("moves", [0, 6])
def test_a_strong_sitaratas_choice_does_not_change_with_the_other_seats_cards(moves) -> None:
    state = sitaratas.new_game(4, {"deck": "jokers"}, 21)
    while state.round.cards < 6:
        seat = sitaratas.to_act(state)[0]
        state = sitaratas.apply(state, seat, sitaratas.legal_actions(state, seat)[-1])
    for _ in range(moves):  # 0: bidding; 6: mid-play
        seat = sitaratas.to_act(state)[0]
        state = sitaratas.apply(state, seat, sitaratas.legal_actions(state, seat)[0])
    seat = sitaratas.to_act(state)[0]
    choice = _strong_choice("sitaratas", state, seat)
    for trial in range(3):
        hands = _others_shuffled([list(hand) for hand in state.hands], seat, random.Random(trial))
        other = dataclasses.replace(state, hands=tuple(tuple(hand) for hand in hands))
        assert sitaratas.view(other, seat) == sitaratas.view(state, seat)
        assert _strong_choice("sitaratas", other, seat) == choice


def test_a_strong_estimation_choice_does_not_change_with_the_other_seats_cards() -> None:
    state = estimation.new_game(4, {"length": "micro"}, 8)
    bots_played = 0
    while state.phase != "playing" or bots_played < 5:
        seat = estimation.to_act(state)[0]
        state = estimation.apply(
            state, seat, rule_based_estimation.choose(estimation.view(state, seat), random.Random(0))
        )
        bots_played += state.phase == "playing"
    seat = estimation.to_act(state)[0]
    choice = _strong_choice("estimation", state, seat)
    for trial in range(3):
        hands = _others_shuffled([list(hand) for hand in state.hands], seat, random.Random(trial))
        other = dataclasses.replace(state, hands=tuple(tuple(hand) for hand in hands))
        assert estimation.view(other, seat) == estimation.view(state, seat)
        assert _strong_choice("estimation", other, seat) == choice


def test_a_strong_sita_choice_does_not_change_with_the_other_seats_cards() -> None:
    state = sita.new_game(5, None, 2)
    state = sita.apply(state, 3, {"type": "choose", "card": state.hands[3][0]})  # a locked, hidden choice
    choice = _strong_choice("sita", state, 0)
    for trial in range(3):
        hands = _others_shuffled([list(hand) for hand in state.hands], 0, random.Random(trial))
        other = dataclasses.replace(
            state, hands=tuple(tuple(hand) for hand in hands), chosen=(None, None, None, hands[3][0], None)
        )
        assert sita.view(other, 0) == sita.view(state, 0)
        assert _strong_choice("sita", other, 0) == choice


# --------------------------------------------------------------------------- the lean simulator


@pytest.mark.parametrize("seed", range(6))
def test_the_lean_simulator_agrees_with_the_sitaratas_engine(seed) -> None:
    rng = random.Random(seed)
    state = sitaratas.new_game(rng.choice([3, 4, 5]), {"deck": "jokers"}, seed)
    checked = 0
    while not sitaratas.is_over(state) and checked < 400:
        seat = sitaratas.to_act(state)[0]
        legal = sitaratas.legal_actions(state, seat)
        if legal[0]["type"] == "play":
            rules = tricks.Rules(state.n, tricks.trump_index(state.round.trump), sitaratas=True)
            trick = tricks.Trick(state.leader)
            for play in state.plays:
                trick.add(play.seat, tricks.encode(play.card), play.joker == "high", rules.trump)
            hand = [tricks.encode(card) for card in state.hands[seat]]
            assert sorted(tricks.legal(hand, trick.led, rules)) == sorted({tricks.encode(a["card"]) for a in legal})
            action = rng.choice(legal)
            trick.add(seat, tricks.encode(action["card"]), action.get("joker") == "high", rules.trump)
            before = len(state.round.tricks), state.round.number
            state = sitaratas.apply(state, seat, action)
            if trick.count == rules.n:
                finished = (state.past[-1] if state.round.number != before[1] else state.round).tricks[before[0]]
                assert trick.best_seat == finished.winner
                checked += 1
        else:
            state = sitaratas.apply(state, seat, rng.choice(legal))
    assert checked > 20


@pytest.mark.parametrize("seed", range(4))
def test_the_lean_simulator_agrees_with_the_estimation_engine(seed) -> None:
    rng = random.Random(seed)
    state = estimation.new_game(4, {"length": "micro"}, seed)
    checked = 0
    while not estimation.is_over(state):
        seat = estimation.to_act(state)[0]
        if state.phase != "playing":
            action = rule_based_estimation.choose(estimation.view(state, seat), rng)
            state = estimation.apply(state, seat, action)
            continue
        trump = state.trump if state.trump != "NT" else None
        rules = tricks.Rules(4, tricks.trump_index(trump), sitaratas=False)
        trick = tricks.Trick(state.leader)
        for play in state.trick:
            trick.add(play.seat, tricks.encode(play.card), False, rules.trump)
        legal = estimation.legal_actions(state, seat)
        hand = [tricks.encode(card) for card in state.hands[seat]]
        assert sorted(tricks.legal(hand, trick.led, rules)) == sorted(tricks.encode(a["card"]) for a in legal)
        action = rng.choice(legal)
        trick.add(seat, tricks.encode(action["card"]), False, rules.trump)
        count = len(state.tricks)
        history = len(state.history)
        state = estimation.apply(state, seat, action)
        if trick.count == 4:
            done = (
                state.history[-1]["tricks"][count]["winner"]
                if len(state.history) > history
                else state.tricks[count].winner
            )
            assert trick.best_seat == done
            checked += 1
    assert checked == 5 * 13


def test_a_rollout_plays_every_card_once_and_scores_every_trick() -> None:
    rng = random.Random(3)
    deck = [tricks.encode(card) for card in sitaratas.make_deck(sitaratas.CLASSIC_RANKS, jokers=True)]
    rng.shuffle(deck)
    hands = [deck[i * 9 : (i + 1) * 9] for i in range(4)]
    rules = tricks.Rules(4, 1, sitaratas=True)
    won = tricks.rollout([list(hand) for hand in hands], tricks.Trick(0), [0] * 4, [2, 3, 0, 1], rules)
    assert sum(won) == 9
    assert all(tricks.decode(tricks.encode(card)) == card for card in ("10H", "AS", "6C", "RJ", "BJ"))
