"""The strong Estimation bot (issue 25): sampled deals, rollouts, chosen by expected points.

Like the strong Sitaratas bot it deals the unseen cards (the deck less its hand and every
card played this round) to the other seats, respecting the suits each seat is known to
avoid (RULING E9), plays each candidate out to the end of the round with the fast policy of
:mod:`games.bots.tricks`, and scores the result with the engine's own ``score_round``: the
Caller's and With bonuses, Risk on the last estimator, Dash Calls, the only maker or
misser, Sa'aydeh and the round's multiplier all count. It picks the best mean of its points
minus the other seats' mean.

Estimates are chosen the same way: each allowed estimate is played out on every sample,
the estimates still to come guessed with the rule-based bot's hand value on the sampled
hands (RULING E5's forbidden total respected), the Caller of a fixed round being the
highest estimate (RULING E6). Dash Calls and Calls are chosen the same way too. A Call is
played out as the bot winning the auction with it; passing, Dash Calling or declining as
the auction going to the seat whose sampled hand is worth most to the rule-based bot (or to
nobody: a redeal, worth nothing). The candidate Calls are pruned to a few per trump, and
Super Calls are left to the rule-based bot (RULING P48).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.bots import estimation as rule_based
from games.bots.budget import Budget
from games.bots.tricks import Rules, Trick, deal_others, decode, encode, margin, rollout, search, trump_index
from games.engines.cards import make_deck
from games.engines.contract import JSON
from games.engines.estimation import (
    MAX_ZEROS,
    MIN_CALL,
    SEATS,
    SUIT_NAMES,
    TRICKS,
    TRUMP_RANK,
    Action,
    CallAction,
    DashCallAction,
    DeclineAction,
    EstimateAction,
    PassAction,
    PlayAction,
    score_round,
)

_DECK = [encode(card) for card in make_deck()]
_SUIT = {suit: index for index, suit in enumerate(("S", "H", "D", "C"))}


def choose(view: JSON, rng: random.Random, budget: Budget | None = None) -> Action:
    legal: list[Action] = view["legal_actions"]
    if len(legal) == 1:
        return legal[0]
    phase = view["phase"]
    budget = budget or Budget()
    game = Position(view)
    if phase == "auction":
        candidates = call_candidates(view, legal)
        return candidates[search(candidates, game.evaluate_call, lambda: game.sample(rng), budget)]
    if phase == "dash_call":
        dashes = [action for action in legal if action["type"] in ("dash_call", "decline")]
        return dashes[search(dashes, game.evaluate_dash, lambda: game.sample(rng), budget)]
    if phase == "estimating":
        usual = rule_based.choose(view, rng)
        if "trump" in usual:
            return usual  # A Super Call: the rule-based bot's judgement (RULING P48).
        plain = [action for action in legal if action["type"] == "estimate" and "trump" not in action]
        return plain[search(plain, game.evaluate_estimate, lambda: game.sample(rng), budget)]
    plays = [action for action in legal if action["type"] == "play"]
    return plays[search(plays, game.evaluate_play, lambda: game.sample(rng), budget)]


class Position:
    """What the view says, in the simulator's terms. ``outcome_*`` play a candidate out on one
    sampled deal and give every seat's round points; the evaluator (games.bots.evaluate) reads
    those, the bot their margin (``evaluate_*``)."""

    def __init__(self, view: JSON) -> None:
        self.view = view
        self.me = view["seat"]
        trump = view["trump"] if view["trump"] in SUIT_NAMES else None
        self.trump = trump_index(trump)
        self.rules = Rules(SEATS, self.trump, sitaratas=False)
        self.hand = [encode(card) for card in view["hand"]]
        played = {encode(card) for card in view["played_cards"]}
        mine = set(self.hand)
        self.pool = [code for code in _DECK if code not in played and code not in mine]
        self.voids = [{_SUIT[suit] for suit in avoided} for avoided in view["avoid"]]
        self.counts = list(view["hand_counts"])
        trick = view["trick"]
        # Read only by the play's outcomes, and a trick is always under way while playing.
        self.leader: int = trick["leader"] if trick else 0
        self.plays = [(play["seat"], encode(play["card"])) for play in trick["plays"]] if trick else []
        self.dash = [bool(called) for called in view["dash_calls"]]
        passed = {entry["seat"] for entry in view["auction"] if entry.get("pass")}
        # The seats that may still call besides this one (passing is final, RULING E3).
        self.bidders = [seat for seat in range(SEATS) if seat != self.me and seat not in passed and not self.dash[seat]]
        self._expected_for: object = None
        self._expected: list[dict[str, float]] = []

    def sample(self, rng: random.Random) -> list[list[int]]:
        hands = deal_others(rng, self.pool, self.counts, self.me, self.voids)
        hands[self.me] = self.hand
        return hands

    # ------------------------------------------------------------------ scoring

    def _finish(
        self,
        hands: list[list[int]],
        trick: Trick,
        won: list[int],
        estimates: list[int],
        caller: int,
        dash: list[bool],
        rules: Rules,
        last: int,
    ) -> list[int]:
        won = rollout(hands, trick, won, estimates, rules)
        return list(score_round(estimates, won, dash, caller, last, self.view["multiplier"])["points"])

    def evaluate_play(self, action: PlayAction, hands: list[list[int]]) -> float:
        return margin(self.outcome_play(action, hands), self.me)

    def evaluate_estimate(self, action: EstimateAction, hands: list[list[int]]) -> float:
        return margin(self.outcome_estimate(action, hands), self.me)

    def evaluate_dash(self, action: DashCallAction | DeclineAction, hands: list[list[int]]) -> float:
        return margin(self.outcome_dash(action, hands), self.me)

    def evaluate_call(self, action: CallAction | PassAction, hands: list[list[int]]) -> float:
        return margin(self.outcome_call(action, hands), self.me)

    def outcome_play(self, action: PlayAction, hands: list[list[int]]) -> list[int]:
        code = encode(action["card"])
        hands = [list(hand) for hand in hands]
        hands[self.me].remove(code)
        trick = Trick(self.leader)
        for seat, played in self.plays:
            trick.add(seat, played, False, self.trump)
        trick.add(self.me, code, False, self.trump)
        return self._finish(
            hands,
            trick,
            list(self.view["tricks_won"]),
            list(self.view["estimates"]),
            self.view["caller"],
            self.dash,
            self.rules,
            self.view["estimate_order"][-1],
        )

    # ------------------------------------------------------------------ estimates

    def _guess(
        self, hand: list[int], trump: str, estimates: list[int | None], seat: int, order: list[int], limit: int
    ) -> int:
        """The rule-based bot's estimate for a sampled hand, within the rules (RULING E5)."""
        value = min(limit, max(0, round(rule_based.expected_tricks([decode(code) for code in hand], trump))))
        if value == 0 and sum(1 for other in estimates if other == 0) >= MAX_ZEROS:
            value = 1
        if seat == order[-1] and sum(other for other in estimates if other is not None) + value == TRICKS:
            value = value + 1 if value < limit else value - 1
        return value

    def _estimates_with(
        self, hands: list[list[int]], mine: int, trump: str, order: list[int], start: list[int | None], limit: int
    ) -> list[int]:
        estimates = list(start)
        estimates[self.me] = mine
        for seat in order:
            if estimates[seat] is None:
                estimates[seat] = self._guess(hands[seat], trump, estimates, seat, order, limit)
        # Every seat's is known now: the Dash Callers' and the Caller's came in ``start``.
        return [estimate or 0 for estimate in estimates]

    def outcome_estimate(self, action: EstimateAction, hands: list[list[int]]) -> list[int]:
        view = self.view
        order = view["estimate_order"]
        limit = view["call"]["tricks"] if view["kind"] == "call" else TRICKS
        estimates = self._estimates_with(hands, action["value"], view["trump"], order, view["estimates"], limit)
        caller = view["caller"]
        if view["kind"] == "fixed":
            # RULING E6: the highest estimate calls; on a tie whoever estimated first.
            caller = max(order, key=lambda seat: (estimates[seat], -order.index(seat)))
        return self._finish(
            [list(hand) for hand in hands],
            Trick(caller),
            [0] * SEATS,
            estimates,
            caller,
            self.dash,
            self.rules,
            order[-1],
        )

    # ------------------------------------------------------------------ call rounds

    def _expectations(self, hands: list[list[int]]) -> list[dict[str, float]]:
        """The rule-based hand value of every seat for every trump, once per sampled deal."""
        if self._expected_for is not hands:
            self._expected_for = hands
            self._expected = [
                {
                    trump: rule_based.expected_tricks([decode(code) for code in hand], trump)
                    for trump in rule_based.TRUMP_CHOICES
                }
                for hand in hands
            ]
        return self._expected

    def _call_round(self, hands: list[list[int]], caller: int, tricks: int, trump: str, dash: list[bool]) -> list[int]:
        """Play a call round out with ``caller``'s Call of ``tricks`` in ``trump`` (RULING E5)."""
        order = [(caller + step) % SEATS for step in range(1, SEATS) if not dash[(caller + step) % SEATS]]
        start: list[int | None] = [0 if dash[seat] else None for seat in range(SEATS)]
        start[caller] = tricks
        mine = start[self.me]
        if mine is None:
            mine = self._guess(hands[self.me], trump, start, self.me, order, tricks)
        estimates = self._estimates_with(hands, mine, trump, order, start, tricks)
        rules = Rules(SEATS, trump_index(trump if trump in SUIT_NAMES else None), sitaratas=False)
        return self._finish(
            [list(hand) for hand in hands], Trick(caller), [0] * SEATS, estimates, caller, dash, rules, order[-1]
        )

    def _likely_call(self, hands: list[list[int]], seats: list[int]) -> tuple[int, int, str] | None:
        """Who of ``seats`` is likeliest to win the auction, and with what: the strongest hand
        calls what the rule-based bot would. None when nobody would beat the standing Call."""
        expected = self._expectations(hands)
        best = None
        for seat in seats:
            for trump, value in expected[seat].items():
                if best is None or value > best[0]:
                    best = (value, seat, trump)
        standing = self.view["standing_call"]
        if best is not None:
            value, seat, trump = best
            tricks = int(value + 0.25)
            beats = standing is None or (tricks, TRUMP_RANK[trump]) > (
                standing["tricks"],
                TRUMP_RANK[standing["trump"]],
            )
            if tricks >= MIN_CALL and beats:
                return seat, tricks, trump
        if standing is not None:
            return standing["seat"], standing["tricks"], standing["trump"]
        return None

    def _auction(self, hands: list[list[int]], dash: list[bool], seats: list[int]) -> list[int]:
        """The round when the auction goes to the likeliest of ``seats``, or to nobody: then the
        deal is redealt (RULING E4), which scores nothing for anyone."""
        call = self._likely_call(hands, seats)
        if call is None:
            return [0] * SEATS
        return self._call_round(hands, call[0], call[1], call[2], dash)

    def outcome_dash(self, action: DashCallAction | DeclineAction, hands: list[list[int]]) -> list[int]:
        """Dash Call: an estimate of 0 in a round someone else calls; declining: the auction to come."""
        # The seats not yet declared decline here: a second Dash Call is rare (RULING E2).
        dash = list(self.dash)
        dash[self.me] = action["type"] == "dash_call"
        return self._auction(hands, dash, [seat for seat in range(SEATS) if not dash[seat]])

    def outcome_call(self, action: CallAction | PassAction, hands: list[list[int]]) -> list[int]:
        """Pass: the others settle the auction; a Call: the bot wins it with that Call."""
        if action["type"] == "pass":
            return self._auction(hands, self.dash, self.bidders)
        return self._call_round(hands, self.me, action["tricks"], action["trump"], self.dash)


LOWER_IS_BETTER = False


def weighed(position: Position, view: JSON) -> tuple[list[Action], Callable[[Any, list[list[int]]], list[int]]]:
    """The actions the evaluator weighs (not the Super Calls, RULING P48), with their playout."""
    legal: list[Action] = list(view["legal_actions"])
    phase = view["phase"]
    if phase == "auction":
        return legal, position.outcome_call
    if phase == "dash_call":
        return legal, position.outcome_dash
    if phase == "estimating":
        return [action for action in legal if "trump" not in action], position.outcome_estimate
    return legal, position.outcome_play


def call_candidates(view: JSON, legal: list[Action]) -> list[CallAction | PassAction]:
    """Pass and the Calls worth weighing: per trump the lowest legal number and the next two,
    no more than two tricks above what the hand is worth there (the rest would rarely win)."""
    hand = view["hand"]
    candidates: list[CallAction | PassAction] = [action for action in legal if action["type"] == "pass"]
    for trump in rule_based.TRUMP_CHOICES:
        worth = rule_based.expected_tricks(hand, trump)
        calls = sorted(
            (action for action in legal if action["type"] == "call" and action["trump"] == trump),
            key=lambda action: action["tricks"],
        )
        candidates.extend(action for action in calls[:3] if action["tricks"] <= worth + 2)
    return candidates
