"""games/records: one score-sheet builder for live play and history, and the record helpers."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from games.catalog import get_bot, get_engine
from games.display.figures import formula
from games.display.scoresheets import live_sheet, score_sheet
from games.records import estimation as estimation_records
from games.records import sheet
from games.records.places import places_from_groups
from games.records.replay import rebuild

GAMES = {
    "sitaratas": (4, {"deck": "jokers", "order": "up_down"}),
    "estimation": (4, {"length": "micro"}),
    "sita": (3, {"matches": 2}),
}


def _played(game: str, seed: int = 7):
    """A whole game between normal bots: the final state and the actions in order."""
    players, options = GAMES[game]
    engine = get_engine(game)
    state = engine.new_game(players, options, seed)
    rng, actions = random.Random(seed), []
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        action = get_bot(game)(engine.view(state, seat), rng)
        actions.append((seat, action))
        state = engine.apply(state, seat, action)
    return engine, state, actions


@pytest.mark.parametrize("game", GAMES)
def test_the_live_sheet_and_the_history_sheet_are_one_builder_s_and_agree(game: str) -> None:
    engine, state, _ = _played(game)
    record, view = engine.record(state), engine.view(state, None)
    history = score_sheet(record)
    live = live_sheet(game, view["score_sheet"], view["players"])
    assert live["totals"] == history["totals"] == record["totals"]
    assert live["running"] == history["running"]
    assert [row["number"] for row in live["rows"]] == [row["number"] for row in history["rows"]]
    for live_row, history_row in zip(live["rows"], history["rows"]):
        # The record knows more (SITA's turns, Estimation's redeals and Super Calls); every
        # cell value the live table shows is the history's.
        for live_cell, history_cell in zip(live_row["cells"], history_row["cells"]):
            assert live_cell == {key: history_cell[key] for key in live_cell}


def test_the_estimation_notes_are_translated_at_the_edge() -> None:
    engine, state, _ = _played("estimation")
    record = engine.record(state)
    explain = estimation_records.explain_points
    english = [cell for row in score_sheet(record)["rows"] for cell in row["cells"]]
    with translation.override("et"):
        estonian = [cell for row in score_sheet(record)["rows"] for cell in row["cells"]]
    rounds = [round_record for round_record in record["rounds"] for _ in range(4)]
    assert [cell["line"] for cell in english] == [formula(explain(r, seat % 4)) for seat, r in enumerate(rounds)]
    assert [cell["note"] for cell in english] == [cell["note"] for cell in estonian]  # the same parts, other words
    assert [e["line"].split(":")[0] for e in english] == [e["line"].split(":")[0] for e in estonian]
    assert all(
        e["line"] != t["line"] for e, t in zip(english, estonian) if "made " in e["line"] or "missed " in e["line"]
    )


@pytest.mark.parametrize("game", GAMES)
def test_a_game_rebuilt_from_its_actions_is_the_game(game: str) -> None:
    engine, state, actions = _played(game)
    players, options = GAMES[game]
    assert engine.dumps(rebuild(get_engine(game), players, options, 7, actions)) == engine.dumps(state)


def test_tied_seats_share_the_place_they_start_at() -> None:
    assert places_from_groups([[2], [0, 3], [1]]) == {2: 1, 0: 2, 3: 2, 1: 4}


def test_an_unfinished_round_is_left_off_the_sheet() -> None:
    assert not sheet.complete([3, None, 2]) and not sheet.complete([]) and not sheet.complete(None)
    assert sheet.complete([0, -4, 12])
