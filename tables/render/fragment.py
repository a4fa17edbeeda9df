"""What a table page shows one viewer: the lobby or the game, rendered from a snapshot.

A snapshot is the table, its seats and its current match, read once; a
consumer keeps it and only swaps in new game states as moves arrive (the
broadcast carries them), so a move costs no database read per socket. The
engine's ``view`` decides what the viewer may see: nothing else from the state
reaches the template.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from functools import lru_cache

from django.conf import settings
from django.template import engines
from django.utils import timezone, translation
from django.utils.safestring import SafeString

from accounts.bots import bot_label
from core import i18n
from games import catalog
from games.catalog import get_engine
from games.records.places import places_from_groups
from payouts.memos import memo_text
from tables import matchstore
from tables.models import Table
from tables.render import clock_view, templates
from tables.render.play_screen import last_attempt_note
from tables.render.presenters import present
from tables.selectors.snapshot import SeatInfo, Snapshot, load_snapshot  # noqa: F401  (the live side's names for them)


def state_at_hand(snapshot: Snapshot, version: int, text: str) -> bool:
    """Whether the state ``text`` of the snapshot's match can be shown without a database read."""
    if snapshot.match_id is None:
        return False
    return matchstore.loaded(snapshot.game, snapshot.match_id, version, text, fetch=False) is not None


def seat_of(snapshot: Snapshot, user_id: int | None) -> int | None:
    for seat in snapshot.seats:
        if user_id is not None and seat.user_id == user_id:
            return seat.position
    return None


def sitting(snapshot: Snapshot) -> frozenset[int]:
    """Who holds a seat (RULING P66: at a private table, whose friends may watch)."""
    return frozenset(seat.user_id for seat in snapshot.seats if seat.user_id is not None)


def may_sit_here(snapshot: Snapshot, user_id: int | None) -> bool:
    """Whether the view offers this viewer a seat: a signed-in person without one, in the lobby,
    whom taking it would not refuse (RULING P65: a practice table is its host's; RULING P66: a
    private table's seats are its host's friends' and invited players')."""
    if user_id is None or seat_of(snapshot, user_id) is not None or snapshot.status != Table.Status.LOBBY:
        return False
    if snapshot.extra.get("practice") and user_id != snapshot.host_id:
        return False
    sitters = snapshot.extra.get("sitters")
    return sitters is None or user_id in sitters


def live_context(snapshot: Snapshot, *, user_id: int | None, connected: AbstractSet[int]) -> dict:
    viewer_seat = seat_of(snapshot, user_id)
    view = None
    if snapshot.state is not None and snapshot.match_id is not None:
        engine = get_engine(snapshot.game)
        state = matchstore.loaded(snapshot.game, snapshot.match_id, snapshot.version, snapshot.state)
        view = engine.view(state, viewer_seat)
    # A bot's name in this viewer's language (issue 37): the snapshot is shared by every language.
    names = [(seat.is_bot and bot_label(seat.username, seat.bot_level)) or seat.name for seat in snapshot.seats]
    seats = []
    for seat, name in zip(snapshot.seats, names, strict=True):
        seats.append(
            {
                "position": seat.position,
                "name": name,
                "username": seat.username,
                "empty": seat.user_id is None,
                "is_bot": seat.is_bot,
                "bot_level": seat.bot_level,
                "is_ready": seat.is_ready,
                "is_host": seat.user_id == snapshot.host_id,
                "is_me": viewer_seat == seat.position,
                "connected": seat.is_bot or seat.user_id in connected,
                "to_act": bool(view and seat.position in view["to_act"]),
                "total": view["totals"][seat.position] if view else None,
            }
        )
    presented = present(snapshot.game, view, names, viewer_seat) if view else {}
    extra = dict(snapshot.extra)
    extra.pop("given_back", None)  # every former player's: only the viewer's own is shown
    extra.pop("sitters", None)  # who may sit at a private table: only whether the viewer may (can_sit)
    if "last_dismissal" in extra:  # issue 20: say a dismissal happened
        extra["last_attempt"] = last_attempt_note(extra.pop("last_dismissal"))
    given_back = given_back_to(snapshot, user_id)
    # Issue 55: the viewer's own review of the finished game (its status), linked once done.
    my_review = extra.pop("reviews", {}).get(user_id) if user_id is not None else None
    if view and "vote" in extra:
        # RULING S12: proposals only in rounds 1..N; the snapshot's vote data predates later moves.
        vote = extra["vote"]
        extra["vote"] = {**vote, "can_propose": vote["can_propose"] and view["round_number"] <= vote["rounds"]}
    my_ready = any(seat.is_ready for seat in snapshot.seats if seat.position == viewer_seat)
    clock = clock_view.live(
        snapshot.clock,
        seconds=snapshot.turn_clock,
        game=snapshot.game,
        viewer_seat=viewer_seat,
        to_act=view["to_act"] if view else [],
        lobby=snapshot.status == Table.Status.LOBBY,
        now=timezone.now(),
    )
    return {
        "clock": clock,
        "snap": snapshot,
        "my_ready": my_ready,
        "placements_rows": placement_rows(
            view,
            names,
            snapshot.extra.get("payouts", {}),
            stake=snapshot.stake,
            forfeits=snapshot.extra.get("forfeits", {}),
        ),
        "title": i18n.text(catalog.get(snapshot.game).title),
        "game_template": catalog.get(snapshot.game).live_template,
        "view": view,
        "seats": seats,
        "names": names,
        "g": presented,
        "viewer_seat": viewer_seat,
        "is_host": user_id == snapshot.host_id,
        "is_player": viewer_seat is not None,
        "given_back": given_back,
        "can_sit": may_sit_here(snapshot, user_id),
        "my_review": my_review,
        "lobby": snapshot.status == Table.Status.LOBBY,
        **extra,
    }


def _render(name: str, context: dict, language: str | None = None) -> SafeString:
    # Jinja2 (tables/render/templates.py): this runs once per seat on every move, in the viewer's
    # language (the consumer activates it), with that language's catalogue bound once per render.
    language = language or translation.get_language()
    context.update(templates.gettexts(language))
    # SafeString itself: mark_safe first checks its argument for lazy texts, on every render.
    environment = engines["jinja2"].env  # type: ignore[attr-defined]  # the Jinja2 backend's
    return SafeString(templates.for_language(environment, language).get_template(name).render(context))


# The templates' indentation and blank lines were a third of every push's bytes. A run of
# whitespace that holds a line break shows as one space in HTML; no element of the view keeps
# whitespace as written (no <pre>, no <textarea>, no white-space: pre in its style sheets).
_LINE_BREAKS = re.compile(r"\n\s+")  # from a line break: the regex engine skips to each one


def _compact(html: str) -> SafeString:
    return SafeString(_LINE_BREAKS.sub("\n", html))


def render_live(
    snapshot: Snapshot, *, user_id: int | None, connected: AbstractSet[int], oob: bool = False
) -> SafeString:
    # The viewer's language is looked up once; the presenters' texts come from its catalogue
    # (core/i18n.py), each translated once per process rather than once per seat and move.
    language = translation.get_language() or settings.LANGUAGE_CODE
    rendering = i18n.RENDERING.set(i18n.catalogue(language))
    try:
        context = live_context(snapshot, user_id=user_id, connected=connected)
        context["oob"] = oob
        return _compact(_render("tables/_live.html", context, language))
    finally:
        i18n.RENDERING.reset(rendering)


@lru_cache(maxsize=256)
def render_flash(message: str) -> SafeString:
    # The same few refusals over and over ("slow down", "not your turn"), above all to a socket
    # that floods (RULING P15): rendered once each.
    return _render("tables/_flash.html", {"message": message, "oob": True})


def given_back_to(snapshot: Snapshot, user_id: int | None) -> dict | None:
    """What came back to this viewer when the table closed or its game was aborted (issue 37):
    their own coins and passes, or None. Part of what a shared render depends on (fanout.render)."""
    return (snapshot.extra.get("given_back") or {}).get(user_id)


def render_hint(text: str) -> SafeString:
    """A practice table's hint (RULING P65), swapped into this socket's hint box only."""
    return _render("tables/_hint_reply.html", {"hint": text})


def placement_rows(
    view: dict | None, names: list[str], payouts: dict, *, stake: int = 0, forfeits: dict | None = None
) -> list[dict]:
    """The end-of-game panel: place, name, total, the Sitaratas mark and any payout. At a staked
    table each staker's coin change too (the payout less the stake: the loser's −50 as the
    winner's +50, issue 53), and why a staker took no share (RULING P50), in the viewer's language."""
    if not view or not view["over"]:
        return []
    forfeits = forfeits or {}
    places = places_from_groups(view["placements"])
    return [
        {
            "place": places[seat],
            "seat": seat,
            "name": names[seat],
            "total": view["totals"][seat],
            "note": "Sitaratas" if view.get("sitaratas") == seat else "",
            "payout": payouts.get(seat),
            "change": payouts[seat] - stake if stake and seat in payouts else None,
            "forfeit": memo_text(forfeits[seat]) if seat in forfeits else "",
        }
        for group in view["placements"]
        for seat in group
    ]
