"""Shapes a Sitaratas view for ``templates/tables/games/sitaratas.html``.

Pure: it reads only the engine's ``view`` for this viewer (never the state), so nothing
hidden can reach the page through it. The viewer sits at the bottom and the other seats
are laid out in play order after them; a spectator sees every seat in order.
"""

from __future__ import annotations

from functools import partial

# Inside a live render this reads the render's catalogue (core/i18n.py): it runs per seat.
from accounts.names import with_names
from core.i18n import gettext as _
from games import catalog
from games.display.scoresheets import live_sheet
from games.engines.cards import RED_SUITS, SUIT_SYMBOL, is_joker
from games.templatetags.card_tags import SUIT_NAMES, number, signed


def _rotation(players: int, viewer_seat: int | None) -> list[int]:
    start = 0 if viewer_seat is None else viewer_seat
    return [(start + step) % players for step in range(players)]


def _trump_info(view: dict) -> dict:
    """How this round's trump was set (RULING S3): indicator card, joker indicator, or drawn."""
    trump, indicator = view["trump"], view["indicator"]
    if trump is None:
        return {
            "symbol": "NT",
            "name": _("No trump"),
            "red": False,
            "indicator": indicator,
            "note": _("Joker indicator: no trump suit"),
        }
    red = trump in RED_SUITS
    if indicator is None:
        return {
            "symbol": SUIT_SYMBOL[trump],
            "name": SUIT_NAMES[trump],
            "red": red,
            "indicator": None,
            "note": _("Whole deck dealt: trump drawn"),
        }
    return {
        "symbol": SUIT_SYMBOL[trump],
        "name": SUIT_NAMES[trump],
        "red": red,
        "indicator": indicator,
        "note": _("Indicator card"),
    }


def _seat_box(view: dict, names: list[str], seat: int, viewer_seat: int | None) -> dict:
    bid, won = view["bids"][seat], view["tricks_won"][seat]
    if bid is None:
        pace = "pending"
    elif won == bid:
        pace = "exact"
    elif won > bid:
        pace = "over"
    else:
        pace = "under"
    return {
        "seat": seat,
        "name": names[seat] if seat < len(names) else _("Seat %(number)s") % {"number": seat + 1},
        "is_me": seat == viewer_seat,
        "is_dealer": seat == view["dealer"],
        "to_act": seat in view["to_act"],
        "bid": bid,
        "won": won,
        "pace": pace,
        "cards_left": view["hand_counts"][seat],
        "total": view["totals"][seat],
    }


def _plays(plays: list[dict], names: list[str], winner: int | None = None) -> list[dict]:
    return [
        {
            "seat": play["seat"],
            "name": names[play["seat"]],
            "card": play["card"],
            "joker": play.get("joker"),
            "winner": play["seat"] == winner,
        }
        for play in plays
    ]


def _trick_slots(view: dict, names: list[str]) -> list[dict]:
    """One slot per seat in play order from the leader; empty slots for seats still to play."""
    trick = view["trick"]
    if trick is None:
        return []
    n = view["players"]
    last = view["last_trick"]
    if not trick["plays"] and last:
        # RULING P40: the finished trick stays on the table, its winner marked, until the next card
        # is led, so everyone sees who took it before it is collected.
        return [
            {
                "seat": p["seat"],
                "name": names[p["seat"]],
                "card": p["card"],
                "joker": p.get("joker"),
                "leader": step == 0,
                "to_act": False,
                "won": p["seat"] == last["winner"],
            }
            for step, p in enumerate(last["plays"])
        ]
    played = {play["seat"]: play for play in trick["plays"]}
    slots = []
    for step in range(n):
        seat = (trick["leader"] + step) % n
        play = played.get(seat)
        slots.append(
            {
                "seat": seat,
                "name": names[seat],
                "card": play["card"] if play else None,
                "joker": play.get("joker") if play else None,
                "leader": step == 0,
                "to_act": seat in view["to_act"] and view["phase"] == "playing",
            }
        )
    return slots


def _hand(view: dict) -> list[dict]:
    """The viewer's cards, each marked playable or not; a joker offers HIGH and LOW."""
    hand = view["hand"] or []
    playing = view["phase"] == "playing" and bool(view["legal_actions"])
    legal = {action["card"] for action in view["legal_actions"] if action.get("type") == "play"}
    return [
        {
            "card": card,
            "joker": is_joker(card),
            "active": playing,
            "playable": card in legal,
            "locked": card not in legal,
        }
        for card in hand
    ]


def _bid_buttons(view: dict) -> list[dict]:
    """Every bid 0..cards while the viewer bids; the dealer's forbidden bid stays visible, disabled."""
    legal = {action["bid"] for action in view["legal_actions"] if action.get("type") == "bid"}
    if not legal:
        return []
    return [
        {"value": value, "locked": value not in legal, "forbidden": value == view["forbidden_bid"]}
        for value in range(view["cards"] + 1)
    ]


def _score_rows(view: dict, names: list[str]) -> list[dict]:
    """The score sheet's rows (games.display.scoresheets, as the history page builds them), drawn compact."""
    # Every value is a ready string: Django localizes each integer it prints, which made a
    # full 29-round sheet cost more than the rest of the page together, on every push.
    rows = []
    for row in live_sheet(catalog.SITARATAS.name, view["score_sheet"], view["players"])["rows"]:
        cells = [
            {
                "bid_won": f"{cell['bid']}/{cell['tricks']}",
                "points": signed(cell["points"]),
                "exact": cell["exact"],
                "title": f"bid {cell['bid']}, took {cell['tricks']}, total {cell['total']}",
            }
            for cell in row["cells"]
        ]
        trump = row["trump"]
        rows.append(
            {
                "number": str(row["number"]),
                "cards": str(row["cards"]),
                "dealer": names[row["dealer"]],
                "trump": SUIT_SYMBOL[trump] if trump else "NT",
                "red": trump in RED_SUITS,
                "cells": cells,
            }
        )
    return rows


def _round_summary(view: dict, names: list[str]) -> dict | None:
    """RULING P41: the round just finished (who bid what, took what, scored what), shown until the
    first card of the next round is played."""
    if not view["score_sheet"] or view["over"] or view["last_trick"] or view["phase"] not in ("bidding", "playing"):
        return None
    if view["phase"] == "playing" and view["trick"] and view["trick"]["plays"]:
        return None
    entry = view["score_sheet"][-1]
    rows = []
    for seat in range(view["players"]):
        points = entry["points"][seat] if entry["points"] else 0
        bid, won = entry["bids"][seat], entry["tricks_won"][seat]
        rows.append({"name": names[seat], "bid": bid, "won": won, "exact": bid == won, "points": signed(points)})
    return {"number": entry["number"], "rows": rows}


def _status(view: dict, names: list[str], viewer_seat: int | None) -> str:
    if view["over"]:
        return _("Game over.")
    acting = view["to_act"][0] if view["to_act"] else None
    if acting is None:
        return ""
    if acting == viewer_seat:
        if view["phase"] == "bidding":
            if view["cards"] == 1:
                return _("Your bid: will you take the one trick (1) or not (0)?")
            return _("Your bid: how many of the %(cards)s tricks will you take?") % {"cards": view["cards"]}
        return _("Your turn: play a card.")
    if view["phase"] == "bidding":
        return with_names(_("Waiting for %(name)s to bid."), {"name": names[acting]})
    return with_names(_("Waiting for %(name)s to play a card."), {"name": names[acting]})


def present(view: dict, names: list[str], viewer_seat: int | None) -> dict:
    n = view["players"]
    order = _rotation(n, viewer_seat)
    boxes = [_seat_box(view, names, seat, viewer_seat) for seat in order]
    bids_made = [bid for bid in view["bids"] if bid is not None]
    last = view["last_trick"]
    acting = view["to_act"][0] if view["to_act"] else None
    return {
        "me": boxes[0] if viewer_seat is not None else None,
        "others": boxes[1:] if viewer_seat is not None else boxes,
        "my_turn": acting is not None and acting == viewer_seat,
        "status": _status(view, names, viewer_seat),
        "trump": _trump_info(view),
        "dealer_name": names[view["dealer"]],
        "bid_sum": sum(bids_made),
        "all_bid": len(bids_made) == n,
        "forbidden_note": (
            with_names(
                _("%(name)s (dealer) may not bid %(bid)s."), {"name": names[view["dealer"]]}, bid=view["forbidden_bid"]
            )
            if view["forbidden_bid"] is not None
            else ""
        ),
        "trick": _trick_slots(view, names),
        "collected": bool(view["trick"] and not view["trick"]["plays"] and last),
        "round_summary": _round_summary(view, names),
        "leader_name": names[view["trick"]["leader"]] if view["trick"] else "",
        "last_trick": _plays(last["plays"], names, last["winner"]) if last else [],
        "last_winner": names[last["winner"]] if last else "",
        "hand": _hand(view),
        "bid_buttons": _bid_buttons(view),
        # Called only inside the shared block, so built once per version in a process, not per seat.
        "score_rows": partial(_score_rows, view, names),
        "score_names": names[:n],
        "score_totals": [number(total) for total in view["totals"]],
        "round_progress": round(100 * view["round_number"] / view["rounds_total"]),
    }
