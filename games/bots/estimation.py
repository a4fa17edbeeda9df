"""A rule-based Estimation bot that sees only its seat's view.

It values its hand per trump (an expected number of tricks), Dash Calls only a hand with no
honour and no long suit, calls the cheapest call its best trump supports, estimates the legal
number nearest to its expectation (with a Super Call when a hand of 8+ tricks prefers
another trump), and plays to land its estimate exactly: while it still needs tricks it wins
cheaply with sure cards; once it has enough it ducks and throws its dangerous high cards.
"""

from __future__ import annotations

import random

from games.engines.cards import RANKS, SUITS, rank_value, suit_of
from games.engines.contract import JSON
from games.engines.estimation import Action

TRUMP_CHOICES = ("NT", "S", "H", "D", "C")
ACE, KING, QUEEN, JACK = 14, 13, 12, 11


# ----------------------------------------------------------------------------- hand value


def _by_suit(hand: list[str]) -> dict[str, list[int]]:
    suits: dict[str, list[int]] = {suit: [] for suit in SUITS}
    for card in hand:
        suits[suit_of(card)].append(rank_value(card))
    for ranks in suits.values():
        ranks.sort(reverse=True)
    return suits


def _honour_tricks(ranks: list[int]) -> float:
    """Tricks from the top cards of one suit, counted as a side suit."""
    length = len(ranks)
    value = 0.0
    if ACE in ranks:
        value += 1.0
    if KING in ranks:
        value += 0.85 if length >= 2 and ACE in ranks else 0.7 if length >= 2 else 0.25
    if QUEEN in ranks and length >= 3:
        value += 0.5 if (ACE in ranks or KING in ranks) else 0.3
    return value


def expected_tricks(hand: list[str], trump: str) -> float:
    """A rough count of the tricks this hand takes with ``trump`` (a suit or "NT")."""
    suits = _by_suit(hand)
    total = 0.0
    if trump == "NT":
        for ranks in suits.values():
            total += _honour_tricks(ranks)
            if len(ranks) >= 5 and ranks and ranks[0] >= KING:
                total += 0.6 * (len(ranks) - 4)  # A long, led-from-the-top suit runs.
        return total
    trumps = suits[trump]
    count = len(trumps)
    total += sum((0.95 for r in trumps if r >= QUEEN), 0.0) + sum((0.5 for r in trumps if r == JACK), 0.0)
    top = sum(1 for r in trumps if r >= JACK)
    total += max(0, count - max(top, 3)) * 0.85  # Length in trumps wins tricks late.
    spare = max(0, count - top)
    for suit, ranks in suits.items():
        if suit == trump:
            continue
        side = _honour_tricks(ranks)
        if len(ranks) >= 6:
            side *= 0.7  # Long side suits get trumped.
        total += side
        if spare and len(ranks) <= 1:
            ruffs = min(spare, 2 - len(ranks))
            total += 0.6 * ruffs
            spare -= ruffs
    return total


def _dash_safe(hand: list[str]) -> bool:
    """Dash Call only a hand that holds no honour above a jack and no long suit."""
    suits = _by_suit(hand)
    return (
        all(not ranks or (ranks[0] <= JACK and len(ranks) <= 4) for ranks in suits.values())
        and sum(1 for r in sum(suits.values(), []) if r == JACK) <= 1
    )


# ----------------------------------------------------------------------------- declarations


def _choose_dash(view: JSON, rng: random.Random) -> Action:
    wanted: Action = {"type": "dash_call"}
    if wanted in view["legal_actions"] and _dash_safe(view["hand"]):
        return wanted
    return {"type": "decline"}


def _choose_call(view: JSON, rng: random.Random) -> Action:
    hand = view["hand"]
    willing = {trump: int(expected_tricks(hand, trump) + 0.25) for trump in TRUMP_CHOICES}
    legal: list[Action] = view["legal_actions"]
    calls = [a for a in legal if a["type"] == "call" and a["tricks"] <= willing[a["trump"]]]
    if not calls:
        return {"type": "pass"}
    return min(calls, key=lambda a: (a["tricks"], -expected_tricks(hand, a["trump"])))


def _nearest(values: list[int], target: float) -> int:
    return min(values, key=lambda v: (abs(v - target), v))


def _choose_estimate(view: JSON, rng: random.Random) -> Action:
    hand = view["hand"]
    plain = [a["value"] for a in view["legal_actions"] if "trump" not in a]
    trump = view["trump"]
    expectation = expected_tricks(hand, trump)
    super_action = _super_call(view, expectation)
    if super_action is not None:
        return super_action
    return {"type": "estimate", "value": _nearest(plain, expectation)}


def _super_call(view: JSON, current: float) -> Action | None:
    """RULING E7: name a better trump with 8+ when it takes effect (beats the Super Call in force)."""
    if view["kind"] != "fixed":
        return None
    best = max(TRUMP_CHOICES, key=lambda t: expected_tricks(view["hand"], t))
    value = min(13, round(expected_tricks(view["hand"], best)))
    force = view["super_call"]["value"] if view["super_call"] else 0
    if best == view["trump"] or value < 8 or value <= force or value < current + 1:
        return None
    action: Action = {"type": "estimate", "value": value, "trump": best}
    return action if action in view["legal_actions"] else None


# ----------------------------------------------------------------------------- play


def _winning(plays: list[JSON], trump: str | None) -> JSON | None:
    if not plays:
        return None
    led = suit_of(plays[0]["card"])
    trumps = [p for p in plays if trump in SUITS and suit_of(p["card"]) == trump]
    contenders = trumps or [p for p in plays if suit_of(p["card"]) == led]
    return max(contenders, key=lambda p: rank_value(p["card"]))


def _beats(card: str, best: str, led: str, trump: str | None) -> bool:
    if suit_of(card) == suit_of(best):
        return rank_value(card) > rank_value(best)
    return trump in SUITS and suit_of(card) == trump


def _is_master(card: str, gone: set[str], hand: list[str]) -> bool:
    """No higher card of the suit is still out in another hand."""
    suit = suit_of(card)
    higher = RANKS[rank_value(card) - 1 :]
    return all(rank + suit in gone or rank + suit in hand for rank in higher)


def _choose_play(view: JSON, rng: random.Random) -> Action:
    cards = [a["card"] for a in view["legal_actions"]]
    seat = view["seat"]
    need = view["estimates"][seat] - view["tricks_won"][seat]
    plays = view["trick"]["plays"] if view["trick"] else []
    card = _lead(view, cards, need) if not plays else _follow(view, cards, plays, need)
    return {"type": "play", "card": card}


def _trump_suit(view: JSON) -> str | None:
    return view["trump"] if view["trump"] in SUITS else None


def _low(cards: list[str]) -> str:
    return min(cards, key=rank_value)


def _high(cards: list[str]) -> str:
    return max(cards, key=rank_value)


def _lead(view: JSON, cards: list[str], need: int) -> str:
    gone = set(view["played_cards"])
    trump = _trump_suit(view)
    if need > 0:
        masters = [c for c in cards if _is_master(c, gone, view["hand"])]
        side = [c for c in masters if suit_of(c) != trump]
        if masters:
            return _high(side or masters)
        non_trump = [c for c in cards if suit_of(c) != trump] or cards
        return _low(non_trump)
    # Enough tricks: lead the lowest card, away from trumps, in the suit others can beat best.
    non_trump = [c for c in cards if suit_of(c) != trump] or cards
    return _low(non_trump)


def _follow(view: JSON, cards: list[str], plays: list[JSON], need: int) -> str:
    trump = _trump_suit(view)
    led = suit_of(plays[0]["card"])
    winning = _winning(plays, trump)
    best = winning["card"] if winning else plays[0]["card"]  # a trick being followed has a winner so far
    winners = [c for c in cards if _beats(c, best, led, trump)]
    losers = [c for c in cards if c not in winners]
    last = len(plays) == 3
    if need > 0:
        if winners:
            gone = set(view["played_cards"])
            sure = [c for c in winners if last or _is_master(c, gone, view["hand"])]
            return _low(sure) if sure else (_low(winners) if last else _high(winners))
        return _low(cards)
    if losers:
        # Throw the most dangerous card that still loses this trick.
        side = [c for c in losers if suit_of(c) != trump]
        return _high(side or losers)
    return _high(cards) if last else _low(cards)


# ----------------------------------------------------------------------------- entry point


_BY_PHASE = {
    "dash_call": _choose_dash,
    "auction": _choose_call,
    "estimating": _choose_estimate,
    "playing": _choose_play,
}


def choose(view: JSON, rng: random.Random) -> Action:
    """The bot's action for this view; always one of ``view["legal_actions"]``."""
    action = _BY_PHASE[view["phase"]](view, rng)
    legal: list[Action] = view["legal_actions"]
    if action not in legal:  # A safety net: never send an illegal action.
        return rng.choice(legal)
    return action
