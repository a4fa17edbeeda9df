"""SITA's table: the engine view shaped for ``templates/tables/games/sita.html``.

Pure: it reads only the viewer's ``view`` (never the state), so nothing hidden can
leak through it. Every card is given with its penalty (RULING T5) for the badge.
"""

from __future__ import annotations

# Inside a live render these read the render's catalogue (core/i18n.py): they run per seat.
from accounts.names import names_html, with_names
from core.i18n import gettext as _
from core.i18n import ngettext
from games import catalog
from games.display.scoresheets import live_sheet
from games.engines.sita import ROW_LIMIT, penalty


def _card(number: int) -> dict:
    return {"n": number, "p": penalty(number)}


def _points(cards: list[int]) -> int:
    return sum(penalty(card) for card in cards)


def _plural(points: int) -> str:
    return ngettext("%(num)s point", "%(num)s points", points) % {"num": points}


def _rows(view: dict) -> list[dict]:
    revealed = view["revealed"]
    fresh = {entry["card"] for entry in revealed["placements"]} if revealed else set()
    rows = []
    for index, (cards, points) in enumerate(zip(view["rows"], view["row_penalties"])):
        rows.append(
            {
                "index": index,
                "number": index + 1,
                "cards": [dict(_card(card), new=card in fresh) for card in cards],
                "points": points,
                "points_label": _plural(points),
                "full": len(cards) == ROW_LIMIT,  # The next card placed here takes the row (RULING T3).
                "slots": list(range(ROW_LIMIT - len(cards))),
                "end": cards[-1],
            }
        )
    return rows


def _hand(view: dict) -> list[dict]:
    if view["hand"] is None:
        return []
    legal = {action["card"] for action in view["legal_actions"] if action["type"] == "choose"}
    return [dict(_card(card), legal=card in legal, locked=card == view["my_choice"]) for card in view["hand"]]


def _revealed(view: dict, names: list[str]) -> dict | None:
    """The last revealed turn: every chosen card, lowest first, and what became of it."""
    revealed = view["revealed"]
    if revealed is None:
        return None
    placed = {entry["card"]: entry for entry in revealed["placements"]}
    cards = []
    for seat, card in sorted(enumerate(revealed["chosen"]), key=lambda pair: pair[1]):
        entry = placed.get(card)
        took = entry["took"] if entry else []
        cards.append(
            dict(
                _card(card),
                seat=seat,
                name=names[seat],
                placed=entry is not None,
                row_number=entry["row"] + 1 if entry else None,
                too_low=bool(entry and entry["too_low"]),
                took=[_card(taken) for taken in took],
                took_points=_points(took),
            )
        )
    return {"turn": revealed["turn"], "cards": cards, "waiting": not revealed["placements"]}


def _pending(view: dict, names: list[str], viewer_seat: int | None, rows: list[dict]) -> dict | None:
    pending = view["pending_too_low"]
    if pending is None:
        return None
    mine = pending["seat"] == viewer_seat
    options = []
    if mine:
        legal = {action["row"] for action in view["legal_actions"] if action["type"] == "take_row"}
        options = [
            {
                "row": row["index"],
                "label": _("Take row %(number)s (%(points)s)")
                % {"number": row["number"], "points": row["points_label"]},
                "cards": row["cards"],
                "points": row["points"],
            }
            for row in rows
            if row["index"] in legal
        ]
        lowest = min(row["points"] for row in rows)
        for option in options:
            option["cheapest"] = option["points"] == lowest
    return {
        "seat": pending["seat"],
        "name": names[pending["seat"]],
        "mine": mine,
        "card": _card(pending["card"]),
        "options": options,
    }


def _players(view: dict, names: list[str], viewer_seat: int | None) -> list[dict]:
    choosing = view["phase"] == "choosing"
    players = []
    for seat, name in enumerate(names):
        players.append(
            {
                "seat": seat,
                "name": name,
                "me": seat == viewer_seat,
                "chosen": choosing and view["chosen"][seat],
                "choosing": choosing and not view["chosen"][seat],
                "cards": view["hand_counts"][seat],
                "taken": len(view["taken"][seat]),
                "penalty": view["penalties"][seat],
                "total": view["totals"][seat],
            }
        )
    return players


def _status(view: dict, names: list[str], viewer_seat: int | None) -> str:
    """One line saying what the table waits for: who, never what they chose (RULING T2)."""
    if view["over"]:
        return _("The game is over.")
    pending = view["pending_too_low"]
    if pending is not None:
        if pending["seat"] == viewer_seat:
            return _("Your %(card)s is lower than every row: take a row.") % {"card": pending["card"]}
        return with_names(_("%(name)s is choosing a row to take."), {"name": names[pending["seat"]]})
    waiting = [names[seat] for seat in view["to_act"] if seat != viewer_seat]
    if viewer_seat in view["to_act"]:
        return _("Choose a card.")
    if view["my_choice"] is not None:
        if not waiting:
            return _("Revealing…")
        return with_names(
            _("Your %(card)s is locked. Waiting for %(names)s."), {}, card=view["my_choice"], names=_join(waiting)
        )
    return with_names(_("Waiting for %(names)s."), {}, names=_join(waiting)) if waiting else ""


def _turn_sheet(view: dict) -> list[dict]:
    """Penalty points per seat for each finished turn of this match, numbered as played."""
    finished = view["turn"] if view["over"] else view["turn"] - 1
    first = finished - len(view["turn_penalties"]) + 1
    return [{"turn": first + index, "points": points} for index, points in enumerate(view["turn_penalties"])]


def _match_sheet(view: dict) -> list[dict]:
    """Each finished match's penalties and the totals after it (games.display.scoresheets, as the history
    page builds them)."""
    rows = live_sheet(catalog.SITA.name, view["score_sheet"], view["players"])["rows"]
    return [
        {
            "number": row["number"],
            "penalties": [cell["points"] for cell in row["cells"]],
            "totals": [cell["total"] for cell in row["cells"]],
        }
        for row in rows
    ]


def _join(items: list[str]) -> str:
    """The names, each isolated (RULING P54): "A, B and C"."""
    if len(items) <= 1:
        return names_html(items)
    return with_names(_("%(names)s and %(last)s"), {"last": items[-1]}, names=names_html(items[:-1]))


def present(view: dict, names: list[str], viewer_seat: int | None) -> dict:
    rows = _rows(view)
    return {
        "rows": rows,
        "hand": _hand(view),
        "my_turn": viewer_seat is not None and viewer_seat in view["to_act"] and view["phase"] == "choosing",
        "locked": view["my_choice"],
        "revealed": _revealed(view, names),
        "pending": _pending(view, names, viewer_seat, rows),
        "players": _players(view, names, viewer_seat),
        "status": _status(view, names, viewer_seat),
        "turn_sheet": _turn_sheet(view),
        "match_sheet": _match_sheet(view),
        "match_label": _("Match %(number)s of %(total)s")
        % {"number": view["round_number"], "total": view["rounds_total"]},
        "turn_label": _("Turn %(number)s of %(total)s")
        % {"number": min(view["turn"], view["turns_total"]), "total": view["turns_total"]},
    }
