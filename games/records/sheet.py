"""The score sheet: one builder for the live table and the history page.

Both hand it a game's score-sheet entries, one per round: the live table the ones its engine
view carries (``view["score_sheet"]``), the history page the ones ``record_sheet`` makes from
the record's rounds, which carry more (SITA's turns, Estimation's redeals and Super Calls). The
game's ``games.records.<game>`` module shapes each row in its own terms; this adds the running
totals. Only completed rounds appear, so the sheet's totals equal the record's once the game is
over.
"""

from __future__ import annotations

from typing import TypeGuard

from games.engines.contract import JSON, Record, RoundT
from games.records import GameRecords


def complete(points: object) -> TypeGuard[list[int]]:
    """Whether a round's points (or penalties) are all known: the round is over."""
    return isinstance(points, list) and bool(points) and all(isinstance(p, int) for p in points)


def score_sheet(rules: GameRecords[RoundT], game: str, entries: list[JSON], seats: int) -> JSON:
    """``{"game", "rows", "totals", "running"}``: one row per completed round, each cell with the
    seat's running ``total``; ``running`` the totals after each round (for the chart)."""
    totals = [0] * seats
    rows: list[JSON] = []
    running: list[list[int]] = []
    for entry in entries:
        points = entry[rules.POINTS]
        if not complete(points):
            continue
        row = rules.sheet_row(entry, seats)
        totals = [total + gained for total, gained in zip(totals, points)]
        for cell, total in zip(row["cells"], totals):
            cell["total"] = total
        rows.append(row)
        running.append(list(totals))
    return {"game": game, "rows": rows, "totals": totals, "running": running}


def record_sheet(rules: GameRecords[RoundT], record: Record[RoundT]) -> JSON:
    """The score sheet of a record (history): its rounds made entries by the game's own module."""
    entries = [rules.sheet_entry(round_record) for round_record in record["rounds"]]
    return score_sheet(rules, record["game"], entries, len(record["totals"]))
