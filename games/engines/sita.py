"""SITA: 104 numbered cards, four rows, simultaneous secret choices (rule book 004, rulings T1–T6).

Design
------
The state is a frozen dataclass of tuples; ``apply`` returns a new one with
``dataclasses.replace`` and never touches its input. A match flows like this:

* ``choosing`` — every seat that has not chosen is in ``to_act`` at once. A choice is
  locked (RULING T2): the card stays in the hand (so the hand counts stay equal and
  reveal nothing) but ``chosen[seat]`` is set and only that seat's view shows it.
* reveal — when the last seat chooses, every chosen card leaves its hand and the cards
  are placed from lowest to highest (RULING T3). Only the lowest card can be too low
  (RULING T4): then the game pauses in phase ``taking`` with ``to_act`` = its owner
  alone, who answers ``{"type": "take_row", "row": r}``; the rest of the turn is placed
  right after that choice.
* after ten turns the match ends; with more matches to play (RULING T6) the next one
  is dealt at once from ``seeded_rng(seed, match_number)``, the tally kept.

History (for ``record``) is kept in the record's shape (``TurnRecord``, ``SitaRound``): JSON-ready
dicts that are never mutated once made.

View keys (``view(state, seat)``; every value JSON-ready)
---------------------------------------------------------
``game`` "sita" · ``players`` count · ``seat`` viewer or None · ``phase`` "choosing" |
"taking" (a too-low card's owner is choosing a row) | "over" · ``to_act`` seats awaited ·
``legal_actions`` the viewer's legal actions ([] for spectators) · ``hand`` the viewer's
cards ascending (a locked choice is still in it until the reveal; None for spectators) ·
``my_choice`` the viewer's locked card this turn or None · ``hand_counts`` cards per seat ·
``round_number`` current match (1-based) · ``rounds_total`` matches in the game ·
``turn`` 1..10 within the match · ``turns_total`` 10 · ``rows`` the four rows (lists of
cards, oldest first) · ``row_penalties`` penalty total per row · ``chosen`` per seat bool:
has chosen this turn (never the card) · ``revealed`` the last revealed turn of this match (None
before its first reveal):
``{"match", "turn", "chosen": [card per seat], "placements": [{"seat", "card", "row",
"took": [cards], "too_low"}]}`` (placements is [] while a too-low row choice is awaited) ·
``pending_too_low`` ``{"seat", "card"}`` while that seat must take a row, else None ·
``taken`` per seat the penalty cards taken this match · ``penalties`` this match's points
per seat · ``turn_penalties`` this match's points per seat for each finished turn ·
``totals`` the running tally (earlier matches plus this one) · ``match_penalties`` per
finished match the points per seat · ``score_sheet`` per finished match
``{"number", "penalties", "totals"}`` (totals after that match) · ``placements`` groups of
tied seats, fewest points first ([] until over) · ``over`` bool.

Tests build hand-made positions with :func:`scenario`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from games.engines import IllegalAction, codec
from games.engines.cards import check_action_shape, seeded_rng
from games.engines.contract import JSON, Record
from games.engines.options import given_options, player_count

name = "sita"
min_players = 2
max_players = 10

DECK_SIZE = 104
HAND_SIZE = 10  # RULING T1: ten cards each, so ten turns a match.
ROW_COUNT = 4
ROW_LIMIT = 5  # RULING T3: the sixth card takes the row's five cards.
DEFAULT_OPTIONS = {"matches": 1}
MAX_MATCHES = 10


def penalty(card: int) -> int:
    """The penalty points of a card (RULING T5)."""
    if card == 55:
        return 7
    if card % 11 == 0 and card < 100:
        return 5
    if card % 10 == 0:
        return 3
    if card % 10 == 5:
        return 2
    return 1


PENALTY = (0,) + tuple(penalty(card) for card in range(1, DECK_SIZE + 1))

Row = tuple[int, ...]


class ChooseAction(TypedDict):
    type: Literal["choose"]
    card: int


class TakeRowAction(TypedDict):
    type: Literal["take_row"]
    row: int  # 0-3


Action = ChooseAction | TakeRowAction


# The record's round, one per match (docs/design.md, "The record").


class PlacementRecord(TypedDict):
    seat: int
    card: int
    row: int  # 0-3
    took: list[int]  # the cards the seat took with it, [] for none
    too_low: bool  # RULING T4: the seat chose the row


class TurnRecord(TypedDict):
    chosen: list[int | None]  # the card per seat (every seat's, once the turn is placed)
    placements: list[PlacementRecord]  # in placement order
    rows: list[list[int]]  # after the turn


class SitaRound(TypedDict):
    number: int
    hands: list[list[int]]  # per seat, as dealt
    rows: list[list[int]]  # at the start of the match
    turns: list[TurnRecord]
    penalties: list[int]  # per seat, this match so far


@dataclass(frozen=True)
class State:
    players_given: int | tuple[str, ...]  # As given to new_game, for the record.
    n: int
    matches: int
    seed: int | str
    match: int  # 1-based number of the current (or, when over, the last) match.
    turn: int  # 1-based turn within the match.
    hands: tuple[tuple[int, ...], ...]
    rows: tuple[Row, ...]
    chosen: tuple[int | None, ...]  # Locked, unrevealed choices of this turn.
    pending: tuple[int, int] | None  # (seat, card) of a too-low card awaiting take_row.
    taken: tuple[tuple[int, ...], ...]  # Penalty cards taken this match, per seat.
    earlier: tuple[int, ...]  # Tally of the finished matches before this one.
    dealt: tuple[tuple[int, ...], ...]  # Hands as dealt this match (record only).
    start_rows: tuple[Row, ...]
    turns: tuple[TurnRecord, ...]  # Finished turns of this match.
    past: tuple[SitaRound, ...]  # Record rounds of finished matches before this one.
    over: bool = False


# ---------------------------------------------------------------- setup


def validate_options(players: Any, options: JSON | None) -> JSON:
    """The full options ``{"matches": 1..10}``; ValueError for anything else (RULING T6)."""
    count = player_count(players)
    if not min_players <= count <= max_players:
        raise ValueError(f"SITA needs {min_players} to {max_players} players, not {count}.")
    options = given_options(options, DEFAULT_OPTIONS, "SITA")
    matches = options.get("matches", DEFAULT_OPTIONS["matches"])
    if not isinstance(matches, int) or isinstance(matches, bool) or not 1 <= matches <= MAX_MATCHES:
        raise ValueError(f"The number of matches must be a whole number from 1 to {MAX_MATCHES}.")
    return {"matches": matches}


def _deal(seed: int | str, match: int, n: int) -> tuple[tuple[tuple[int, ...], ...], tuple[Row, ...]]:
    """A fresh shuffle per match (RULING T6): 10 cards a seat, then 4 row starters."""
    deck = list(range(1, DECK_SIZE + 1))
    seeded_rng(seed, "sita", match).shuffle(deck)
    hands = tuple(tuple(sorted(deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE])) for seat in range(n))
    starters = deck[n * HAND_SIZE : n * HAND_SIZE + ROW_COUNT]
    return hands, tuple((card,) for card in starters)


def new_game(players: Any, options: JSON | None, seed: int | str) -> State:
    opts = validate_options(players, options)
    if not isinstance(seed, (int, str)) or isinstance(seed, bool):
        raise ValueError("The seed must be an integer or a string.")
    n = player_count(players)
    hands, rows = _deal(seed, 1, n)
    given = tuple(players) if isinstance(players, (list, tuple)) else players
    return _fresh_match(given, n, opts["matches"], seed, 1, hands, rows, (0,) * n, ())


def _fresh_match(
    given: Any,
    n: int,
    matches: int,
    seed: int | str,
    match: int,
    hands: tuple[tuple[int, ...], ...],
    rows: tuple[Row, ...],
    earlier: tuple[int, ...],
    past: tuple[SitaRound, ...],
    turn: int = 1,
) -> State:
    return State(
        players_given=given,
        n=n,
        matches=matches,
        seed=seed,
        match=match,
        turn=turn,
        hands=hands,
        rows=rows,
        chosen=(None,) * n,
        pending=None,
        taken=((),) * n,
        earlier=earlier,
        dealt=hands,
        start_rows=rows,
        turns=(),
        past=past,
    )


def scenario(
    hands: list[list[int]],
    rows: list[list[int]],
    *,
    matches: int = 1,
    match: int = 1,
    turn: int | None = None,
    totals: list[int] | None = None,
    seed: int | str = 0,
) -> State:
    """A hand-made state at the start of a turn, for tests and puzzles.

    ``hands`` gives each seat's cards (the player count is its length), ``rows`` the four
    rows. ``turn`` defaults to the one the hand size implies (10 cards → turn 1);
    ``totals`` are the tallies of earlier matches. Later matches are dealt from ``seed``.
    Cards are not checked for uniqueness, so keep them distinct.
    """
    n = len(hands)
    validate_options(n, {"matches": matches})
    if len(rows) != ROW_COUNT or not all(1 <= len(row) <= ROW_LIMIT for row in rows):
        raise ValueError("A position needs four rows of one to five cards.")
    sized = {len(hand) for hand in hands}
    if len(sized) != 1 or not 1 <= sized.pop() <= HAND_SIZE:
        raise ValueError("Every hand must hold the same number of cards, 1 to 10.")
    hand_tuple = tuple(tuple(sorted(hand)) for hand in hands)
    earlier = tuple(totals) if totals is not None else (0,) * n
    turn = HAND_SIZE - len(hand_tuple[0]) + 1 if turn is None else turn
    return _fresh_match(n, n, matches, seed, match, hand_tuple, tuple(tuple(r) for r in rows), earlier, (), turn)


# ---------------------------------------------------------------- queries


def is_over(state: State) -> bool:
    return state.over


def to_act(state: State) -> list[int]:
    if state.over:
        return []
    if state.pending is not None:
        return [state.pending[0]]  # RULING T4: placement waits for this seat alone.
    return [seat for seat, card in enumerate(state.chosen) if card is None]


def legal_actions(state: State, seat: int) -> list[Action]:
    if seat not in to_act(state):
        return []
    if state.pending is not None:
        return [{"type": "take_row", "row": row} for row in range(ROW_COUNT)]
    return [{"type": "choose", "card": card} for card in state.hands[seat]]


def penalties(state: State) -> list[int]:
    """This match's penalty points per seat."""
    return [sum(PENALTY[card] for card in cards) for cards in state.taken]


def totals(state: State) -> list[int]:
    """The running tally: earlier matches plus this one (RULING T6)."""
    return [before + now for before, now in zip(state.earlier, penalties(state))]


def placements(state: State) -> list[list[int]]:
    """Fewest points first; equal totals share the place (RULING T6). [] until over."""
    if not state.over:
        return []
    tally = totals(state)
    groups: list[list[int]] = []
    for value in sorted(set(tally)):
        groups.append([seat for seat in range(state.n) if tally[seat] == value])
    return groups


# ---------------------------------------------------------------- actions


def apply(state: State, seat: int, action: Action) -> State:
    _check_seat(state, seat)
    if not isinstance(action, dict) or action.get("type") not in ("choose", "take_row"):
        raise IllegalAction("Unknown action: expected 'choose' or 'take_row'.")
    if action["type"] == "choose":
        check_action_shape(action, {"type": str, "card": int})
        return _choose(state, seat, action["card"])
    check_action_shape(action, {"type": str, "row": int})
    return _take_row(state, seat, action["row"])


def _check_seat(state: State, seat: Any) -> None:
    if state.over:
        raise IllegalAction("The game is over.")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n:
        raise IllegalAction("There is no such seat.")


def _choose(state: State, seat: int, card: int) -> State:
    if state.pending is not None:
        raise IllegalAction(f"Waiting for seat {state.pending[0]} to choose a row to take.")
    if state.chosen[seat] is not None:
        raise IllegalAction("Your choice is locked: you have already chosen a card this turn.")  # RULING T2
    if card not in state.hands[seat]:
        raise IllegalAction(f"You do not hold card {card}.")
    chosen = state.chosen[:seat] + (card,) + state.chosen[seat + 1 :]
    state = replace(state, chosen=chosen)
    if None in chosen:
        return state
    return _reveal(state)


def _take_row(state: State, seat: int, row: int) -> State:
    if state.pending is None:
        raise IllegalAction("No row is to be taken now: choose a card.")
    if seat != state.pending[0]:
        raise IllegalAction(f"It is not your turn: seat {state.pending[0]} chooses a row to take.")
    if not 0 <= row < ROW_COUNT:
        raise IllegalAction("The row must be 0, 1, 2 or 3.")
    card = state.pending[1]
    took = state.rows[row]
    rows = _set_row(state.rows, row, (card,))
    taken = _add_taken(state.taken, seat, took)
    first: PlacementRecord = {"seat": seat, "card": card, "row": row, "took": list(took), "too_low": True}
    return _place_rest(replace(state, pending=None), rows, taken, [first])


def _reveal(state: State) -> State:
    """RULING T3: all cards are revealed, then placed lowest first."""
    chosen = tuple(card for card in state.chosen if card is not None)  # every seat's, by now
    hands = tuple(tuple(c for c in hand if c != chosen[seat]) for seat, hand in enumerate(state.hands))
    state = replace(state, hands=hands)
    lowest = min(chosen)
    if lowest < min(row[-1] for row in state.rows):
        # RULING T4: only the lowest card can be too low; its owner picks the row first.
        return replace(state, pending=(chosen.index(lowest), lowest))
    return _place_rest(state, state.rows, state.taken, [])


def _place_rest(
    state: State, rows: tuple[Row, ...], taken: tuple[tuple[int, ...], ...], placed: list[PlacementRecord]
) -> State:
    """Place the turn's cards not yet placed, ascending, then close the turn."""
    done = {entry["card"] for entry in placed}
    order = sorted((card, seat) for seat, card in enumerate(state.chosen) if card is not None and card not in done)
    for card, seat in order:
        row = target_row(rows, card)
        assert row is not None, "only the lowest card can be too low"
        took: tuple[int, ...] = ()
        if len(rows[row]) == ROW_LIMIT:
            took = rows[row]  # The sixth card takes the five (RULING T3).
            rows = _set_row(rows, row, (card,))
            taken = _add_taken(taken, seat, took)
        else:
            rows = _set_row(rows, row, rows[row] + (card,))
        placed.append({"seat": seat, "card": card, "row": row, "took": list(took), "too_low": False})
    turn_record: TurnRecord = {
        "chosen": list(state.chosen),
        "placements": placed,
        "rows": [list(row) for row in rows],
    }
    state = replace(state, rows=rows, taken=taken, chosen=(None,) * state.n, turns=state.turns + (turn_record,))
    if state.hands[0]:
        return replace(state, turn=state.turn + 1)
    return _end_match(state)


def target_row(rows: Sequence[Sequence[int]], card: int) -> int | None:
    """The row whose last card is the closest below ``card``; None when it is too low."""
    best = None
    best_end = 0
    for index, row in enumerate(rows):
        end = row[-1]
        if best_end < end < card:
            best, best_end = index, end
    return best


def _set_row(rows: tuple[Row, ...], index: int, row: Row) -> tuple[Row, ...]:
    return rows[:index] + (row,) + rows[index + 1 :]


def _add_taken(taken: tuple[tuple[int, ...], ...], seat: int, cards: Row) -> tuple[tuple[int, ...], ...]:
    return taken[:seat] + (taken[seat] + tuple(cards),) + taken[seat + 1 :]


def _end_match(state: State) -> State:
    """RULING T6: keep the tally; deal the next match fresh, or end the game."""
    if state.match >= state.matches:
        return replace(state, over=True)
    past = state.past + (_round_record(state),)
    hands, rows = _deal(state.seed, state.match + 1, state.n)
    return _fresh_match(
        state.players_given,
        state.n,
        state.matches,
        state.seed,
        state.match + 1,
        hands,
        rows,
        tuple(totals(state)),
        past,
    )


# ---------------------------------------------------------------- view


def _phase(state: State) -> str:
    if state.over:
        return "over"
    return "taking" if state.pending is not None else "choosing"


def _revealed(state: State) -> JSON | None:
    """The last revealed turn of this match; never a choice made before every seat has chosen (RULING T2).

    None at a match's first turn: the previous match's cards would mix with the new deal.
    """
    if state.pending is not None:
        return {"match": state.match, "turn": state.turn, "chosen": list(state.chosen), "placements": []}
    if state.turns:
        turn = state.turns[-1]
        number = state.turn if state.over else state.turn - 1
        return {
            "match": state.match,
            "turn": number,
            "chosen": list(turn["chosen"]),
            "placements": [dict(p, took=list(p["took"])) for p in turn["placements"]],
        }
    return None


def _turn_penalties(turns: Sequence[TurnRecord], n: int) -> list[list[int]]:
    result = []
    for turn in turns:
        points = [0] * n
        for placement in turn["placements"]:
            points[placement["seat"]] += sum(PENALTY[card] for card in placement["took"])
        result.append(points)
    return result


def _finished_rounds(state: State) -> list[SitaRound]:
    return list(state.past) + ([_round_record(state)] if state.over else [])


def _score_sheet(state: State) -> list[JSON]:
    sheet = []
    running = [0] * state.n
    for entry in _finished_rounds(state):
        running = [a + b for a, b in zip(running, entry["penalties"])]
        sheet.append({"number": entry["number"], "penalties": list(entry["penalties"]), "totals": list(running)})
    return sheet


def view(state: State, seat: int | None) -> JSON:
    if seat is not None and (not isinstance(seat, int) or not 0 <= seat < state.n):
        raise ValueError("There is no such seat.")
    sheet = _score_sheet(state)
    # Between turns the locked choice is the viewer's own secret; others learn only "chosen".
    my_choice = state.chosen[seat] if seat is not None and state.pending is None else None
    return {
        "game": name,
        "players": state.n,
        "seat": seat,
        "phase": _phase(state),
        "to_act": to_act(state),
        "legal_actions": legal_actions(state, seat) if seat is not None else [],
        "hand": list(state.hands[seat]) if seat is not None else None,
        "my_choice": my_choice,
        "hand_counts": [len(hand) for hand in state.hands],
        "round_number": state.match,
        "rounds_total": state.matches,
        "turn": state.turn,
        "turns_total": HAND_SIZE,
        "rows": [list(row) for row in state.rows],
        "row_penalties": [sum(PENALTY[card] for card in row) for row in state.rows],
        "chosen": [card is not None for card in state.chosen] if state.pending is None else [True] * state.n,
        "revealed": _revealed(state),
        "pending_too_low": {"seat": state.pending[0], "card": state.pending[1]} if state.pending else None,
        "taken": [list(cards) for cards in state.taken],
        "penalties": penalties(state),
        "turn_penalties": _turn_penalties(state.turns, state.n),
        "totals": totals(state),
        "match_penalties": [entry["penalties"] for entry in sheet],
        "score_sheet": sheet,
        "placements": placements(state),
        "over": state.over,
    }


# ---------------------------------------------------------------- record and storage


def _round_record(state: State) -> SitaRound:
    return {
        "number": state.match,
        "hands": [list(hand) for hand in state.dealt],
        "rows": [list(row) for row in state.start_rows],
        "turns": [turn.copy() for turn in state.turns],
        "penalties": penalties(state),
    }


def record(state: State) -> Record[SitaRound]:
    """docs/design.md's record: one round per match, hidden cards included (for history)."""
    given = state.players_given
    return {
        "game": name,
        "players": list(given) if isinstance(given, tuple) else given,
        "options": {"matches": state.matches},
        "seed": state.seed,
        "rounds": [json.loads(json.dumps(entry)) for entry in state.past]
        + [json.loads(json.dumps(_round_record(state)))],
        "totals": totals(state),
        "placements": placements(state),
        "over": state.over,
    }


_TUPLE_FIELDS = ("hands", "rows", "taken", "dealt", "start_rows")


def dumps(state: State) -> str:
    data = {field: getattr(state, field) for field in State.__dataclass_fields__}
    return codec.dumps(data, sort_keys=True)


def loads(text: str) -> State:
    data = codec.loads(text)
    for field in _TUPLE_FIELDS:
        data[field] = tuple(tuple(item) for item in data[field])
    for field in ("chosen", "earlier", "turns", "past"):
        data[field] = tuple(data[field])
    if isinstance(data["players_given"], list):
        data["players_given"] = tuple(data["players_given"])
    if data["pending"] is not None:
        data["pending"] = tuple(data["pending"])
    return State(**data)
