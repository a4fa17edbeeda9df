"""Estimation's part of the records: score-sheet rows, the note that explains each score
(RULING E10), replay deals and the profile's figures."""

from __future__ import annotations

from games.engines.contract import JSON, Record
from games.engines.estimation import SEATS, EstimationRound
from games.engines.estimation import sheet_entry as view_entry
from games.records import gettext_noop, rate
from games.records.replay import trick_steps

POINTS = "points"
RISK_NAMES = {1: gettext_noop("Risk"), 2: gettext_noop("Double Risk"), 3: gettext_noop("Triple Risk")}
DASH_CALL = {
    (True, "over"): gettext_noop("Dash Call made in an Over round"),
    (False, "over"): gettext_noop("Dash Call missed in an Over round"),
    (True, "under"): gettext_noop("Dash Call made in an Under round"),
    (False, "under"): gettext_noop("Dash Call missed in an Under round"),
}
DASH_CALL_POINTS = {"over": 25, "under": 33}  # RULING E9


def sheet_entry(round_record: EstimationRound) -> JSON:
    """A record round as a score-sheet entry: the engine view's entry, and what only the record
    keeps (the dealer, the redeals, the Super Calls)."""
    entry = view_entry(round_record)
    entry["dealer"] = round_record["dealer"]
    entry["redeals"] = max(0, len(round_record["deals"]) - 1)
    entry["super_calls"] = {e["seat"]: e["trump"] for e in round_record["estimates"] if e.get("trump")}
    return entry


def sheet_row(entry: JSON, seats: int) -> JSON:
    risk = entry["risk"] or {}
    super_calls = entry.get("super_calls", {})
    cells = [
        {
            "estimate": entry["estimate"][seat],
            "dash_call": entry["dash_call"][seat],
            "caller": seat == entry["caller"],
            "with": entry["with"][seat],
            "risk": risk.get("level", 0) if risk.get("seat") == seat else 0,
            "super_call": super_calls.get(seat),
            "tricks": entry["tricks_won"][seat],
            "made": entry["made"][seat],
            "points": entry["points"][seat],
            "note": points_note(entry, seat),
        }
        for seat in range(seats)
    ]
    return {
        "number": entry["number"],
        "kind": entry["kind"],
        "dealer": entry.get("dealer"),
        "trump": entry["trump"],
        "caller": entry["caller"],
        "call": entry["call"],
        "redeals": entry.get("redeals", 0),
        "dash_callers": [seat for seat in range(seats) if entry["dash_call"][seat]],
        "estimate_total": sum(entry["estimate"]),
        "over_under": entry["over_under"],
        "risk": risk if risk.get("level") else None,
        "multiplier": entry["multiplier"],
        "saaydeh": entry["saaydeh"],
        "cells": cells,
    }


def points_note(entry: JSON, seat: int) -> list[tuple[str, JSON | None]]:
    """One seat's points in a round explained, as parts: ``(message, values)`` to translate and
    fill, or ``(text, None)`` to write as it is. Joined in English (``explain_points``):
    ``"+27: made 7 (10 + 7) + 10 Caller"``, ``"-12: missed 5, took 3 (-2) - 10 Caller"``,
    ``"+33: Dash Call made in an Under round"``, ``"0: Sa'aydeh, all four missed"``."""
    if entry["saaydeh"]:
        return [("0: ", None), (gettext_noop("Sa'aydeh, all four missed"), {})]
    made = entry["made"][seat]
    took, estimate = entry["tricks_won"][seat], entry["estimate"][seat]
    sign = "+" if made else "-"
    parts: list[tuple[str, JSON | None]] = [(f"{entry['points'][seat]:+d}: ", None)]
    extras: list[tuple[int, str]] = []
    if entry["dash_call"][seat]:
        kind = "over" if entry["over_under"] == "over" else "under"
        parts.append((DASH_CALL[made, kind], {}))
        base = f" ({sign}{DASH_CALL_POINTS[kind]})"
    else:
        if made:
            parts.append((gettext_noop("made %(took)s (10 + %(took)s)"), {"took": took}))
        else:
            parts.append(
                (
                    gettext_noop("missed %(estimate)s, took %(took)s (-%(off)s)"),
                    {"estimate": estimate, "took": took, "off": abs(took - estimate)},
                )
            )
        base = ""
        extras = _caller_and_risk(entry, seat)
    makers = sum(entry["made"])
    if made and makers == 1:
        extras.append((10, gettext_noop("only winner")))
    if not made and makers == SEATS - 1:
        extras.append((10, gettext_noop("only loser")))
    if extras and base:
        parts.append((base, None))
    for amount, name in extras:
        parts += [(f" {sign} {amount} ", None), (name, {})]
    if entry["multiplier"] > 1:
        parts.append((f", ×{entry['multiplier']}", None))
    return parts


def _caller_and_risk(entry: JSON, seat: int) -> list[tuple[int, str]]:
    extras = []
    if seat == entry["caller"]:
        extras.append((10, gettext_noop("Caller")))
    elif entry["with"][seat]:
        extras.append((10, gettext_noop("With")))
    risk = entry["risk"]
    if risk and risk["seat"] == seat and risk["level"]:
        extras.append((10 * risk["level"], RISK_NAMES[risk["level"]]))
    return extras


def explain_points(entry: JSON, seat: int) -> str:
    """The note of ``points_note`` in English, as the record's readers without the site see it."""
    return "".join(text % values if values else text for text, values in points_note(entry, seat))


# --- replay and profile -------------------------------------------------------------------


def replay_deal(round_record: EstimationRound, seats: int) -> tuple[list[list[str]], list[int | None]]:
    """The hands of the deal that was played (the last after any redeals) and each estimate."""
    deals = round_record["deals"]
    hands = deals[-1]["hands"] if deals else [[] for _ in range(seats)]
    return [list(hand) for hand in hands], round_record["estimate"]


def profile_figures(played: list[tuple[Record[EstimationRound], int]]) -> list[tuple[str, str]]:
    """For a player's finished games (record, seat): how often they made their estimate, as Caller
    and after a Dash Call."""
    made = rounds = calls_made = calls = dash_made = dashes = 0
    for record, seat in played:
        for round_record in record["rounds"]:
            if not round_record.get("made"):
                continue
            hit = round_record["made"][seat]
            if hit is None:  # a round not scored yet: a finished game has none
                continue
            rounds += 1
            made += hit
            if round_record["caller"] == seat:
                calls += 1
                calls_made += hit
            if round_record["dash_call"][seat]:
                dashes += 1
                dash_made += hit
    return [
        (gettext_noop("Made"), rate(made, rounds)),
        (gettext_noop("Caller success"), rate(calls_made, calls)),
        (gettext_noop("Dash Call success"), rate(dash_made, dashes)),
    ]


def replay_steps(record: Record[EstimationRound]) -> list[JSON]:
    return trick_steps(record, replay_deal)
