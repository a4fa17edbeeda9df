"""Reads of tournaments for the pages, the socket and the services (docs/style.md §5): listings,
standings (RULINGS P78, P81), the monthly seasons' ladders (RULING P84), the player's own."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from fractions import Fraction
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.db.models import Count, Max, Prefetch, Q, QuerySet
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Match, MatchPlayer
from payouts.owners import Place
from tournaments import pairing
from tournaments.models import Entry, Round, Season, SeasonPlace, Sitting, Tournament

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

State = Tournament.State


def listing() -> dict[str, QuerySet[Tournament]]:
    """Upcoming (soonest first), running, and the last finished or cancelled."""
    base = Tournament.objects.annotate(players=Count("entries", filter=Q(entries__state=Entry.State.ACTIVE)))
    return {
        "upcoming": base.filter(state=State.SIGNUP).order_by("starts_at", "pk")[:50],
        "running": base.filter(state=State.RUNNING).order_by("starts_at", "pk")[:50],
        "finished": base.filter(state__in=[State.FINISHED, State.CANCELLED]).order_by("-ended_at", "-pk")[:20],
    }


def ledger_places(ids: set[int]) -> dict[int, Place]:
    """The wallet's "Table and game" for a tournament's fee, pot, prize and passes (payouts/owners.py)."""
    return {
        pk: Place(label=name, url=reverse("tournament", args=[pk]))
        for pk, name in Tournament.objects.filter(pk__in=ids).values_list("pk", "name")
    }


def next_open(*, now: datetime | None = None, limit: int = 3) -> list[Tournament]:
    """The next tournaments still open for sign-up (as their page says: before the start), soonest first."""
    now = now or timezone.now()
    return list(Tournament.objects.filter(state=State.SIGNUP, starts_at__gt=now).order_by("starts_at", "pk")[:limit])


@dataclass(frozen=True)
class Row:
    rank: int | None
    entry: Entry
    wins: float
    buchholz: float

    @property
    def points(self) -> float:
        return self.entry.half_points / 2


def standings(tournament: Tournament) -> list[Row]:
    """RULING P78: the live standings, the same order the next round is seated by."""
    entries = {e.user_id: e for e in tournament.entries.select_related("user")}
    lines = pairing.standings(standings_lines(tournament).values())
    rows = []
    for line in lines:
        entry = entries[line.player]
        rank = entry.rank if tournament.state == State.FINISHED else line.rank
        if entry.state != Entry.State.ACTIVE:
            rank = None
        rows.append(Row(rank=rank, entry=entry, wins=float(line.wins), buchholz=line.buchholz / 2))
    rows.sort(key=lambda row: (row.rank is None, row.rank or 0))
    return rows


def standings_lines(tournament: Tournament) -> dict[int, pairing.Line]:
    """Every entry's standings line from the scored sittings (bots are not entries: RULING P81)."""
    entries = list(tournament.entries.order_by("signed_up_at", "pk"))
    lines = {
        e.user_id: pairing.Line(player=e.user_id, half=e.half_points, order=index) for index, e in enumerate(entries)
    }
    sittings = Sitting.objects.filter(round_table__round__tournament=tournament, round_table__scored=True)
    by_table: dict[int, list[tuple[int, int | None, int | None]]] = {}
    for table_id, user_id, place, half in sittings.values_list(
        "round_table_id", "entry__user_id", "place", "half_points"
    ):
        by_table.setdefault(table_id, []).append((user_id, place, half))
    for members in by_table.values():
        best = min((place for _, place, _half in members if place is not None), default=None)
        firsts = [user_id for user_id, place, _half in members if place == 1]
        for user_id, place, half in members:
            line = lines[user_id]
            line.opponents.extend(other for other, _p, _h in members if other != user_id)
            if place == 1 and best == 1 and half:
                line.wins += Fraction(1, len(firsts))
    return lines


def signup_open(tournament: Tournament, *, now: datetime | None = None) -> bool:
    """Whether players may still sign up or withdraw (RULING P82: until the start time)."""
    return tournament.state == Tournament.State.SIGNUP and (now or timezone.now()) < tournament.starts_at


def rounds(tournament: Tournament) -> list[Round]:
    return list(
        tournament.round_set.prefetch_related("tables__table", "tables__sittings__entry__user").order_by("-number")
    )


def entry_of(tournament: Tournament, user: User | AnonymousUser) -> Entry | None:
    if not user.is_authenticated:
        return None
    return tournament.entries.filter(user=user).first()


def player_tournaments(user: User) -> list[Entry]:
    """The player's tournaments on their profile, newest first."""
    return list(
        Entry.objects.filter(user=user).select_related("tournament").order_by("-tournament__starts_at", "-pk")[:20]
    )


def season_badges(user: User) -> list[SeasonPlace]:
    """RULING P84: the player's places in frozen monthly ladders."""
    return list(SeasonPlace.objects.filter(user=user).select_related("season").order_by("-season__month")[:12])


@dataclass(frozen=True)
class Standing:
    user_id: int
    rating: float
    games: int


def month_start(moment: datetime | date) -> date:
    return date(moment.year, moment.month, 1)


def previous_month(month: date) -> date:
    return date(month.year - 1, 12, 1) if month.month == 1 else date(month.year, month.month - 1, 1)


def next_month(month: date) -> date:
    return date(month.year + 1, 1, 1) if month.month == 12 else date(month.year, month.month + 1, 1)


def ladder(*, game: str, month: date) -> list[Standing]:
    """RULING P84: the month's ladder, best first (equal ratings: more games, then the earlier account).

    A player is on it with at least ``SEASON_MIN_GAMES`` rated games of that game finished in the
    month; their figure is the rating after their last game of the month
    (``MatchPlayer.rating_after``, the cautious μ − 3σ). Bots are rated but not on the ladder.
    """
    played = MatchPlayer.objects.filter(
        match__game=game,
        match__status=Match.Status.FINISHED,
        match__ended_at__date__gte=month,
        match__ended_at__date__lt=next_month(month),
        user__is_bot=False,
        rating_after__isnull=False,
    )
    counts = {
        row["user_id"]: (row["games"], row["last"])
        for row in played.values("user_id").annotate(games=Count("pk"), last=Max("match__ended_at"))
        if row["games"] >= settings.SEASON_MIN_GAMES
    }
    ratings: dict[int, float] = {}
    for user_id, rating, ended in played.filter(user_id__in=counts).values_list(
        "user_id", "rating_after", "match__ended_at"
    ):
        if ended == counts[user_id][1] and rating is not None:  # never None: filtered above
            ratings[user_id] = rating
    rows = [Standing(user_id, ratings[user_id], counts[user_id][0]) for user_id in ratings]
    rows.sort(key=lambda row: (-row.rating, -row.games, row.user_id))
    return rows


@dataclass(frozen=True)
class LadderRow:
    rank: int
    user: User
    rating: float
    games: int


LADDER_SHOWN = 100  # the seasons page's live ladder: its first hundred


def seasons_page(*, game: str, now: datetime | None = None) -> dict:
    """RULING P84 on one page: this month's ladder of ``game`` as it stands (best first, with the
    players' public names) and the frozen archives of its past months, newest first."""
    month = month_start(now or timezone.now())
    rows = ladder(game=game, month=month)[:LADDER_SHOWN]
    users = User.objects.in_bulk([row.user_id for row in rows])
    archives = (
        Season.objects.filter(game=game)
        .prefetch_related(Prefetch("places", queryset=SeasonPlace.objects.select_related("user").order_by("rank")))
        .order_by("-month")[:24]
    )
    return {
        "month": month,
        "ladder": [
            LadderRow(rank, users[row.user_id], row.rating, row.games) for rank, row in enumerate(rows, start=1)
        ],
        "archives": list(archives),
        "min_games": settings.SEASON_MIN_GAMES,
    }


def local_time(moment: datetime, user: User | AnonymousUser) -> datetime:
    """A stored UTC moment in the player's own time zone (the site's zone when none is set)."""
    name = getattr(user, "time_zone", "") or ""
    try:
        zone = ZoneInfo(name) if name else timezone.get_current_timezone()
    except (ZoneInfoNotFoundError, ValueError):
        zone = timezone.get_current_timezone()
    return moment.astimezone(zone)


def tournaments_export(user: User) -> dict:
    """RULING P55: every tournament the player entered, with how it went for them, and those they created."""
    created = Tournament.objects.filter(creator=user).order_by("pk")
    return {
        "entries": _entries_export(user),
        "created": [
            {"tournament": t.pk, "name": t.name, "state": t.state, "created_at": t.created_at.isoformat()}
            for t in created
        ],
    }


def _entries_export(user: User) -> list[dict]:
    return [
        {
            "tournament": entry.tournament_id,
            "name": entry.tournament.name,
            "kind": entry.tournament.game,
            "starts_at": entry.tournament.starts_at.isoformat(),
            "tournament_state": entry.tournament.state,
            "state": entry.state,
            "signed_up_at": entry.signed_up_at.isoformat(),
            "entry_fee": entry.tournament.entry_fee,
            "points": entry.points,
            "rank": entry.rank,
            "prize": entry.prize,
            "reason": entry.reason,
        }
        for entry in Entry.objects.filter(user=user).select_related("tournament").order_by("pk")
    ]


def season_places_export(user: User) -> list[dict]:
    """RULING P84: the frozen seasons the player placed in."""
    return [
        {"kind": place.season.game, "month": place.season.month.isoformat(), "rank": place.rank, "rating": place.rating}
        for place in SeasonPlace.objects.filter(user=user).select_related("season").order_by("pk")
    ]
