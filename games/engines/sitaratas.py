"""Sitaratas: the Estonian exact-bidding trick-taking game for 3–6 players (issue 3).

Rules and rulings S1–S9: ``docs/rules/sitaratas.md``.

Design
------
The state is a frozen dataclass of tuples and small named tuples, so ``apply`` builds a
new state by replacing a few fields and never copies deeply; the old state stays valid.
A game is a sequence of rounds (S2 schedule). Each round is a :class:`Round` holding what
the record needs (the hands as dealt, indicator, trump, bids per seat, finished tricks,
tricks won, points once scored); the state adds the live part: the cards still in hand,
the trick in progress and the running totals. Finished rounds move to ``past``; the last
round stays current when the game is over, so its final trick is still on view.

Every deal comes from ``seeded_rng(seed, "deal", round_number)`` and the first dealer from
``seeded_rng(seed, "dealer")`` (S1), so the same seed and actions give the same game in
any process. The next round is dealt inside the ``apply`` that finishes a round.

View keys (``view(state, seat)``; every value JSON-ready)
---------------------------------------------------------
``game`` "sitaratas" · ``players`` seat count · ``seat`` the viewer or None (spectator) ·
``options`` {"deck", "order"} · ``phase`` "bidding" | "playing" | "over" ·
``to_act`` seats awaited (one seat, or [] when over) · ``legal_actions`` the viewer's legal
actions ([] unless the viewer is to act) · ``hand`` the viewer's cards sorted for display
(trump first, jokers in front), None for a spectator · ``hand_counts`` cards left per seat ·
``totals`` points per seat so far · ``round_number`` 1-based current round (the last one
when over) · ``rounds_total`` · ``schedule`` hand size of every round · ``cards`` hand size
this round · ``dealer`` seat · ``indicator`` the public indicator card or None (S3) ·
``trump`` "S"/"H"/"D"/"C" or None (no trump suit) · ``bids`` per seat, None while not yet
bid · ``bid_order`` seats in bidding order (dealer last, S4) · ``forbidden_bid`` the one bid
the dealer may not make, shown to everyone while the dealer is to bid, else None ·
``trick`` the trick in progress {"leader", "plays": [{"seat", "card", "joker"?}]} (the
leader is known during bidding too), None when over · ``led_suit`` the suit set by the
first standard card of that trick, or None · ``last_trick`` this round's last finished trick
{"leader", "plays", "winner"}, or None before the first one (never a trick of an earlier
round: its cards may be in someone's hand now) · ``tricks_won`` per seat this round · ``over`` ·
``placements`` single-seat groups best first, [] until over (S9) · ``sitaratas`` the seat
with the lowest total when over, else None (S9) · ``score_sheet`` one entry per finished
round: {"number", "cards", "dealer", "trump", "indicator", "bids", "tricks_won", "points"}.

Tests build hand-made positions with :func:`scenario`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, NamedTuple, NotRequired, TypedDict

from games.engines import IllegalAction, codec
from games.engines.cards import (
    SUITS,
    check_action_shape,
    is_card,
    is_joker,
    make_deck,
    rank_value,
    seeded_rng,
    sort_hand,
    suit_of,
)
from games.engines.contract import JSON, PlayRecord, Record, TrickRecord
from games.engines.options import given_options, player_count

name = "sitaratas"
min_players = 3
max_players = 6

CLASSIC_RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
LARGEST_HAND = {3: 12, 4: 9, 5: 7, 6: 6}
DEFAULT_OPTIONS = {"deck": "classic", "order": "up_down"}
OPTION_VALUES = {"deck": ("classic", "jokers"), "order": ("up_down", "down_up")}
EXACT_BONUS = 5
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


class BidAction(TypedDict):
    type: Literal["bid"]
    bid: int


class PlayAction(TypedDict):
    type: Literal["play"]
    card: str
    joker: NotRequired[Literal["high", "low"]]  # a joker only (RULING S6)


Action = BidAction | PlayAction


# The record's round (docs/design.md, "The record"); its tricks are the shared TrickRecord.


class BidRecord(TypedDict):
    seat: int
    bid: int


class SitaratasRound(TypedDict):
    number: int
    cards: int
    dealer: int
    hands: list[list[str]]  # per seat, as dealt
    indicator: str | None
    trump: str | None
    bids: list[BidRecord]  # in bidding order, only the seats that have bid
    tricks: list[TrickRecord]  # the trick in progress last, with no winner yet
    tricks_won: list[int]
    points: list[int]  # 0 per seat until the round is scored


class Play(NamedTuple):
    seat: int
    card: str
    joker: str | None  # "high" / "low" for a joker, None for a standard card


class Trick(NamedTuple):
    leader: int
    plays: tuple[Play, ...]
    winner: int | None


class Round(NamedTuple):
    number: int
    cards: int
    dealer: int
    dealt: tuple[tuple[str, ...], ...]
    indicator: str | None
    trump: str | None
    bids: tuple[int | None, ...]  # per seat
    tricks: tuple[Trick, ...]  # finished tricks only
    tricks_won: tuple[int, ...]
    points: tuple[int, ...] | None  # None until the round is scored


@dataclass(frozen=True, slots=True)
class State:
    players: int | tuple[str, ...]  # as given to new_game
    n: int
    deck: str
    order: str
    seed: int | str
    first_dealer: int
    past: tuple[Round, ...]
    round: Round
    hands: tuple[tuple[str, ...], ...]
    leader: int
    plays: tuple[Play, ...]
    totals: tuple[int, ...]
    over: bool


# --------------------------------------------------------------------------- options


def _table_size(players: object) -> int:
    count = player_count(players)
    if not min_players <= count <= max_players:
        raise ValueError(f"Sitaratas is for {min_players} to {max_players} players, not {count}.")
    return count


def validate_options(players: object, options: JSON | None) -> JSON:
    _table_size(players)
    options = given_options(options, DEFAULT_OPTIONS, "Sitaratas")
    full = {**DEFAULT_OPTIONS, **options}
    for key, allowed in OPTION_VALUES.items():
        if full[key] not in allowed:
            raise ValueError(f"Option '{key}' must be one of: {', '.join(allowed)}.")
    return full


@cache
def schedule(players: int, order: str = "up_down") -> tuple[int, ...]:
    """Hand size of every round (RULING S2): N ones, climb, N at the largest, fall, N ones."""
    largest = LARGEST_HAND[players]
    climb = list(range(2, largest))
    up_down = [1] * players + climb + [largest] * players + climb[::-1] + [1] * players
    if order == "up_down":
        return tuple(up_down)
    # max → 1 → max is the mirror image.
    return tuple(largest + 1 - cards for cards in up_down)


# --------------------------------------------------------------------------- dealing


def _deal(
    seed: int | str, n: int, deck: str, number: int, cards: int, dealer: int
) -> tuple[Round, tuple[tuple[str, ...], ...]]:
    """A fresh shuffle for round ``number`` (1-based) with its indicator and trump (RULING S3)."""
    rng = seeded_rng(seed, "deal", number)
    pack = make_deck(CLASSIC_RANKS, jokers=deck == "jokers")
    rng.shuffle(pack)
    hands = tuple(tuple(pack[seat * cards : (seat + 1) * cards]) for seat in range(n))
    rest = pack[n * cards :]
    if rest:
        # A random undealt card is the indicator; a joker indicator means no trump suit.
        drawn = rng.choice(rest)
        indicator: str | None = drawn
        trump = None if is_joker(drawn) else suit_of(drawn)
    else:
        # The whole classic deck is dealt: the trump suit is drawn from the four suits.
        indicator, trump = None, rng.choice(SUITS)
    zeros = (0,) * n
    round_ = Round(number, cards, dealer, hands, indicator, trump, (None,) * n, (), zeros, None)
    return round_, hands


def _start_round(state: State, number: int, past: tuple[Round, ...], totals: tuple[int, ...]) -> State:
    cards = schedule(state.n, state.order)[number - 1]
    dealer = (state.first_dealer + number - 1) % state.n  # RULING S1: the deal moves on each round.
    round_, hands = _deal(state.seed, state.n, state.deck, number, cards, dealer)
    # RULING S5: the first bidder (the seat after the dealer) leads the first trick.
    return dataclasses.replace(
        state, past=past, round=round_, hands=hands, leader=(dealer + 1) % state.n, plays=(), totals=totals, over=False
    )


def new_game(players: object, options: JSON | None, seed: int | str) -> State:
    full = validate_options(players, options)
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise ValueError("The seed must be an integer or a string.")
    n = _table_size(players)
    given = tuple(players) if isinstance(players, (list, tuple)) else n
    first_dealer = seeded_rng(seed, "dealer").randrange(n)  # RULING S1
    blank = Round(0, 0, first_dealer, (), None, None, (), (), (), None)
    state = State(given, n, full["deck"], full["order"], seed, first_dealer, (), blank, (), 0, (), (0,) * n, False)
    return _start_round(state, 1, (), (0,) * n)


def scenario(
    hands: Sequence[Sequence[str]],
    *,
    dealer: int = 0,
    trump: str | None = "S",
    indicator: str | None = None,
    bids: Sequence[int | None] | None = None,
    leader: int | None = None,
    plays: Sequence[tuple[int, str, str | None]] = (),
    tricks_won: Sequence[int] | None = None,
    totals: Sequence[int] | None = None,
    round_number: int | None = None,
    deck: str = "jokers",
    order: str = "up_down",
    seed: int | str = 0,
) -> State:
    """A hand-made position for tests: ``hands`` are the cards each seat holds now.

    The round is the first one of the schedule whose hand size is the size of the hands
    (or ``round_number``); its "hands as dealt" are the given hands plus any card already
    in ``plays`` (tuples ``(seat, card, "high"/"low"/None)`` of the trick in progress).
    Bids default to none made (bidding phase); give all of them to start playing.
    """
    n = len(hands)
    played: dict[int, list[str]] = {seat: [] for seat in range(n)}
    for seat, card, _ in plays:
        played[seat].append(card)
    dealt = tuple(tuple(hand) + tuple(played[seat]) for seat, hand in enumerate(hands))
    cards = len(dealt[0])
    sizes = schedule(n, order)
    number = round_number or sizes.index(cards) + 1
    first_dealer = (dealer - number + 1) % n
    round_ = Round(
        number,
        cards,
        dealer,
        dealt,
        indicator,
        trump,
        tuple(bids) if bids else (None,) * n,
        (),
        tuple(tricks_won or (0,) * n),
        None,
    )
    lead = (dealer + 1) % n if leader is None else leader
    return State(
        n,
        n,
        deck,
        order,
        seed,
        first_dealer,
        (),
        round_,
        tuple(tuple(hand) for hand in hands),
        lead,
        tuple(Play(*play) for play in plays),
        tuple(totals or (0,) * n),
        False,
    )


# --------------------------------------------------------------------------- rules


def phase(state: State) -> str:
    if state.over:
        return "over"
    return "bidding" if None in state.round.bids else "playing"


def bid_order(state: State) -> list[int]:
    """RULING S4: bidding starts with the seat after the dealer; the dealer bids last."""
    return [(state.round.dealer + 1 + step) % state.n for step in range(state.n)]


def forbidden_bid(state: State) -> int | None:
    """The dealer's one forbidden bid, or None when the dealer is not restricted (RULING S4)."""
    others = sum(bid for seat, bid in enumerate(state.round.bids) if seat != state.round.dealer and bid is not None)
    forbidden = state.round.cards - others
    return forbidden if 0 <= forbidden <= state.round.cards else None


def led_suit(plays: Sequence[Play]) -> str | None:
    """RULING S6: a joker never sets the led suit; the first standard card does."""
    for play in plays:
        if play.joker is None:
            return suit_of(play.card)
    return None


def playable_cards(hand: Sequence[str], led: str | None, trump: str | None) -> list[str]:
    """The rule book's four lines (RULING S7); a joker is always playable (RULING S6)."""
    if led is None:
        return list(hand)
    jokers = [card for card in hand if is_joker(card)]
    follow = [card for card in hand if not is_joker(card) and suit_of(card) == led]
    if follow:
        return follow + jokers
    trumps = [card for card in hand if not is_joker(card) and suit_of(card) == trump]
    if trumps:
        return trumps + jokers
    return list(hand)


def trick_winner(plays: Sequence[Play], trump: str | None) -> int:
    """RULING S8: latest HIGH joker; else highest trump; else highest of the led suit; else latest card."""
    for play in reversed(plays):
        if play.joker == "high":
            return play.seat
    standard = [play for play in plays if play.joker is None]
    trumps = [play for play in standard if suit_of(play.card) == trump]
    if trumps:
        return max(trumps, key=lambda play: rank_value(play.card)).seat
    led = led_suit(plays)
    if led is not None:
        return max(
            (play for play in standard if suit_of(play.card) == led), key=lambda play: rank_value(play.card)
        ).seat
    # No standard card and every joker LOW: the latest card wins.
    return plays[-1].seat


def round_points(bid: int, tricks: int) -> int:
    """An exact bid earns the tricks plus 5; a missed bid earns only the tricks."""
    return tricks + EXACT_BONUS if bid == tricks else tricks


def ranking(totals: Sequence[int]) -> list[int]:
    """RULING S9: highest total first; on a tie the earlier seat ranks ahead."""
    return sorted(range(len(totals)), key=lambda seat: (-totals[seat], seat))


def sitaratas_seat(totals: Sequence[int]) -> int:
    """RULING S9: the lowest total; on a tie the earliest of those seats, literally as the rule book says."""
    return min(range(len(totals)), key=lambda seat: (totals[seat], seat))


# --------------------------------------------------------------------------- contract


def is_over(state: State) -> bool:
    return state.over


def to_act(state: State) -> list[int]:
    if state.over:
        return []
    bids = state.round.bids
    if None in bids:
        return [next(seat for seat in bid_order(state) if bids[seat] is None)]
    return [(state.leader + len(state.plays)) % state.n]


def legal_actions(state: State, seat: int) -> list[Action]:
    if seat not in to_act(state):
        return []
    if None in state.round.bids:
        forbidden = forbidden_bid(state) if seat == state.round.dealer else None
        return [{"type": "bid", "bid": bid} for bid in range(state.round.cards + 1) if bid != forbidden]
    hand = sort_hand(state.hands[seat], state.round.trump)
    actions: list[Action] = []
    for card in playable_cards(hand, led_suit(state.plays), state.round.trump):
        if is_joker(card):
            # A joker gives two actions: it must be declared HIGH or LOW (RULING S6).
            actions.append({"type": "play", "card": card, "joker": "high"})
            actions.append({"type": "play", "card": card, "joker": "low"})
        else:
            actions.append({"type": "play", "card": card})
    return actions


def apply(state: State, seat: int, action: Action) -> State:
    if state.over:
        raise IllegalAction("The game is over.")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n:
        raise IllegalAction("There is no such seat at this table.")
    if seat not in to_act(state):
        raise IllegalAction("It is not your turn.")
    if not isinstance(action, dict):
        raise IllegalAction("An action must be an object.")
    kind = action.get("type")
    expected = "bid" if None in state.round.bids else "play"
    if kind not in ("bid", "play"):
        raise IllegalAction("Unknown action: a Sitaratas action is a bid or a play.")
    if kind != expected:
        raise IllegalAction(f"It is time to {expected}, not to {kind}.")
    if action["type"] == "bid":
        check_action_shape(action, {"bid": int})
        return _apply_bid(state, seat, action)
    check_action_shape(action, {"card": str}, {"joker": str})
    return _apply_play(state, seat, action)


def _apply_bid(state: State, seat: int, action: BidAction) -> State:
    bid, cards = action["bid"], state.round.cards
    if not 0 <= bid <= cards:
        raise IllegalAction(f"A bid must be between 0 and {cards}.")
    if seat == state.round.dealer and bid == forbidden_bid(state):
        # RULING S4: the bids may never total the number of tricks.
        raise IllegalAction(f"Bid {bid} is not allowed for the dealer: the bids would total the number of tricks.")
    bids = state.round.bids[:seat] + (bid,) + state.round.bids[seat + 1 :]
    return dataclasses.replace(state, round=state.round._replace(bids=bids))


def _apply_play(state: State, seat: int, action: PlayAction) -> State:
    card, joker = action["card"], action.get("joker")
    _check_play(state, seat, card, joker)
    hand = state.hands[seat]
    position = hand.index(card)
    hands = state.hands[:seat] + (hand[:position] + hand[position + 1 :],) + state.hands[seat + 1 :]
    plays = state.plays + (Play(seat, card, joker),)
    if len(plays) < state.n:
        return dataclasses.replace(state, hands=hands, plays=plays)
    # The trick is complete: its winner leads the next one (RULING S5).
    round_ = state.round
    winner = trick_winner(plays, round_.trump)
    won = round_.tricks_won[:winner] + (round_.tricks_won[winner] + 1,) + round_.tricks_won[winner + 1 :]
    round_ = round_._replace(tricks=round_.tricks + (Trick(state.leader, plays, winner),), tricks_won=won)
    if any(hands):
        return dataclasses.replace(state, round=round_, hands=hands, leader=winner, plays=())
    return _finish_round(dataclasses.replace(state, round=round_, hands=hands, leader=winner, plays=()))


def _check_play(state: State, seat: int, card: str, joker: str | None) -> None:
    if not is_card(card):
        raise IllegalAction("That is not a card.")
    if card not in state.hands[seat]:
        raise IllegalAction("You do not hold that card.")
    if is_joker(card):
        if joker not in ("high", "low"):
            raise IllegalAction('Declare the joker HIGH or LOW: add "joker": "high" or "low".')  # RULING S6
    elif joker is not None:
        raise IllegalAction("Only a joker is declared HIGH or LOW.")
    if card in playable_cards(state.hands[seat], led_suit(state.plays), state.round.trump):
        return
    led, trump = led_suit(state.plays), state.round.trump
    if led is not None and any(not is_joker(held) and suit_of(held) == led for held in state.hands[seat]):
        raise IllegalAction(f"You must follow suit ({SUIT_NAMES[led]}) or play a joker.")
    # Only a trump suit can make a card unplayable once the led suit cannot be followed.
    raise IllegalAction(f"You cannot follow suit, so you must play trump ({SUIT_NAMES.get(trump or '')}) or a joker.")


def _finish_round(state: State) -> State:
    round_ = state.round
    # Every seat has bid by the round's last trick (``or 0`` only tells the type so).
    points = tuple(round_points(bid or 0, won) for bid, won in zip(round_.bids, round_.tricks_won))
    round_ = round_._replace(points=points)
    totals = tuple(total + gained for total, gained in zip(state.totals, points))
    if round_.number == len(schedule(state.n, state.order)):
        return dataclasses.replace(state, round=round_, totals=totals, over=True)
    return _start_round(state, round_.number + 1, state.past + (round_,), totals)


# --------------------------------------------------------------------------- views and records


def _play_json(play: Play) -> PlayRecord:
    shown: PlayRecord = {"seat": play.seat, "card": play.card}
    if play.joker is not None:
        shown["joker"] = play.joker
    return shown


def _trick_json(trick: Trick) -> TrickRecord:
    return {"leader": trick.leader, "plays": [_play_json(play) for play in trick.plays], "winner": trick.winner}


def _finished_rounds(state: State) -> tuple[Round, ...]:
    return state.past + (state.round,) if state.over else state.past


def _last_trick(state: State) -> TrickRecord | None:
    # Only this round's: a card played in an earlier round may be in someone's hand now.
    return _trick_json(state.round.tricks[-1]) if state.round.tricks else None


def _score_sheet(state: State) -> list[JSON]:
    return [
        {
            "number": round_.number,
            "cards": round_.cards,
            "dealer": round_.dealer,
            "trump": round_.trump,
            "indicator": round_.indicator,
            "bids": list(round_.bids),
            "tricks_won": list(round_.tricks_won),
            "points": list(round_.points or ()),
        }
        for round_ in _finished_rounds(state)
    ]


def _placements(state: State) -> list[list[int]]:
    return [[seat] for seat in ranking(state.totals)] if state.over else []


def view(state: State, seat: int | None) -> JSON:
    round_ = state.round
    acting = to_act(state)
    dealer_to_bid = not state.over and acting == [round_.dealer] and None in round_.bids
    return {
        "game": name,
        "players": state.n,
        "seat": seat,
        "options": {"deck": state.deck, "order": state.order},
        "phase": phase(state),
        "to_act": acting,
        "legal_actions": legal_actions(state, seat) if seat is not None else [],
        "hand": sort_hand(state.hands[seat], round_.trump) if seat is not None else None,
        "hand_counts": [len(hand) for hand in state.hands],
        "totals": list(state.totals),
        "round_number": round_.number,
        "rounds_total": len(schedule(state.n, state.order)),
        "schedule": list(schedule(state.n, state.order)),
        "cards": round_.cards,
        "dealer": round_.dealer,
        "indicator": round_.indicator,
        "trump": round_.trump,
        "bids": list(round_.bids),
        "bid_order": bid_order(state),
        "forbidden_bid": forbidden_bid(state) if dealer_to_bid else None,
        "trick": None if state.over else {"leader": state.leader, "plays": [_play_json(play) for play in state.plays]},
        "led_suit": led_suit(state.plays),
        "last_trick": _last_trick(state),
        "tricks_won": list(round_.tricks_won),
        "over": state.over,
        "placements": _placements(state),
        "sitaratas": sitaratas_seat(state.totals) if state.over else None,
        "score_sheet": _score_sheet(state),
    }


def _round_record(state: State, round_: Round) -> SitaratasRound:
    tricks = [_trick_json(trick) for trick in round_.tricks]
    if round_ is state.round and state.plays:
        # The trick in progress has happened too; its winner is not known yet.
        tricks.append(_trick_json(Trick(state.leader, state.plays, None)))
    order = [(round_.dealer + 1 + step) % state.n for step in range(state.n)]
    return {
        "number": round_.number,
        "cards": round_.cards,
        "dealer": round_.dealer,
        "hands": [list(hand) for hand in round_.dealt],
        "indicator": round_.indicator,
        "trump": round_.trump,
        "bids": [{"seat": seat, "bid": bid} for seat in order if (bid := round_.bids[seat]) is not None],
        "tricks": tricks,
        "tricks_won": list(round_.tricks_won),
        # Points are 0 until the round is scored, so totals always equal the sum of round points.
        "points": list(round_.points or (0,) * state.n),
    }


def record(state: State) -> Record[SitaratasRound]:
    return {
        "game": name,
        "players": list(state.players) if isinstance(state.players, tuple) else state.players,
        "options": {"deck": state.deck, "order": state.order},
        "seed": state.seed,
        "rounds": [_round_record(state, round_) for round_ in (*state.past, state.round)],
        "totals": list(state.totals),
        "placements": _placements(state),
        "sitaratas": sitaratas_seat(state.totals) if state.over else None,
        "over": state.over,
    }


# --------------------------------------------------------------------------- serialisation


def dumps(state: State) -> str:
    fields = {field.name: getattr(state, field.name) for field in dataclasses.fields(State)}
    return codec.dumps(fields, sort_keys=True)


def _tuples(value: Any) -> Any:
    return tuple(_tuples(item) for item in value) if isinstance(value, list) else value


def _trick_from(data: list[Any]) -> Trick:
    leader, plays, winner = data
    return Trick(leader, tuple(Play(*play) for play in plays), winner)


def _round_from(data: list[Any]) -> Round:
    number, cards, dealer, dealt, indicator, trump, bids, tricks, tricks_won, points = data
    return Round(
        number,
        cards,
        dealer,
        _tuples(dealt),
        indicator,
        trump,
        tuple(bids),
        tuple(_trick_from(trick) for trick in tricks),
        tuple(tricks_won),
        _tuples(points),
    )


def loads(text: str) -> State:
    data = codec.loads(text)
    return State(
        players=_tuples(data["players"]),
        n=data["n"],
        deck=data["deck"],
        order=data["order"],
        seed=data["seed"],
        first_dealer=data["first_dealer"],
        past=tuple(_round_from(round_) for round_ in data["past"]),
        round=_round_from(data["round"]),
        hands=_tuples(data["hands"]),
        leader=data["leader"],
        plays=tuple(Play(*play) for play in data["plays"]),
        totals=tuple(data["totals"]),
        over=data["over"],
    )
