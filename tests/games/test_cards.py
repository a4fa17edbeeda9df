"""How a hand is held (games/engines/cards.py): every seat's view sorts its hand on every move."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.engines.cards import SUITS, is_joker, make_deck, rank_value, sort_hand, suit_of

DECK = make_deck(jokers=True)


# A random part of a shuffled deck, so jokers and long suits come up as often as in a deal.
HANDS = st.tuples(st.permutations(DECK), st.integers(0, len(DECK))).map(lambda drawn: drawn[0][: drawn[1]])


@given(HANDS, st.sampled_from([None, *SUITS, "NT"]))
def test_a_hand_is_held_jokers_first_then_trump_then_the_other_suits_high_to_low(hand, trump) -> None:
    held = sort_hand(hand, trump)
    assert sorted(held) == sorted(hand)
    suits = [suit for suit in SUITS if suit == trump] + [suit for suit in SUITS if suit != trump]
    expected = [joker for joker in ("BJ", "RJ") if joker in hand]
    for suit in suits:
        expected += sorted(
            (card for card in hand if not is_joker(card) and suit_of(card) == suit), key=rank_value, reverse=True
        )
    assert held == expected


def test_a_worked_hand() -> None:
    assert sort_hand(["2S", "AH", "BJ", "10H", "KS", "RJ", "3C"], "H") == ["BJ", "RJ", "AH", "10H", "KS", "2S", "3C"]
