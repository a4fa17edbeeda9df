from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from games import catalog
from tables import selectors, services
from tables.errors import TableError
from tables.forms import NewTableForm
from tables.live import snapshot


def lobby(request: HttpRequest) -> HttpResponse:
    game = request.GET.get("game", "")
    context = {"tables": selectors.open_tables(game=game), "game": game, "games": catalog.titles(), "nav": "lobby"}
    # htmx polls the list alone (django-template-partials: one view, page and fragment).
    template = "tables/lobby.html#table-list" if request.htmx else "tables/lobby.html"
    return render(request, template, context)


@login_required
def table_new(request: HttpRequest) -> HttpResponse:
    form = NewTableForm(request.POST or None, initial={"game": request.GET.get("game", catalog.DEFAULT), "players": 4})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            table = services.table_create(
                host=request.user,
                game=data["game"],
                seat_count=data["seat_count"],
                options=data["options"],
                stake=data["stake"],
                clock_seconds=data["clock_seconds"],
                practice=data["practice"],
            )
        except TableError as error:
            form.add_error(None, str(error))
        else:
            return redirect("table", table_id=table.pk)
    return render(request, "tables/new.html", {"form": form, "nav": "lobby"})


@login_required
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    snap = snapshot.load_snapshot(table_id)
    if snap is None:
        messages.error(request, _("There is no such table."))
        return redirect("lobby")
    # The first paint is the same fragment the socket pushes, so a reload restores the whole view.
    fragment = snapshot.render_live(snap, user_id=request.user.pk, connected={request.user.pk})
    return render(
        request, "tables/table.html", {"snap": snap, "fragment": fragment, "title": str(catalog.get(snap.game).title)}
    )
