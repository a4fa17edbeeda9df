"""Reads of tournaments for the pages and the socket (docs/style.md §5)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from accounts.models import User
from tournaments import pairing
from tournaments.models import Entry, Round, SeasonPlace, Tournament
from tournaments.services import standings_lines

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
