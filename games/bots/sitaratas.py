"""The rule-based Sitaratas bot: it reads only its seat's view (no state, no other hands).

Bidding gives every card a trick-taking power (a joker most, then trumps; a standard card
falls sharply with the higher cards of its suit still out) and bids the hand's share of
the round's tricks against the average power of an opponent's hand, which weighs trump,
jokers and hand size together. The dealer's forbidden bid (RULING S4) is replaced by the
nearest allowed bid.

Play aims at the bid exactly. With tricks still needed it wins cheaply (last to play: the
cheapest winner; earlier: its strongest standard winner; a joker HIGH when no standard card
wins). With the bid reached it ducks: it sheds its most dangerous losing card and keeps its
jokers as sure ducks (a LOW joker always loses, RULING S8, since a trick of 3+ players
holds a standard card). Once the bid is missed every trick is a point, so it wins again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.engines.cards import is_joker, make_deck, rank_value, suit_of
from games.engines.contract import JSON
from games.engines.sitaratas import CLASSIC_RANKS, Action, BidAction, Play, PlayAction, trick_winner

JOKER_VALUE = 50
TRUMP_BONUS = 20
# Power of a card: (1 + higher cards still out) ** -SPREAD, times TRUMP_POWER for a trump; a joker
# is worth JOKER_POWER. Tuned on self-play so that the bids of a table average the hand size.
SPREAD = 1.5
TRUMP_POWER = 3.0
JOKER_POWER = 6.0


def choose(view: JSON, rng: random.Random) -> Action:
    legal: list[Action] = view["legal_actions"]
    if len(legal) == 1:
        return legal[0]
    if view["phase"] == "bidding":
        return _bid(view, [action for action in legal if action["type"] == "bid"])
    return _play(view, [action for action in legal if action["type"] == "play"])


# --------------------------------------------------------------------------- bidding


def _bid(view: JSON, legal: list[BidAction]) -> BidAction:
    expected = estimate_tricks(view)
    allowed = [action["bid"] for action in legal]
    # The nearest allowed bid to the estimate; on a tie the lower one (a miss by ducking is easier to avoid).
    best = min(allowed, key=lambda bid: (abs(bid - expected), bid))
    return {"type": "bid", "bid": best}


def estimate_tricks(view: JSON) -> float:
    """My share of the round's tricks: my hand's trick-taking power against the average opponent's."""
    hand: list[str] = view["hand"]
    trump: str | None = view["trump"]
    players: int = view["players"]
    cards: int = view["cards"]
    indicator = {view["indicator"]} if view["indicator"] else set()
    pack = make_deck(CLASSIC_RANKS, jokers=view["options"]["deck"] == "jokers")
    unseen = [card for card in pack if card not in indicator and card not in hand]
    mine = sum((_power(card, trump, hand, indicator) for card in hand), 0.0)
    # My own cards count among the higher ones that beat an opponent's card.
    theirs = cards * sum((_power(card, trump, (), indicator) for card in unseen), 0.0) / max(1, len(unseen))
    total = mine + (players - 1) * theirs
    return cards * mine / total if total else cards / players


def _power(card: str, trump: str | None, own: Sequence[str], gone: set[str]) -> float:
    """A card's trick-taking power: sharply falling with the higher cards of its suit still out."""
    if is_joker(card):
        return JOKER_POWER
    suit = suit_of(card)
    higher = sum(
        1
        for rank in CLASSIC_RANKS
        if rank_value(rank + suit) > rank_value(card) and rank + suit not in own and rank + suit not in gone
    )
    power: float = (1 + higher) ** -SPREAD
    return power * TRUMP_POWER if suit == trump else power


# --------------------------------------------------------------------------- playing


def _value(action: PlayAction, trump: str | None) -> int:
    """How precious a card is to keep: jokers most, then trumps, then by rank."""
    card = action["card"]
    if is_joker(card):
        return JOKER_VALUE
    return rank_value(card) + (TRUMP_BONUS if suit_of(card) == trump else 0)


def _wins_now(view: JSON, action: PlayAction) -> bool:
    plays = [Play(play["seat"], play["card"], play.get("joker")) for play in view["trick"]["plays"]]
    plays.append(Play(view["seat"], action["card"], action.get("joker")))
    seat: int = view["seat"]
    return trick_winner(plays, view["trump"]) == seat


def _play(view: JSON, legal: list[PlayAction]) -> PlayAction:
    seat = view["seat"]
    need = view["bids"][seat] - view["tricks_won"][seat]
    if need == 0:
        return _duck(view, legal)
    # Short of the bid we must win; past it every trick is still a point.
    return _take(view, legal)


def _split(legal: list[PlayAction], declaration: str) -> tuple[list[PlayAction], list[PlayAction]]:
    """The standard-card actions, and the joker actions with the given declaration."""
    standard = [action for action in legal if not is_joker(action["card"])]
    return standard, [action for action in legal if action.get("joker") == declaration]


def _take(view: JSON, legal: list[PlayAction]) -> PlayAction:
    trump, plays = view["trump"], view["trick"]["plays"]
    standard, high_jokers = _split(legal, "high")
    if not plays:
        return _lead_to_win(view, legal, standard, high_jokers)
    winners = [action for action in standard if _wins_now(view, action)]
    last = len(plays) == view["players"] - 1
    if winners:
        pick = min if last else max
        return pick(winners, key=lambda action: _value(action, trump))
    if high_jokers:
        return high_jokers[0]
    return _cheapest(legal, trump)


def _lead_to_win(
    view: JSON, legal: list[PlayAction], standard: list[PlayAction], high_jokers: list[PlayAction]
) -> PlayAction:
    trump = view["trump"]
    seat = view["seat"]
    need = view["bids"][seat] - view["tricks_won"][seat]
    # Needing every remaining trick: cash the sure winners first.
    if high_jokers and need >= len(view["hand"]):
        return high_jokers[0]
    aces = [action for action in standard if rank_value(action["card"]) == 14]
    if aces:
        return max(aces, key=lambda action: _value(action, trump))
    if standard:
        return max(standard, key=lambda action: _value(action, trump))
    return high_jokers[0] if high_jokers else legal[0]


def _cheapest(legal: list[PlayAction], trump: str | None) -> PlayAction:
    """The least precious card; a joker goes LOW when it is all there is."""
    return min(legal, key=lambda action: (_value(action, trump), action.get("joker") != "low"))


def _duck(view: JSON, legal: list[PlayAction]) -> PlayAction:
    trump, plays = view["trump"], view["trick"]["plays"]
    standard, low_jokers = _split(legal, "low")
    if not plays:
        # Lead the card least likely to win; a LOW joker is a sure duck kept for later.
        return _cheapest(standard, trump) if standard else low_jokers[0]
    losers = [action for action in standard if not _wins_now(view, action)]
    if losers:
        # Shed the most dangerous card that still loses.
        return max(losers, key=lambda action: _value(action, trump))
    if low_jokers:
        return low_jokers[0]
    last = len(plays) == view["players"] - 1
    # Forced to win: last to play, win with the most dangerous card; otherwise hope to be overtaken.
    pick = max if last else min
    return pick(standard, key=lambda action: _value(action, trump))
