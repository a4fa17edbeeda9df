"""Estimation: the rules engine (rules and rulings E1-E13: docs/rules/estimation.md).

Design
------
The state is a frozen dataclass of tuples and small named tuples (a bid, an estimate,
a play, a trick), so ``apply`` builds a new state by replacing a few fields and never copies
deeply; the old state stays valid. The finished rounds (``history``) and this round's earlier
deals (``earlier_deals``) are already in the record's shape (``EstimationRound``,
``DealRecord``): JSON-ready dicts that are never changed once made, which games/records/storage.py
writes apart from the rest. ``dumps`` writes every field in order as compact JSON
(``games.engines.codec``) and ``loads`` reads it back: the round trip is exact.

A round goes through these phases (``state.phase``, also the view's ``"phase"``):

* ``"dash_call"``  call rounds: from the seat after the dealer, each seat Dash Calls or
  declines (RULING E2).
* ``"auction"``    call rounds: call or pass, passing is final (RULING E3). Nobody calls →
  the same dealer redeals; the fourth deal of a round (after the third redeal in a row) is
  played as a fixed NT round (RULING E4).
* ``"estimating"`` the estimates (RULINGS E5, E6, E7).
* ``"playing"``    the 13 tricks (RULINGS E8, E9); the last trick scores the round
  (RULINGS E10, E11) and deals the next one, or ends the game (RULING E13).
* ``"over"``

View keys (``view(state, seat)``; everything is public except ``"hand"``)
-------------------------------------------------------------------------
Contract keys: ``game`` ("estimation"), ``players`` (4), ``seat`` (viewer or None),
``phase`` (above), ``to_act`` (list of seats), ``legal_actions`` (the viewer's, else []),
``hand`` (viewer's cards sorted for display, trump first; None for a spectator),
``hand_counts`` (cards left per seat), ``totals`` (per seat), ``round_number`` (1-based),
``rounds_total``, ``over`` (bool), ``placements`` (groups of tied seats, best first; [] until
over), ``score_sheet`` (one entry per completed round, see below).

Game keys:

* ``length``: "micro" | "mini" | "full".
* ``dealer``: seat; ``kind``: "call" | "fixed" (a call round turned into the fixed NT round
  by RULING E4 reads "fixed"); ``deal_number``: 1-based deal of this round (2+ = redeals).
* ``dash_calls``: per seat True (Dash Called) / False (declined, or a fixed round) / None
  (not declared yet).
* ``auction``: the auction of the current deal in order, each ``{"seat", "call": {"tricks",
  "trump"}}`` or ``{"seat", "pass": True}``; ``standing_call``: ``{"seat", "tricks",
  "trump"}`` or None.
* ``caller``: seat or None until known; ``call``: ``{"tricks", "trump"}`` in a call round once
  the auction is won, else None.
* ``estimates``: per seat int or None (a Dash Caller shows 0, the Caller the Call's number);
  ``estimate_order``: the seats that estimate, in order ([] before the estimates);
  ``super_call``: ``{"seat", "value", "trump"}`` of the Super Call in force, or None.
* ``with``: per seat bool (on the Caller's number); ``over_under``: "over" | "under" | None;
  ``risk``: ``{"seat", "level"}`` once every estimate is in (the last estimator; level 0 = no
  Risk, 1 Risk, 2 Double, 3 Triple), else None. Records carry ``risk`` the same way.
* ``trump``: "S" | "H" | "D" | "C" | "NT" | None while unknown.
* ``trick``: ``{"leader", "plays": [{"seat", "card"}]}`` while playing, else None;
  ``last_trick``: the last completed trick of this round ``{"leader", "plays", "winner"}``
  or None; ``played_cards``: every card played this round, in order (public).
* ``tricks_won``: per seat; ``bust``: per seat bool (more tricks than the estimate);
  ``avoid``: per seat list of suits it failed to follow (RULING E9).
* ``multiplier``: 1, 2 or 4, in force for the current round (RULING E11).

Score sheet entry: ``{"number", "kind", "trump", "caller", "call", "dash_call", "estimate",
"with", "over_under", "risk", "multiplier", "tricks_won", "made", "saaydeh", "points"}``
(points with the multiplier applied). ``games.records.estimation.points_note`` explains an
entry's score for a seat, e.g. ``"+27: made 7 (10 + 7) + 10 Caller"``.

Tests and tools build hand-made states with :func:`scenario` (a round's start with given
hands, dealer, totals and Sa'aydeh streak) and :func:`with_hands` (replace the current deal).
"""

from __future__ import annotations

import dataclasses
import json
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, NotRequired, TypedDict

from games.engines import IllegalAction, codec
from games.engines.cards import check_action_shape, is_card, make_deck, rank_value, seeded_rng, sort_hand, suit_of
from games.engines.contract import JSON, PlayRecord, Record, TrickRecord
from games.engines.options import given_options, player_count

name = "estimation"
min_players = 4
max_players = 4

SEATS = 4
# The state's field of finished rounds, which games.records.storage stores once each, apart from the rest.
STORED_ROUNDS = "history"
TRICKS = 13
LENGTHS = {"micro": 5, "mini": 10, "full": 18}  # RULING E12
FIXED_TRUMPS = ("NT", "S", "H", "D", "C")  # RULING E6: the last five rounds, in this order.
TRUMP_RANK = {"C": 0, "D": 1, "H": 2, "S": 3, "NT": 4}  # RULING E3: NT > S > H > D > C.
TRUMPS = ("NT", "S", "H", "D", "C")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
MIN_CALL = 4
SUPER_CALL_MIN = 8  # RULING E7
MAX_ZEROS = 2  # RULING E5: Dash Calls plus zero estimates.
DEALS_BEFORE_FIXED = 4  # RULING E4: the deal after the third redeal in a row is fixed NT.


# ----------------------------------------------------------------------------- state
# The parts of the state are named tuples, written (``dumps``, views, records) as the dicts they
# stand for.


class DashCallAction(TypedDict):
    type: Literal["dash_call"]


class DeclineAction(TypedDict):
    type: Literal["decline"]


class CallAction(TypedDict):
    type: Literal["call"]
    tricks: int
    trump: str  # "NT", "S", "H", "D", "C"


class PassAction(TypedDict):
    type: Literal["pass"]


class EstimateAction(TypedDict):
    type: Literal["estimate"]
    value: int
    trump: NotRequired[str]  # a Super Call (RULING E7)


class PlayAction(TypedDict):
    type: Literal["play"]
    card: str


Action = DashCallAction | DeclineAction | CallAction | PassAction | EstimateAction | PlayAction


# The record's round (docs/design.md, "The record"), its parts written as the views write them
# too; its tricks are the shared TrickRecord. "with" and "pass" are Python keywords, so the dicts
# that hold them are declared in TypedDict's call syntax.


class CallRecord(TypedDict):
    tricks: int
    trump: str


# One turn of an auction: a call or a pass, so exactly one of the two is there.
BidRecord = TypedDict("BidRecord", {"seat": int, "call": NotRequired[CallRecord], "pass": NotRequired[Literal[True]]})


class DashCallRecord(TypedDict):
    seat: int
    dash_call: bool


class DealRecord(TypedDict):
    hands: list[list[str]]  # per seat, as dealt
    dash_calls: list[DashCallRecord]  # in declaring order; [] in a fixed round
    auction: list[BidRecord]  # in order; [] in a fixed round


class EstimateRecord(TypedDict):
    seat: int
    value: int
    trump: NotRequired[str]  # a Super Call (RULING E7)


class RiskRecord(TypedDict):
    seat: int  # the last estimator
    level: int  # 0 no Risk, 1 Risk, 2 Double, 3 Triple (RULING E10)


# What scoring a round adds to it (score_round); until then its round holds None there.
RoundScore = TypedDict(
    "RoundScore",
    {
        "with": list[bool],
        "risk": RiskRecord,
        "over_under": str,  # "over" | "under"
        "made": list[bool],
        "saaydeh": bool,
        "points": list[int],  # the multiplier applied
    },
)

EstimationRound = TypedDict(
    "EstimationRound",
    {
        "number": int,
        "kind": str,  # "call" | "fixed"
        "dealer": int,
        "deals": list[DealRecord],  # every deal of the round, redeals first; the last is played
        "trump": str | None,
        "caller": int | None,
        "estimates": list[EstimateRecord],  # in estimating order
        "estimate": list[int | None],  # per seat
        "dash_call": list[bool],
        "with": list[bool],
        "risk": RiskRecord | None,
        "over_under": str | None,
        "multiplier": int,
        "tricks": list[TrickRecord],  # the trick in progress last, with no winner yet
        "tricks_won": list[int],
        "made": list[bool] | list[None],
        "saaydeh": bool | None,
        "points": list[int] | list[None],
    },
)


class Options(NamedTuple):
    length: str


class Call(NamedTuple):
    tricks: int
    trump: str


class Bid(NamedTuple):
    """One turn of the auction: a call, or a pass (``call`` None). Written as ``{"seat", "call"}``
    or ``{"seat", "pass": true}``."""

    seat: int
    call: Call | None


class Estimate(NamedTuple):
    """Written as ``{"seat", "value"}``, with ``"trump"`` for a Super Call (RULING E7)."""

    seat: int
    value: int
    trump: str | None = None


class SuperCall(NamedTuple):
    seat: int
    value: int
    trump: str


class Play(NamedTuple):
    seat: int
    card: str


class Trick(NamedTuple):
    leader: int
    plays: tuple[Play, ...]
    winner: int


@dataclass(frozen=True, slots=True)
class State:
    # The whole game. The fields are in the order of the stored text (``dumps``): states stored
    # before the engine used dataclasses read back to the same text.
    players: int | tuple[str, ...]  # as given to new_game
    options: Options
    seed: int | str
    rounds_total: int
    totals: tuple[int, ...]
    saaydeh_streak: int  # Sa'aydeh rounds in a row just before this one (RULING E11)
    history: tuple[EstimationRound, ...]  # finished rounds, record-shaped (games/records/storage.py stores them apart)
    # The current round. The defaults only stand until new_game deals the first round.
    round_number: int = 0
    dealer: int = 0
    earlier_deals: tuple[DealRecord, ...] = ()  # deals of this round that nobody called, record-shaped
    deal_number: int = 0
    kind: str = "call"
    trump: str | None = None
    dealt: tuple[tuple[str, ...], ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    dash_calls: tuple[bool | None, ...] = ()
    auction: tuple[Bid, ...] = ()
    caller: int | None = None
    call: Call | None = None
    estimates: tuple[int | None, ...] = ()
    estimate_order: tuple[int, ...] = ()
    estimate_log: tuple[Estimate, ...] = ()
    super_call: SuperCall | None = None
    leader: int | None = None
    trick: tuple[Play, ...] = ()  # the trick in progress
    tricks: tuple[Trick, ...] = ()  # this deal's finished tricks
    tricks_won: tuple[int, ...] = ()
    avoid: tuple[tuple[str, ...], ...] = ()
    multiplier: int = 1
    phase: str = "dash_call"
    turn: int | None = None


_FIELDS = tuple(field.name for field in dataclasses.fields(State))
_FIELD_INDEX = {field: index for index, field in enumerate(_FIELDS)}
_field_values = operator.attrgetter(*_FIELDS)


def _replace(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` for the state: a move replaces a few of its 31 fields two or three
    times, and ``dataclasses.replace`` looks every field up again on each call (three times slower)."""
    values = list(_field_values(state))
    for field, value in changes.items():
        values[_FIELD_INDEX[field]] = value
    return State(*values)


def _set(values: tuple[Any, ...], index: int, value: object) -> tuple[Any, ...]:
    """``values`` with the one at ``index`` replaced."""
    return values[:index] + (value,) + values[index + 1 :]


# ----------------------------------------------------------------------------- options


def validate_options(players: Any, options: JSON | None) -> JSON:
    count = player_count(players)
    if count != SEATS:
        raise ValueError(f"Estimation is played by exactly 4 players, not {count}.")
    options = given_options(options, ("length",), "Estimation")
    length = options.get("length", "micro")
    if length not in LENGTHS:
        raise ValueError("Length must be one of: micro, mini, full.")
    return {"length": length}


# ----------------------------------------------------------------------------- setup


def new_game(players: Any, options: JSON | None, seed: int | str) -> State:
    opts = validate_options(players, options)
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise ValueError("The seed must be an int or a str.")
    dealer = seeded_rng(seed, "dealer").randrange(SEATS)  # RULING E1
    given = tuple(players) if isinstance(players, (list, tuple)) else players
    length = opts["length"]
    state = State(
        players=given,
        options=Options(length),
        seed=seed,
        rounds_total=LENGTHS[length],
        totals=(0,) * SEATS,
        saaydeh_streak=0,
        history=(),
    )
    return _start_round(state, 1, dealer)


def scenario(
    hands: list[list[str]] | None = None,
    *,
    dealer: int = 0,
    length: str = "micro",
    round_number: int = 1,
    totals: list[int] | None = None,
    saaydeh_streak: int = 0,
    seed: int | str = 0,
) -> State:
    """A hand-made state at the start of ``round_number`` (for tests and tools).

    ``hands`` are four lists of 13 cards holding the whole deck (default: the seed's deal);
    ``saaydeh_streak`` is the number of Sa'aydeh rounds just before this one (RULING E11).
    The round's kind and trump follow the schedule of ``length``.
    """
    state = new_game(SEATS, {"length": length}, seed)
    state = _replace(state, totals=tuple(totals or (0,) * SEATS), saaydeh_streak=saaydeh_streak)
    state = _start_round(state, round_number, dealer)
    return state if hands is None else with_hands(state, hands)


def with_hands(state: State, hands: list[list[str]]) -> State:
    """A copy of ``state`` whose current deal is ``hands`` (for tests; before any card is played)."""
    if sorted(card for hand in hands for card in hand) != sorted(make_deck()) or any(len(h) != TRICKS for h in hands):
        raise ValueError("Scenario hands must be four hands of 13 cards holding the whole deck.")
    if state.tricks or state.trick:
        raise ValueError("The hands can only be set before the first card is played.")
    sorted_hands = tuple(tuple(sort_hand(hand)) for hand in hands)
    return _replace(state, hands=sorted_hands, dealt=sorted_hands)


def _is_fixed_round(state: State, number: int) -> bool:
    return number > state.rounds_total - len(FIXED_TRUMPS)


def _start_round(state: State, number: int, dealer: int) -> State:
    state = _replace(state, round_number=number, dealer=dealer, earlier_deals=())
    if _is_fixed_round(state, number):
        trump = FIXED_TRUMPS[number - (state.rounds_total - len(FIXED_TRUMPS)) - 1]
        return _deal(state, 1, "fixed", trump)
    return _deal(state, 1, "call", None)


def _deal(state: State, deal_number: int, kind: str, trump: str | None) -> State:
    """Deal ``deal_number`` of the current round and open its first phase."""
    deck = make_deck()
    seeded_rng(state.seed, state.round_number, deal_number).shuffle(deck)
    hands = tuple(tuple(sort_hand(deck[i * TRICKS : (i + 1) * TRICKS])) for i in range(SEATS))
    first = (state.dealer + 1) % SEATS
    order: tuple[int, ...] = ()
    if kind == "call":
        phase = "dash_call"
    else:
        # RULING E6: in a fixed round every seat estimates, from the seat after the dealer.
        phase, order = "estimating", tuple((first + i) % SEATS for i in range(SEATS))
    return _replace(
        state,
        deal_number=deal_number,
        kind=kind,
        trump=trump,
        dealt=hands,
        hands=hands,
        dash_calls=(None if kind == "call" else False,) * SEATS,
        auction=(),
        caller=None,
        call=None,
        estimates=(None,) * SEATS,
        estimate_order=order,
        estimate_log=(),
        super_call=None,
        leader=None,
        trick=(),
        tricks=(),
        tricks_won=(0,) * SEATS,
        avoid=((),) * SEATS,
        multiplier=_multiplier(state.saaydeh_streak),
        phase=phase,
        turn=first,
    )


def _multiplier(streak: int) -> int:
    # RULING E11: one Sa'aydeh doubles the next round, two or more in a row quadruple it.
    return (1, 2, 4)[min(streak, 2)]


# ----------------------------------------------------------------------------- queries


def _given(value: int | None) -> int:
    """A seat the phase guarantees (the turn while the game is on, the caller once the estimates
    begin): None there would be the engine's own mistake."""
    if value is None:
        raise RuntimeError("The Estimation state lacks a seat its phase implies.")
    return value


def _filled(values: Sequence[int | None]) -> list[int]:
    """Per seat values that the phase guarantees are all known (the estimates once play begins)."""
    return [value or 0 for value in values]


def to_act(state: State) -> list[int]:
    return [] if state.phase == "over" or state.turn is None else [state.turn]


def is_over(state: State) -> bool:
    return state.phase == "over"


def legal_actions(state: State, seat: int) -> list[Action]:
    if state.phase == "over" or seat != state.turn:
        return []
    return _LEGAL[state.phase](state, seat)


def _legal_dash(state: State, seat: int) -> list[Action]:
    if _dash_call_count(state) >= MAX_ZEROS:  # RULING E2
        return [{"type": "decline"}]
    return [{"type": "dash_call"}, {"type": "decline"}]


def _legal_auction(state: State, seat: int) -> list[Action]:
    standing = _standing(state)
    floor = _call_key(standing.call if standing else None)
    calls: list[Action] = [
        {"type": "call", "tricks": tricks, "trump": trump}
        for tricks in range(MIN_CALL, TRICKS + 1)
        for trump in reversed(TRUMPS)
        if (tricks, TRUMP_RANK[trump]) > floor
    ]
    passing: list[Action] = [{"type": "pass"}]
    return passing + calls


def _legal_estimate(state: State, seat: int) -> list[Action]:
    actions: list[Action] = []
    fixed = state.kind == "fixed"
    for value in _allowed_estimates(state):
        actions.append({"type": "estimate", "value": value})
        if fixed and value >= SUPER_CALL_MIN:  # RULING E7: a Super Call is optional.
            actions.extend({"type": "estimate", "value": value, "trump": trump} for trump in TRUMPS)
    return actions


def _legal_play(state: State, seat: int) -> list[Action]:
    return [{"type": "play", "card": card} for card in _playable(state, seat)]


_LEGAL: dict[str, Callable[[State, int], list[Action]]] = {
    "dash_call": _legal_dash,
    "auction": _legal_auction,
    "estimating": _legal_estimate,
    "playing": _legal_play,
}


def _dash_call_count(state: State) -> int:
    return sum(1 for called in state.dash_calls if called)


def _standing(state: State) -> Bid | None:
    """The standing call: the auction's last bid that is not a pass."""
    for bid in reversed(state.auction):
        if bid.call is not None:
            return bid
    return None


def _call_key(call: Call | None) -> tuple[int, int]:
    # Below the lowest call (4 clubs) when nothing stands yet.
    return (0, -1) if call is None else (call.tricks, TRUMP_RANK[call.trump])


def _call_label(call: Call | None) -> str:
    return "none" if call is None else f"{call.tricks} {call.trump}"


def _estimate_limit(state: State) -> int:
    return state.call.tricks if state.kind == "call" and state.call is not None else TRICKS


def _zeros(state: State) -> int:
    return sum(1 for value in state.estimates if value == 0)


def _forbidden_estimate(state: State, seat: int) -> int | None:
    """RULING E5: the last estimator may not bring the total to exactly 13."""
    if state.estimate_order[-1] != seat:
        return None
    others = sum(value for s, value in enumerate(state.estimates) if s != seat and value is not None)
    return TRICKS - others


def _allowed_estimates(state: State) -> list[int]:
    forbidden = _forbidden_estimate(state, _given(state.turn))
    values = range(_estimate_limit(state) + 1)
    no_zero = _zeros(state) >= MAX_ZEROS  # Dash Callers already show 0 in "estimates".
    return [v for v in values if v != forbidden and not (v == 0 and no_zero)]


def _led_suit(state: State) -> str | None:
    return suit_of(state.trick[0].card) if state.trick else None


def _playable(state: State, seat: int) -> list[str]:
    hand = state.hands[seat]
    led = _led_suit(state)
    if led is not None:
        following = [card for card in hand if suit_of(card) == led]
        if following:  # RULING E8: follow suit if able.
            return following
    return list(hand)


# ----------------------------------------------------------------------------- apply


_SHAPES: dict[str, tuple[dict[str, type], dict[str, type]]] = {
    "dash_call": ({}, {}),
    "decline": ({}, {}),
    "call": ({"tricks": int, "trump": str}, {}),
    "pass": ({}, {}),
    "estimate": ({"value": int}, {"trump": str}),
    "play": ({"card": str}, {}),
}
_PHASE_OF = {
    "dash_call": "dash_call",
    "decline": "dash_call",
    "call": "auction",
    "pass": "auction",
    "estimate": "estimating",
    "play": "playing",
}
_PHASE_WORDS = {
    "dash_call": "the Dash Calls",
    "auction": "the auction",
    "estimating": "the estimates",
    "playing": "the play",
}


def apply(state: State, seat: int, action: Action) -> State:
    if state.phase == "over":
        raise IllegalAction("The game is over.")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat != state.turn:
        raise IllegalAction("It is not your turn.")
    kind = action.get("type") if isinstance(action, dict) else None
    if not isinstance(kind, str) or kind not in _SHAPES:
        raise IllegalAction("Unknown action.")
    check_action_shape(action, *_SHAPES[kind])
    if _PHASE_OF[kind] != state.phase:
        raise IllegalAction(f"That is not possible now: this is {_PHASE_WORDS[state.phase]}.")
    return _APPLY[kind](state, seat, action)


def _next_seat(seat: int) -> int:
    return (seat + 1) % SEATS


def _apply_dash(state: State, seat: int, action: DashCallAction | DeclineAction) -> State:
    called = action["type"] == "dash_call"
    if called and _dash_call_count(state) >= MAX_ZEROS:
        raise IllegalAction("A Dash Call is not allowed: two players have already Dash Called.")  # RULING E2
    estimates = state.estimates
    if called:
        estimates = _set(estimates, seat, 0)  # A Dash Caller's estimate is 0 and counts toward the zero-limit.
    state = _replace(state, dash_calls=_set(state.dash_calls, seat, called), estimates=estimates)
    if seat != state.dealer:
        return _replace(state, turn=_next_seat(seat))
    # RULING E3: the auction starts with the seat after the dealer, skipping Dash Callers.
    return _replace(state, phase="auction", turn=_next_auction_seat(state, state.dealer))


def _auction_seats(state: State) -> list[int]:
    passed = {bid.seat for bid in state.auction if bid.call is None}
    return [s for s in range(SEATS) if not state.dash_calls[s] and s not in passed]


def _next_auction_seat(state: State, after: int) -> int:
    active = _auction_seats(state)
    seat = _next_seat(after)
    while seat not in active:
        seat = _next_seat(seat)
    return seat


def _apply_call(state: State, seat: int, action: CallAction) -> State:
    tricks, trump = action["tricks"], action["trump"]
    if trump not in TRUMP_RANK:
        raise IllegalAction("The trump must be one of NT, S, H, D, C.")
    if not MIN_CALL <= tricks <= TRICKS:
        raise IllegalAction("A call is 4 to 13 tricks.")
    standing = _standing(state)
    call = standing.call if standing else None
    if (tricks, TRUMP_RANK[trump]) <= _call_key(call):
        raise IllegalAction(
            f"A call must beat the standing call ({_call_label(call)}): more tricks, or the same number "
            "with a higher trump (NT > S > H > D > C)."
        )  # RULING E3
    state = _replace(state, auction=state.auction + (Bid(seat, Call(tricks, trump)),))
    return _after_auction_action(state, seat)


def _apply_pass(state: State, seat: int, action: PassAction) -> State:
    state = _replace(state, auction=state.auction + (Bid(seat, None),))
    return _after_auction_action(state, seat)


def _after_auction_action(state: State, seat: int) -> State:
    active = _auction_seats(state)
    standing = _standing(state)
    if not active:
        return _redeal(state)  # RULING E3, E4: nobody called.
    if standing is not None and active == [standing.seat]:
        return _start_call_estimates(state, standing)
    return _replace(state, turn=_next_auction_seat(state, seat))


def _current_deal_record(state: State) -> DealRecord:
    first = state.dealer + 1
    order = [(first + i) % SEATS for i in range(SEATS)]
    return {
        "hands": [list(hand) for hand in state.dealt],
        "dash_calls": [
            {"seat": s, "dash_call": called}
            for s in order
            if state.kind == "call" and (called := state.dash_calls[s]) is not None
        ],
        "auction": [_bid_json(bid) for bid in state.auction],
    }


def _redeal(state: State) -> State:
    """RULING E1, E4: the same dealer deals again; the fourth deal is the fixed NT round."""
    state = _replace(state, earlier_deals=state.earlier_deals + (_current_deal_record(state),))
    deal_number = state.deal_number + 1
    if deal_number >= DEALS_BEFORE_FIXED:
        return _deal(state, deal_number, "fixed", "NT")
    return _deal(state, deal_number, "call", None)


def _start_call_estimates(state: State, standing: Bid) -> State:
    caller, call = standing.seat, standing.call
    if call is None:
        raise RuntimeError("A pass cannot stand as the call.")
    # The Call's number is the Caller's estimate.
    estimates = _set(state.estimates, caller, call.tricks)
    # RULING E5: from the seat after the Caller, skipping Dash Callers.
    order = tuple((caller + i) % SEATS for i in range(1, SEATS) if not state.dash_calls[(caller + i) % SEATS])
    return _replace(
        state,
        phase="estimating",
        caller=caller,
        call=call,
        trump=call.trump,
        estimates=estimates,
        estimate_order=order,
        turn=order[0],
    )


def _apply_estimate(state: State, seat: int, action: EstimateAction) -> State:
    value = action["value"]
    trump = action.get("trump")
    _check_estimate(state, seat, value, trump)
    estimates = _set(state.estimates, seat, value)
    super_call, trump_in_force = state.super_call, state.trump
    # RULING E7: only a strictly higher Super Call changes the trump in force.
    if trump is not None and (super_call is None or value > super_call.value):
        super_call, trump_in_force = SuperCall(seat, value, trump), trump
    state = _replace(
        state,
        estimates=estimates,
        estimate_log=state.estimate_log + (Estimate(seat, value, trump),),
        super_call=super_call,
        trump=trump_in_force,
    )
    order = state.estimate_order
    if seat != order[-1]:
        return _replace(state, turn=order[order.index(seat) + 1])
    caller = _fixed_caller(state) if state.kind == "fixed" else state.caller
    return _replace(state, phase="playing", caller=caller, leader=caller, turn=caller)  # RULING E8


def _check_estimate(state: State, seat: int, value: int, trump: str | None) -> None:
    limit = _estimate_limit(state)
    if not 0 <= value <= limit:
        reason = "the Call" if state.kind == "call" else "the tricks in a round"
        raise IllegalAction(f"Your estimate must be from 0 to {limit} ({reason}).")  # RULING E5, E6
    if value == 0 and _zeros(state) >= MAX_ZEROS:
        raise IllegalAction("Two players are already on zero: you may not estimate 0.")  # RULING E5
    if value == _forbidden_estimate(state, seat):
        raise IllegalAction(f"You are the last to estimate: {value} would make the estimates total exactly 13.")
    if trump is None:
        return
    if state.kind != "fixed":
        raise IllegalAction("A Super Call is only possible in a fixed round.")  # RULING E7
    if trump not in TRUMP_RANK:
        raise IllegalAction("The trump must be one of NT, S, H, D, C.")
    if value < SUPER_CALL_MIN:
        raise IllegalAction("Only an estimate of 8 or more may name a trump (Super Call).")


def _fixed_caller(state: State) -> int:
    """RULING E6: the highest estimate; on a tie, whoever estimated first."""
    estimates = _filled(state.estimates)
    best = state.estimate_order[0]
    for seat in state.estimate_order:
        if estimates[seat] > estimates[best]:
            best = seat
    return best


def _apply_play(state: State, seat: int, action: PlayAction) -> State:
    card = action["card"]
    hand = state.hands[seat]
    if not is_card(card) or card not in hand:
        raise IllegalAction("You do not hold that card.")
    led = _led_suit(state)
    avoid = state.avoid
    if led is not None and suit_of(card) != led:
        if any(suit_of(c) == led for c in hand):
            raise IllegalAction(f"You must follow suit ({SUIT_NAMES[led]}).")  # RULING E8
        if led not in avoid[seat]:
            # RULING E9: the first failure to follow a suit marks the seat Avoid in it.
            avoid = _set(avoid, seat, avoid[seat] + (led,))
    hands = _set(state.hands, seat, tuple(c for c in hand if c != card))
    trick = state.trick + (Play(seat, card),)
    if len(trick) < SEATS:
        return _replace(state, hands=hands, trick=trick, avoid=avoid, turn=_next_seat(seat))
    return _close_trick(_replace(state, hands=hands, avoid=avoid), trick)


def trick_winner(plays: tuple[Play, ...] | list[Play], trump: str | None) -> int:
    """RULING E8: the highest trump, else the highest card of the suit led (NT: only that)."""
    led = suit_of(plays[0].card)
    trumps = [p for p in plays if trump in SUIT_NAMES and suit_of(p.card) == trump]
    contenders = trumps or [p for p in plays if suit_of(p.card) == led]
    return max(contenders, key=lambda p: rank_value(p.card)).seat


def _close_trick(state: State, plays: tuple[Play, ...]) -> State:
    winner = trick_winner(plays, state.trump)
    tricks = state.tricks + (Trick(_given(state.leader), plays, winner),)
    tricks_won = _set(state.tricks_won, winner, state.tricks_won[winner] + 1)
    state = _replace(state, tricks=tricks, tricks_won=tricks_won, trick=(), leader=winner, turn=winner)
    if len(tricks) < TRICKS:
        return state
    return _finish_round(state)


# ----------------------------------------------------------------------------- scoring


def risk_level(total: int) -> int:
    """RULING E10: by distance from 13: 1 → 0, 2-3 → 1, 4-5 → 2, 6+ → 3."""
    return min(3, abs(total - TRICKS) // 2)


def score_round(
    estimate: list[int],
    tricks_won: list[int],
    dash_call: list[bool],
    caller: int,
    last_estimator: int,
    multiplier: int = 1,
) -> RoundScore:
    """Score one round (RULINGS E10, E11); pure, so the rule book's examples test it directly.

    Returns ``with``, ``risk``, ``over_under``, ``made``, ``saaydeh`` and ``points`` (with
    the multiplier applied).
    """
    total = sum(estimate)
    over = total > TRICKS
    level = risk_level(total)
    made = [tricks_won[s] == estimate[s] for s in range(SEATS)]
    with_ = [s != caller and not dash_call[s] and estimate[s] == estimate[caller] for s in range(SEATS)]
    makers = sum(made)
    saaydeh = makers == 0
    points = [0] * SEATS
    if not saaydeh:  # RULING E11: when all four miss, nobody scores.
        for s in range(SEATS):
            if dash_call[s]:
                # A Dash Call is a flat ±25 (Over) / ±33 (Under), never Caller, With or Risk.
                base = 25 if over else 33
                raw = base if made[s] else -base
            else:
                extras = 10 * (s == caller or with_[s]) + 10 * level * (s == last_estimator)
                if made[s]:
                    raw = 10 + tricks_won[s] + extras
                else:
                    raw = -abs(tricks_won[s] - estimate[s]) - extras
            if made[s] and makers == 1:
                raw += 10  # the only player to make it
            if not made[s] and makers == SEATS - 1:
                raw -= 10  # the only player to miss
            points[s] = raw * multiplier
    return {
        "with": with_,
        "risk": {"seat": last_estimator, "level": level},
        "over_under": "over" if over else "under",
        "made": made,
        "saaydeh": saaydeh,
        "points": points,
    }


def _finish_round(state: State) -> State:
    dash_call = [bool(c) for c in state.dash_calls]
    result = score_round(
        _filled(state.estimates),
        list(state.tricks_won),
        dash_call,
        _given(state.caller),
        state.estimate_order[-1],
        state.multiplier,
    )
    record: EstimationRound = {**_round_record(state), **result}
    totals = tuple(t + p for t, p in zip(state.totals, result["points"]))
    streak = state.saaydeh_streak + 1 if result["saaydeh"] else 0  # RULING E11
    state = _replace(state, history=state.history + (record,), totals=totals, saaydeh_streak=streak)
    if state.round_number >= state.rounds_total:
        return _replace(state, phase="over", turn=None)
    return _start_round(state, state.round_number + 1, _next_seat(state.dealer))  # RULING E1


def placements(totals: Sequence[int]) -> list[list[int]]:
    """RULING E13: highest total first; equal totals share the place."""
    groups: list[list[int]] = []
    for total in sorted(set(totals), reverse=True):
        groups.append([s for s in range(len(totals)) if totals[s] == total])
    return groups


# ----------------------------------------------------------------------------- view & record


def _play_json(play: Play) -> PlayRecord:
    return {"seat": play.seat, "card": play.card}


def _trick_json(leader: int, plays: tuple[Play, ...], winner: int | None) -> TrickRecord:
    return {"leader": leader, "plays": [_play_json(play) for play in plays], "winner": winner}


def _call_json(call: Call) -> CallRecord:
    return {"tricks": call.tricks, "trump": call.trump}


def _super_call_json(super_call: SuperCall) -> JSON:
    return {"seat": super_call.seat, "value": super_call.value, "trump": super_call.trump}


def _bid_json(bid: Bid) -> BidRecord:
    if bid.call is None:
        return {"seat": bid.seat, "pass": True}
    return {"seat": bid.seat, "call": _call_json(bid.call)}


def _estimate_json(estimate: Estimate) -> EstimateRecord:
    if estimate.trump is None:
        return {"seat": estimate.seat, "value": estimate.value}
    return {"seat": estimate.seat, "value": estimate.value, "trump": estimate.trump}


def _round_record(state: State) -> EstimationRound:
    """The current round in docs/design.md's record shape; unknown results are None."""
    tricks = [_trick_json(trick.leader, trick.plays, trick.winner) for trick in state.tricks]
    if state.trick:
        tricks.append(_trick_json(_given(state.leader), state.trick, None))
    return {
        "number": state.round_number,
        "kind": state.kind,
        "dealer": state.dealer,
        "deals": [*state.earlier_deals, _current_deal_record(state)],
        "trump": state.trump,
        "caller": state.caller,
        "estimates": [_estimate_json(estimate) for estimate in state.estimate_log],
        "estimate": list(state.estimates),
        "dash_call": [bool(c) for c in state.dash_calls],
        "with": _with_marks(state),
        "risk": None,
        "over_under": None,
        "multiplier": state.multiplier,
        "tricks": tricks,
        "tricks_won": list(state.tricks_won),
        "made": [None] * SEATS,
        "saaydeh": None,
        "points": [None] * SEATS,
    }


def _with_marks(state: State) -> list[bool]:
    caller = state.caller
    if caller is None:
        return [False] * SEATS
    number = state.estimates[caller]
    return [s != caller and not state.dash_calls[s] and state.estimates[s] == number for s in range(SEATS)]


def _estimates_complete(state: State) -> bool:
    return state.phase in ("playing", "over")


def _live_risk(state: State) -> tuple[str | None, RiskRecord | None]:
    if not _estimates_complete(state):
        return None, None
    total = sum(_filled(state.estimates))
    over_under = "over" if total > TRICKS else "under"
    return over_under, {"seat": state.estimate_order[-1], "level": risk_level(total)}


def sheet_entry(round_record: EstimationRound) -> JSON:
    """A round of the record as the view's score sheet shows it (games.records.estimation adds the rest)."""
    entry: JSON = {
        "number": round_record["number"],
        "kind": round_record["kind"],
        "trump": round_record["trump"],
        "caller": round_record["caller"],
        "dash_call": round_record["dash_call"],
        "estimate": round_record["estimate"],
        "with": round_record["with"],
        "over_under": round_record["over_under"],
        "risk": round_record["risk"],
        "multiplier": round_record["multiplier"],
        "tricks_won": round_record["tricks_won"],
        "made": round_record["made"],
        "saaydeh": round_record["saaydeh"],
        "points": round_record["points"],
    }
    auction = round_record["deals"][-1]["auction"] if round_record["deals"] else []
    last_call = next((e["call"] for e in reversed(auction) if "call" in e), None)
    entry["call"] = dict(last_call) if last_call else None
    return entry


def _standing_json(state: State) -> JSON | None:
    standing = _standing(state)
    if standing is None or standing.call is None:
        return None
    return {"seat": standing.seat, **_call_json(standing.call)}


def view(state: State, seat: int | None) -> JSON:
    over = state.phase == "over"
    over_under, risk = _live_risk(state)
    trump = state.trump
    tricks = state.tricks
    estimates = state.estimates
    return {
        "game": name,
        "players": SEATS,
        "seat": seat,
        "phase": state.phase,
        "to_act": to_act(state),
        "legal_actions": legal_actions(state, seat) if seat is not None else [],
        "hand": sort_hand(state.hands[seat], trump) if seat is not None else None,
        "hand_counts": [len(hand) for hand in state.hands],
        "totals": list(state.totals),
        "round_number": state.round_number,
        "rounds_total": state.rounds_total,
        "over": over,
        "placements": placements(state.totals) if over else [],
        "score_sheet": [sheet_entry(r) for r in state.history],
        "length": state.options.length,
        "dealer": state.dealer,
        "kind": state.kind,
        "deal_number": state.deal_number,
        "dash_calls": list(state.dash_calls),
        "auction": [_bid_json(bid) for bid in state.auction],
        "standing_call": _standing_json(state),
        "caller": state.caller,
        "call": _call_json(state.call) if state.call else None,
        "estimates": list(estimates),
        "estimate_order": list(state.estimate_order),
        "super_call": _super_call_json(state.super_call) if state.super_call else None,
        "with": _with_marks(state),
        "over_under": over_under,
        "risk": risk,
        "trump": trump,
        "trick": {"leader": state.leader, "plays": [_play_json(play) for play in state.trick]}
        if state.phase == "playing"
        else None,
        "last_trick": _trick_json(tricks[-1].leader, tricks[-1].plays, tricks[-1].winner) if tricks else None,
        "played_cards": [p.card for t in tricks for p in t.plays] + [p.card for p in state.trick],
        "tricks_won": list(state.tricks_won),
        "bust": [(estimate := estimates[s]) is not None and state.tricks_won[s] > estimate for s in range(SEATS)],
        "avoid": [list(a) for a in state.avoid],
        "multiplier": state.multiplier,
    }


def record(state: State) -> Record[EstimationRound]:
    rounds = list(state.history)
    if state.phase != "over":
        rounds.append(_round_record(state))
    over = state.phase == "over"
    players = state.players
    written: Record[EstimationRound] = json.loads(
        json.dumps(
            {
                "game": name,
                "players": list(players) if isinstance(players, tuple) else players,
                "options": {"length": state.options.length},
                "seed": state.seed,
                "rounds": rounds,
                "totals": list(state.totals),
                "placements": placements(state.totals) if over else [],
                "over": over,
            }
        )
    )
    return written


# ----------------------------------------------------------------------------- serialisation


def dumps(state: State) -> str:
    # Every field in order; tuples of plain values are written as arrays.
    data = dict(zip(_FIELDS, _field_values(state)))
    data.update(
        options={"length": state.options.length},
        auction=[_bid_json(bid) for bid in state.auction],
        call=_call_json(state.call) if state.call else None,
        estimate_log=[_estimate_json(estimate) for estimate in state.estimate_log],
        super_call=_super_call_json(state.super_call) if state.super_call else None,
        trick=[_play_json(play) for play in state.trick],
        tricks=[_trick_json(trick.leader, trick.plays, trick.winner) for trick in state.tricks],
    )
    return codec.dumps(data)


def _tuples(rows: list[list[Any]]) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(row) for row in rows)


def _call_from(data: JSON) -> Call:
    return Call(data["tricks"], data["trump"])


def _bid_from(data: JSON) -> Bid:
    return Bid(data["seat"], _call_from(data["call"]) if "call" in data else None)


def _plays_from(plays: list[JSON]) -> tuple[Play, ...]:
    return tuple(Play(play["seat"], play["card"]) for play in plays)


def _trick_from(data: JSON) -> Trick:
    return Trick(data["leader"], _plays_from(data["plays"]), data["winner"])


def loads(text: str) -> State:
    data = codec.loads(text)
    players, call, super_call = data["players"], data["call"], data["super_call"]
    return State(
        players=tuple(players) if isinstance(players, list) else players,
        options=Options(data["options"]["length"]),
        seed=data["seed"],
        rounds_total=data["rounds_total"],
        totals=tuple(data["totals"]),
        saaydeh_streak=data["saaydeh_streak"],
        history=tuple(data["history"]),
        round_number=data["round_number"],
        dealer=data["dealer"],
        earlier_deals=tuple(data["earlier_deals"]),
        deal_number=data["deal_number"],
        kind=data["kind"],
        trump=data["trump"],
        dealt=_tuples(data["dealt"]),
        hands=_tuples(data["hands"]),
        dash_calls=tuple(data["dash_calls"]),
        auction=tuple(_bid_from(bid) for bid in data["auction"]),
        caller=data["caller"],
        call=_call_from(call) if call else None,
        estimates=tuple(data["estimates"]),
        estimate_order=tuple(data["estimate_order"]),
        estimate_log=tuple(
            Estimate(estimate["seat"], estimate["value"], estimate.get("trump")) for estimate in data["estimate_log"]
        ),
        super_call=SuperCall(super_call["seat"], super_call["value"], super_call["trump"]) if super_call else None,
        leader=data["leader"],
        trick=_plays_from(data["trick"]),
        tricks=tuple(_trick_from(trick) for trick in data["tricks"]),
        tricks_won=tuple(data["tricks_won"]),
        avoid=_tuples(data["avoid"]),
        multiplier=data["multiplier"],
        phase=data["phase"],
        turn=data["turn"],
    )


# Each is handed only an action of its own type: ``apply`` checked the shape against _SHAPES.
_APPLY: dict[str, Callable[[State, int, Any], State]] = {
    "dash_call": _apply_dash,
    "decline": _apply_dash,
    "call": _apply_call,
    "pass": _apply_pass,
    "estimate": _apply_estimate,
    "play": _apply_play,
}
