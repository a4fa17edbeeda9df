"""The dismissal vote (RULING S12): propose, cast, and close on expiry.

One writer at a time: every function locks the Match row first (as the move path
does), then reads the vote, so a ballot, the expiry task and a move can never
interleave. While a vote is open ``tables.selectors.is_paused`` is true: the move services
refuse actions and bot tasks do nothing. When the vote closes without approval the
bots are queued again; on approval ``steps.match_dismiss`` ends the attempt.

The 60-second deadline is stored on the vote. A Celery task is queued for it after
commit; it re-reads the vote and closes it only if it is still open and the
deadline has passed, so a task delivered twice or late is harmless, and one
delivered early re-queues itself.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core import outbox
from core.i18n import lazy_format
from games import catalog
from games.catalog import get_engine
from games.models import Match
from tables import clock, matchstore, selectors
from tables.errors import TableError
from tables.events import VoteDue
from tables.models import DismissalVote
from tables.services import steps

Status = DismissalVote.Status
MAX_REDEALS = selectors.MAX_REDEALS  # RULING P88


def vote_propose(*, match_id: int, user: User, now: datetime | None = None) -> DismissalVote:
    now = now or timezone.now()
    with transaction.atomic():
        match = matchstore.lock_match(match_id)
        humans = _humans(match)
        if not catalog.get(match.game).dismissal_vote:
            raise TableError(_("Only a Sitaratas game can be dismissed by vote."))
        if user.pk not in humans:
            raise TableError(_("Only the players of this game can propose a dismissal."))
        if match.status != Match.Status.PLAYING:
            raise TableError(_("This game is over."))
        if DismissalVote.objects.filter(match=match).exists():
            raise TableError(_("A dismissal has already been proposed in this attempt (one proposal per attempt)."))
        if match.attempt > MAX_REDEALS:
            raise TableError(
                lazy_format(
                    _(
                        "This table has been dealt again %(count)s times, the most a table may be: "
                        "this deal is played out."
                    ),
                    count=MAX_REDEALS,
                )
            )
        round_number, limit = selectors.vote_round(match)
        if round_number > limit:
            raise TableError(
                lazy_format(_("A dismissal can only be proposed during rounds 1 to %(limit)s."), limit=limit)
            )
        # RULING S12: the majority is of every player of the attempt, bots included; bots never
        # vote, so they count as not approving (a lone human with bots cannot dismiss).
        eligible = match.players
        try:
            with transaction.atomic():
                vote = DismissalVote.objects.create(
                    match=match,
                    proposer=user,
                    eligible=eligible,
                    needed=eligible // 2 + 1,
                    yes_voters=[user.pk],  # The proposer's YES counts at once.
                    created_at=now,
                    deadline=now + timedelta(seconds=settings.DISMISSAL_VOTE_SECONDS),
                )
        except IntegrityError:
            raise TableError(
                _("A dismissal has already been proposed in this attempt (one proposal per attempt).")
            ) from None
        # RULING P13: the pause stops the turn clock; each seat keeps the time it had left.
        clock.pause(match, now=now)
        match.save(update_fields=["deadlines", "clock_due", "clock_seats"])
        if not _decide(match, vote, voters=len(humans), now=now):
            outbox.send(VoteDue(vote_id=vote.pk, seconds=settings.DISMISSAL_VOTE_SECONDS))
        steps.table_changed(match.table_id)
        return vote


def vote_cast(*, match_id: int, user: User, yes: bool, now: datetime | None = None) -> DismissalVote:
    now = now or timezone.now()
    with transaction.atomic():
        match = matchstore.lock_match(match_id)
        vote = DismissalVote.objects.filter(match=match, status=Status.OPEN).first()
        if vote is None:
            raise TableError(_("There is no open vote."))
        humans = _humans(match)
        if user.pk not in humans:
            raise TableError(_("Only the players of this game can vote."))
        if user.pk in vote.yes_voters or user.pk in vote.no_voters:
            raise TableError(_("You have already voted."))
        if now >= vote.deadline:
            _close(match, vote, Status.EXPIRED, now=now)
            return vote
        (vote.yes_voters if yes else vote.no_voters).append(user.pk)
        vote.save(update_fields=["yes_voters", "no_voters"])
        _decide(match, vote, voters=len(humans), now=now)
        steps.table_changed(match.table_id)
        return vote


def vote_close_expired(*, vote_id: int, now: datetime | None = None) -> bool:
    """The expiry task's service: True if this call closed the vote. Harmless twice or late."""
    now = now or timezone.now()
    with transaction.atomic():
        match_id = DismissalVote.objects.filter(pk=vote_id).values_list("match_id", flat=True).first()
        if match_id is None:
            return False
        match = matchstore.lock_match(match_id)
        vote = DismissalVote.objects.get(pk=vote_id)
        if vote.status != Status.OPEN:
            return False
        if now < vote.deadline:
            # Delivered early (a clock or a retry): look again at the deadline.
            outbox.send(VoteDue(vote_id=vote_id, seconds=(vote.deadline - now).total_seconds()))
            return False
        _close(match, vote, Status.EXPIRED, now=now)
        return True


# --- helpers ----------------------------------------------------------------------------


def _decide(match: Match, vote: DismissalVote, *, voters: int, now: datetime) -> bool:
    """Close the vote at once when approved or when approval has become impossible.

    ``voters`` is the number of humans: only they can still say YES (RULING S12), so a table
    whose humans are fewer than the majority closes as rejected the moment it is proposed.
    """
    yes, no = len(vote.yes_voters), len(vote.no_voters)
    if yes >= vote.needed:
        _close(match, vote, Status.APPROVED, now=now)
        return True
    if yes + (voters - yes - no) < vote.needed:
        _close(match, vote, Status.REJECTED, now=now)
        return True
    return False


def _close(match: Match, vote: DismissalVote, status: str, *, now: datetime) -> None:
    vote.status, vote.closed_at = status, now
    vote.save(update_fields=["status", "closed_at"])
    if status == Status.APPROVED:
        steps.match_dismiss(match=match, now=now)
    else:
        # Play resumes exactly where it stopped: a bot task dropped during the pause is re-queued,
        # and the turn clock restarts with the time that was left (RULING P13).
        steps.clock_armed(match, clock.resume(match, now=now))
        match.save(update_fields=["deadlines", "clock_due", "clock_seats"])
        state = matchstore.loaded(match.game, match.pk, match.version, match.state)
        steps.bots_queue(match=match, to_act=get_engine(match.game).to_act(state))
    steps.table_changed(match.table_id)


def _humans(match: Match) -> set[int]:
    return set(match.match_players.filter(user__is_bot=False).values_list("user_id", flat=True))
