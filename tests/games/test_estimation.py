"""Estimation: every rule book example and every ruling E1-E13, through the engine.

Hand-made states come from ``estimation.scenario`` (a round's start with chosen hands and
dealer) and ``estimation.with_hands`` (replace the current deal). Two layouts make the play
predictable:

* ``SUIT_HANDS``: seat i holds the whole suit i (S, H, D, C). In NT the Caller takes all 13
  tricks; with a suit trump its holder takes all 13.
* ``row_layout(winners)``: twelve "rows" of four cards of one suit (A K Q J, 10 9 8 7, 6 5 4 3
  of S, H, D, C in that order) and a last row of the four twos. Played row by row every seat
  follows suit, so each row goes to the seat given the row's highest card; the twos decide
  the 13th trick.
"""

from __future__ import annotations

import pytest

from games.engines import IllegalAction
from games.engines import estimation as E
from games.engines.cards import RANKS, SUITS
from games.records.estimation import explain_points

SUIT_HANDS = [[rank + suit for rank in RANKS] for suit in SUITS]
ROW_RANKS = (("A", "K", "Q", "J"), ("10", "9", "8", "7"), ("6", "5", "4", "3"))
NO = [False] * 4


def row_layout(
    winners: list[int], twos: tuple[int, int, int, int] = (0, 1, 2, 3)
) -> tuple[list[list[str]], list[dict]]:
    """Hands and rows: row k (of 12) goes to ``winners[k]``; ``twos[i]`` holds the two of suit i."""
    rows = []
    index = 0
    for suit in SUITS:
        for ranks in ROW_RANKS:
            winner = winners[index]
            index += 1
            cards = [rank + suit for rank in ranks]
            others = [seat for seat in range(4) if seat != winner]
            rows.append({winner: cards[0], **dict(zip(others, cards[1:]))})
    rows.append({twos[i]: "2" + suit for i, suit in enumerate(SUITS)})
    hands = [[row[seat] for row in rows] for seat in range(4)]
    return hands, rows


def step(state: E.State, action: dict) -> E.State:
    return E.apply(state, E.to_act(state)[0], action)


def steps(state: E.State, *actions: dict) -> E.State:
    for action in actions:
        state = step(state, action)
    return state


def estimates(state: E.State, *values: int) -> E.State:
    return steps(state, *({"type": "estimate", "value": v} for v in values))


def play_rows(state: E.State, rows: list[dict]) -> E.State:
    for row in rows:
        for _ in range(4):
            seat = E.to_act(state)[0]
            state = E.apply(state, seat, {"type": "play", "card": row[seat]})
    return state


def play_out(state: E.State) -> E.State:
    """Play the rest of the round with each seat's first legal card."""
    number = state.round_number
    while not E.is_over(state) and state.round_number == number:
        seat = E.to_act(state)[0]
        state = E.apply(state, seat, E.legal_actions(state, seat)[0])
    return state


def refused(state: E.State, action: dict, message: str) -> None:
    before = E.dumps(state)
    with pytest.raises(IllegalAction, match=message):
        step(state, action)
    assert E.dumps(state) == before


DASH = {"type": "dash_call"}
DECLINE = {"type": "decline"}
PASS = {"type": "pass"}


def call(tricks: int, trump: str) -> dict:
    return {"type": "call", "tricks": tricks, "trump": trump}


def call_round(dealer: int = 0, hands: list[list[str]] | None = None) -> E.State:
    return E.scenario(hands, dealer=dealer, length="mini")


# ----------------------------------------------------------------------------- rule book examples


def test_the_worked_round_scores_27_minus_2_minus_33_and_21() -> None:
    # RULING E10: one Dash Call, 7 spades, estimates 2 and 1: total 10, Under, Risk for the last.
    hands, rows = row_layout([1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 0], twos=(3, 0, 1, 2))
    state = call_round(dealer=3, hands=hands)
    state = steps(state, DASH, DECLINE, DECLINE, DECLINE, call(7, "S"), PASS, PASS)
    assert state.caller == 1 and state.trump == "S"
    state = estimates(state, 2, 1)
    view = E.view(state, None)
    assert view["over_under"] == "under" and view["risk"] == {"seat": 3, "level": 1}
    state = play_rows(state, rows)
    done = E.record(state)["rounds"][0]
    assert done["tricks_won"] == [1, 7, 4, 1]
    assert done["points"] == [-33, 27, -2, 21]
    assert done["made"] == [False, True, False, True]
    assert done["saaydeh"] is False and done["multiplier"] == 1
    assert [explain_points(done, seat) for seat in range(4)] == [
        "-33: Dash Call missed in an Under round",
        "+27: made 7 (10 + 7) + 10 Caller",
        "-2: missed 2, took 4 (-2)",
        "+21: made 1 (10 + 1) + 10 Risk",
    ]
    assert state.totals == (-33, 27, -2, 21)
    assert E.view(state, 0)["score_sheet"][0]["call"] == {"tricks": 7, "trump": "S"}


def test_a_caller_on_5_scores_25_or_35_as_only_maker_and_minus_12_taking_3() -> None:
    # Estimates 5 (Caller), 3, 2, 1: total 11, the last estimator (seat 3) is on Risk.
    made = E.score_round([5, 3, 2, 1], [5, 3, 3, 2], NO, caller=0, last_estimator=3)
    assert made["points"][0] == 25
    assert (
        explain_points(
            made
            | {"estimate": [5, 3, 2, 1], "tricks_won": [5, 3, 3, 2], "dash_call": NO, "caller": 0, "multiplier": 1},
            0,
        )
        == "+25: made 5 (10 + 5) + 10 Caller"
    )
    only = E.score_round([5, 3, 2, 1], [5, 4, 1, 3], NO, caller=0, last_estimator=3)
    assert only["points"][0] == 35
    missed = E.score_round([5, 3, 2, 1], [3, 3, 4, 3], NO, caller=0, last_estimator=3)
    assert missed["points"][0] == -12


def test_a_player_on_3_scores_13_or_minus_2_taking_5() -> None:
    assert E.score_round([5, 3, 2, 1], [5, 3, 3, 2], NO, caller=0, last_estimator=3)["points"][1] == 13
    assert E.score_round([5, 3, 2, 1], [4, 5, 3, 1], NO, caller=0, last_estimator=3)["points"][1] == -2


def test_the_last_estimator_on_1_with_a_total_of_15_scores_21_or_minus_11() -> None:
    made = E.score_round([6, 4, 4, 1], [6, 3, 3, 1], NO, caller=0, last_estimator=3)
    assert made["risk"] == {"seat": 3, "level": 1} and made["over_under"] == "over"
    assert made["points"][3] == 21
    assert E.score_round([6, 4, 4, 1], [6, 2, 3, 2], NO, caller=0, last_estimator=3)["points"][3] == -11


def test_a_dash_call_in_an_under_round_is_plus_or_minus_33() -> None:
    dash = [True, False, False, False]
    made = E.score_round([0, 5, 3, 2], [0, 5, 4, 4], dash, caller=1, last_estimator=3)
    assert made["points"][0] == 33
    missed = E.score_round([0, 5, 3, 2], [1, 5, 3, 4], dash, caller=1, last_estimator=3)
    assert missed["points"][0] == -33
    line = {"estimate": [0, 5, 3, 2], "tricks_won": [0, 5, 4, 4], "dash_call": dash, "caller": 1, "multiplier": 1}
    assert explain_points(made | line, 0) == "+33: Dash Call made in an Under round"


def test_a_dash_call_in_an_over_round_is_plus_or_minus_25_and_takes_only_winner() -> None:
    # RULING E10: a Dash Caller takes the only-winner +10, never Caller, With or Risk.
    dash = [True, False, False, False]
    result = E.score_round([0, 7, 5, 4], [0, 6, 4, 3], dash, caller=1, last_estimator=3)
    assert result["points"][0] == 35
    line = {"estimate": [0, 7, 5, 4], "tricks_won": [0, 6, 4, 3], "dash_call": dash, "caller": 1, "multiplier": 1}
    assert explain_points(result | line, 0) == "+35: Dash Call made in an Over round (+25) + 10 only winner"
    lone_miss = E.score_round([0, 7, 5, 4], [1, 7, 5, 0], dash, caller=1, last_estimator=3)
    assert lone_miss["made"] == [False, True, True, False]
    assert lone_miss["points"][0] == -25


def test_a_plain_dash_is_an_ordinary_estimate_of_0() -> None:
    result = E.score_round([6, 0, 3, 2], [6, 1, 3, 3], NO, caller=0, last_estimator=3)
    assert result["points"][1] == -1
    result = E.score_round([6, 0, 3, 2], [6, 0, 4, 3], NO, caller=0, last_estimator=3)
    assert result["points"][1] == 10


def test_with_scores_like_the_caller_and_the_only_loser_loses_10() -> None:
    result = E.score_round([5, 5, 2, 2], [5, 5, 2, 1], NO, caller=0, last_estimator=3)
    assert result["with"] == [False, True, False, False]
    # Total 14 is 1 away from 13, so there is no Risk: the last estimator loses 1 + 10 (only loser).
    assert result["points"] == [25, 25, 12, -11]


@pytest.mark.parametrize("distance, level", [(1, 0), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3), (7, 3)])
def test_risk_levels_by_distance_from_13(distance: int, level: int) -> None:
    # RULING E10
    assert E.risk_level(13 + distance) == level
    assert E.risk_level(13 - distance) == level


@pytest.mark.parametrize(
    "last, distance, level", [(3, 1, 0), (2, 2, 1), (1, 3, 1), (0, 4, 2), (9, 5, 2), (10, 6, 3), (11, 7, 3)]
)
def test_the_last_estimator_carries_the_risk_in_the_view(last: int, distance: int, level: int) -> None:
    state = estimates(E.scenario(dealer=0), 3, 3, 3, last)
    view = E.view(state, None)
    assert abs(sum(view["estimates"]) - 13) == distance
    assert view["risk"] == {"seat": 0, "level": level}


# ----------------------------------------------------------------------------- E1, E12 dealer and lengths


def test_the_first_dealer_comes_from_the_seed_and_the_deal_passes_on() -> None:
    # RULING E1
    dealers = {E.new_game(4, None, seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert E.new_game(4, None, "abc").dealer == E.new_game(4, None, "abc").dealer
    state = E.new_game(4, {"length": "micro"}, 7)
    first = state.dealer
    while not E.is_over(state):
        state = play_out(estimates(state, *[1, 1, 1, 1]))
    assert [r["dealer"] for r in E.record(state)["rounds"]] == [(first + i) % 4 for i in range(5)]


@pytest.mark.parametrize("length, total, calls", [("micro", 5, 0), ("mini", 10, 5), ("full", 18, 13)])
def test_the_lengths_and_the_fixed_trumps_in_order(length: str, total: int, calls: int) -> None:
    # RULINGS E6, E12
    for number in range(1, total + 1):
        view = E.view(E.scenario(length=length, round_number=number), None)
        assert view["rounds_total"] == total
        if number <= calls:
            assert (view["kind"], view["trump"], view["phase"]) == ("call", None, "dash_call")
        else:
            assert view["kind"] == "fixed" and view["phase"] == "estimating"
            assert view["trump"] == ("NT", "S", "H", "D", "C")[number - calls - 1]


def test_options_are_validated() -> None:
    assert E.validate_options(4, None) == {"length": "micro"}
    assert E.validate_options(["a", "b", "c", "d"], {"length": "full"}) == {"length": "full"}
    for players, options in [(3, {}), (5, {}), (4, {"length": "huge"}), (4, {"rounds": 3}), (True, {})]:
        with pytest.raises(ValueError):
            E.validate_options(players, options)
    assert E.record(E.new_game(("a", "b", "c", "d"), None, "s"))["seed"] == "s"


# ----------------------------------------------------------------------------- E2 Dash Call


def test_the_dash_calls_go_round_from_the_seat_after_the_dealer() -> None:
    state = call_round(dealer=2)
    assert E.to_act(state) == [3]
    assert E.legal_actions(state, 3) == [DASH, DECLINE]
    state = steps(state, DECLINE, DASH)
    assert E.view(state, None)["dash_calls"] == [True, None, None, False]
    assert E.view(state, None)["estimates"][0] == 0


def test_a_third_dash_call_is_refused() -> None:
    # RULING E2
    state = steps(call_round(dealer=0), DASH, DASH)
    assert E.legal_actions(state, 3) == [DECLINE]
    refused(state, DASH, "two players have already Dash Called")


# ----------------------------------------------------------------------------- E3 auction


def test_the_auction_skips_dash_callers_and_ends_with_one_caller() -> None:
    # RULING E3
    state = steps(call_round(dealer=0), DASH, DECLINE, DECLINE, DECLINE)
    assert state.phase == "auction" and E.to_act(state) == [2]
    state = steps(state, call(4, "C"), PASS, call(5, "H"))
    assert E.to_act(state) == [2]  # seat 1 Dash Called, seat 3 passed: both skipped
    state = step(state, PASS)
    view = E.view(state, None)
    assert view["phase"] == "estimating" and view["caller"] == 0
    assert view["call"] == {"tricks": 5, "trump": "H"} and view["trump"] == "H"
    assert view["auction"] == [
        {"seat": 2, "call": {"tricks": 4, "trump": "C"}},
        {"seat": 3, "pass": True},
        {"seat": 0, "call": {"tricks": 5, "trump": "H"}},
        {"seat": 2, "pass": True},
    ]


def test_the_last_seat_may_still_call_after_everyone_else_passed() -> None:
    state = steps(call_round(dealer=0), DECLINE, DECLINE, DECLINE, DECLINE, PASS, PASS, PASS)
    assert E.to_act(state) == [0]
    state = step(state, call(4, "C"))
    assert state.caller == 0 and state.phase == "estimating"


def test_a_call_that_does_not_beat_the_standing_call_is_refused() -> None:
    # RULING E3: more tricks, or the same number with a higher trump (NT > S > H > D > C).
    state = steps(call_round(dealer=0), DECLINE, DECLINE, DECLINE, DECLINE, call(5, "H"))
    for weak in (call(5, "H"), call(5, "D"), call(4, "NT")):
        refused(state, weak, "must beat the standing call")
    assert E.view(step(state, call(5, "S")), None)["auction"][-1]["call"] == {"tricks": 5, "trump": "S"}
    assert E.view(step(state, call(6, "C")), None)["auction"][-1]["call"] == {"tricks": 6, "trump": "C"}


def test_calls_run_from_4_clubs_to_13_no_trump() -> None:
    state = steps(call_round(dealer=0), DECLINE, DECLINE, DECLINE, DECLINE)
    calls = [a for a in E.legal_actions(state, 1) if a["type"] == "call"]
    assert calls[0] == call(4, "C") and calls[-1] == call(13, "NT") and len(calls) == 50
    refused(state, call(3, "NT"), "4 to 13")
    refused(state, call(14, "C"), "4 to 13")
    refused(state, call(5, "X"), "trump must be")


def test_passing_is_final() -> None:
    state = steps(call_round(dealer=0), DECLINE, DECLINE, DECLINE, DECLINE, PASS, call(4, "S"), call(5, "S"))
    assert E.to_act(state) == [0]  # seat 1 passed and never speaks again
    state = step(state, call(6, "S"))
    assert E.to_act(state) == [2]
    with pytest.raises(IllegalAction, match="not your turn"):
        E.apply(state, 1, call(7, "S"))


# ----------------------------------------------------------------------------- E4 redeals


def test_every_seat_passing_means_a_redeal_by_the_same_dealer() -> None:
    # RULINGS E1, E4
    state = call_round(dealer=2)
    first_hand = E.view(state, 0)["hand"]
    state = steps(state, DECLINE, DASH, DECLINE, DECLINE, PASS, PASS, PASS)
    view = E.view(state, 0)
    assert view["deal_number"] == 2 and view["dealer"] == 2 and view["phase"] == "dash_call"
    assert view["dash_calls"] == [None] * 4 and view["auction"] == [] and view["round_number"] == 1
    assert view["hand"] != first_hand and E.to_act(state) == [3]


def test_three_redeals_in_a_row_make_the_fixed_no_trump_deal() -> None:
    # RULING E4
    state = call_round(dealer=1)
    for _ in range(3):
        state = steps(state, DECLINE, DECLINE, DECLINE, DECLINE, PASS, PASS, PASS, PASS)
    view = E.view(state, None)
    assert (view["deal_number"], view["kind"], view["trump"], view["phase"]) == (4, "fixed", "NT", "estimating")
    assert view["round_number"] == 1 and view["dealer"] == 1 and E.to_act(state) == [2]
    assert view["estimate_order"] == [2, 3, 0, 1]
    assert {a["value"] for a in E.legal_actions(state, 2) if "trump" not in a} == set(range(14))
    state = play_out(estimates(state, 4, 3, 2, 1))
    deals = E.record(state)["rounds"][0]["deals"]
    assert len(deals) == 4
    assert all(len(d["dash_calls"]) == 4 and len(d["auction"]) == 4 for d in deals[:3])
    assert deals[3]["dash_calls"] == [] and deals[3]["auction"] == []
    assert state.round_number == 2 and state.dealer == 2 and state.kind == "call"


# ----------------------------------------------------------------------------- E5 estimates


def _after_call(dash: bool = False) -> E.State:
    """Dealer 0; seat 1 Dash Calls if asked; seat 2 wins the auction with 5 spades."""
    state = steps(call_round(dealer=0), DASH if dash else DECLINE, DECLINE, DECLINE, DECLINE)
    if not dash:
        state = step(state, PASS)
    return steps(state, call(5, "S"), PASS, PASS)


def test_estimates_start_after_the_caller_and_skip_dash_callers() -> None:
    # RULING E5
    state = _after_call(dash=True)
    view = E.view(state, None)
    assert view["caller"] == 2 and view["estimate_order"] == [3, 0]
    assert view["estimates"] == [None, 0, 5, None]


def test_an_estimate_above_the_call_is_refused() -> None:
    state = _after_call()
    assert max(a["value"] for a in E.legal_actions(state, 3)) == 5
    refused(state, {"type": "estimate", "value": 6}, "from 0 to 5")


def test_a_third_zero_is_refused() -> None:
    # RULING E5: Dash Calls plus zero estimates never exceed two.
    state = estimates(_after_call(dash=True), 0)
    assert 0 not in [a["value"] for a in E.legal_actions(state, 0)]
    refused(state, {"type": "estimate", "value": 0}, "already on zero")
    fixed = estimates(E.scenario(dealer=0), 0, 0)
    refused(fixed, {"type": "estimate", "value": 0}, "already on zero")


def test_the_last_estimator_may_not_bring_the_total_to_13() -> None:
    state = estimates(_after_call(), 3, 4)  # 5 + 3 + 4: seat 1 may not say 1
    assert E.to_act(state) == [1]
    assert 1 not in [a["value"] for a in E.legal_actions(state, 1)]
    refused(state, {"type": "estimate", "value": 1}, "total exactly 13")
    fixed = estimates(E.scenario(dealer=0), 3, 3, 3)
    refused(fixed, {"type": "estimate", "value": 4}, "total exactly 13")


# ----------------------------------------------------------------------------- E6, E7 fixed rounds


def test_the_fixed_round_caller_is_the_highest_and_earliest_on_a_tie() -> None:
    # RULING E6
    state = estimates(E.scenario(dealer=0), 4, 4, 2, 1)
    view = E.view(state, None)
    assert view["caller"] == 1 and view["with"] == [False, False, True, False]
    assert view["phase"] == "playing" and E.to_act(state) == [1]  # RULING E8: the Caller leads


def test_a_super_call_changes_the_trump_only_when_strictly_higher() -> None:
    # RULING E7
    state = E.scenario(dealer=0)
    assert E.view(state, None)["trump"] == "NT"
    state = step(state, {"type": "estimate", "value": 8, "trump": "H"})
    assert state.trump == "H"
    state = step(state, {"type": "estimate", "value": 8, "trump": "S"})
    assert state.trump == "H"  # an equal Super Call does not change it
    state = step(state, {"type": "estimate", "value": 9, "trump": "D"})
    view = E.view(state, None)
    assert view["trump"] == "D" and view["super_call"] == {"seat": 3, "value": 9, "trump": "D"}
    assert view["estimates"] == [None, 8, 8, 9]  # estimates already made stand
    state = estimates(state, 2)
    logged = E.record(state)["rounds"][0]["estimates"]
    assert logged[0] == {"seat": 1, "value": 8, "trump": "H"} and logged[3] == {"seat": 0, "value": 2}
    assert state.caller == 3


def test_a_super_call_needs_8_and_a_fixed_round() -> None:
    refused(E.scenario(dealer=0), {"type": "estimate", "value": 7, "trump": "S"}, "8 or more")
    refused(_after_call(), {"type": "estimate", "value": 5, "trump": "S"}, "only possible in a fixed round")
    legal = E.legal_actions(E.scenario(dealer=0), 1)
    assert {"type": "estimate", "value": 8, "trump": "NT"} in legal
    assert {"type": "estimate", "value": 7, "trump": "NT"} not in legal


# ----------------------------------------------------------------------------- E8, E9 play


def test_follow_suit_is_enforced_and_trump_beats_the_suit_led() -> None:
    # RULING E8
    hands, rows = row_layout([1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 0], twos=(3, 0, 1, 2))
    state = estimates(E.scenario(hands, dealer=0, round_number=2), 7, 3, 1, 1)  # spades
    assert E.to_act(state) == [1]
    state = step(state, {"type": "play", "card": "AS"})
    refused(state, {"type": "play", "card": "QH"}, r"must follow suit \(spades\)")
    refused(state, {"type": "play", "card": "2S"}, "do not hold")
    assert E.trick_winner([E.Play(0, "2H"), E.Play(1, "AH"), E.Play(2, "2S"), E.Play(3, "KH")], "S") == 2
    assert E.trick_winner([E.Play(0, "2H"), E.Play(1, "AS"), E.Play(2, "3H"), E.Play(3, "KD")], "NT") == 2


def test_avoid_is_marked_the_first_time_a_seat_cannot_follow_and_bust_shows() -> None:
    # RULING E9: NT, seat 0 holds all spades and wins every trick it leads.
    state = estimates(E.scenario(SUIT_HANDS, dealer=3), 1, 1, 1, 1)
    assert state.caller == 0  # RULING E6: the earliest of the tied estimates
    state = steps(
        state,
        {"type": "play", "card": "AS"},
        {"type": "play", "card": "2H"},
        {"type": "play", "card": "2D"},
        {"type": "play", "card": "2C"},
    )
    view = E.view(state, 2)
    assert view["avoid"] == [[], ["S"], ["S"], ["S"]]
    assert view["last_trick"]["winner"] == 0 and view["bust"] == NO
    state = steps(
        state,
        {"type": "play", "card": "KS"},
        {"type": "play", "card": "3H"},
        {"type": "play", "card": "3D"},
        {"type": "play", "card": "3C"},
    )
    view = E.view(state, 2)
    assert view["avoid"] == [[], ["S"], ["S"], ["S"]]
    assert view["tricks_won"] == [2, 0, 0, 0] and view["bust"] == [True, False, False, False]


# ----------------------------------------------------------------------------- E11 Sa'aydeh, E13 placements


def _round_with_suit_hands(state: E.State, *values: int) -> E.State:
    return play_out(estimates(E.with_hands(state, SUIT_HANDS), *values))


def test_saaydeh_doubles_then_quadruples_stays_at_4_and_resets() -> None:
    # RULING E11. Suit hands: NT → the Caller takes 13; a suit trump → its holder takes 13.
    state = E.scenario(dealer=0)
    state = _round_with_suit_hands(state, 5, 1, 1, 1)  # NT, Caller seat 1 takes 13: all miss
    state = _round_with_suit_hands(state, 1, 1, 5, 1)  # spades: seat 0 takes 13: all miss
    state = _round_with_suit_hands(state, 1, 1, 5, 1)  # hearts: seat 1 takes 13: all miss
    assert E.view(state, None)["multiplier"] == 4
    state = _round_with_suit_hands(state, 0, 1, 5, 6)  # diamonds: seat 2 takes 13; seat 0 makes 0
    state = _round_with_suit_hands(state, 1, 1, 13, 0)  # clubs: seat 3 takes 13
    sheet = E.view(state, None)["score_sheet"]
    assert [r["saaydeh"] for r in sheet] == [True, True, True, False, False]
    assert [r["multiplier"] for r in sheet] == [1, 2, 4, 4, 1]
    assert sheet[0]["points"] == sheet[1]["points"] == sheet[2]["points"] == [0, 0, 0, 0]
    assert sheet[3]["points"] == [80, -4, -32, -64]  # (10 + 10 only winner), -1, -8, -(6 + 10 Caller), x4
    assert explain_points(sheet[3], 0) == "+80: made 0 (10 + 0) + 10 only winner, ×4"
    assert explain_points(sheet[3], 3) == "-64: missed 6, took 0 (-6) - 10 Caller, ×4"
    assert explain_points(sheet[0], 2) == "0: Sa'aydeh, all four missed"
    assert sheet[4]["points"] == [20, -1, -1, 33]  # seat 0: 10 + 10 Risk (total 15); seat 3: 10 + 13 + 10
    assert E.is_over(state)
    assert state.totals == (100, -5, -33, -31)
    assert E.view(state, None)["placements"] == [[0], [1], [3], [2]]


def test_placements_share_tied_places() -> None:
    # RULING E13
    assert E.placements([10, 20, 10, -5]) == [[1], [0, 2], [3]]
    assert E.placements([0, 0, 0, 0]) == [[0, 1, 2, 3]]


# ----------------------------------------------------------------------------- contract details


def test_it_refuses_actions_out_of_turn_out_of_phase_or_malformed() -> None:
    state = call_round(dealer=0)
    with pytest.raises(IllegalAction, match="not your turn"):
        E.apply(state, 2, DECLINE)
    refused(state, PASS, "not possible now")
    refused(state, {"type": "decline", "extra": 1}, "Unexpected")
    refused(state, {"type": "estimate", "value": True}, "wrong type")
    finished = E.scenario(dealer=0)
    while not E.is_over(finished):
        finished = play_out(estimates(finished, 1, 1, 1, 1))
    with pytest.raises(IllegalAction, match="over"):
        E.apply(finished, 0, DECLINE)


def test_apply_leaves_its_input_untouched_and_the_view_hides_other_hands() -> None:
    state = call_round(dealer=0)
    before = E.dumps(state)
    step(state, DASH)
    assert E.dumps(state) == before
    view = E.view(state, 1)
    assert sorted(view["hand"]) == sorted(state.hands[1])
    assert E.view(state, None)["hand"] is None
    assert "seed" not in view
