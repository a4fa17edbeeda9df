"""Rules, terms and privacy: thin views over ``pages.docs`` (RULING P20)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from pages import docs


def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "pages/rules_index.html", {"games": docs.RULE_GAMES, "nav": "rules"})


def rules(request: HttpRequest, game: str) -> HttpResponse:
    if game not in docs.RULE_GAMES:
        raise Http404("No rules for that game.")
    return render(
        request,
        "pages/doc.html",
        {"page": docs.rules_page(game), "games": docs.RULE_GAMES, "game": game, "nav": "rules"},
    )


def terms(request: HttpRequest) -> HttpResponse:
    # The terms are the site's agreement followed by the platform rules it refers to (RULING P21).
    pages = [docs.document("terms"), docs.rules_page("platform")]
    return render(request, "pages/doc.html", {"page": pages[0], "more": pages[1:], "nav": "terms"})


def privacy(request: HttpRequest) -> HttpResponse:
    return render(request, "pages/doc.html", {"page": docs.document("privacy"), "nav": "privacy"})
