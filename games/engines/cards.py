"""Card notation shared by the trick-taking engines (docs/design.md, "Cards").

A standard card is rank then suit: ``"10H"``, ``"QS"``, ``"6C"``. Jokers are
``"RJ"`` (red) and ``"BJ"`` (black). SITA uses plain integers and needs none of this.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from functools import cache

SUITS = ("S", "H", "D", "C")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
JOKERS = ("RJ", "BJ")
RANK_VALUE = {rank: value for value, rank in enumerate(RANKS, start=2)}
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset({"H", "D"})


def is_joker(card: str) -> bool:
    return card in JOKERS


def suit_of(card: str) -> str:
    """The suit letter of a standard card."""
    return card[-1]


def rank_of(card: str) -> str:
    return card[:-1]


def rank_value(card: str) -> int:
    """2..14 for a standard card (ace high)."""
    return RANK_VALUE[card[:-1]]


def make_deck(ranks: Iterable[str] = RANKS, jokers: bool = False) -> list[str]:
    deck = [rank + suit for suit in SUITS for rank in ranks]
    if jokers:
        deck.extend(JOKERS)
    return deck


def is_card(value: object) -> bool:
    if not isinstance(value, str):
        return False
    return value in JOKERS or (value[:-1] in RANK_VALUE and value[-1:] in SUITS)


def sort_hand(cards: Iterable[str], trump: str | None = None) -> list[str]:
    """Cards grouped by suit (trump first, jokers in front), high to low: how a player holds them."""
    return sorted(cards, key=_hand_order(trump).__getitem__)


@cache
def _hand_order(trump: str | None) -> dict[str, tuple[int, int]]:
    # Every card's place, worked out once per trump: every seat's view sorts its hand on every
    # move (issue 9).
    suit_order = list(SUITS)
    if trump in suit_order:
        suit_order.remove(trump)
        suit_order.insert(0, trump)
    order = {joker: (-1, -index) for index, joker in enumerate(JOKERS)}
    for suit in SUITS:
        for rank in RANKS:
            order[rank + suit] = (suit_order.index(suit), -RANK_VALUE[rank])
    return order


def label(card: str) -> str:
    """A human label: ``"10♥"``, ``"Red joker"``."""
    if card == "RJ":
        return "Red joker"
    if card == "BJ":
        return "Black joker"
    return rank_of(card) + SUIT_SYMBOL[suit_of(card)]


def seeded_rng(*parts: object) -> random.Random:
    """A generator seeded from the game's seed and a position, e.g. ``(seed, round, deal)``.

    String seeds are hashed with SHA-512 by ``random.Random`` (version 2), so the
    result is the same on every Python process and machine.
    """
    return random.Random(":".join(str(part) for part in parts))


def check_action_shape(
    action: object, required: Mapping[str, type], optional: Mapping[str, type] | None = None
) -> None:
    """Refuse anything but a dict with exactly these keys of these types.

    ``bool`` is refused where ``int`` is asked, since ``True == 1`` would slip through.
    Raises ``IllegalAction`` with a readable message.
    """
    from games.engines import IllegalAction

    optional = optional or {}
    if not isinstance(action, dict):
        raise IllegalAction("An action must be an object.")
    extra = set(action) - set(required) - set(optional) - {"type"}
    if extra:
        raise IllegalAction(f"Unexpected field(s) in the action: {', '.join(sorted(map(str, extra)))}.")
    for key in required:
        if key not in action:
            raise IllegalAction(f"The action is missing '{key}'.")
    for key, kind in {**required, **optional}.items():
        if key in action and not _is_of(action[key], kind):
            raise IllegalAction(f"'{key}' has the wrong type.")


def _is_of(value: object, kind: type) -> bool:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)
