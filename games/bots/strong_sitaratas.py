"""The strong Sitaratas bot (issue 25): sampled deals, rollouts, chosen by expected points.

For each move it deals the cards it cannot see to the other seats many times (consistent
with its view: its hand, the indicator, the cards of the trick in progress and of the last
trick are out of the pool; a seat that failed to follow is void in the led suit, and in
trump too when it did not trump either, RULING S7), then plays each candidate out to the end
of the round with the fast policy of :mod:`games.bots.tricks`. It picks the candidate with
the best mean of its round points minus the other seats' mean: the exact-bid bonus (+5)
drives bids and play alike. A bid is chosen the same way: for each allowed bid the round is
played out aiming at it, the bids still to come guessed by the rule-based bot's estimate on
the sampled hands.

The view shows only this round's last trick, not every trick played, so cards played
earlier in the round stay in the pool: a sampled hand may hold one of them. That is the
seat's own information, not a shortcut (RULING P46).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.bots import sitaratas as rule_based
from games.bots.budget import Budget
from games.bots.tricks import (
    RED_JOKER,
    Rules,
    Trick,
    deal_others,
    encode,
    margin,
    rollout,
    search,
    trump_index,
)
from games.engines.cards import RANK_VALUE, make_deck
from games.engines.contract import JSON
from games.engines.sitaratas import CLASSIC_RANKS, EXACT_BONUS, Action, BidAction, PlayAction

# One sampled deal: every seat's hand (card codes) and every seat's bid, guessed where unknown.
World = tuple[list[list[int]], list[int]]


def choose(view: JSON, rng: random.Random, budget: Budget | None = None) -> Action:
    legal: list[Action] = view["legal_actions"]
    if len(legal) == 1:
        return legal[0]
    budget = budget or Budget()
    game = Position(view)
    if view["phase"] == "bidding":
        bids = [action for action in legal if action["type"] == "bid"]
        return bids[search(bids, game.evaluate_bid, lambda: game.sample(rng), budget)]
    plays = [action for action in legal if action["type"] == "play"]
    return plays[search(plays, game.evaluate_play, lambda: game.sample(rng), budget)]


LOWER_IS_BETTER = False


def weighed(position: Position, view: JSON) -> tuple[list[Action], Callable[[Any, World], list[int]]]:
    """Every legal action, with the playout of its phase (the evaluator's, games.bots.evaluate)."""
    legal: list[Action] = list(view["legal_actions"])
    if view["phase"] == "bidding":
        return legal, position.outcome_bid
    return legal, position.outcome_play


def round_points(won: list[int], bids: list[int]) -> list[int]:
    return [tricks + EXACT_BONUS if tricks == bid else tricks for tricks, bid in zip(won, bids)]


class Position:
    """What the view says, in the simulator's terms. ``outcome_*`` play a candidate out on one
    sampled deal and give every seat's round points; the evaluator (games.bots.evaluate) reads
    those, the bot their margin."""

    def __init__(self, view: JSON) -> None:
        self.view = view
        self.n, self.me = view["players"], view["seat"]
        self.trump = trump_index(view["trump"])
        self.rules = Rules(self.n, self.trump, sitaratas=True)
        self.hand = [encode(card) for card in view["hand"]]
        trick = view["trick"]
        self.leader = trick["leader"]
        self.plays = [(play["seat"], encode(play["card"]), play.get("joker") == "high") for play in trick["plays"]]
        seen = set(self.hand) | {code for _, code, _ in self.plays}
        if view["indicator"]:
            seen.add(encode(view["indicator"]))
        self.voids: list[set[int]] = [set() for _ in range(self.n)]
        self._voids_from(trick["plays"])
        if view["last_trick"]:
            self._voids_from(view["last_trick"]["plays"])
            seen.update(encode(play["card"]) for play in view["last_trick"]["plays"])
        deck = make_deck(CLASSIC_RANKS, jokers=view["options"]["deck"] == "jokers")
        self.pool = [code for code in map(encode, deck) if code not in seen]
        self.counts = list(view["hand_counts"])
        self.bids = list(view["bids"])
        self.guess = BidGuess(view)

    def _voids_from(self, plays: list[JSON]) -> None:
        led = None
        for play in plays:
            code = encode(play["card"])
            if code >= RED_JOKER:
                continue  # A joker may always be played: it shows nothing.
            suit = code >> 4
            if led is None:
                led = suit
            elif suit != led:
                self.voids[play["seat"]].add(led)
                if self.trump >= 0 and suit != self.trump:
                    self.voids[play["seat"]].add(self.trump)

    def sample(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        hands = deal_others(rng, self.pool, self.counts, self.me, self.voids)
        hands[self.me] = self.hand
        bids = list(self.bids)
        for seat, bid in enumerate(bids):
            if bid is None and seat != self.me:
                bids[seat] = self._guess_bid(hands[seat])
        return hands, bids

    def _guess_bid(self, hand: list[int]) -> int:
        cards: int = self.view["cards"]
        return min(cards, max(0, round(self.guess.estimate(hand))))

    def evaluate_bid(self, action: BidAction, world: World) -> float:
        return margin(self.outcome_bid(action, world), self.me)

    def evaluate_play(self, action: PlayAction, world: World) -> float:
        return margin(self.outcome_play(action, world), self.me)

    def outcome_bid(self, action: BidAction, world: World) -> list[int]:
        hands, guessed = world
        bids = list(guessed)
        bids[self.me] = action["bid"]
        dealer, cards = self.view["dealer"], self.view["cards"]
        if self.bids[dealer] is None and dealer != self.me and sum(bids) == cards:
            # The dealer may not make the bids add up (RULING S4): it moves one away.
            bids[dealer] += 1 if bids[dealer] == 0 else -1
        won = rollout([list(hand) for hand in hands], Trick(self.leader), [0] * self.n, bids, self.rules)
        return round_points(won, bids)

    def outcome_play(self, action: PlayAction, world: World) -> list[int]:
        hands, bids = world
        code = encode(action["card"])
        hands = [list(hand) for hand in hands]
        hands[self.me].remove(code)
        trick = Trick(self.leader)
        for seat, played, high in self.plays:
            trick.add(seat, played, high, self.trump)
        trick.add(self.me, code, action.get("joker") == "high", self.trump)
        won = rollout(hands, trick, list(self.view["tricks_won"]), bids, self.rules)
        return round_points(won, bids)


# (1 + higher cards still out) ** -SPREAD for every count of higher cards a suit can have.
_POWER_OF_HIGHER: list[float] = [(1 + higher) ** -rule_based.SPREAD for higher in range(len(CLASSIC_RANKS))]


class BidGuess:
    """The rule-based bot's estimate (``games.bots.sitaratas.estimate_tricks``) for a sampled
    hand of another seat, on card codes: the same powers summed in the same order, so the same
    float and the same guessed bid, without building a view of string cards per sample."""

    def __init__(self, view: JSON) -> None:
        self.trump = trump_index(view["trump"])
        self.indicator = encode(view["indicator"]) if view["indicator"] else -1
        self.cards: int = view["cards"]
        self.players: int = view["players"]
        deck = [encode(card) for card in make_deck(CLASSIC_RANKS, jokers=view["options"]["deck"] == "jokers")]
        self.pack = [code for code in deck if code != self.indicator]  # the pack's order, as the bot reads it
        self.values = [RANK_VALUE[rank] for rank in CLASSIC_RANKS]
        self.alone = {code: self.power(code, []) for code in self.pack}  # with no card of the hand's own

    def power(self, code: int, own: list[int]) -> float:
        """``rule_based._power`` of one card: the higher cards of its suit not in ``own`` nor the indicator."""
        if code >= RED_JOKER:
            return rule_based.JOKER_POWER
        suit, value = code >> 4, code & 15
        higher = 0
        for rank_value in self.values:
            other = suit * 16 + rank_value
            if rank_value > value and other not in own and other != self.indicator:
                higher += 1
        power = _POWER_OF_HIGHER[higher]
        return power * rule_based.TRUMP_POWER if suit == self.trump else power

    def estimate(self, hand: list[int]) -> float:
        mine = 0.0
        for code in hand:
            mine += self.power(code, hand)
        unseen, count = 0.0, 0
        for code in self.pack:
            if code not in hand:
                unseen += self.alone[code]
                count += 1
        theirs = self.cards * unseen / max(1, count)
        total = mine + (self.players - 1) * theirs
        return self.cards * mine / total if total else self.cards / self.players
