"""A game replayed: its state rebuilt from the seed and the action log (the log is the truth),
and the replay steps the history page shows, from the record alone (RULING P2: only a finished
game's)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar

from games.engines.cards import sort_hand
from games.engines.contract import JSON, ActionT, Engine, Record, RoundT, StateT, TrickRecord
from games.records.sheet import complete

if TYPE_CHECKING:  # only mypy reads the annotations: the record checker needs no more than the standard library
    from typing_extensions import ReadOnly


class TrickRound(TypedDict):
    """What ``trick_steps`` reads of a trick game's round (``SitaratasRound``, ``EstimationRound``).
    Read-only, so a round whose points are narrower (Sitaratas': never None) is one too."""

    trump: ReadOnly[str | None]
    tricks: ReadOnly[list[TrickRecord]]
    points: ReadOnly[Sequence[int | None]]


TrickRoundT = TypeVar("TrickRoundT", bound=TrickRound)

# A round's hands as dealt and what each seat declared (its bid, its estimate).
Deal = Callable[[TrickRoundT, int], tuple[list[list[str]], list[int | None]]]


def rebuild(
    engine: Engine[StateT, ActionT, RoundT],
    players: Any,
    options: JSON,
    seed: int,
    actions: Iterable[tuple[int, ActionT]],
) -> StateT:
    """The state after ``actions`` (seat, action), in order, from the game's deal."""
    state = engine.new_game(players, options, seed)
    for seat, action in actions:
        state = engine.apply(state, seat, action)
    return state


def trick_steps(record: Record[TrickRoundT], deal: Deal[TrickRoundT]) -> list[JSON]:
    """Per round a deal, then one step per trick, each hand as held when the trick began.

    ``deal(round_record, seats)`` gives the round's hands and what each seat declared."""
    steps: list[JSON] = []
    seats = len(record["totals"])
    totals = [0] * seats
    for round_record in record["rounds"]:
        hands, declared = deal(round_record, seats)
        trump = round_record["trump"]
        common = {"round": round_record, "declared": declared, "totals_before": list(totals)}
        won = [0] * seats
        steps.append(
            {
                **common,
                "kind": "deal",
                "hands": [sort_hand(h, trump) for h in hands],
                "trick": None,
                "trick_number": 0,
                "won": list(won),
            }
        )
        tricks = round_record["tricks"]
        points = round_record.get("points")
        scored = points if complete(points) else None  # the round's points, once it is scored
        for number, trick in enumerate(tricks, start=1):
            held = [sort_hand(h, trump) for h in hands]
            for play in trick["plays"]:
                hands[play["seat"]].remove(play["card"])
            winner = trick.get("winner")
            if winner is not None:
                won[winner] += 1
            played = {play["seat"]: play["card"] for play in trick["plays"]}
            last = number == len(tricks) and scored is not None
            steps.append(
                {
                    **common,
                    "kind": "trick",
                    "hands": held,
                    "played": played,
                    "trick": trick,
                    "trick_number": number,
                    "trick_count": len(tricks),
                    "won": list(won),
                    "points": scored if last else None,
                }
            )
        if scored is not None:
            totals = [t + p for t, p in zip(totals, scored)]
    return steps
