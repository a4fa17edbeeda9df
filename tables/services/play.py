"""A game's moves: a player's action and the bots' turn.

Each public function is one transaction that locks the Match row (tables/matchstore.py), checks
seat, turn, pause and version, applies the engine and saves ``version + 1`` with the MatchEvent
(the steps in tables/services/steps.py; docs/design.md, "How a move flows").
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core.i18n import refusal
from games.engines import IllegalAction
from games.models import Match
from tables import botplay, clock, matchstore, selectors
from tables.errors import TableError
from tables.moves import MoveEvent
from tables.services.steps import action_apply, bot_level, engine_for, house_turn, move_save, seat_of


def match_act(*, match_id: int, user: User, action: object, version: int | None, now: datetime | None = None) -> Match:
    """Apply one player's action. Refuses (changing nothing) anything out of turn, stale or illegal."""
    now = now or timezone.now()
    with transaction.atomic():
        match = matchstore.lock_match(match_id)
        seat = seat_of(match, user)
        # A move made on an older view is stale, except in a simultaneous choice (SITA): there
        # the others' locked choices change nothing this seat could see (RULING T2).
        if version is None or not match.turn_version <= version <= match.version:
            raise TableError(_("The game has moved on; your view is refreshed."))
        return _apply(match, seat=seat, user=user, action=action, now=now)


def bots_act(*, match_id: int, version: int, now: datetime | None = None) -> int:
    """Let every bot that is awaited move. A task for an older version does nothing.

    Returns how many bot moves were applied. Bot choices are seeded from the attempt's
    secret, the version and the seat (never the deal's seed), so a retried task makes the
    same move.
    """
    now = now or timezone.now()
    with transaction.atomic():
        match = matchstore.lock_match(match_id)
        if match.version != version or match.status != Match.Status.PLAYING or selectors.is_paused(match):
            return 0
        # RULING P12: the house plays for an away seat as for a bot, after the same pause.
        away = clock.away_seats(match)
        seating = matchstore.seating(match)
        bots = {seat: user_id for seat, user_id, is_bot in seating if is_bot or seat in away}
        people = {seat for seat, _user_id, is_bot in seating if not is_bot}
        return house_turn(
            match=match,
            users=bots,
            choose=lambda seat, view: (
                botplay.away_action(match=match, seat=seat, view=view)
                if seat in people
                else botplay.bot_action(match=match, seat=seat, level=bot_level(bots[seat]), view=view)
            ),
            by_clock=lambda seat: seat in away,
            now=now,
        )


def _apply(match: Match, *, seat: int, user: User, action: object, now: datetime) -> Match:
    if match.status != Match.Status.PLAYING:
        raise TableError(_("This game is over."))
    if selectors.is_paused(match):
        raise TableError(_("Play is paused while the dismissal vote is open."))
    engine = engine_for(match.game)
    state = matchstore.loaded(match.game, match.pk, match.version, match.state)
    to_act = engine.to_act(state)
    if seat not in to_act:
        raise TableError(_("It is not your turn."))
    events: list[MoveEvent] = []
    try:
        state, to_act = action_apply(
            match=match,
            engine=engine,
            state=state,
            to_act=to_act,
            seat=seat,
            user_id=user.pk,
            action=action,
            now=now,
            events=events,
        )
    except IllegalAction as error:
        raise TableError(refusal(error)) from None
    move_save(match=match, state=state, engine=engine, to_act=to_act, events=events, now=now)
    return match
