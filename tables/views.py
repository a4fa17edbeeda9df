from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tables import selectors


def lobby(request: HttpRequest) -> HttpResponse:
    game = request.GET.get("game", "")
    tables = selectors.open_tables(game=game)
    return render(request, "tables/lobby.html", {"tables": tables, "game": game, "nav": "lobby"})
