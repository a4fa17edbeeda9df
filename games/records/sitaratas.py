"""Sitaratas' part of the records: score-sheet rows, replay deals and the profile's figures."""

from __future__ import annotations

from games.engines.contract import JSON, Record
from games.engines.sitaratas import SitaratasRound
from games.records import gettext_noop, rate
from games.records.replay import trick_steps

POINTS = "points"


def sheet_entry(round_record: SitaratasRound) -> JSON:
    """A record round as the engine view's score-sheet entry: the bids per seat, not in bid order."""
    bids = {entry["seat"]: entry["bid"] for entry in round_record["bids"]}
    return {
        "number": round_record["number"],
        "cards": round_record["cards"],
        "dealer": round_record["dealer"],
        "trump": round_record["trump"],
        "indicator": round_record["indicator"],
        "tricks_won": round_record["tricks_won"],
        "points": round_record["points"],
        "bids": [bids.get(seat) for seat in range(len(round_record["tricks_won"]))],
    }


def sheet_row(entry: JSON, seats: int) -> JSON:
    cells = [
        {
            "bid": entry["bids"][seat],
            "tricks": entry["tricks_won"][seat],
            "exact": entry["bids"][seat] == entry["tricks_won"][seat],
            "points": entry["points"][seat],
        }
        for seat in range(seats)
    ]
    return {
        "number": entry["number"],
        "cards": entry["cards"],
        "dealer": entry["dealer"],
        "trump": entry["trump"],
        "indicator": entry["indicator"],
        "cells": cells,
    }


def replay_deal(round_record: SitaratasRound, seats: int) -> tuple[list[list[str]], list[int | None]]:
    """The hands dealt and each seat's bid."""
    bids = {entry["seat"]: entry["bid"] for entry in round_record["bids"]}
    return [list(hand) for hand in round_record["hands"]], [bids.get(seat) for seat in range(seats)]


def profile_figures(played: list[tuple[Record[SitaratasRound], int]]) -> list[tuple[str, str]]:
    """For a player's finished games (record, seat): exact bids, and how often they were the Sitaratas."""
    exact = rounds = sitaratas = 0
    for record, seat in played:
        sitaratas += record.get("sitaratas") == seat
        for round_record in record["rounds"]:
            bid = next((b["bid"] for b in round_record["bids"] if b["seat"] == seat), None)
            if bid is not None and round_record.get("points"):
                rounds += 1
                exact += bid == round_record["tricks_won"][seat]
    return [(gettext_noop("Exact bids"), rate(exact, rounds)), (gettext_noop("Times Sitaratas"), str(sitaratas))]


def replay_steps(record: Record[SitaratasRound]) -> list[JSON]:
    return trick_steps(record, replay_deal)
