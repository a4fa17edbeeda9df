"""A lean trick-taking simulator for the strong Sitaratas and Estimation bots (issue 25).

The engines build a new state per move (frozen dataclasses, JSON-ready views), which is
right for a live table and far too slow for hundreds of rollouts per move. Here a card is a
small int (``suit * 16 + rank``, jokers 80 and 81), a hand a list of ints, and one rollout
plays the rest of the round in place. ``tests/games/test_strong_bots.py`` checks the legal
plays and trick winners against the engines on random positions.

The rollout policy is the rule-based bots' idea in a few lines: a seat short of its bid wins
as cheaply as it can, a seat that has its bid ducks with its most dangerous loser, and a seat
past its bid wins again in Sitaratas (every trick is a point) but ducks in Estimation
(every extra trick costs a point).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from games.bots.budget import Budget
from games.bots.draw import shuffle
from games.engines.cards import RANK_VALUE, SUITS

Candidate = TypeVar("Candidate")
World = TypeVar("World")

SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}
RED_JOKER, BLACK_JOKER = 80, 81
NO_SUIT = 5  # code >> 4 of a joker
HIGH_JOKER_KEY = 1000


def encode(card: str) -> int:
    if card == "RJ":
        return RED_JOKER
    if card == "BJ":
        return BLACK_JOKER
    return SUIT_INDEX[card[-1]] * 16 + RANK_VALUE[card[:-1]]


_NAMES = {value: rank for rank, value in RANK_VALUE.items()}


def decode(code: int) -> str:
    if code == RED_JOKER:
        return "RJ"
    if code == BLACK_JOKER:
        return "BJ"
    return _NAMES[code & 15] + SUITS[code >> 4]


def trump_index(trump: str | None) -> int:
    """-1 for no trump suit (Sitaratas' joker indicator, Estimation's NT)."""
    return SUIT_INDEX.get(trump, -1) if trump else -1


class Rules:
    """What differs between the two games: jokers and "trump when void" (Sitaratas), and what
    a seat past its bid wants (Sitaratas: more tricks are points; Estimation: each costs one)."""

    __slots__ = ("n", "trump", "sitaratas")

    def __init__(self, n: int, trump: int, sitaratas: bool) -> None:
        self.n, self.trump, self.sitaratas = n, trump, sitaratas


def play_key(code: int, high: bool, led: int, trump: int) -> int:
    """How strongly a card stands in a trick whose led suit is ``led`` (-1: none yet).

    A later card with a bigger key takes the trick; equal keys are only possible for jokers
    (both HIGH: the later wins; all LOW: the later wins, RULING S8).
    """
    if code >= RED_JOKER:
        return HIGH_JOKER_KEY if high else 0
    suit = code >> 4
    if suit == trump:
        return 200 + (code & 15)
    if suit == led or led < 0:
        return 100 + (code & 15)
    return 0


def legal(hand: Sequence[int], led: int, rules: Rules) -> list[int]:
    """The playable cards (jokers once; their declaration is a separate choice)."""
    if led < 0:
        return list(hand)
    follow = [code for code in hand if code >> 4 == led]
    if not rules.sitaratas:
        return follow or list(hand)
    jokers = [code for code in hand if code >= RED_JOKER]
    if follow:
        return follow + jokers
    trumps = [code for code in hand if code >> 4 == rules.trump]
    if trumps:
        return trumps + jokers
    return list(hand)


def _value(code: int, trump: int) -> int:
    """How precious a card is to keep: jokers, then trumps, then by rank."""
    if code >= RED_JOKER:
        return 50
    return (code & 15) + (20 if code >> 4 == trump else 0)


class Trick:
    """The trick in progress: who led, the plays so far, the led suit and the best key."""

    __slots__ = ("leader", "count", "led", "best_key", "best_seat")

    def __init__(self, leader: int) -> None:
        self.leader, self.count, self.led, self.best_key, self.best_seat = leader, 0, -1, -1, leader

    def add(self, seat: int, code: int, high: bool, trump: int) -> None:
        if self.led < 0 and code < RED_JOKER:
            self.led = code >> 4
        key = play_key(code, high, self.led, trump)
        if key > self.best_key or (key == self.best_key and code >= RED_JOKER):
            self.best_key, self.best_seat = key, seat
        self.count += 1


def _most(codes: list[int], trump: int) -> int:
    """The first of the most precious cards (``max`` by ``_value``, as a loop: the bots' hot path)."""
    best, best_value = codes[0], _value(codes[0], trump)
    for code in codes:
        value = _value(code, trump)
        if value > best_value:
            best, best_value = code, value
    return best


def _least(codes: list[int], trump: int) -> int:
    """The first of the least precious cards (``min`` by ``_value``)."""
    best, best_value = codes[0], _value(codes[0], trump)
    for code in codes:
        value = _value(code, trump)
        if value < best_value:
            best, best_value = code, value
    return best


def policy(hand: list[int], trick: Trick, need: int, rules: Rules) -> tuple[int, bool]:
    """The rollout's move for a seat that still needs ``need`` tricks: (card, joker HIGH)."""
    trump = rules.trump
    options = legal(hand, trick.led, rules)
    if len(options) == 1 and options[0] < RED_JOKER:
        return options[0], False
    want = need > 0 or (need < 0 and rules.sitaratas)
    standard: list[int] = []
    joker = -1  # the first joker among the options, if any
    for code in options:
        if code < RED_JOKER:
            standard.append(code)
        elif joker < 0:
            joker = code
    if trick.count == 0:
        if want:
            if joker >= 0 and (need >= len(hand) or not standard):
                return joker, True
            return _most(standard, trump), False
        if standard or joker < 0:
            return _least(standard, trump), False
        return joker, False
    led = trick.led
    last = trick.count == rules.n - 1
    best_key = trick.best_key
    if want:
        winners = [code for code in standard if play_key(code, False, led, trump) > best_key]
        if winners:
            return (_least(winners, trump) if last else _most(winners, trump)), False
        if joker >= 0:
            return joker, True
        return _least(standard, trump), False
    losers = [code for code in standard if play_key(code, False, led, trump) < best_key]
    if losers:
        return _most(losers, trump), False
    if joker >= 0:
        return joker, False
    return (_most(standard, trump) if last else _least(standard, trump)), False


def rollout(hands: list[list[int]], trick: Trick, won: list[int], targets: Sequence[int], rules: Rules) -> list[int]:
    """Play the round out in place from ``trick`` (possibly half played); return tricks won per seat."""
    n, trump = rules.n, rules.trump
    while True:
        if trick.count == n:
            won[trick.best_seat] += 1
            trick = Trick(trick.best_seat)
        seat = (trick.leader + trick.count) % n
        hand = hands[seat]
        if not hand:
            return won
        code, high = policy(hand, trick, targets[seat] - won[seat], rules)
        hand.remove(code)
        trick.add(seat, code, high, trump)


# --------------------------------------------------------------------------- sampling


def deal_others(
    rng: random.Random, pool: Sequence[int], counts: Sequence[int], me: int, voids: Sequence[set[int]]
) -> list[list[int]]:
    """Hands for the other seats from the unseen ``pool``, each seat avoiding its void suits.

    The most constrained seat picks first; when the voids cannot all be met (an unlucky
    order) a few fresh tries follow, then the voids are dropped rather than stall a move.
    """
    order = sorted((seat for seat in range(len(counts)) if seat != me), key=lambda seat: -len(voids[seat]))
    for attempt in range(8):
        left = list(pool)
        shuffle(rng, left)
        hands: list[list[int]] = [[] for _ in counts]
        ok = True
        for seat in order:
            need, void = counts[seat], voids[seat] if attempt < 7 else set()
            if not void:
                hands[seat], left = left[:need], left[need:]
                continue
            taken: list[int] = []
            rest: list[int] = []
            for code in left:
                if len(taken) < need and code >> 4 not in void:
                    taken.append(code)
                else:
                    rest.append(code)
            if len(taken) < need:
                ok = False
                break
            hands[seat], left = taken, rest
        if ok:
            return hands
    raise AssertionError("unreachable: the last try ignores the voids")


def margin(points: Sequence[float], me: int) -> float:
    """A seat's points less the other seats' mean: what the strong trick bots maximise."""
    others = [value for seat, value in enumerate(points) if seat != me]
    return points[me] - sum(others) / len(others)


def search(
    candidates: Sequence[Candidate],
    evaluate: Callable[[Candidate, World], float],
    sample: Callable[[], World],
    budget: Budget,
) -> int:
    """Index of the candidate with the best mean score over the samples the budget allows.

    Every candidate is scored on the same sampled deals (common random numbers), so the
    comparison is fair even with few samples.
    """
    totals = [0.0] * len(candidates)
    while budget.more():
        world = sample()
        for index, candidate in enumerate(candidates):
            totals[index] += evaluate(candidate, world)
        budget.tick()
    return max(range(len(candidates)), key=lambda index: (totals[index], -index))
