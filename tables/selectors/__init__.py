"""Reads for lobby and table pages and the live render (docs/style.md §5): nothing here writes.

``snapshot`` is what a table's live view is made of, read once per change. This module holds the
rest: the lobby's list, the vote panel, the pause, the clock's public view, the fair-deal panel,
the rematch panel and a player's invitations and offers.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from django.db.models import Count, F, Prefetch, Q, QuerySet
from django.utils import timezone

from accounts.models import User
from accounts.selectors import users_named_publicly
from games import catalog
from games.catalog import get_engine
from games.models import Match
from games.records import fairness as protocol
from notifications import gates
from payouts import selectors as payout_selectors
from tables import matchstore
from tables.models import (
    DealCommitment,
    DismissalVote,
    QuickTable,
    Rematch,
    RematchAnswer,
    Seat,
    Table,
    TableInvite,
)

OPEN = (Table.Status.LOBBY, Table.Status.PLAYING)
ENDED = (Match.Status.FINISHED, Match.Status.DISMISSED, Match.Status.ABORTED)  # the deal's secret is shown


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


def quick_lobby(table: Table) -> dict | None:
    """At a lobby "Play now" opened (RULING P73): when the bots come (epoch ms; None once they
    came); None at any other table."""
    quick = QuickTable.objects.filter(table=table).first()
    if quick is None:
        return None
    return {"bots_at": None if quick.filled_at else int(quick.bots_at.timestamp() * 1000)}


CARD_TABLES = 3  # tables of each kind a game's lobby card lists


def lobby_cards(*, user: User | None) -> list[dict]:
    """Per game: the tables waiting for players (the fullest first) and the games being played, for
    the lobby's cards (RULING P71's "Play now" sits beside them). Practice tables are nobody else's."""
    cards = []
    for game in catalog.GAMES:
        tables = (
            Table.objects.filter(game=game.name, practice=False, private=False, status__in=OPEN)  # RULING P66
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


LOBBY_INVITES = 6  # the invitations the lobby's "For you" lists at most


def invitations_for(*, user: User) -> list[TableInvite]:
    """The invitations to a table still waiting for this player (RULING P66), newest first: sent by
    a player (not the player's own use of a link), to a table that still waits for players and where
    they have no seat yet. A rematch's invitation is its offer (``rematch_offers``), not listed twice.
    One whose inviter or host the notification gates refuse (a block either way, a personal mute:
    RULING P67) is not shown, as its notification was not."""
    rows = list(
        TableInvite.objects.filter(user=user, invited_by__isnull=False, table__status=Table.Status.LOBBY)
        .exclude(table__seats__user=user)
        .exclude(table__rematch_of__isnull=False)
        .select_related("table")
        .prefetch_related(Prefetch("table__host", queryset=users_named_publicly()))
        .order_by("-created_at", "-pk")[:LOBBY_INVITES]
    )
    actors = {actor for invite in rows for actor in (invite.invited_by_id, invite.table.host_id)}
    refused = {actor for actor in actors if gates.refused(recipient_id=user.pk, actor_id=actor)}
    return [invite for invite in rows if invite.invited_by_id not in refused and invite.table.host_id not in refused]


def games_in_play(user_id: int) -> int:
    """RULING P87: the tables the user sits at, waiting or playing; a tournament's are not counted
    (the site seats its players there, RULING P80)."""
    return Seat.objects.filter(user_id=user_id, table__status__in=OPEN, table__tournament_table__isnull=True).count()


def costs_pass(game: str) -> bool:
    """RULING P6: whether a seat at this game reserves a game pass (the catalogue says which)."""
    return catalog.get(game).costs_pass


def is_paused(match: Match) -> bool:
    """RULING S12: no action and no bot move while a dismissal vote is open."""
    if not catalog.get(match.game).dismissal_vote:  # no query on the moves of a game without votes
        return False
    return DismissalVote.objects.filter(match_id=match.pk, status=DismissalVote.Status.OPEN).exists()


# RULING P88: a table is dealt again after a dismissal at most this many times; its last attempt
# is played out, so a majority cannot go on redealing until it likes its hands.
MAX_REDEALS = 2


def vote_round(match: Match) -> tuple[int, int]:
    """RULING S12: the current round and N (= players): proposals are allowed in rounds 1..N."""
    engine = get_engine(match.game)
    view = engine.view(matchstore.loaded(match.game, match.pk, match.version, match.state), None)
    return view.get("round_number") or 1, match.players


def vote_panel(match: Match) -> dict:
    """What the table page shows of the vote (no viewer-specific data; the template adds that)."""
    vote = DismissalVote.objects.filter(match=match).first()
    round_number, limit = vote_round(match)
    panel: dict[str, Any] = {
        "can_propose": vote is None
        and match.status == Match.Status.PLAYING
        and round_number <= limit
        and match.attempt <= MAX_REDEALS,
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


def clock_public(match: Match | None) -> dict | None:
    """What every viewer may see of the clock: deadlines, away seats, the time left while paused.
    Keys stay strings: the channel layer's msgpack refuses other map keys."""
    if match is None:
        return None
    seats = match.clock_seats or {}
    return {
        "seconds": match.turn_clock,
        "deadlines": {seat: at for seat, (at, _) in (match.deadlines or {}).items()},
        "away": sorted(int(seat) for seat in seats.get("away", {})),
        "paused": dict(seats.get("paused", {})),
    }


def fairness_panel(*, table: Table, match: Match | None) -> dict | None:
    """The table page's panel: the commitment; once started, the values; once over, the secret.

    The secret is put in only for a match that has ended: this dict is what the live
    fragment renders, for every viewer, on every push.
    """
    if match is not None:
        commitment = DealCommitment.objects.filter(match=match).first()
        if commitment is None:
            return {"legacy": True}
        return _fairness_panel(commitment, revealed=match.status in ENDED, match=match)
    if table.status != Table.Status.LOBBY:
        return None
    commitment = DealCommitment.objects.filter(table=table, attempt=table.matches.count() + 1).first()
    return _fairness_panel(commitment, revealed=False, match=None) if commitment else None


def _fairness_panel(commitment: DealCommitment, *, revealed: bool, match: Match | None) -> dict:
    panel = {
        "legacy": False,
        "version": (commitment.contributions or {}).get("version", protocol.VERSION if match is None else protocol.V1),
        "commitment": commitment.commitment,
        "table": commitment.table_id,
    }
    if match is not None and commitment.contributions:  # RULING P32: public once the game starts
        panel["contributions"] = commitment.contributions["values"]
        panel["match_id"] = match.pk
    if revealed:
        panel["secret"] = commitment.secret
    return panel


class Dismissal(NamedTuple):
    match_id: int
    counted: tuple[int, int] | None  # the vote's (yes, no), when its row is there
    passes: str | None  # RULING P6: "restored" or "spent" at a table that costs passes, else None


def last_dismissal(table: Table) -> Dismissal | None:
    """The table's last attempt, if it was dismissed by vote (RULING S12): its vote's count and what
    became of its game passes (a pass comes back once; a dismissed restart's stay used, issue 37)."""
    match = table.matches.order_by("-attempt").only("pk", "status").first()
    if match is None or match.status != Match.Status.DISMISSED:
        return None
    vote = DismissalVote.objects.filter(match_id=match.pk).first()
    passes = None
    if costs_pass(table.game):
        passes = "restored" if payout_selectors.passes_restored(match=match) else "spent"
    return Dismissal(match.pk, (len(vote.yes_voters), len(vote.no_voters)) if vote else None, passes)
