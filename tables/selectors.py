"""Reads for lobby and table pages and the live render (docs/style.md §5): nothing here writes."""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone

from accounts.selectors import users_named_publicly
from games import catalog
from games.engines import get_engine
from games.models import Match
from tables import matchstore
from tables.models import DismissalVote, Table

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


def costs_pass(game: str) -> bool:
    """RULING P6: whether a seat at this game reserves a game pass (the catalogue says which)."""
    return catalog.get(game).costs_pass


def is_paused(match: Match) -> bool:
    """RULING S12: no action and no bot move while a dismissal vote is open."""
    if not catalog.get(match.game).dismissal_vote:  # no query on the moves of a game without votes
        return False
    return DismissalVote.objects.filter(match_id=match.pk, status=DismissalVote.Status.OPEN).exists()


def vote_round(match: Match) -> tuple[int, int]:
    """RULING S12: the current round and N (= players): proposals are allowed in rounds 1..N."""
    engine = get_engine(match.game)
    view = engine.view(matchstore.loaded(match.game, match.pk, match.version, match.state), None)
    return view.get("round_number") or 1, match.players


def vote_panel(match: Match) -> dict:
    """What the table page shows of the vote (no viewer-specific data; the template adds that)."""
    vote = DismissalVote.objects.filter(match=match).first()
    round_number, limit = vote_round(match)
    panel = {
        "can_propose": vote is None and match.status == Match.Status.PLAYING and round_number <= limit,
        "rounds": limit,
        "round_number": round_number,
        "open": False,
        "eligible_players": match.players,
        # RULING S12: bots never vote and count as not approving; the panel says so when any sit.
        "bots": match.match_players.filter(user__is_bot=True).count(),
        "majority": match.players // 2 + 1,
    }
    panel["can_pass"] = match.players - panel["bots"] >= panel["majority"]
    if vote is not None:
        seats = dict(match.match_players.values_list("user_id", "seat"))
        panel.update(
            {
                "status": vote.status,
                "status_label": vote.get_status_display(),
                "open": vote.status == DismissalVote.Status.OPEN,
                "yes": len(vote.yes_voters),
                "no": len(vote.no_voters),
                "needed": vote.needed,
                "eligible": vote.eligible,
                "voted_seats": [seats[user_id] for user_id in vote.yes_voters + vote.no_voters if user_id in seats],
                "deadline_ms": int(vote.deadline.timestamp() * 1000),
                "seconds_left": max(0, int((vote.deadline - timezone.now()).total_seconds() + 0.999)),
            }
        )
    return panel
