"""SITA's part of the records: score-sheet rows (a match's penalties, turn by turn where the
record has the turns), replay steps and the profile's figures."""

from __future__ import annotations

from games.engines.contract import JSON, Record
from games.engines.sita import SitaRound, TurnRecord, penalty
from games.records import gettext_noop
from games.records.sheet import complete

POINTS = "penalties"


def turn_penalties(turn: TurnRecord, seats: int) -> list[int]:
    """The penalty points each seat took in one turn."""
    taken = [0] * seats
    for placement in turn["placements"]:
        taken[placement["seat"]] += sum(penalty(card) for card in placement["took"])
    return taken


def sheet_entry(round_record: SitaRound) -> JSON:
    """A record round (one match) as a score-sheet entry, with its turns' penalties."""
    seats = len(round_record["hands"])
    return {
        "number": round_record["number"],
        "penalties": round_record["penalties"],
        "turns": [turn_penalties(turn, seats) for turn in round_record["turns"]],
    }


def sheet_row(entry: JSON, seats: int) -> JSON:
    # The engine view's entries have no turns: the live table shows only this match's turns.
    turns = [{"number": number, "penalties": taken} for number, taken in enumerate(entry.get("turns", []), start=1)]
    return {
        "number": entry["number"],
        "turns": turns,
        "cells": [{"points": entry["penalties"][seat]} for seat in range(seats)],
    }


def replay_steps(record: Record[SitaRound]) -> list[JSON]:
    """Per match a deal, then one step per turn: the rows before and after it and what each took."""
    steps: list[JSON] = []
    seats = len(record["totals"])
    totals = [0] * seats
    for round_record in record["rounds"]:
        hands = [sorted(hand) for hand in round_record["hands"]]
        taken = [0] * seats
        common = {"round": round_record, "totals_before": list(totals)}
        steps.append(
            {
                **common,
                "kind": "deal",
                "hands": [list(h) for h in hands],
                "rows": round_record["rows"],
                "turn": None,
                "turn_number": 0,
                "taken": list(taken),
            }
        )
        rows_before = round_record["rows"]
        for number, turn in enumerate(round_record["turns"], start=1):
            held = [list(h) for h in hands]
            for seat, card in enumerate(turn["chosen"]):
                if card is not None and card in hands[seat]:
                    hands[seat].remove(card)
            taken = [before + now for before, now in zip(taken, turn_penalties(turn, seats))]
            steps.append(
                {
                    **common,
                    "kind": "turn",
                    "hands": held,
                    "rows_before": rows_before,
                    "rows": turn["rows"],
                    "turn": turn,
                    "turn_number": number,
                    "turn_count": len(round_record["turns"]),
                    "taken": list(taken),
                }
            )
            rows_before = turn["rows"]
        if complete(round_record.get("penalties")):
            totals = [t + p for t, p in zip(totals, round_record["penalties"])]
    return steps


def profile_figures(played: list[tuple[Record[SitaRound], int]]) -> list[tuple[str, str]]:
    """For a player's finished games (record, seat): the average penalty per match."""
    penalties = [r["penalties"][seat] for record, seat in played for r in record["rounds"] if r.get("penalties")]
    average = f"{sum(penalties) / len(penalties):.1f}" if penalties else "—"
    return [(gettext_noop("Average penalty per match"), average), (gettext_noop("Matches"), str(len(penalties)))]
