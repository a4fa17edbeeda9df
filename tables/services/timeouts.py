"""The turn clock's writes (issue 19, RULINGS P11–P14; its arithmetic is tables/clock.py).

An expired deadline, a player back from away, and beat's sweep: each public function is one
transaction under the Match lock, or a loop of them, safe to run twice, late or early.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.models import Match
from tables import botplay, clock, matchstore, selectors
from tables.errors import TableError
from tables.services.endings import match_abandon_idle
from tables.services.play import bots_act
from tables.services.steps import clock_armed, engine_for, house_turn, seat_of, table_changed


def clock_expire(*, match_id: int, version: int | None, at: int | None = None, now: datetime | None = None) -> int:
    """RULING P11: the house plays one legal action for each awaited seat whose time is up.

    ``version`` and ``at``: the countdown task's timer (tables/clock.py). Only the match's armed
    timer, once its time has come, acts: a task run twice, superseded or early does nothing,
    and one that runs after the player moved finds their deadline gone. The sweep passes
    ``version=None``: any deadline that has passed. Returns how many actions were played.
    """
    now = now or timezone.now()
    with transaction.atomic():
        match = matchstore.lock_match(match_id)
        if match.status != Match.Status.PLAYING:
            return 0
        if version is not None and not clock.take_timer(match, version=version, at=at, now=now):
            return 0
        if selectors.is_paused(match):
            # RULING P13: the vote's pause stops the clock; its end re-arms it.
            match.save(update_fields=["clock_seats"])
            return 0
        due = clock.due_seats(match, now=now)
        if not due:
            # The player moved in time: arm the task for the next deadline, if any.
            clock_armed(match, clock.arm(match, now=now))
            match.save(update_fields=["clock_seats"])
            return 0
        # SITA: every seat that has not chosen when time is up gets a bot choice at once.
        return house_turn(
            match=match,
            users={seat: user_id for seat, user_id, _level in matchstore.seating(match)},
            choose=lambda seat, view: botplay.clock_action(match=match, seat=seat, view=view),
            by_clock=lambda seat: True,
            now=now,
            seats=due,
            expired=True,
        )


def seat_back(*, match_id: int, user: User, position: int | None = None, now: datetime | None = None) -> None:
    """RULING P12: "I'm back" ends the away mark of the player's own seat, and only theirs."""
    now = now or timezone.now()
    with transaction.atomic():
        match = matchstore.lock_match(match_id)
        seat = seat_of(match, user)
        if position is not None and position != seat:
            raise TableError(_("You can only say you are back for your own seat."))
        if match.status != Match.Status.PLAYING:
            raise TableError(_("This game is over."))
        if not clock.is_away(match, seat):
            raise TableError(_("You are not marked away."))
        engine = engine_for(match.game)
        state = matchstore.loaded(match.game, match.pk, match.version, match.state)
        timer = clock.back(match, seat, awaited=engine.to_act(state), paused=selectors.is_paused(match), now=now)
        clock_armed(match, timer)
        match.save(update_fields=["deadlines", "clock_due", "clock_seats"])
        table_changed(match.table_id)


def clocks_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """The beat task's service: what no countdown task did. Each step is its own transaction,
    re-checked under the Match lock, so it is safe beside the workers and safe to run twice."""
    now = now or timezone.now()
    done = {"expired": 0, "played_on": 0, "abandoned": 0}
    playing = Match.objects.filter(status=Match.Status.PLAYING)
    # Deadlines that passed while no worker ran (or whose task was lost).
    for match_id in playing.filter(clock_due__lte=now).values_list("pk", flat=True):
        done["expired"] += clock_expire(match_id=match_id, version=None, now=now)
    # RULING P13: every human seat away for 30 minutes: the bots play the game to its end.
    for match in playing.filter(turn_clock__gt=0).only("pk", "clock_seats"):
        humans = set(match.match_players.filter(user__is_bot=False).values_list("seat", flat=True))
        since = clock.all_away_since(match, humans)
        if since is not None and since <= clock.all_away_cutoff(now):
            done["played_on"] += _play_on(match.pk, now=now)
    # RULING P14: an untimed game with no move for 24 hours is abandoned.
    cutoff = clock.idle_cutoff(now)
    idle = (
        playing.filter(turn_clock=0, started_at__lt=cutoff)
        .annotate(last=Max("events__created_at"))
        .filter(Q(last__lt=cutoff) | Q(last__isnull=True))
        .values_list("pk", flat=True)
    )
    for match_id in idle:
        done["abandoned"] += match_abandon_idle(match_id=match_id, now=now)
    return done


def _play_on(match_id: int, *, now: datetime) -> int:
    """Play the house's moves one transaction at a time until nobody it plays for is awaited."""
    played = 0
    while True:
        version = (
            Match.objects.filter(pk=match_id, status=Match.Status.PLAYING).values_list("version", flat=True).first()
        )
        moved = bots_act(match_id=match_id, version=version, now=now) if version is not None else 0
        if not moved:
            return played
        played += moved
