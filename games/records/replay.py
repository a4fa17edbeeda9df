"""A game replayed: its state rebuilt from the seed and the action log (the log is the truth),
and the replay steps the history page shows, from the record alone (RULING P2: only a finished
game's)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from games.engines.cards import sort_hand
from games.engines.contract import JSON, ActionT, Engine, Record, StateT
from games.records.sheet import complete

Deal = Callable[[JSON, int], tuple[list[list[str]], list[Any]]]


def rebuild(
    engine: Engine[StateT, ActionT], players: Any, options: JSON, seed: int, actions: Iterable[tuple[int, ActionT]]
) -> StateT:
    """The state after ``actions`` (seat, action), in order, from the game's deal."""
    state = engine.new_game(players, options, seed)
    for seat, action in actions:
        state = engine.apply(state, seat, action)
    return state


def trick_steps(record: Record, deal: Deal) -> list[JSON]:
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
        scored = complete(round_record.get("points"))
        for number, trick in enumerate(tricks, start=1):
            held = [sort_hand(h, trump) for h in hands]
            for play in trick["plays"]:
                hands[play["seat"]].remove(play["card"])
            if trick.get("winner") is not None:
                won[trick["winner"]] += 1
            played = {play["seat"]: play["card"] for play in trick["plays"]}
            last = number == len(tricks) and scored
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
                    "points": round_record["points"] if last else None,
                }
            )
        if scored:
            totals = [t + p for t, p in zip(totals, round_record["points"])]
    return steps
