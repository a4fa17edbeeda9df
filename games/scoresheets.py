"""Round-by-round score sheets built from a game's record alone (docs/design.md, "The record").

Each game speaks in its own terms: Sitaratas shows cards, trump, bid, tricks and
points per seat; Estimation shows the declarations, Over/Under, Risk, multiplier
and a line explaining every score (``explain_points``, RULING E10); SITA shows the
penalties taken per turn and per match. Only completed rounds appear, so the
sheet's totals equal the record's totals once the game is over.
"""

from __future__ import annotations

from games.engines.estimation import explain_points
from games.engines.sita import penalty


def score_sheet(record: dict) -> dict:
    """``{"game", "rows", "totals", "running"}``: one row per completed round, running totals after each."""
    game = record["game"]
    key = "penalties" if game == "sita" else "points"
    rounds = [r for r in record["rounds"] if _complete(r.get(key))]
    build = {"sitaratas": _sitaratas_row, "estimation": _estimation_row, "sita": _sita_row}[game]
    seats = len(record["totals"])
    totals = [0] * seats
    rows, running = [], []
    for round_record in rounds:
        row = build(round_record, seats)
        totals = [total + points for total, points in zip(totals, round_record[key])]
        for cell, total in zip(row["cells"], totals):
            cell["total"] = total
        rows.append(row)
        running.append(list(totals))
    return {"game": game, "rows": rows, "totals": totals, "running": running}


def _complete(points: list | None) -> bool:
    return isinstance(points, list) and all(isinstance(p, int) for p in points)


def _sitaratas_row(round_record: dict, seats: int) -> dict:
    bids = {entry["seat"]: entry["bid"] for entry in round_record["bids"]}
    cells = []
    for seat in range(seats):
        bid, took = bids.get(seat), round_record["tricks_won"][seat]
        cells.append({"bid": bid, "tricks": took, "exact": bid == took, "points": round_record["points"][seat]})
    return {
        "number": round_record["number"], "cards": round_record["cards"], "dealer": round_record["dealer"],
        "trump": round_record["trump"], "indicator": round_record["indicator"], "cells": cells,
    }


def estimation_call(round_record: dict) -> dict | None:
    """The Call: the last call of the played deal's auction (none in a fixed round)."""
    auction = round_record["deals"][-1]["auction"] if round_record["deals"] else []
    calls = [entry["call"] for entry in auction if "call" in entry]
    return calls[-1] if calls else None


def _estimation_row(round_record: dict, seats: int) -> dict:
    risk = round_record["risk"] or {}
    super_calls = {e["seat"]: e["trump"] for e in round_record["estimates"] if e.get("trump")}
    cells = []
    for seat in range(seats):
        cells.append({
            "estimate": round_record["estimate"][seat],
            "dash_call": round_record["dash_call"][seat],
            "caller": seat == round_record["caller"],
            "with": round_record["with"][seat],
            "risk": risk.get("level", 0) if risk.get("seat") == seat else 0,
            "super_call": super_calls.get(seat),
            "tricks": round_record["tricks_won"][seat],
            "made": round_record["made"][seat],
            "points": round_record["points"][seat],
            "line": explain_points(round_record, seat),
        })
    return {
        "number": round_record["number"], "kind": round_record["kind"], "dealer": round_record["dealer"],
        "trump": round_record["trump"], "caller": round_record["caller"], "call": estimation_call(round_record),
        "redeals": max(0, len(round_record["deals"]) - 1),
        "dash_callers": [seat for seat in range(seats) if round_record["dash_call"][seat]],
        "estimate_total": sum(round_record["estimate"]), "over_under": round_record["over_under"],
        "risk": risk if risk.get("level") else None, "multiplier": round_record["multiplier"],
        "saaydeh": round_record["saaydeh"], "cells": cells,
    }


def _sita_row(round_record: dict, seats: int) -> dict:
    turns = []
    for number, turn in enumerate(round_record["turns"], start=1):
        taken = [0] * seats
        for placement in turn["placements"]:
            taken[placement["seat"]] += sum(penalty(card) for card in placement["took"])
        turns.append({"number": number, "penalties": taken})
    cells = [{"points": round_record["penalties"][seat]} for seat in range(seats)]
    return {"number": round_record["number"], "turns": turns, "cells": cells}
