"""The turn clock (issue 19, RULINGS P9–P14): deadlines, expiries, away seats, pause and resume.

Everything here reads and changes a locked ``Match`` in memory; the move services in
``tables.services`` (tables/services/steps.py) call it inside their transaction and write the result with the move,
so a deadline is set in the same transaction as the move that makes a seat awaited.

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

from datetime import UTC, datetime, timedelta

from django.db import transaction
from django.db.models import Count, Q

from config.i18n import gettext as _  # the render's catalogue in a live render (config/i18n.py)
from games import catalog
from games.models import MatchEvent
from tables.tasks import clock_expire

CHOICES = (0, 30, 60, 120)  # RULING P9: seconds per decision; 0 = no clock.
AWAY_AFTER = 2  # RULING P12: consecutive expiries that mark a seat away.
ALL_AWAY_MINUTES = 30  # RULING P13
UNTIMED_IDLE_HOURS = 24  # RULING P14
WARNING_SECONDS = 10


def label(seconds: int) -> str:
    return _("%(seconds)s s clock") % {"seconds": seconds} if seconds else _("no clock")


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


def away_seats(match) -> set[int]:
    return {int(seat) for seat in (match.clock_seats or {}).get("away", {})}


def is_away(match, seat: int) -> bool:
    return str(seat) in (match.clock_seats or {}).get("away", {})


def pot_forfeits(match, humans: set[int]) -> dict[int, str]:
    """RULING P50: the human seats that take no share of a staked game's pot, with why: "away"
    (marked away when the game ended) or "clock" (more than half of their decisions were played
    by the clock or the house). Read under the Match lock, after the last move's events are written."""
    counts = (
        MatchEvent.objects.filter(match_id=match.pk, seat__in=humans)
        .values("seat")
        .annotate(decisions=Count("pk"), clocked=Count("pk", filter=Q(by_clock=True)))
    )
    forfeits = {row["seat"]: "clock" for row in counts if 2 * row["clocked"] > row["decisions"]}
    forfeits.update({seat: "away" for seat in away_seats(match) & humans})
    return forfeits


def _seats(match) -> dict:
    seats = dict(match.clock_seats or {})
    for key in ("expiries", "away", "paused"):
        seats[key] = dict(seats.get(key, {}))
    return seats


def after_move(match, *, awaited: list[int], humans: set[int], events: list[tuple], now: datetime) -> None:
    """Set the deadlines for the seats the new state awaits (RULING P10), in the move's transaction.

    A human seat that acted itself is present again: its expiries and away mark are cleared
    (RULING P12). Every seat newly awaited, or awaited again after acting (a trick's winner
    leads), gets a full decision's time; a seat still awaited that did not act keeps its
    deadline (SITA: the others' choices do not restart a seat's clock).
    """
    seats = _seats(match)
    acted = set()
    for event in events:
        seat, by_clock = event[1], event[5]
        acted.add(seat)
        if not by_clock and seat in humans:
            seats["expiries"].pop(str(seat), None)
            seats["away"].pop(str(seat), None)
    match.clock_seats = seats
    if not match.turn_clock:
        return
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
    _set(match, deadlines, now=now)


def _set(match, deadlines: dict, *, now: datetime) -> None:
    match.deadlines = deadlines
    match.clock_due = from_ms(min(at for at, _ in deadlines.values())) if deadlines else None
    arm(match, now=now)


def arm(match, *, now: datetime) -> None:
    """Queue the countdown task for the earliest deadline, unless an armed one runs before it."""
    if not match.deadlines:
        return  # an armed task finds nothing due and clears itself
    earliest = min(at for at, _ in match.deadlines.values())
    timer = (match.clock_seats or {}).get("timer")
    if timer and ms(now) <= timer[0] <= earliest:
        return
    seats = _seats(match)
    seats["timer"] = [earliest, match.version]
    match.clock_seats = seats
    match_id, version = match.pk, match.version
    transaction.on_commit(lambda: _queue(match_id, version, earliest))


def _queue(match_id: int, version: int, at: int) -> None:
    countdown = max(0.0, (at - ms(datetime.now(UTC))) / 1000)
    clock_expire.apply_async((match_id, version, at), countdown=countdown)


def take_timer(match, *, version: int, at: int | None, now: datetime) -> bool:
    """Whether the task (version, at) is this match's armed timer and its time has come; if so it
    is disarmed, for the caller to play what is due and arm the next."""
    timer = (match.clock_seats or {}).get("timer")
    if timer is None or timer != [at if at is not None else timer[0], version] or ms(now) < timer[0]:
        return False
    seats = _seats(match)
    seats.pop("timer")
    match.clock_seats = seats
    return True


def due_seats(match, *, now: datetime) -> list[int]:
    """Seats whose deadline has passed."""
    return sorted(int(seat) for seat, (at, _) in (match.deadlines or {}).items() if at <= ms(now))


def expired(match, seat: int, *, now: datetime) -> None:
    """RULING P12: count an expiry; the second in a row marks the seat away."""
    seats = _seats(match)
    count = seats["expiries"].get(str(seat), 0) + 1
    seats["expiries"][str(seat)] = count
    if count >= AWAY_AFTER:
        seats["away"].setdefault(str(seat), ms(now))
    match.clock_seats = seats


def back(match, seat: int, *, awaited: list[int], paused: bool, now: datetime) -> None:
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
        _set(match, deadlines, now=now)


def pause(match, *, now: datetime) -> None:
    """RULING P13: a dismissal vote stops the clock; each seat keeps the time it had left."""
    if not match.deadlines:
        return
    seats = _seats(match)
    seats["paused"] = {seat: max(0, at - ms(now)) for seat, (at, _) in match.deadlines.items()}
    match.clock_seats = seats
    match.deadlines, match.clock_due = {}, None


def resume(match, *, now: datetime) -> None:
    """Play resumes: each paused seat gets back exactly the time it had left."""
    seats = _seats(match)
    paused = seats.pop("paused", {})
    seats["paused"] = {}
    match.clock_seats = seats
    if paused:
        _set(match, {seat: [ms(now) + left, match.version] for seat, left in paused.items()}, now=now)


def all_away_since(match, humans: set[int]) -> datetime | None:
    """When the last of the human seats went away, or None if any human is present."""
    away = (match.clock_seats or {}).get("away", {})
    if not humans or any(str(seat) not in away for seat in humans):
        return None
    return from_ms(max(away[str(seat)] for seat in humans))


def public(match) -> dict | None:
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


def live(
    data: dict | None,
    *,
    seconds: int,
    game: str,
    viewer_seat: int | None,
    to_act: list[int],
    lobby: bool,
    now: datetime,
) -> dict:
    """The table page's clock: each awaited seat's countdown from the stored deadline (the page
    counts down from it, corrected by ``server_now``), the away seats, and the notes."""
    data = data or {}
    now_ms = ms(now)
    deadlines = {int(seat): at for seat, at in data.get("deadlines", {}).items() if int(seat) in to_act}
    away = set(data.get("away", []))
    note = ""
    if lobby and seconds and not catalog.get(game).clock:
        # RULING P9: said before anyone sits, because it departs from the rule book (S11).
        note = _(
            "This table has a %(seconds)s-second turn clock: when a player's time runs out the house "
            "plays for them, although the rule book says a lost connection never skips a turn."
        ) % {"seconds": seconds}
    return {
        "seconds": seconds,
        "label": label(seconds),
        "choices": CHOICES,
        "deadlines": deadlines,
        "left": {seat: max(0, -(-(at - now_ms) // 1000)) for seat, at in deadlines.items()},
        "warning_ms": WARNING_SECONDS * 1000,
        "now": now_ms,
        "away": away,
        "paused": bool(data.get("paused")),
        "i_am_away": viewer_seat is not None and viewer_seat in away,
        "my_turn": viewer_seat is not None and viewer_seat in to_act,
        "note": note,
    }


def idle_cutoff(now: datetime) -> datetime:
    return now - timedelta(hours=UNTIMED_IDLE_HOURS)


def all_away_cutoff(now: datetime) -> datetime:
    return now - timedelta(minutes=ALL_AWAY_MINUTES)
