"""SITA scenarios from hand-made states: the rule book's placement rules and rulings T1–T6."""

from __future__ import annotations

import json

import pytest

from games.catalog import get_engine
from games.engines import IllegalAction, sita
from games.engines.sita import penalty, scenario

# The rule book's list, written out independently of the engine's arithmetic.
SEVEN = {55}
FIVE = {11, 22, 33, 44, 66, 77, 88, 99}
THREE = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100}
TWO = {5, 15, 25, 35, 45, 65, 75, 85, 95}


def play_turn(state: sita.State, *cards: int) -> sita.State:
    """Every seat chooses, seat 0 first: ``cards[seat]`` is that seat's card."""
    for seat, card in enumerate(cards):
        state = sita.apply(state, seat, {"type": "choose", "card": card})
    return state


def four_rows(*rows: list[int]) -> list[list[int]]:
    return [list(row) for row in rows]


# ---------------------------------------------------------------- T5 penalties


@pytest.mark.parametrize("card", range(1, 105))
def test_every_card_has_the_rule_books_penalty(card: int) -> None:
    # RULING T5
    expected = 7 if card in SEVEN else 5 if card in FIVE else 3 if card in THREE else 2 if card in TWO else 1
    assert penalty(card) == expected


def test_the_deck_totals_171_points() -> None:
    # RULING T5
    assert sum(penalty(card) for card in range(1, 105)) == 171


def test_the_engine_is_registered() -> None:
    assert get_engine("sita") is sita
    assert (sita.name, sita.min_players, sita.max_players) == ("sita", 2, 10)


# ---------------------------------------------------------------- T1 setup and options


@pytest.mark.parametrize("players", [2, 4, 10])
def test_a_new_game_deals_ten_cards_each_and_four_rows(players: int) -> None:
    # RULING T1
    state = sita.new_game(players, None, 42)
    view = sita.view(state, None)
    assert view["hand_counts"] == [10] * players
    assert [len(row) for row in view["rows"]] == [1, 1, 1, 1]
    dealt = [card for hand in sita.record(state)["rounds"][0]["hands"] for card in hand]
    cards = dealt + [row[0] for row in view["rows"]]
    assert len(set(cards)) == len(cards) == 10 * players + 4
    assert view["phase"] == "choosing" and view["to_act"] == list(range(players))
    assert (view["round_number"], view["rounds_total"], view["turn"]) == (1, 1, 1)


def test_ten_players_use_the_whole_deck() -> None:
    # RULING T1: 10 × 10 + 4 = 104.
    record = sita.record(sita.new_game(10, None, 1))
    cards = [c for hand in record["rounds"][0]["hands"] for c in hand] + [row[0] for row in record["rounds"][0]["rows"]]
    assert sorted(cards) == list(range(1, 105))


def test_options_default_to_one_match_and_accept_up_to_ten() -> None:
    # RULING T6
    assert sita.validate_options(3, None) == {"matches": 1}
    assert sita.validate_options(["ann", "bob"], {"matches": 10}) == {"matches": 10}


@pytest.mark.parametrize(
    "players, options",
    [
        (1, None),
        (11, None),
        (True, None),
        ("four", None),
        (4, {"matches": 0}),
        (4, {"matches": 11}),
        (4, {"matches": True}),
        (4, {"matches": "2"}),
        (4, {"rounds": 2}),
        (4, ["matches"]),
    ],
)
def test_it_refuses_bad_players_or_options(players: object, options: object) -> None:
    with pytest.raises(ValueError):
        sita.validate_options(players, options)


def test_a_list_of_names_is_kept_in_the_record_as_given() -> None:
    state = sita.new_game(["ann", "bob", "cy"], {"matches": 2}, "seed-7")
    record = sita.record(state)
    assert record["players"] == ["ann", "bob", "cy"]
    assert record["seed"] == "seed-7"
    assert record["options"] == {"matches": 2}
    assert sita.view(state, 0)["players"] == 3


def test_the_same_seed_deals_the_same_game() -> None:
    assert sita.dumps(sita.new_game(4, None, 9)) == sita.dumps(sita.new_game(4, None, 9))
    assert sita.dumps(sita.new_game(4, None, 9)) != sita.dumps(sita.new_game(4, None, 10))


# ---------------------------------------------------------------- T2 secret, locked choice


def test_a_choice_is_refused_once_locked() -> None:
    # RULING T2
    state = scenario([[43, 60], [95, 96]], four_rows([12], [38], [90], [100]))
    state = sita.apply(state, 0, {"type": "choose", "card": 43})
    before = sita.dumps(state)
    with pytest.raises(IllegalAction, match="locked"):
        sita.apply(state, 0, {"type": "choose", "card": 60})
    assert sita.dumps(state) == before
    assert sita.to_act(state) == [1]
    assert sita.legal_actions(state, 0) == []


def test_others_learn_only_that_a_seat_has_chosen() -> None:
    # RULING T2
    state = scenario([[43, 60], [95, 96]], four_rows([12], [38], [90], [100]))
    state = sita.apply(state, 0, {"type": "choose", "card": 43})
    for viewer in (1, None):
        view = sita.view(state, viewer)
        assert view["chosen"] == [True, False]
        assert view["my_choice"] is None
        assert view["revealed"] is None
        assert view["hand_counts"] == [2, 2]
        assert "43" not in json.dumps(view)
    own = sita.view(state, 0)
    assert own["my_choice"] == 43 and own["hand"] == [43, 60]


# ---------------------------------------------------------------- T3 placement


def test_a_card_joins_the_row_with_the_nearest_lower_end() -> None:
    # Rule book: "A 43 joins the row ending in 38 rather than the one ending in 12". RULING T3
    state = scenario([[43, 60], [95, 96]], four_rows([12], [38], [90], [100]))
    state = play_turn(state, 43, 95)
    view = sita.view(state, None)
    assert view["rows"] == [[12], [38, 43], [90, 95], [100]]
    assert view["revealed"]["placements"] == [
        {"seat": 0, "card": 43, "row": 1, "took": [], "too_low": False},
        {"seat": 1, "card": 95, "row": 2, "took": [], "too_low": False},
    ]
    assert view["revealed"]["chosen"] == [43, 95]
    assert view["turn"] == 10 and view["chosen"] == [False, False]
    assert view["penalties"] == [0, 0]


def test_the_sixth_card_takes_the_five_cards_and_starts_the_row() -> None:
    # Rule book: "you take all five cards beneath it". RULING T3
    state = scenario([[25, 1], [70, 71]], four_rows([20, 21, 22, 23, 24], [40], [60], [80]))
    state = play_turn(state, 25, 70)
    view = sita.view(state, None)
    assert view["rows"][0] == [25]
    assert view["taken"] == [[20, 21, 22, 23, 24], []]
    assert view["penalties"] == [3 + 1 + 5 + 1 + 1, 0]
    assert view["turn_penalties"] == [[11, 0]]
    assert view["row_penalties"] == [2, 3, 6, 3]
    assert view["revealed"]["placements"][0] == {
        "seat": 0,
        "card": 25,
        "row": 0,
        "took": [20, 21, 22, 23, 24],
        "too_low": False,
    }


def test_cards_are_placed_in_ascending_order_onto_a_row_a_lower_card_just_restarted() -> None:
    # RULING T3: 15 (seat 2) is the sixth and restarts row 0; 16 (seat 0) then follows it.
    rows = four_rows([10, 11, 12, 13, 14], [50], [60], [70])
    state = scenario([[16, 99], [65, 98], [15, 97]], rows)
    state = play_turn(state, 16, 65, 15)
    view = sita.view(state, None)
    assert [(p["seat"], p["card"], p["row"]) for p in view["revealed"]["placements"]] == [
        (2, 15, 0),
        (0, 16, 0),
        (1, 65, 2),
    ]
    assert view["rows"] == [[15, 16], [50], [60, 65], [70]]
    assert view["taken"] == [[], [], [10, 11, 12, 13, 14]]


# ---------------------------------------------------------------- T4 too low


def too_low_position() -> sita.State:
    # Seat 0's 5 is below every row end; seat 1's 31 and seat 2's 6 come after it.
    rows = four_rows([10], [20, 21, 22], [30], [40])
    return play_turn(scenario([[5, 90], [31, 91], [6, 92]], rows), 5, 31, 6)


def test_a_too_low_card_waits_for_its_owner_to_choose_a_row() -> None:
    # RULING T4
    state = too_low_position()
    assert sita.to_act(state) == [0]
    assert sita.legal_actions(state, 0) == [{"type": "take_row", "row": row} for row in range(4)]
    assert sita.legal_actions(state, 1) == []
    for viewer in (0, 1, None):
        view = sita.view(state, viewer)
        assert view["phase"] == "taking"
        assert view["pending_too_low"] == {"seat": 0, "card": 5}
        assert view["revealed"] == {"match": 1, "turn": 9, "chosen": [5, 31, 6], "placements": []}
        assert view["rows"] == [[10], [20, 21, 22], [30], [40]]
        assert view["hand_counts"] == [1, 1, 1]


def test_the_owner_of_a_too_low_card_may_take_a_row_that_is_not_the_cheapest() -> None:
    # Rule book: "pick up a full row of your choice"; RULING T4. Row 1 costs 9, row 0 only 3.
    state = sita.apply(too_low_position(), 0, {"type": "take_row", "row": 1})
    view = sita.view(state, None)
    assert view["taken"][0] == [20, 21, 22]
    assert view["penalties"] == [3 + 1 + 5, 0, 0]
    # 5 restarts row 1; 6 (a lower card than 31) then joins it, 31 joins 30.
    assert view["rows"] == [[10], [5, 6], [30, 31], [40]]
    assert view["revealed"]["placements"] == [
        {"seat": 0, "card": 5, "row": 1, "took": [20, 21, 22], "too_low": True},
        {"seat": 2, "card": 6, "row": 1, "took": [], "too_low": False},
        {"seat": 1, "card": 31, "row": 2, "took": [], "too_low": False},
    ]
    assert view["phase"] == "choosing" and view["pending_too_low"] is None


def test_it_refuses_other_actions_while_a_row_choice_is_awaited() -> None:
    # RULING T4
    state = too_low_position()
    with pytest.raises(IllegalAction, match="not your turn"):
        sita.apply(state, 1, {"type": "take_row", "row": 0})
    with pytest.raises(IllegalAction, match="Waiting for seat 0"):
        sita.apply(state, 1, {"type": "choose", "card": 91})
    with pytest.raises(IllegalAction):
        sita.apply(state, 0, {"type": "take_row", "row": 4})
    with pytest.raises(IllegalAction):
        sita.apply(state, 0, {"type": "take_row", "row": True})


def test_only_the_lowest_card_can_be_too_low() -> None:
    # RULING T4: seat 1's 7 is also below every original row end, but 5 restarted a row first.
    rows = four_rows([10], [20], [30], [40])
    state = play_turn(scenario([[5, 90], [7, 91]], rows), 5, 7)
    assert sita.to_act(state) == [0]
    state = sita.apply(state, 0, {"type": "take_row", "row": 2})
    assert sita.view(state, None)["rows"] == [[10], [20], [5, 7], [40]]
    assert sita.view(state, None)["penalties"] == [3, 0]


def test_take_row_is_refused_while_cards_are_being_chosen() -> None:
    state = scenario([[43, 60], [95, 96]], four_rows([12], [38], [90], [100]))
    with pytest.raises(IllegalAction, match="No row is to be taken"):
        sita.apply(state, 0, {"type": "take_row", "row": 0})


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    "seat, action",
    [
        (0, {"type": "choose", "card": 95}),  # Another seat's card: no hint about who holds it.
        (0, {"type": "choose", "card": "43"}),
        (0, {"type": "choose", "card": 43, "extra": 1}),
        (0, {"type": "choose"}),
        (0, {"type": "play", "card": 43}),
        (0, "choose 43"),
        (2, {"type": "choose", "card": 43}),
        (-1, {"type": "choose", "card": 43}),
        (None, {"type": "choose", "card": 43}),
    ],
)
def test_it_refuses_malformed_or_illegal_actions(seat: object, action: object) -> None:
    state = scenario([[43, 60], [95, 96]], four_rows([12], [38], [90], [100]))
    before = sita.dumps(state)
    with pytest.raises(IllegalAction) as error:
        sita.apply(state, seat, action)  # type: ignore[arg-type]
    assert "96" not in str(error.value)
    assert sita.dumps(state) == before


def test_apply_leaves_its_input_untouched() -> None:
    state = scenario([[25, 1], [70, 71]], four_rows([20, 21, 22, 23, 24], [40], [60], [80]))
    before = sita.dumps(state)
    after = play_turn(state, 25, 70)
    assert sita.dumps(state) == before
    assert after is not state


# ---------------------------------------------------------------- T6 matches and tally


def last_turn_of_match_one(matches: int) -> sita.State:
    # Seat 0 takes row 0 (3 + 1 + 5 + 1 + 1 = 11 points); the earlier tally is [4, 9].
    rows = four_rows([20, 21, 22, 23, 24], [40], [60], [80])
    state = scenario([[25], [70]], rows, matches=matches, totals=[4, 9], seed=123)
    return play_turn(state, 25, 70)


def test_a_second_match_is_dealt_fresh_and_the_tally_is_kept() -> None:
    # RULING T6
    state = last_turn_of_match_one(matches=2)
    view = sita.view(state, 0)
    assert not view["over"] and view["phase"] == "choosing"
    assert (view["round_number"], view["rounds_total"], view["turn"]) == (2, 2, 1)
    assert view["hand_counts"] == [10, 10]
    assert view["penalties"] == [0, 0] and view["taken"] == [[], []]
    assert view["totals"] == [15, 9]
    assert view["score_sheet"] == [{"number": 1, "penalties": [11, 0], "totals": [11, 0]}]
    assert view["match_penalties"] == [[11, 0]]
    assert view["revealed"] is None  # The new deal is not mixed with the old cards.
    hands, rows = sita._deal(123, 2, 2)
    assert view["hand"] == list(hands[0])
    assert view["rows"] == [list(row) for row in rows]
    record = sita.record(state)
    assert [entry["number"] for entry in record["rounds"]] == [1, 2]
    assert record["rounds"][1]["hands"] == [list(hand) for hand in hands]


def test_each_match_is_a_fresh_shuffle() -> None:
    # RULING T6
    assert sita._deal(5, 1, 4) != sita._deal(5, 2, 4)


def test_the_game_ends_after_the_last_match_with_fewest_points_first() -> None:
    # RULING T6
    state = last_turn_of_match_one(matches=1)
    view = sita.view(state, None)
    assert view["over"] and view["phase"] == "over" and view["to_act"] == []
    assert view["totals"] == [15, 9]
    assert view["placements"] == [[1], [0]]
    assert sita.legal_actions(state, 0) == sita.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="over"):
        sita.apply(state, 0, {"type": "choose", "card": 25})
    record = sita.record(state)
    assert record["over"] and record["placements"] == [[1], [0]] and record["totals"] == [15, 9]


def test_equal_totals_share_a_place() -> None:
    # RULING T6: seat 0 takes 11 and seat 2 nothing, so seats 0 and 1 tie on 11.
    rows = four_rows([20, 21, 22, 23, 24], [40], [60], [80])
    state = scenario([[25], [70], [61]], rows, totals=[0, 11, 3])
    state = play_turn(state, 25, 70, 61)
    assert sita.placements(state) == [[2], [0, 1]]


# ---------------------------------------------------------------- record and storage


def test_the_record_has_designs_shape() -> None:
    state = too_low_position()
    state = sita.apply(state, 0, {"type": "take_row", "row": 0})
    record = sita.record(state)
    assert set(record) == {"game", "players", "options", "seed", "rounds", "totals", "placements", "over"}
    (round_,) = record["rounds"]
    assert set(round_) == {"number", "hands", "rows", "turns", "penalties"}
    assert round_["hands"] == [[5, 90], [31, 91], [6, 92]]
    assert round_["rows"] == [[10], [20, 21, 22], [30], [40]]
    (turn,) = round_["turns"]
    assert set(turn) == {"chosen", "placements", "rows"}
    assert turn["chosen"] == [5, 31, 6]
    assert turn["rows"] == [[5, 6], [20, 21, 22], [30, 31], [40]]
    assert round_["penalties"] == [3, 0, 0]


def test_dumps_and_loads_round_trip_exactly() -> None:
    state = too_low_position()
    text = sita.dumps(state)
    assert sita.loads(text) == state
    assert sita.dumps(sita.loads(text)) == text
