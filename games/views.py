"""History pages: thin views over ``games.selectors`` (history, reviews, fairness, ratings; docs/style.md §10)."""

from __future__ import annotations

import json

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from accounts.models import User
from accounts.requests import HtmxRequest
from games import catalog
from games.selectors import fairness, history, reviews
from games.selectors.ratings import leaderboard

PAGE_SIZE = 20


def history_list(request: HttpRequest) -> HttpResponse:
    game = request.GET.get("game", "")
    game = game if catalog.known(game) else ""
    username = request.GET.get("player", "").strip()
    player = User.objects.filter(username=username).first() if username else None
    matches = (
        history.matches_ended(game=game, player=player) if player or not username else history.matches_ended().none()
    )
    page = Paginator(matches, PAGE_SIZE).get_page(request.GET.get("page"))
    history.mark_sitaratas(page.object_list)
    context = {
        "page": page,
        "game": game,
        "username": username,
        "player": player,
        "games": catalog.titles(),
        "nav": "history",
    }
    return render(request, "games/history.html", context)


def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _ended_or_404(match_id)
    return render(
        request,
        "games/match.html",
        {
            **history.match_page(match=match),
            "nav": "history",
            "fairness": fairness.fairness_panel(match, viewer=request.user),
            "reviews": reviews.match_review_summary(match=match, viewer=request.user),
        },
    )


def match_record(request: HttpRequest, match_id: int) -> HttpResponse:
    record = history.public_record(_ended_or_404(match_id))
    if record is None:
        raise Http404("Only a finished game's record is published.")
    response = HttpResponse(json.dumps(record, indent=2), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{record["game"]}-{match_id}.json"'
    return response


def match_fairness(request: HttpRequest, match_id: int) -> JsonResponse:
    """RULING P34: the server's deal check of an ended game, for the "Verify this deal" panel."""
    return JsonResponse(fairness.fairness_checks(_ended_or_404(match_id)), json_dumps_params={"ensure_ascii": False})


def match_replay(request: HtmxRequest, match_id: int) -> HttpResponse:
    match = _ended_or_404(match_id)
    try:
        step = int(request.GET.get("step", 0))
    except ValueError:
        step = 0
    context = history.replay_frame(match=match, step=step)
    if context is None:
        raise Http404("Only a finished game can be replayed.")
    context["review"] = reviews.replay_review(
        match=match, viewer=request.user, steps=context["steps"], step=context["step"]
    )
    # The step buttons swap the frame alone (django-template-partials: one view, page and fragment).
    template = "games/replay.html#replay-frame" if request.htmx else "games/replay.html"
    return render(request, template, {**context, "nav": "history"})


def match_reviews(request: HttpRequest, match_id: int) -> JsonResponse:
    """Issue 42: the game's reviews the viewer may read, as JSON (only a finished game has any)."""
    match = _ended_or_404(match_id)
    return JsonResponse(
        {"reviews": reviews.reviews_json(match=match, viewer=request.user)},
        json_dumps_params={"ensure_ascii": False},
    )


def ratings(request: HttpRequest) -> HttpResponse:
    game = request.GET.get("game", catalog.DEFAULT)
    game = game if catalog.known(game) else catalog.DEFAULT
    context = {
        "rows": leaderboard(game=game),
        "game": game,
        "game_name": catalog.get(game).title,
        "games": catalog.titles(),
        "nav": "ratings",
    }
    return render(request, "games/ratings.html", context)


def _ended_or_404(match_id: int):
    match = history.match_ended_get(match_id=match_id)
    if match is None:
        # RULING P2: a game in progress is not part of history.
        raise Http404("No such finished game.")
    return match
