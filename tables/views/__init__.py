"""The table pages (docs/style.md §10): thin views over the services and selectors.

This module holds the lobby (its list polled as a fragment, cached per process), the "New table"
form, the table page and "Play now"; ``invitations`` the invitation panel, the link's landing
and the privacy choice (RULING P66).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core import addresses, limits
from games import catalog
from tables import lobby_slots, selectors
from tables.caching import BoundedCache
from tables.errors import TableError
from tables.forms import NewTableForm
from tables.live import guard
from tables.render import fragment
from tables.selectors import privacy
from tables.services import lobby as lobby_service
from tables.services import quickplay
from tables.views.invitations import invite_panel

if TYPE_CHECKING:
    from accounts.requests import AuthenticatedRequest, HtmxRequest


# Issue 34: every lobby viewer polls the list every 4 s. The fragment of a (game, page, language)
# is rendered once a while per process for all of them, however often the tables change: a lobby
# change shows within this, and a burst of them (22 lobbies opened in a second) costs one render.
LOBBY_FRAGMENT_SECONDS = 2.0
lobby_fragments: BoundedCache[tuple[float, SafeString]] = BoundedCache(limit=256)
clock = time.monotonic  # what the fragments' age is measured by (a test moves it)


def lobby(request: HtmxRequest) -> HttpResponse:
    game = request.GET.get("game", "")
    game = game if catalog.known(game) else ""
    if request.htmx:
        return HttpResponse(_lobby_fragment(request, game))
    return render(request, "tables/lobby.html", {**_lobby_context(request, game), **_invitation(request)})


def _invitation(request: HttpRequest) -> dict:
    """The viewer's own part of the lobby (RULING P86), on the full page only (the polled list is everyone's):
    a card per game with "Play now" (RULING P71), "For you": their invitations to tables (RULING P66)
    and rematch offers (RULING P70), then the slots of the apps above (friends, tournaments)."""
    user = request.user if request.user.is_authenticated else None
    cards = selectors.lobby_cards(user=user)
    for card in cards:
        card["wait"] = quickplay.wait_of(user=user, game=card["game"].name) if user else quickplay.DEFAULT_WAIT
    return {
        "cards": cards,
        "waits": quickplay.WAITS,
        "offers": selectors.rematch_offers(user=user) if user else [],
        "invitations": selectors.invitations_for(user=user) if user else [],
        "slots": lobby_slots.rendered(request),
    }


def _lobby_context(request: HttpRequest, game: str) -> dict:
    # RULING P52 keeps each account to a few lobbies; the list is paged all the same (issue 34: 127
    # rows, 58 KB, on every poll).
    page = Paginator(selectors.open_tables(game=game), settings.LOBBY_PAGE_SIZE).get_page(_page_number(request))
    return {"tables": page, "page": page, "game": game, "games": catalog.titles(), "nav": "lobby"}


def _page_number(request: HttpRequest) -> int:
    # Only a plain number names a page (the fragments are cached by it); past the last is the last.
    text = request.GET.get("page", "")
    if not (text.isascii() and text.isdigit()) or len(text) > 7:
        return 1
    return max(1, int(text))


def _lobby_fragment(request: HttpRequest, game: str) -> SafeString:
    # htmx polls the list alone (django-template-partials: one view, page and fragment). The list
    # has nothing of its viewer in it: the same for everyone who reads that language.
    key = (game, _page_number(request), translation.get_language())
    now = clock()
    cached = lobby_fragments.get(key)
    if cached is not None and now - cached[0] < LOBBY_FRAGMENT_SECONDS:
        return cached[1]
    html = SafeString(render_to_string("tables/lobby.html#table-list", _lobby_context(request, game), request))
    lobby_fragments.put(key, (now, html))
    return html


@login_required
def table_new(request: AuthenticatedRequest) -> HttpResponse:
    form = NewTableForm(request.POST or None, initial={"game": request.GET.get("game", catalog.DEFAULT), "players": 4})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            table = lobby_service.table_create(
                host=request.user,
                game=data["game"],
                seat_count=data["seat_count"],
                options=data["options"],
                stake=data["stake"],
                clock_seconds=data["clock_seconds"],
                practice=data["practice"],
                private=data["private"],
                spectators=data["spectators"],
                address=addresses.request_address(request),
            )
        except TableError as error:
            form.add_error(None, str(error))
        else:
            return redirect("table", table_id=table.pk)
    return render(request, "tables/new.html", {"form": form, "nav": "lobby"})


@login_required
def table_page(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    snap = fragment.load_snapshot(table_id)
    if snap is None:
        messages.error(request, _("There is no such table."))
        return redirect("lobby")
    refusal = privacy.open_refusal(table_id, request.user)  # RULING P66
    if refusal:
        messages.error(request, refusal)
        return redirect("lobby")
    # The first paint is the same fragment the socket pushes, so a reload restores the whole view.
    html = fragment.render_live(snap, user_id=request.user.pk, connected={request.user.pk})
    context = {"snap": snap, "fragment": html, "title": str(catalog.get(snap.game).title)}
    context["invite_panel"] = invite_panel(request, table_id)
    return render(request, "tables/table.html", context)


@login_required
@require_POST
def play_now(request: AuthenticatedRequest, game: str) -> HttpResponse:
    """RULING P71: "Play now" seats the player at the best open table of the game, or opens one."""
    wait_text = request.POST.get("wait", "")
    wait = int(wait_text) if wait_text.isascii() and wait_text.isdigit() and len(wait_text) < 4 else None
    try:
        address = addresses.request_address(request)  # RULING P72: kept with the seat as a digest only
        table = quickplay.play_now(user=request.user, game=game, wait=wait, address=address)
    except TableError as error:
        messages.error(request, str(error))
        return redirect("lobby")
    return redirect("table", table_id=table.pk)


async def socket_refusal(request: HttpRequest) -> JsonResponse:
    """Why this browser's last table socket was refused at the handshake, and how long to wait
    (RULINGS P16, P51): a refused handshake carries no words the page could read."""
    address = addresses.request_address(request)
    names = guard.backoff_names(address, request.COOKIES.get(settings.SESSION_COOKIE_NAME))
    refused = await limits.backoff_now(names, told_seconds=guard.TOLD_SECONDS)
    if refused is None:
        return JsonResponse({"message": None, "retry_after": 0})
    return JsonResponse({"message": str(guard.refusal_text(refused)), "retry_after": round(refused.seconds, 1)})
