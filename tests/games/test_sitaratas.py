"""Sitaratas: every worked example, table and ruling (S1–S9) of the rule book, from hand-made states.

Positions are built with ``sitaratas.scenario`` (hands as held now, dealer, trump, bids,
the trick in progress). Seats are 0..N-1; "next" is seat + 1 modulo N.
"""

from __future__ import annotations

import json

import pytest

from games.catalog import get_engine
from games.engines import IllegalAction
from games.engines import sitaratas as engine
from games.engines.sitaratas import Play, scenario, trick_winner


def bid(value: int) -> dict:
    return {"type": "bid", "bid": value}


def play(card: str, joker: str | None = None) -> dict:
    action: dict = {"type": "play", "card": card}
    if joker is not None:
        action["joker"] = joker
    return action


def cards_of(actions: list[dict]) -> list[str]:
    return [action["card"] for action in actions]


def play_out(state: engine.State, *actions: dict) -> engine.State:
    """Apply each action for whoever is to act."""
    for action in actions:
        state = engine.apply(state, engine.to_act(state)[0], action)
    return state


# --------------------------------------------------------------------------- registry and options


def test_it_is_registered_under_its_name() -> None:
    assert get_engine("sitaratas") is engine
    assert (engine.name, engine.min_players, engine.max_players) == ("sitaratas", 3, 6)


def test_it_fills_default_options_and_refuses_unknown_ones() -> None:
    assert engine.validate_options(4, None) == {"deck": "classic", "order": "up_down"}
    assert engine.validate_options(4, {"deck": "jokers"}) == {"deck": "jokers", "order": "up_down"}
    assert engine.validate_options(["a", "b", "c"], {"order": "down_up"})["order"] == "down_up"
    for bad in ({"deck": "tarot"}, {"order": "sideways"}, {"speed": 1}):
        with pytest.raises(ValueError):
            engine.validate_options(4, bad)
    for players in (2, 7, True, "four", ["a", "b"]):
        with pytest.raises(ValueError):
            engine.validate_options(players, {})


def test_a_list_of_names_sets_the_player_count_and_is_recorded_as_given() -> None:
    state = engine.new_game(["ann", "bob", "cid"], None, "a string seed")
    assert engine.view(state, 0)["players"] == 3
    record = engine.record(state)
    assert record["players"] == ["ann", "bob", "cid"]
    assert record["seed"] == "a string seed"
    assert engine.record(engine.new_game(4, None, 7))["players"] == 4


# --------------------------------------------------------------------------- schedules (RULING S2)

BOOK_SCHEDULES = {
    (3, "up_down"): [1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1],
    (3, "down_up"): [12, 12, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12, 12],
    (4, "up_down"): [1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 1],
    (4, "down_up"): [9, 9, 9, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9],
    (5, "up_down"): [1, 1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 6, 5, 4, 3, 2, 1, 1, 1, 1, 1],
    (5, "down_up"): [7, 7, 7, 7, 7, 6, 5, 4, 3, 2, 1, 1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7],
    (6, "up_down"): [1, 1, 1, 1, 1, 1, 2, 3, 4, 5, 6, 6, 6, 6, 6, 6, 5, 4, 3, 2, 1, 1, 1, 1, 1, 1],
    (6, "down_up"): [6, 6, 6, 6, 6, 6, 5, 4, 3, 2, 1, 1, 1, 1, 1, 1, 2, 3, 4, 5, 6, 6, 6, 6, 6, 6],
}


@pytest.mark.parametrize(("players", "order"), list(BOOK_SCHEDULES))
def test_all_eight_schedules_equal_the_books_lists(players: int, order: str) -> None:
    # RULING S2
    assert list(engine.schedule(players, order)) == BOOK_SCHEDULES[(players, order)]


@pytest.mark.parametrize(("players", "largest", "rounds"), [(3, 12, 29), (4, 9, 26), (5, 7, 25), (6, 6, 26)])
@pytest.mark.parametrize("deck", ["classic", "jokers"])
def test_the_table_of_largest_hands_and_round_counts_holds_for_both_decks(
    players: int, largest: int, rounds: int, deck: str
) -> None:
    # Jokers change neither the largest hand nor the number of rounds.
    for order in ("up_down", "down_up"):
        view = engine.view(engine.new_game(players, {"deck": deck, "order": order}, 1), None)
        assert view["rounds_total"] == rounds
        assert max(view["schedule"]) == largest
        assert view["cards"] == view["schedule"][0] == (1 if order == "up_down" else largest)


# --------------------------------------------------------------------------- scoring examples


@pytest.mark.parametrize(("bid_", "won", "points"), [(2, 2, 7), (0, 0, 5), (2, 3, 3)])
def test_the_three_scoring_examples_of_the_book(bid_: int, won: int, points: int) -> None:
    assert engine.round_points(bid_, won) == points


def test_a_finished_round_scores_exact_bids_with_the_bonus_and_adds_to_the_totals() -> None:
    # Three players, one card each, seat 0 deals; seat 1 bids first and leads (RULING S5).
    state = scenario([["6H"], ["AS"], ["KH"]], dealer=0, trump="S", bids=[0, 1, 1], totals=[10, 4, 0])
    state = play_out(state, play("AS"), play("KH"), play("6H"))
    record = engine.record(state)
    first = record["rounds"][0]
    assert first["tricks_won"] == [0, 1, 0]
    assert first["points"] == [5, 6, 0]  # exact 0 → 5; exact 1 → 6; missed 1 with 0 tricks → 0
    assert record["totals"] == [15, 10, 0]
    sheet = engine.view(state, None)["score_sheet"]
    assert sheet == [
        {
            "number": 1,
            "cards": 1,
            "dealer": 0,
            "trump": "S",
            "indicator": None,
            "bids": [0, 1, 1],
            "tricks_won": [0, 1, 0],
            "points": [5, 6, 0],
        }
    ]
    assert engine.view(state, None)["round_number"] == 2


# --------------------------------------------------------------------------- S1 dealer


def test_the_first_dealer_comes_from_the_seed_and_the_deal_moves_on_each_round() -> None:
    # RULING S1
    first_dealers = set()
    for seed in range(40):
        state = engine.new_game(4, None, seed)
        assert (
            engine.record(state)["rounds"][0]["dealer"]
            == engine.record(engine.new_game(4, None, seed))["rounds"][0]["dealer"]
        )
        first_dealers.add(engine.view(state, None)["dealer"])
    assert first_dealers == {0, 1, 2, 3}
    state = engine.new_game(4, None, 3)
    dealer = engine.view(state, None)["dealer"]
    while len(engine.record(state)["rounds"]) < 6:
        seat = engine.to_act(state)[0]
        state = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    dealers = [round_["dealer"] for round_ in engine.record(state)["rounds"]]
    assert dealers == [(dealer + step) % 4 for step in range(6)]


# --------------------------------------------------------------------------- S3 trump


def test_a_standard_indicator_is_public_in_no_hand_and_sets_trump() -> None:
    # RULING S3
    state = engine.new_game(5, {"deck": "classic"}, 11)
    round_ = engine.record(state)["rounds"][0]
    assert round_["indicator"] is not None
    assert all(round_["indicator"] not in hand for hand in round_["hands"])
    assert round_["trump"] == round_["indicator"][-1]
    for seat in (None, 0, 1):
        assert engine.view(state, seat)["indicator"] == round_["indicator"]
        assert engine.view(state, seat)["trump"] == round_["trump"]


def test_a_joker_indicator_means_no_trump_suit() -> None:
    # RULING S3: find a seed whose first deal turns up a joker.
    for seed in range(500):
        state = engine.new_game(4, {"deck": "jokers"}, seed)
        round_ = engine.record(state)["rounds"][0]
        if round_["indicator"] in ("RJ", "BJ"):
            break
    else:
        pytest.fail("no joker indicator in 500 seeds")
    assert round_["trump"] is None
    assert engine.view(state, 0)["trump"] is None


def test_with_no_trump_suit_the_led_suit_wins_and_a_void_player_plays_anything() -> None:
    # RULING S3 + S7: no trump suit, so being void of the led suit frees the player.
    state = scenario([["6H", "7C"], ["AS", "KS"], ["8H", "9D"]], dealer=2, trump=None, indicator="BJ", bids=[1, 0, 0])
    state = play_out(state, play("6H"))
    assert cards_of(engine.legal_actions(state, 1)) == ["AS", "KS"]
    state = play_out(state, play("AS"), play("8H"))
    assert engine.record(state)["rounds"][0]["tricks"][0]["winner"] == 2


def test_when_the_whole_classic_deck_is_dealt_the_trump_suit_is_drawn_from_the_four_suits() -> None:
    # RULING S3: 4 players × 9 cards = 36, nothing left for an indicator.
    trumps = set()
    for seed in range(40):
        state = engine.new_game(4, {"deck": "classic", "order": "down_up"}, seed)
        round_ = engine.record(state)["rounds"][0]
        assert sum(len(hand) for hand in round_["hands"]) == 36
        assert round_["indicator"] is None
        trumps.add(round_["trump"])
        assert engine.view(state, None)["trump"] == round_["trump"]
    assert trumps == {"S", "H", "D", "C"}


def test_with_jokers_the_largest_three_player_hand_leaves_two_cards_for_the_indicator() -> None:
    state = engine.new_game(3, {"deck": "jokers", "order": "down_up"}, 5)
    round_ = engine.record(state)["rounds"][0]
    assert round_["cards"] == 12
    dealt = [card for hand in round_["hands"] for card in hand]
    assert round_["indicator"] is not None and round_["indicator"] not in dealt
    assert len(set(dealt)) == 36


# --------------------------------------------------------------------------- S4 bids


def test_bidding_starts_after_the_dealer_and_the_dealer_bids_last() -> None:
    # RULING S4
    state = scenario([["6H", "7H"], ["8H", "9H"], ["10H", "JH"], ["QH", "KH"]], dealer=1, trump="S")
    assert engine.view(state, None)["bid_order"] == [2, 3, 0, 1]
    order = []
    for value in (0, 1, 0, 0):
        order.append(engine.to_act(state)[0])
        state = play_out(state, bid(value))
    assert order == [2, 3, 0, 1]
    assert [entry["seat"] for entry in engine.record(state)["rounds"][0]["bids"]] == [2, 3, 0, 1]


def test_a_bid_runs_from_zero_to_the_hand_size() -> None:
    state = scenario([["6H", "7H"], ["8H", "9H"], ["10H", "JH"]], dealer=0)
    assert [action["bid"] for action in engine.legal_actions(state, 1)] == [0, 1, 2]
    with pytest.raises(IllegalAction, match="between 0 and 2"):
        engine.apply(state, 1, bid(3))
    with pytest.raises(IllegalAction):
        engine.apply(state, 1, bid(-1))


def test_the_dealer_may_not_bid_what_makes_the_bids_total_the_hand_size() -> None:
    # RULING S4: 3 cards; others bid 1 + 1, so 1 is forbidden for the dealer (seat 0).
    state = scenario([["6H", "7H", "8H"], ["9H", "10H", "JH"], ["QH", "KH", "AH"]], dealer=0)
    state = play_out(state, bid(1), bid(1))
    assert engine.view(state, None)["forbidden_bid"] == 1
    assert engine.view(state, 0)["forbidden_bid"] == 1
    assert [action["bid"] for action in engine.legal_actions(state, 0)] == [0, 2, 3]
    with pytest.raises(
        IllegalAction, match="Bid 1 is not allowed for the dealer: the bids would total the number of tricks."
    ):
        engine.apply(state, 0, bid(1))
    state = engine.apply(state, 0, bid(2))
    assert engine.view(state, None)["bids"] == [2, 1, 1]
    assert engine.view(state, None)["forbidden_bid"] is None


def test_zero_can_be_the_dealers_forbidden_bid() -> None:
    # RULING S4: the others already bid the whole hand size.
    state = scenario([["6H", "7H"], ["8H", "9H"], ["10H", "JH"]], dealer=2)
    state = play_out(state, bid(2), bid(0))
    assert engine.view(state, 2)["forbidden_bid"] == 0
    assert [action["bid"] for action in engine.legal_actions(state, 2)] == [1, 2]
    with pytest.raises(IllegalAction, match="Bid 0 is not allowed"):
        engine.apply(state, 2, bid(0))


def test_the_dealer_is_unrestricted_when_the_others_overbid() -> None:
    # RULING S4: 2 cards, the others bid 2 + 1 = 3 > 2; no bid can make the total 2.
    state = scenario([["6H", "7H"], ["8H", "9H"], ["10H", "JH"]], dealer=2)
    state = play_out(state, bid(2), bid(1))
    assert engine.view(state, 2)["forbidden_bid"] is None
    assert [action["bid"] for action in engine.legal_actions(state, 2)] == [0, 1, 2]


def test_earlier_bids_are_public_and_later_ones_not_yet_made() -> None:
    state = scenario([["6H"], ["8H"], ["10H"]], dealer=0)
    state = play_out(state, bid(1))
    for seat in (None, 0, 1, 2):
        assert engine.view(state, seat)["bids"] == [None, 1, None]
        assert engine.view(state, seat)["phase"] == "bidding"


def test_it_refuses_a_play_while_bidding_and_a_bid_while_playing() -> None:
    state = scenario([["6H"], ["8H"], ["10H"]], dealer=0)
    with pytest.raises(IllegalAction, match="time to bid"):
        engine.apply(state, 1, play("8H"))
    state = scenario([["6H"], ["8H"], ["10H"]], dealer=0, bids=[0, 0, 0])
    with pytest.raises(IllegalAction, match="time to play"):
        engine.apply(state, 1, bid(0))


# --------------------------------------------------------------------------- S5 leading


def test_the_first_bidder_leads_and_each_trick_winner_leads_the_next() -> None:
    # RULING S5
    state = scenario([["6H", "AC"], ["8H", "7C"], ["AH", "6C"]], dealer=0, trump="S", bids=[0, 0, 1])
    assert engine.to_act(state) == [1]
    assert engine.view(state, None)["trick"] == {"leader": 1, "plays": []}
    state = play_out(state, play("8H"), play("AH"), play("6H"))  # seat 2 wins with the ace
    assert engine.to_act(state) == [2]
    assert engine.view(state, None)["trick"]["leader"] == 2
    assert engine.view(state, None)["last_trick"] == {
        "leader": 1,
        "winner": 2,
        "plays": [{"seat": 1, "card": "8H"}, {"seat": 2, "card": "AH"}, {"seat": 0, "card": "6H"}],
    }


def test_the_leader_is_shown_during_bidding_as_the_first_bidder() -> None:
    state = scenario([["6H"], ["8H"], ["10H"], ["JH"]], dealer=2)
    assert engine.view(state, None)["trick"] == {"leader": 3, "plays": []}


# --------------------------------------------------------------------------- S6 jokers


def test_a_joker_gives_two_actions_and_is_legal_even_when_the_player_could_follow() -> None:
    # RULING S6
    state = scenario(
        [["KH", "7C"], ["8H", "RJ", "9C"], ["AH", "6D"]],
        dealer=2,
        trump="S",
        bids=[0, 0, 1],
        leader=0,
        plays=[(0, "QH", None)],
    )
    actions = engine.legal_actions(state, 1)
    assert {"type": "play", "card": "RJ", "joker": "high"} in actions
    assert {"type": "play", "card": "RJ", "joker": "low"} in actions
    assert sorted(cards_of(actions)) == ["8H", "RJ", "RJ"]


def test_a_joker_without_its_declaration_is_refused() -> None:
    # RULING S6
    state = scenario([["KH"], ["RJ"], ["AH"]], dealer=2, trump="S", bids=[0, 0, 0], leader=0)
    state = play_out(state, play("KH"))
    with pytest.raises(IllegalAction, match="HIGH or LOW"):
        engine.apply(state, 1, play("RJ"))
    with pytest.raises(IllegalAction, match="HIGH or LOW"):
        engine.apply(state, 1, play("RJ", "medium"))
    state = scenario([["KH"], ["8H"], ["AH"]], dealer=2, trump="S", bids=[0, 0, 0], leader=0)
    with pytest.raises(IllegalAction, match="Only a joker"):
        engine.apply(state, 0, play("KH", "high"))


def test_a_leading_joker_sets_no_suit_and_the_next_standard_card_does() -> None:
    # RULING S6 + S7: after a joker lead anything goes; the first standard card then binds the rest.
    state = scenario(
        [["BJ", "6C", "QC"], ["9H", "7C", "8D"], ["AH", "KD", "6S"]], dealer=2, trump="S", bids=[1, 0, 1], leader=0
    )
    state = play_out(state, play("BJ", "low"))
    view = engine.view(state, 1)
    assert view["led_suit"] is None
    assert sorted(cards_of(view["legal_actions"])) == ["7C", "8D", "9H"]
    state = play_out(state, play("8D"))
    assert engine.view(state, 2)["led_suit"] == "D"
    assert cards_of(engine.legal_actions(state, 2)) == ["KD"]
    state = play_out(state, play("KD"))
    assert engine.record(state)["rounds"][0]["tricks"][0]["winner"] == 2  # the LOW joker yields


def test_two_high_jokers_the_later_one_wins() -> None:
    # RULING S8
    state = scenario([["RJ", "6C"], ["AS", "7C"], ["BJ", "8C"]], dealer=2, trump="S", bids=[1, 1, 0], leader=0)
    state = play_out(state, play("RJ", "high"), play("AS"), play("BJ", "high"))
    trick = engine.record(state)["rounds"][0]["tricks"][0]
    assert trick["winner"] == 2
    assert trick["plays"][0] == {"seat": 0, "card": "RJ", "joker": "high"}
    assert engine.to_act(state) == [2]


def test_a_high_joker_beats_the_highest_trump() -> None:
    assert trick_winner([Play(0, "AS", None), Play(1, "RJ", "high"), Play(2, "KS", None)], "S") == 1


def test_a_low_joker_loses_to_a_qualifying_card() -> None:
    # RULING S8: even a low card of the led suit beats a LOW joker.
    assert trick_winner([Play(0, "6H", None), Play(1, "RJ", "low"), Play(2, "7C", None)], "S") == 0
    assert trick_winner([Play(0, "RJ", "low"), Play(1, "6H", None), Play(2, "9H", None)], "S") == 2


def test_a_trick_with_only_low_jokers_goes_to_the_latest_card() -> None:
    # RULING S8: cannot arise at a 3–6 player table, but the rule is defined.
    assert trick_winner([Play(0, "RJ", "low"), Play(1, "BJ", "low")], "S") == 1
    assert trick_winner([Play(2, "BJ", "low")], None) == 2


# --------------------------------------------------------------------------- S7 follow rules


def test_a_player_with_the_led_suit_must_follow_or_play_a_joker() -> None:
    # RULING S7
    state = scenario(
        [["KH", "7C"], ["8H", "AS", "9C"], ["AH", "6D"]],
        dealer=2,
        trump="S",
        bids=[0, 0, 1],
        leader=0,
        plays=[(0, "QH", None)],
    )
    assert cards_of(engine.legal_actions(state, 1)) == ["8H"]
    with pytest.raises(IllegalAction, match=r"You must follow suit \(hearts\)"):
        engine.apply(state, 1, play("AS"))


def test_a_player_void_in_the_led_suit_must_trump() -> None:
    # RULING S7
    state = scenario(
        [["KH", "7C"], ["AS", "6S", "9C"], ["AH", "6D"]],
        dealer=2,
        trump="S",
        bids=[0, 0, 1],
        leader=0,
        plays=[(0, "QH", None)],
    )
    assert sorted(cards_of(engine.legal_actions(state, 1))) == ["6S", "AS"]
    with pytest.raises(IllegalAction, match=r"must play trump \(spades\) or a joker"):
        engine.apply(state, 1, play("9C"))


def test_a_void_player_may_still_play_a_joker_instead_of_trump() -> None:
    state = scenario(
        [["KH", "7C"], ["AS", "BJ", "9C"], ["AH", "6D"]],
        dealer=2,
        trump="S",
        bids=[0, 0, 1],
        leader=0,
        plays=[(0, "QH", None)],
    )
    assert sorted(cards_of(engine.legal_actions(state, 1))) == ["AS", "BJ", "BJ"]


def test_a_player_with_neither_the_led_suit_nor_trump_plays_anything_and_need_not_overtake() -> None:
    # RULING S7: no overtaking rule.
    state = scenario(
        [["KH", "7C"], ["8D", "9C", "6H"], ["AH", "6D"]],
        dealer=2,
        trump="S",
        bids=[0, 0, 1],
        leader=0,
        plays=[(0, "QH", None)],
    )
    assert cards_of(engine.legal_actions(state, 1)) == ["6H"]  # follows with a low card: allowed
    state = scenario(
        [["KH", "7C"], ["8D", "9C", "7D"], ["AH", "6D"]],
        dealer=2,
        trump="S",
        bids=[0, 0, 1],
        leader=0,
        plays=[(0, "QH", None)],
    )
    assert sorted(cards_of(engine.legal_actions(state, 1))) == ["7D", "8D", "9C"]


def test_the_led_suit_being_trump_means_following_with_trump() -> None:
    state = scenario([["KS", "7C"], ["8S", "9C"], ["AH", "6D"]], dealer=2, trump="S", bids=[0, 0, 1], leader=0)
    state = play_out(state, play("KS"))
    assert cards_of(engine.legal_actions(state, 1)) == ["8S"]


def test_the_highest_trump_wins_otherwise_the_highest_of_the_led_suit() -> None:
    # RULING S8: an off-suit ace wins nothing.
    assert trick_winner([Play(0, "QH", None), Play(1, "6S", None), Play(2, "AH", None), Play(3, "7S", None)], "S") == 3
    assert trick_winner([Play(0, "QH", None), Play(1, "AC", None), Play(2, "KH", None)], "S") == 2
    assert trick_winner([Play(0, "RJ", "low"), Play(1, "9D", None), Play(2, "AC", None)], "S") == 1


# --------------------------------------------------------------------------- S9 ranking


def last_round_state(totals: list[int]) -> engine.State:
    """The last one-card round of a 3-player game, about to be played out: nobody takes extra points."""
    # Seat 0 (bid 0) takes the trick with AH and misses: 1 point; seats 1 and 2 bid 1, take nothing: 0.
    return scenario([["AH"], ["6H"], ["7H"]], dealer=2, trump="S", bids=[0, 1, 1], round_number=29, totals=totals)


def finish(state: engine.State) -> engine.State:
    return play_out(state, play("AH"), play("6H"), play("7H"))


def test_the_final_ranking_puts_the_highest_total_first_and_the_earlier_seat_first_on_a_tie() -> None:
    # RULING S9: seat 0 scores 1 (missed 0), seats 1 and 2 score 0: totals 41, 40, 40.
    state = finish(last_round_state([40, 40, 40]))
    assert engine.is_over(state)
    record = engine.record(state)
    assert record["totals"] == [41, 40, 40]
    assert record["placements"] == [[0], [1], [2]]
    assert engine.view(state, None)["placements"] == [[0], [1], [2]]
    state = finish(last_round_state([10, 30, 30]))
    assert engine.record(state)["placements"] == [[1], [2], [0]]


def test_the_sitaratas_is_the_lowest_total_and_on_a_tie_the_earliest_of_those_seats() -> None:
    # RULING S9: seats 1 and 2 tie for lowest; seat 1, the earlier, is the Sitaratas (and ranks ahead of seat 2).
    state = finish(last_round_state([40, 40, 40]))
    assert engine.record(state)["sitaratas"] == 1
    assert engine.view(state, 2)["sitaratas"] == 1
    state = finish(last_round_state([50, 40, 10]))
    assert engine.record(state)["sitaratas"] == 2


def test_after_the_last_round_nothing_is_legal_and_the_view_says_over() -> None:
    state = finish(last_round_state([0, 0, 0]))
    assert engine.to_act(state) == []
    assert all(engine.legal_actions(state, seat) == [] for seat in range(3))
    view = engine.view(state, 0)
    assert (view["phase"], view["over"], view["round_number"], view["trick"]) == ("over", True, 29, None)
    assert view["last_trick"]["winner"] == 0
    assert len(view["score_sheet"]) == 1  # the hand-made state starts at the last round
    with pytest.raises(IllegalAction, match="The game is over."):
        engine.apply(state, 0, bid(0))


def test_ranking_and_sitaratas_helpers_follow_the_book() -> None:
    assert engine.ranking([5, 9, 5, 9]) == [1, 3, 0, 2]
    assert engine.sitaratas_seat([5, 9, 5, 9]) == 0
    assert engine.sitaratas_seat([7, 3, 9, 3]) == 1


# --------------------------------------------------------------------------- contract details


def test_it_refuses_a_play_out_of_turn_and_changes_nothing() -> None:
    state = scenario([["6H"], ["8H"], ["10H"]], dealer=0, bids=[0, 0, 0])
    before = engine.dumps(state)
    with pytest.raises(IllegalAction, match="It is not your turn."):
        engine.apply(state, 0, play("6H"))
    with pytest.raises(IllegalAction):
        engine.apply(state, 9, play("6H"))
    assert engine.dumps(state) == before


def test_it_refuses_a_card_not_held_without_naming_anyone_elses_cards() -> None:
    state = scenario([["6H", "7S"], ["8H", "9S"], ["10H", "JS"]], dealer=0, bids=[0, 0, 0])
    with pytest.raises(IllegalAction) as refused:
        engine.apply(state, 1, play("6H"))
    assert "6H" not in str(refused.value) and "7S" not in str(refused.value)
    for garbage in (
        {"type": "play", "card": "ZZ"},
        {"type": "play", "card": 5},
        {"type": "play", "card": "8H", "x": 1},
        {"type": "play"},
        {"type": "dance"},
        None,
        [],
    ):
        with pytest.raises(IllegalAction):
            engine.apply(state, 1, garbage)


def test_apply_returns_a_new_state_and_leaves_the_old_one_valid() -> None:
    state = scenario([["6H", "7S"], ["8H", "9S"], ["10H", "JS"]], dealer=0)
    before = engine.dumps(state)
    after = engine.apply(state, 1, bid(1))
    assert engine.dumps(state) == before
    assert engine.view(state, None)["bids"] == [None, None, None]
    assert engine.view(after, None)["bids"] == [None, 1, None]


def test_the_spectator_sees_the_table_but_no_hand() -> None:
    state = scenario([["6H", "7S"], ["8H", "9S"], ["10H", "JS"]], dealer=0, indicator="QD", trump="D")
    view = engine.view(state, None)
    assert view["hand"] is None and view["legal_actions"] == []
    assert view["hand_counts"] == [2, 2, 2]
    assert view["indicator"] == "QD"
    text = json.dumps(view)
    for card in ("6H", "7S", "8H", "9S", "10H", "JS"):
        assert card not in text
    own = engine.view(state, 1)
    assert own["hand"] == ["9S", "8H"]
    assert "6H" not in json.dumps(own)


def test_the_record_holds_every_key_with_the_trick_in_progress() -> None:
    state = scenario([["6H", "7S"], ["8H", "9S"], ["10H", "JS"]], dealer=0, bids=[0, 1, 0], indicator="QD", trump="D")
    state = play_out(state, play("8H"))
    record = engine.record(state)
    assert set(record) == {"game", "players", "options", "seed", "rounds", "totals", "placements", "over", "sitaratas"}
    assert (record["placements"], record["over"], record["sitaratas"]) == ([], False, None)
    round_ = record["rounds"][0]
    assert set(round_) == {
        "number",
        "cards",
        "dealer",
        "hands",
        "indicator",
        "trump",
        "bids",
        "tricks",
        "tricks_won",
        "points",
    }
    assert round_["hands"] == [["6H", "7S"], ["8H", "9S"], ["10H", "JS"]]
    assert round_["bids"] == [{"seat": 1, "bid": 1}, {"seat": 2, "bid": 0}, {"seat": 0, "bid": 0}]
    assert round_["tricks"] == [{"leader": 1, "plays": [{"seat": 1, "card": "8H"}], "winner": None}]
    assert round_["points"] == [0, 0, 0]
    json.dumps(record)


def test_dumps_and_loads_round_trip_a_hand_made_state() -> None:
    state = scenario([["RJ", "7S"], ["8H", "9S"], ["10H", "JS"]], dealer=0, bids=[0, 1, 0], trump=None, indicator="BJ")
    state = play_out(state, play("8H"), play("10H"), play("RJ", "low"))
    text = engine.dumps(state)
    assert engine.loads(text) == state
    assert engine.dumps(engine.loads(text)) == text
