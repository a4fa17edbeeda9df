"""The turn clock (issue 19, RULINGS P9–P14): deadlines, expiries, away seats, pause and resume.

Pure arithmetic on a locked ``Match`` in memory, with ``now`` passed in: no database, no task,
no wall clock. The services (tables/services/) call it inside their transaction and write the
result with the move, so a deadline is set in the same transaction as the move that makes a
seat awaited; when a function arms a new countdown it returns its ``Timer``, and the service
hands it to the outbox (core/outbox.py), which queues the task after commit. What a viewer
sees of the clock is read by tables/selectors.py (``clock_public``) and drawn by
tables/render/clock_view.py; import-linter holds it to this (``.importlinter``).

``match.deadlines`` maps each awaited human seat (not away) to ``[epoch ms, version]``:
when its time is up, and the match version that set it. ``match.clock_due`` is the
earliest deadline, indexed, so the beat sweep finds deadlines no worker enforced.

One countdown task per match is armed at a time, for the earliest deadline, and stored as
``clock_seats["timer"] = [epoch ms, version]``; the task carries the same two values. A
move whose new deadline is later than the armed timer queues nothing: sending a Celery
task cost more CPU than the rest of a move's writes (issue 9's budget), and most moves come
long before the deadline. When the armed task runs it plays for the seats that are due and
arms the next timer. A task that is not the armed one (run twice, or superseded) does
nothing; one that runs before its time does nothing either, and the sweep enforces that
deadline. A task that runs after the player moved finds their deadline gone and plays
nothing.

``match.clock_seats`` also keeps, per seat (keys are strings: JSON), the expiries in a row,
when the seat went away, and during a dismissal vote the time each seat had left.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypedDict

from core.i18n import gettext as _  # the render's catalogue in a live render (core/i18n.py)
from games import catalog

if TYPE_CHECKING:
    from tables.moves import MoveEvent


class ClockSeats(TypedDict, total=False):
    """``Match.clock_seats`` (``games.models.ClockSeats``, the same keys): per seat, as strings."""

    expiries: dict[str, int]  # the seat's clock expiries in a row
    away: dict[str, int]  # since when the seat is away, epoch ms
    paused: dict[str, int]  # during a dismissal vote: the ms the seat had left
    timer: list[int]  # the armed countdown task: [epoch ms, match version]


class Match(Protocol):
    """What the clock reads and sets of a locked match (``games.models.Match``; the clock names no
    model: it is arithmetic on whatever row the caller holds)."""

    version: int
    turn_clock: int
    deadlines: Any  # {"seat": [deadline in epoch ms, version that set it]}
    clock_due: datetime | None
    clock_seats: ClockSeats


CHOICES = (0, 30, 60, 120)  # RULING P9: seconds per decision; 0 = no clock.
AWAY_AFTER = 2  # RULING P12: consecutive expiries that mark a seat away.
ALL_AWAY_MINUTES = 30  # RULING P13
UNTIMED_IDLE_HOURS = 24  # RULING P14
WARNING_SECONDS = 10


class Timer(NamedTuple):
    """The match's armed countdown: its time (epoch ms) and the version that armed it."""

    at: int
    version: int


def validate(*, game: str, seconds: object, stake: int) -> int:
    """The clock a table gets: the game's default when ``seconds`` is None. Raises ValueError."""
    if seconds is None:
        seconds = catalog.get(game).clock
    if isinstance(seconds, bool) or seconds not in CHOICES:
        raise ValueError(_("Choose a turn clock of off, 30, 60 or 120 seconds."))
    if stake and not seconds:
        # RULING P9: a player losing a staked game could otherwise stall it until an admin
        # aborts and refunds every stake, the staller's too.
        raise ValueError(_("A staked table needs a turn clock, so no player can hold the pot hostage."))
    return seconds


def ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def from_ms(value: int) -> datetime:
    return datetime.fromtimestamp(value / 1000, tz=UTC)


def away_seats(match: Match) -> set[int]:
    return {int(seat) for seat in (match.clock_seats or {}).get("away", {})}


def is_away(match: Match, seat: int) -> bool:
    return str(seat) in (match.clock_seats or {}).get("away", {})


def _seats(match: Match) -> ClockSeats:
    """A copy of the match's clock_seats to change (every per-seat map present, each copied)."""
    stored = match.clock_seats or {}
    seats: ClockSeats = {
        "expiries": dict(stored.get("expiries", {})),
        "away": dict(stored.get("away", {})),
        "paused": dict(stored.get("paused", {})),
    }
    if "timer" in stored:
        seats["timer"] = stored["timer"]
    return seats


def after_move(
    match: Match, *, awaited: list[int], humans: set[int], events: Iterable[MoveEvent], now: datetime
) -> Timer | None:
    """Set the deadlines for the seats the new state awaits (RULING P10), in the move's transaction.

    A human seat that acted itself is present again: its expiries and away mark are cleared
    (RULING P12). Every seat newly awaited, or awaited again after acting (a trick's winner
    leads), gets a full decision's time; a seat still awaited that did not act keeps its
    deadline (SITA: the others' choices do not restart a seat's clock). Returns the countdown
    it armed, if any.
    """
    seats = _seats(match)
    acted = set()
    for event in events:
        acted.add(event.seat)
        if not event.by_clock and event.seat in humans:
            seats["expiries"].pop(str(event.seat), None)
            seats["away"].pop(str(event.seat), None)
    match.clock_seats = seats
    if not match.turn_clock:
        return None
    old = match.deadlines or {}
    deadlines = {}
    for seat in awaited:
        if seat not in humans or str(seat) in seats["away"]:
            continue  # bots and away seats are played by the bot task (RULING P12)
        kept = old.get(str(seat))
        if kept is not None and seat not in acted:
            deadlines[str(seat)] = kept
        else:
            deadlines[str(seat)] = [ms(now) + match.turn_clock * 1000, match.version]
    return _set(match, deadlines, now=now)


def _set(match: Match, deadlines: dict, *, now: datetime) -> Timer | None:
    match.deadlines = deadlines
    match.clock_due = from_ms(min(at for at, _ in deadlines.values())) if deadlines else None
    return arm(match, now=now)


def arm(match: Match, *, now: datetime) -> Timer | None:
    """Arm the countdown for the earliest deadline, unless an armed one runs before it; the new
    timer, for the caller to queue after commit, or None."""
    if not match.deadlines:
        return None  # an armed task finds nothing due and clears itself
    earliest = min(at for at, _ in match.deadlines.values())
    timer = (match.clock_seats or {}).get("timer")
    if timer and ms(now) <= timer[0] <= earliest:
        return None
    seats = _seats(match)
    seats["timer"] = [earliest, match.version]
    match.clock_seats = seats
    return Timer(earliest, match.version)


def take_timer(match: Match, *, version: int, at: int | None, now: datetime) -> bool:
    """Whether the task (version, at) is this match's armed timer and its time has come; if so it
    is disarmed, for the caller to play what is due and arm the next."""
    timer = (match.clock_seats or {}).get("timer")
    if timer is None or timer != [at if at is not None else timer[0], version] or ms(now) < timer[0]:
        return False
    seats = _seats(match)
    seats.pop("timer")
    match.clock_seats = seats
    return True


def due_seats(match: Match, *, now: datetime) -> list[int]:
    """Seats whose deadline has passed."""
    return sorted(int(seat) for seat, (at, _) in (match.deadlines or {}).items() if at <= ms(now))


def expired(match: Match, seat: int, *, now: datetime) -> None:
    """RULING P12: count an expiry; the second in a row marks the seat away."""
    seats = _seats(match)
    count = seats["expiries"].get(str(seat), 0) + 1
    seats["expiries"][str(seat)] = count
    if count >= AWAY_AFTER:
        seats["away"].setdefault(str(seat), ms(now))
    match.clock_seats = seats


def mark_away(match: Match, seat: int, *, now: datetime) -> None:
    """RULING P12: a seat away from the start of a scheduled table (tables/scheduled.py)."""
    seats = _seats(match)
    seats["away"].setdefault(str(seat), ms(now))
    match.clock_seats = seats


def back(match: Match, seat: int, *, awaited: list[int], paused: bool, now: datetime) -> Timer | None:
    """The player says they are back: present again, with a full decision's time if awaited."""
    seats = _seats(match)
    seats["away"].pop(str(seat), None)
    seats["expiries"].pop(str(seat), None)
    if paused and match.turn_clock and seat in awaited:
        seats["paused"][str(seat)] = match.turn_clock * 1000  # the time starts when play resumes
    match.clock_seats = seats
    if match.turn_clock and seat in awaited and not paused:
        deadlines = dict(match.deadlines or {})
        deadlines[str(seat)] = [ms(now) + match.turn_clock * 1000, match.version]
        return _set(match, deadlines, now=now)
    return None


def pause(match: Match, *, now: datetime) -> None:
    """RULING P13: a dismissal vote stops the clock; each seat keeps the time it had left."""
    if not match.deadlines:
        return
    seats = _seats(match)
    seats["paused"] = {seat: max(0, at - ms(now)) for seat, (at, _) in match.deadlines.items()}
    match.clock_seats = seats
    match.deadlines, match.clock_due = {}, None


def resume(match: Match, *, now: datetime) -> Timer | None:
    """Play resumes: each paused seat gets back exactly the time it had left."""
    seats = _seats(match)
    paused = seats.pop("paused", {})
    seats["paused"] = {}
    match.clock_seats = seats
    if paused:
        return _set(match, {seat: [ms(now) + left, match.version] for seat, left in paused.items()}, now=now)
    return None


def all_away_since(match: Match, humans: set[int]) -> datetime | None:
    """When the last of the human seats went away, or None if any human is present."""
    away = (match.clock_seats or {}).get("away", {})
    if not humans or any(str(seat) not in away for seat in humans):
        return None
    return from_ms(max(away[str(seat)] for seat in humans))


def idle_cutoff(now: datetime) -> datetime:
    return now - timedelta(hours=UNTIMED_IDLE_HOURS)


def all_away_cutoff(now: datetime) -> datetime:
    return now - timedelta(minutes=ALL_AWAY_MINUTES)
