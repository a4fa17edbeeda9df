"""The tournament pages (function-based; one view serves a page and its fragment, docs/style.md §10)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.forms import time_zone_known
from accounts.services import user_time_zone_guess
from games import catalog
from tournaments import selectors, services
from tournaments.forms import TournamentForm
from tournaments.models import Tournament
from tournaments.services import TournamentError

if TYPE_CHECKING:
    from accounts.requests import AuthenticatedRequest, HtmxRequest


def tournament_list(request: HttpRequest) -> HttpResponse:
    context = {"nav": "tournaments", **selectors.listing()}
    return render(request, "tournaments/list.html", context)


def seasons(request: HttpRequest) -> HttpResponse:
    """RULING P84: each game's monthly ladder as it stands, and the frozen seasons before it."""
    game = request.GET.get("game", catalog.DEFAULT)
    game = game if catalog.known(game) else catalog.DEFAULT
    context = {
        "nav": "tournaments",
        "game": game,
        "game_name": catalog.get(game).title,
        "games": catalog.titles(),
        **selectors.seasons_page(game=game),
    }
    return render(request, "tournaments/seasons.html", context)


def tournament_page(request: HtmxRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = {
        "nav": "tournaments",
        "tournament": tournament,
        "options": catalog.options_summary(tournament.game, tournament.options),
        "entry": selectors.entry_of(tournament, request.user),
        "rows": selectors.standings(tournament),
        "rounds": selectors.rounds(tournament),
        "starts_local": selectors.local_time(tournament.starts_at, request.user),
        "open": selectors.signup_open(tournament),
    }
    template = "tournaments/page.html#standings" if request.htmx and request.GET.get("part") == "standings" else None
    return render(request, template or "tournaments/page.html", context)


@login_required
@require_POST
def tournament_signup(request: AuthenticatedRequest, tournament_id: int) -> HttpResponse:
    try:
        if request.POST.get("withdraw"):
            services.entry_withdraw(tournament_id=tournament_id, user=request.user)
        else:
            services.entry_signup(tournament_id=tournament_id, user=request.user)
    except TournamentError as error:
        messages.error(request, str(error))
    if request.headers.get("HX-Request"):  # the button after the start (htmx): the whole page again
        return HttpResponse(headers={"HX-Redirect": reverse("tournament", args=[tournament_id])})
    return redirect("tournament", tournament_id=tournament_id)


@login_required
def tournament_new(request: AuthenticatedRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.tournament_create(
                creator=request.user,
                name=data["name"],
                game=data["game"],
                options=form.game_options(),
                starts_at=data["starts_at"],  # aware: read in the player's zone (core/time_zones.py)
                rounds=data["rounds"],
                table_size=data["table_size"],
                min_players=data["min_players"],
                max_players=data["max_players"],
                entry_fee=data["entry_fee"] or 0,
                prize_split=data["prize_split"] or "100",
            )
        except TournamentError as error:
            form.add_error(None, str(error))
        else:
            return redirect("tournament", tournament_id=tournament.pk)
    can_fee = request.user.has_perm(services.PERMISSION)
    return render(request, "tournaments/new.html", {"nav": "tournaments", "form": form, "can_fee": can_fee})


@login_required
@require_POST
def time_zone_guess(request: AuthenticatedRequest) -> HttpResponse:
    """The browser's guess (Intl.DateTimeFormat), kept only while the player has chosen none."""
    name = request.POST.get("time_zone", "")
    if not time_zone_known(name):
        return JsonResponse({"saved": False}, status=400)
    return JsonResponse({"saved": user_time_zone_guess(user_id=request.user.pk, time_zone=name)})
