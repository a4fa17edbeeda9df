"""One contract, three engines: seeded random games through every engine (docs/style.md §14).

Each engine must pass the same checks, so that tables, bots and history can
treat the three games alike. Game-specific rules are tested beside each engine.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import catalog
from games.bots import random_bot
from games.catalog import get_engine
from games.engines import IllegalAction

PLAYER_COUNTS = {"sitaratas": [3, 4, 5, 6], "estimation": [4], "sita": [2, 3, 5, 10]}
OPTIONS = {
    "sitaratas": [{"deck": "classic", "order": "up_down"}, {"deck": "jokers", "order": "down_up"}],
    "estimation": [{"length": "micro"}, {"length": "mini"}],
    "sita": [{"matches": 1}, {"matches": 2}],
}
VIEW_KEYS = {
    "game",
    "players",
    "seat",
    "phase",
    "to_act",
    "legal_actions",
    "hand",
    "hand_counts",
    "totals",
    "round_number",
    "rounds_total",
    "over",
    "placements",
    "score_sheet",
}
GARBAGE = [
    None,
    7,
    "play",
    [],
    {},
    {"type": "nonsense"},
    {"type": "play"},
    {"type": "bid", "bid": True},
    {"type": "bid", "bid": "2"},
    {"type": "play", "card": "RJ", "joker": 1},
    {"type": "play", "card": "QH", "extra": 0},
]
# Every game the site offers: an engine that cannot be imported fails here, it is not skipped.
GAMES = [game.name for game in catalog.GAMES]


def test_every_engine_is_checked() -> None:
    assert sorted(GAMES) == sorted(PLAYER_COUNTS)


def _others_dealt_again(engine, state, seat: int | None, rng: random.Random):
    """The same position with what ``seat`` cannot see dealt again among the other seats: the
    cards in their hands and, in SITA, their locked choices not yet revealed (RULING T2)."""
    others = [other for other in range(len(state.hands)) if other != seat]
    pool = [card for other in others for card in state.hands[other]]
    rng.shuffle(pool)
    hands = list(state.hands)
    for other in others:
        hands[other], pool = tuple(pool[: len(hands[other])]), pool[len(hands[other]) :]
    changes = {"hands": tuple(hands)}
    if engine.name == "sita" and state.pending is None:
        # A locked choice is one of its seat's cards until the reveal.
        changes["chosen"] = tuple(
            card if other == seat or card is None else hands[other][0] for other, card in enumerate(state.chosen)
        )
    return dataclasses.replace(state, **changes)


def _check_views(engine, state, players: int) -> None:
    rng = random.Random(players)
    for seat in [None, *range(players)]:
        view = engine.view(state, seat)
        json.dumps(view)
        assert set(view) >= VIEW_KEYS, VIEW_KEYS - set(view)
        assert view["seat"] == seat
        if seat is None:
            assert view["hand"] is None
            assert view["legal_actions"] == []
        else:
            assert view["legal_actions"] == engine.legal_actions(state, seat)
        # No view holds another seat's hidden cards: dealt differently, they show the same.
        assert engine.view(_others_dealt_again(engine, state, seat, rng), seat) == view, (
            f"seat {seat} sees another seat's hidden cards"
        )


def _play_random_game(game: str, players: int, options: dict, seed: int, check_every: int) -> None:
    engine = get_engine(game)
    rng = random.Random(seed)
    state = engine.new_game(players, options, seed)
    again = engine.new_game(players, options, seed)
    assert engine.dumps(state) == engine.dumps(again), "new_game must be deterministic"
    step = 0
    while not engine.is_over(state):
        acting = engine.to_act(state)
        assert acting, "a game that is not over must await someone"
        for seat in range(players):
            if seat not in acting:
                assert engine.legal_actions(state, seat) == []
        seat = rng.choice(acting)
        legal = engine.legal_actions(state, seat)
        assert legal, f"seat {seat} is to act but has no legal action"
        if step % check_every == 0:
            _check_views(engine, state, players)
            text = engine.dumps(state)
            assert engine.dumps(engine.loads(text)) == text and engine.loads(text) == state
            # orjson writes it (games/engines/codec.py): byte for byte what the standard library writes.
            assert text == json.dumps(json.loads(text), separators=(",", ":"), ensure_ascii=False)
            for garbage in GARBAGE:
                with pytest.raises(IllegalAction):
                    engine.apply(state, seat, garbage)
            outsider = next((s for s in range(players) if s not in acting), None)
            if outsider is not None:
                with pytest.raises(IllegalAction):
                    engine.apply(state, outsider, legal[0])
            assert engine.dumps(state) == text, "a refused action must change nothing"
        before = engine.dumps(state)
        action = random_bot(engine.view(state, seat), rng)
        state = engine.apply(state, seat, action)
        assert engine.dumps(engine.loads(before)) == before
        step += 1
    assert engine.to_act(state) == []
    for seat in range(players):
        assert engine.legal_actions(state, seat) == []
    _check_views(engine, state, players)
    record = engine.record(state)
    assert record["over"] is True
    assert record["game"] == game
    assert sorted(s for group in record["placements"] for s in group) == list(range(players))
    json.dumps(record)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31), choice=st.integers(min_value=0, max_value=99))
def test_random_games_keep_the_contract(game: str, seed: int, choice: int) -> None:
    players = PLAYER_COUNTS[game][choice % len(PLAYER_COUNTS[game])]
    options = OPTIONS[game][choice % len(OPTIONS[game])]
    _play_random_game(game, players, options, seed, check_every=7)


@pytest.mark.parametrize("game", GAMES)
def test_validate_options_fills_defaults_and_refuses_nonsense(game: str) -> None:
    engine = get_engine(game)
    players = PLAYER_COUNTS[game][0]
    full = engine.validate_options(players, {})
    assert full == engine.validate_options(players, None)
    assert engine.validate_options(players, full) == full
    with pytest.raises(ValueError):
        engine.validate_options(players, {"no_such_option": 1})
    with pytest.raises(ValueError):
        engine.validate_options(engine.max_players + 1, {})
    with pytest.raises(ValueError):
        engine.validate_options(engine.min_players - 1, {})


@pytest.mark.parametrize("game", GAMES)
def test_the_spectator_sees_no_hand_and_can_act_on_nothing(game: str) -> None:
    engine = get_engine(game)
    state = engine.new_game(PLAYER_COUNTS[game][0], {}, 1234)
    view = engine.view(state, None)
    assert view["hand"] is None
    assert view["legal_actions"] == []
    assert "seed" not in view


@pytest.mark.parametrize("game", GAMES)
def test_a_state_is_a_frozen_dataclass(game: str) -> None:
    # docs/design.md: states are immutable, so a move cannot change the state it was given.
    engine = get_engine(game)
    state = engine.new_game(PLAYER_COUNTS[game][0], {}, 1234)
    assert dataclasses.is_dataclass(state)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.seed = 1
