"""Reads for lobby and table pages (docs/style.md §5)."""

from __future__ import annotations

from django.db.models import Count, F, Prefetch, Q, QuerySet

from accounts.models import User
from accounts.selectors import users_named_publicly
from games import catalog
from tables.models import Rematch, RematchAnswer, Table

OPEN = (Table.Status.LOBBY, Table.Status.PLAYING)


def open_tables(*, game: str = "") -> QuerySet[Table]:
    tables = (
        Table.objects.filter(status__in=OPEN, private=False)  # RULING P66: private tables are not listed
        # RULING P54: a host muted site-wide is listed without their own words for a name.
        .prefetch_related(Prefetch("host", queryset=users_named_publicly()))
        .annotate(taken=Count("seats", filter=Q(seats__user__isnull=False)))
        .order_by("status", "-created_at")
    )
    if game:
        tables = tables.filter(game=game)
    return tables


def rematch_panel(table: Table) -> dict:
    """What a finished table's game-over panel shows of its rematch (RULING P70): the new table, if
    one is open, and each human's answer by seat."""
    rematch = Rematch.objects.filter(source=table).first()
    if rematch is None:
        return {"table_id": None, "answers": {}}
    return {"table_id": rematch.table_id, "answers": dict(rematch.answers.values_list("position", "answer"))}


def rematch_lobby(table: Table) -> dict | None:
    """At a rematch table's lobby: the seats still kept for their player's answer; None elsewhere."""
    if not Rematch.objects.filter(table=table).exists():
        return None
    pending = RematchAnswer.objects.filter(rematch__table=table, answer=RematchAnswer.Answer.PENDING)
    return {"pending": sorted(pending.values_list("position", flat=True))}


CARD_TABLES = 3  # tables of each kind a game's lobby card lists


def lobby_cards(*, user: User | None) -> list[dict]:
    """Per game: the tables waiting for players (the fullest first) and the games being played, for
    the lobby's cards (RULING P71's "Play now" sits beside them). Practice tables are nobody else's."""
    cards = []
    for game in catalog.GAMES:
        tables = (
            Table.objects.filter(game=game.name, practice=False, status__in=OPEN)
            .prefetch_related(Prefetch("host", queryset=users_named_publicly()))
            .annotate(taken=Count("seats", filter=Q(seats__user__isnull=False)))
        )
        waiting = tables.filter(status=Table.Status.LOBBY, taken__lt=F("seat_count"))
        playing = tables.filter(status=Table.Status.PLAYING)
        cards.append(
            {
                "game": game,
                "waiting": list(waiting.order_by("-taken", "-created_at")[:CARD_TABLES]),
                "waiting_count": waiting.count(),
                "playing": list(playing.order_by("-created_at")[:CARD_TABLES]),
                "playing_count": playing.count(),
            }
        )
    return cards


def rematch_offers(*, user: User) -> list[RematchAnswer]:
    """The rematches waiting for this player's answer (RULING P70), newest first."""
    return list(
        RematchAnswer.objects.filter(
            user=user, answer=RematchAnswer.Answer.PENDING, rematch__table__status=Table.Status.LOBBY
        )
        .select_related("rematch__table", "rematch__table__host")
        .order_by("-rematch__created_at")
    )
