"""Shape an Estimation view for ``templates/tables/games/estimation.html`` (pure: no state, no database).

Everything here comes from ``view`` (the engine's per-viewer view), the seat names and the
viewer's seat. The template gets, for this viewer:

* ``waiting``: whose turn it is, in words ("Your turn …" for the viewer to act);
* ``bottom``: the seat drawn at the bottom, the viewer's (a spectator's is the first): the
  stylesheet turns the table from it, so play goes clockwise bottom → left → top → right;
* the viewer's choices from ``legal_actions``: ``dash`` buttons, the ``call_grid`` (tricks 4–13 ×
  trumps, illegal calls disabled) with ``can_pass``, ``estimates`` (plain values and Super Calls),
  and ``hand`` (every card, the unplayable ones disabled).

and, the same for every viewer, as functions that only the template's shared blocks call, so
they are built once per version (the sheet once per round) in a process, not once per seat
(issue 9):

* ``status()``: the headline (phase, round, kind, trump, multiplier, Over/Under, Risk);
* ``seats()``: the four seats in seat order, each with its estimate, tricks, marks and card in
  the current trick;
* ``side()``: the ``auction``, the ``standing`` call and the ``last_trick``;
* ``sheet()``: one row per completed round, with a line explaining each seat's points.
"""

from __future__ import annotations

from functools import lru_cache, partial
from typing import Any

from django.utils.translation import gettext_lazy, pgettext_lazy
from markupsafe import Markup

# Inside a live render these read the render's catalogue (core/i18n.py): they run per seat.
from accounts.names import with_names
from core.i18n import gettext as _
from core.i18n import language as get_language
from core.i18n import text
from games import catalog
from games.display.scoresheets import live_sheet
from games.engines.cards import RED_SUITS, SUIT_SYMBOL
from games.engines.estimation import MIN_CALL, TRICKS
from games.templatetags.card_tags import SUIT_NAMES

SEATS = 4
# Columns of the call grid, lowest trump first (RULING E3: NT > S > H > D > C).
CALL_TRUMPS = ("C", "D", "H", "S", "NT")
PHASES = {
    "dash_call": gettext_lazy("Dash Calls"),
    "auction": gettext_lazy("Auction"),
    "estimating": gettext_lazy("Estimates"),
    "playing": gettext_lazy("Play"),
    "over": gettext_lazy("Game over"),
}
# Whole sentences per phase, so that each language orders its own words (issue 26).
YOUR_TURN = {
    "dash_call": gettext_lazy("Your turn to Dash Call or decline."),
    "auction": gettext_lazy("Your turn to call or pass."),
    "estimating": gettext_lazy("Your turn to estimate."),
    "playing": gettext_lazy("Your turn to play."),
}
WAITING = {
    "dash_call": gettext_lazy("Waiting for %(name)s to Dash Call or decline."),
    "auction": gettext_lazy("Waiting for %(name)s to call or pass."),
    "estimating": gettext_lazy("Waiting for %(name)s to estimate."),
    "playing": gettext_lazy("Waiting for %(name)s to play."),
}
RISK_LEVELS = {
    0: gettext_lazy("No Risk"),
    1: gettext_lazy("Risk"),
    2: gettext_lazy("Double Risk"),
    3: gettext_lazy("Triple Risk"),
}
OVER_UNDER = {"over": pgettext_lazy("estimates", "Over"), "under": pgettext_lazy("estimates", "Under")}


def trump_info(code: str | None) -> dict:
    """A trump as the page shows it: its symbol, whether it is red, and its name.

    Cached per language (a page shows dozens): callers only read the dict, never change it.
    """
    return _trump_info(code, get_language())


@lru_cache(maxsize=16)
def _call_trumps(language: str | None) -> list[dict]:
    return [_trump_info(t, language) for t in CALL_TRUMPS]


@lru_cache(maxsize=64)
def _trump_info(code: str | None, language: str | None) -> dict:
    if code in SUIT_SYMBOL:
        info = {"code": code, "symbol": SUIT_SYMBOL[code], "red": code in RED_SUITS, "name": str(SUIT_NAMES[code])}
    elif code == "NT":
        info = {"code": "NT", "symbol": "NT", "red": False, "name": _("No trump")}
    else:
        info = {"code": "", "symbol": "?", "red": False, "name": _("not chosen yet")}
    colour = " red" if info["red"] else ""
    info["html"] = Markup('<span class="suit{} suit-{}" title="{}">{}</span>').format(
        colour, info["code"], info["name"], info["symbol"]
    )
    return info


def _name(names: list[str], seat: int | None) -> str:
    if seat is None:
        return ""
    return names[seat] if 0 <= seat < len(names) and names[seat] else _("Seat %(number)s") % {"number": seat + 1}


def present(view: dict, names: list[str], viewer_seat: int | None) -> dict:
    legal = view["legal_actions"]
    kinds = {action["type"] for action in legal}
    return {
        "waiting": _waiting(view, names, viewer_seat),
        "bottom": viewer_seat if viewer_seat is not None else 0,
        "dash": [a for a in legal if a["type"] in ("dash_call", "decline")],
        "call_grid": _call_grid(legal) if "call" in kinds or "pass" in kinds else [],
        "call_trumps": _call_trumps(get_language()),
        "can_pass": "pass" in kinds,
        "estimates": _estimates(legal, view, viewer_seat),
        "hand": _hand(view),
        "hand_playable": "play" in kinds,
        "my_turn": bool(legal),
        # For the announcer (issue 20): the trick just completed and who took it.
        "collected": bool(view["trick"] is not None and not view["trick"]["plays"] and view["last_trick"]),
        "last_winner": _name(names, view["last_trick"]["winner"]) if view["last_trick"] else "",
        # The same for every viewer: called only inside the template's shared blocks.
        "status": partial(_status, view, names),
        "seats": partial(_seats, view, names),
        "side": partial(_side, view, names),
        "round_summary": partial(round_summary, view, names),
        "sheet": partial(_sheet, view, names),
        "sheet_names": [_name(names, s) for s in range(SEATS)],
    }


def _waiting(view: dict, names: list[str], viewer_seat: int | None) -> str:
    phase = view["phase"]
    turn = view["to_act"][0] if view["to_act"] else None
    if phase == "over":
        return _("The game is over.")
    if turn == viewer_seat:
        return text(YOUR_TURN[phase])
    return with_names(text(WAITING[phase]), {"name": _name(names, turn)})


def _status(view: dict, names: list[str]) -> dict:
    phase = view["phase"]
    total = sum(e for e in view["estimates"] if e is not None)
    risk = view["risk"]
    super_call = view["super_call"]
    return {
        "phase": text(PHASES.get(phase, phase)),
        "dealer": _name(names, view["dealer"]),
        "round": view["round_number"],
        "rounds_total": view["rounds_total"],
        "kind": _("Fixed round") if view["kind"] == "fixed" else _("Call round"),
        "redeal": view["deal_number"] - 1,
        "trump": trump_info(view["trump"]),
        "call": _call_text(view["call"]),
        "caller": _name(names, view["caller"]),
        "multiplier": view["multiplier"],
        "estimates_total": total,
        "over_under": text(OVER_UNDER.get(view["over_under"], "")),
        "over_by": abs(total - TRICKS),
        "risk": {"name": _name(names, risk["seat"]), "level": RISK_LEVELS[risk["level"]], "on": risk["level"] > 0}
        if risk
        else None,
        "super_call": {
            "name": _name(names, super_call["seat"]),
            "value": super_call["value"],
            "trump": trump_info(super_call["trump"]),
        }
        if super_call
        else None,
    }


def _call_text(call: dict | None) -> dict | None:
    return {"tricks": call["tricks"], "trump": trump_info(call["trump"])} if call else None


def _seats(view: dict, names: list[str]) -> list[dict]:
    plays = {p["seat"]: p["card"] for p in (view["trick"] or {}).get("plays", [])}
    leader = (view["trick"] or {}).get("leader")
    winner = None
    if view["trick"] is not None and not plays and view["last_trick"]:
        # RULING P40: the finished trick stays in the middle, its winner marked, until the next
        # card is led, so everyone sees who took it before it is collected.
        plays = {p["seat"]: p["card"] for p in view["last_trick"]["plays"]}
        leader, winner = view["last_trick"]["plays"][0]["seat"], view["last_trick"]["winner"]
    risk_seat = view["risk"]["seat"] if view["risk"] and view["risk"]["level"] else None
    seats = []
    for seat in range(SEATS):
        estimate = view["estimates"][seat]
        seats.append(
            {
                "seat": seat,
                "name": _name(names, seat),
                "is_dealer": seat == view["dealer"],
                "to_act": seat in view["to_act"],
                "estimate": estimate,
                "tricks": view["tricks_won"][seat],
                "cards_left": view["hand_counts"][seat],
                "total": view["totals"][seat],
                "caller": seat == view["caller"],
                "with": view["with"][seat],
                "dash": view["dash_calls"][seat],
                "bust": view["bust"][seat],
                "risk": seat == risk_seat,
                "avoid": [trump_info(suit) for suit in view["avoid"][seat]],
                "card": plays.get(seat),
                "leads": seat == leader and bool(plays),
                "won": seat == winner,
                "made": estimate is not None and view["tricks_won"][seat] == estimate,
            }
        )
    return seats


def _side(view: dict, names: list[str]) -> dict:
    return {
        "auction": [_auction_entry(entry, names) for entry in view["auction"]],
        "standing": _standing(view, names),
        "last_trick": _last_trick(view, names),
    }


def _auction_entry(entry: dict, names: list[str]) -> dict:
    if entry.get("pass"):
        return {"name": _name(names, entry["seat"]), "pass": True, "call": None}
    return {"name": _name(names, entry["seat"]), "pass": False, "call": _call_text(entry["call"])}


def _standing(view: dict, names: list[str]) -> dict | None:
    standing = view["standing_call"]
    if not standing:
        return None
    return {"name": _name(names, standing["seat"]), **(_call_text(standing) or {})}


def _last_trick(view: dict, names: list[str]) -> dict | None:
    last = view["last_trick"]
    if not last:
        return None
    return {
        "winner": _name(names, last["winner"]),
        "plays": [
            {"name": _name(names, p["seat"]), "card": p["card"], "won": p["seat"] == last["winner"]}
            for p in last["plays"]
        ],
    }


def round_summary(view: dict, names: list[str]) -> dict | None:
    """RULING P41: the round just finished (estimates, tricks, points), shown from the next deal
    until its first card is played."""
    if not view["score_sheet"] or view["over"] or view["last_trick"]:
        return None
    if view["trick"] and view["trick"]["plays"]:
        return None
    entry = view["score_sheet"][-1]
    return {
        "number": entry["number"],
        "rows": [
            {
                "name": _name(names, seat),
                "estimate": entry["estimate"][seat],
                "won": entry["tricks_won"][seat],
                "made": entry["made"][seat],
                "points": entry["points"][seat],
            }
            for seat in range(SEATS)
        ],
    }


def _call_grid(legal: list[dict]) -> list[dict]:
    allowed = {(a["tricks"], a["trump"]) for a in legal if a["type"] == "call"}
    return [
        {
            "tricks": tricks,
            "cells": [{"trump": trump_info(t), "disabled": (tricks, t) not in allowed} for t in CALL_TRUMPS],
        }
        for tricks in range(MIN_CALL, TRICKS + 1)
    ]


def _estimates(legal: list[dict], view: dict | None = None, seat: int | None = None) -> dict:
    """Plain estimates and, per value of 8 or more in a fixed round, its Super Calls (RULING E7).

    Every value up to the round's limit is shown; one the viewer may not choose stays, disabled,
    with the reason (issue 20: a forbidden estimate used to just disappear).
    """
    plain: list[int] = []
    supers: dict[int, list[dict[str, Any]]] = {}
    for action in legal:
        if action["type"] != "estimate":
            continue
        if action.get("trump"):
            trump = trump_info(action["trump"])
            label = Markup("{} + {}").format(action["value"], trump["html"])
            supers.setdefault(action["value"], []).append({"value": action["value"], "trump": trump, "label": label})
        else:
            plain.append(action["value"])
    shown = [{"value": v, "disabled": False, "reason": ""} for v in plain]
    if plain and view is not None:
        allowed = set(plain)
        limit = view["call"]["tricks"] if view["kind"] == "call" and view["call"] else TRICKS
        others = sum(e for s, e in enumerate(view["estimates"]) if s != seat and e is not None)
        last = bool(view["estimate_order"]) and view["estimate_order"][-1] == seat
        shown, not_allowed = [], ""
        for value in range(limit + 1):
            reason = ""
            if value not in allowed:
                if value == 0:
                    reason = _("Two players are already on zero: you may not estimate 0.")
                elif last and others + value == TRICKS:
                    reason = _("You estimate last: %(value)s would make the estimates total exactly %(total)s.") % {
                        "value": value,
                        "total": TRICKS,
                    }
                else:
                    reason = not_allowed or _("Not allowed now.")
                    not_allowed = reason
            shown.append({"value": value, "disabled": bool(reason), "reason": reason})
    return {
        "plain": plain,
        "shown": shown,
        "reasons": [o["reason"] for o in shown if o["reason"]],
        "supers": [{"value": v, "options": opts} for v, opts in sorted(supers.items())],
    }


def _hand(view: dict) -> list[dict]:
    if not view["hand"]:
        return []
    playable = {a["card"] for a in view["legal_actions"] if a["type"] == "play"}
    return [{"card": card, "disabled": card not in playable} for card in view["hand"]]


def _sheet(view: dict, names: list[str]) -> list[dict]:
    """The score sheet's rows (games.display.scoresheets, as the history page builds them), in the live
    table's words: trumps and calls drawn, names for seats."""
    rows = []
    for row in live_sheet(catalog.ESTIMATION.name, view["score_sheet"], SEATS)["rows"]:
        cells = [
            {
                "estimate": cell["estimate"],
                "tricks": cell["tricks"],
                "points": cell["points"],
                "made": cell["made"],
                "caller": cell["caller"],
                "with": cell["with"],
                "dash": cell["dash_call"],
                "risk": bool(cell["risk"]),
                "explain": cell["line"],
            }
            for cell in row["cells"]
        ]
        rows.append(
            {
                "number": row["number"],
                "kind": row["kind"],
                "trump": trump_info(row["trump"]),
                "call": _call_text(row["call"]),
                "caller": _name(names, row["caller"]),
                "over_under": (row["over_under"] or "").capitalize(),
                "multiplier": row["multiplier"],
                "saaydeh": row["saaydeh"],
                "cells": cells,
            }
        )
    return rows
