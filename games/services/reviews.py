"""Game reviews (issue 42): the strong bot's judgement of every human decision once a game ends.

The flow, each step harmless twice or late (tasks take ids and claim their row):

1. ``reviews_request`` runs in the transaction that settles a finished game: one ``pending``
   Review per human seat, and after commit a dispatch.
2. ``reviews_dispatch`` turns the oldest pending reviews into ``queued`` ones while the site-wide
   and per-player limits (``REVIEW_QUEUE_SITE``, ``REVIEW_QUEUE_PER_USER``) allow, and sends
   their tasks after commit, to the review queue only the review worker reads. A review left
   behind by a limit or a lost task is sent by the next dispatch (after each review, and every
   minute from beat).
3. ``review_run`` claims a queued review with a conditional UPDATE (only one worker ever gets
   it), replays the game's action log through the engine, and at each of the seat's own
   decisions with a choice evaluates ``engine.view(state, seat)`` — what the seat saw then, never
   the state — with ``games.bots.evaluate``. It stores every decision and the player's figures in
   one transaction, replacing any earlier run's, so a review is stored once however often it runs.

The generator of each decision is derived from the server's secret, the game, the seat and the
version at which the decision opened (not the version of the seat's move, which in SITA counts
the other seats' choices locked in first): independent of the deal and unknown to the players (issue 38), the same for
a re-run. Every decision is weighed on ``REVIEW_SAMPLES`` sampled deals (RULING P64): a count,
never a share of CPU time, so a busy or a faster worker gives the same verdicts.
"""

from __future__ import annotations

import math
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from core import metrics, outbox
from games import catalog
from games.bots.evaluate import Evaluation
from games.catalog import evaluate
from games.events import ReviewDone, ReviewQueued, ReviewsWaiting
from games.models import Match, Review, ReviewDecision
from games.selectors.reviews import Decision, decisions_of, secret_rng

WAITING = (Review.Status.PENDING, Review.Status.QUEUED)
IN_LINE = (Review.Status.QUEUED, Review.Status.RUNNING)
# A review still running this long after its start has lost its worker (a whole game's review
# takes well under a minute of CPU; the review worker runs at the lowest priority).
STALE_AFTER = timedelta(minutes=30)


class ReviewError(ValueError):
    """A review cannot be done as asked; the message says why."""


def reviews_request(*, match: Match, now: datetime | None = None) -> list[Review]:
    """A pending review for each human seat of a game that has just finished (called inside
    the settle transaction); the dispatch follows the commit."""
    if match.status != Match.Status.FINISHED or not settings.REVIEWS_ENABLED:
        return []
    now = now or timezone.now()
    humans = match.match_players.filter(user__is_bot=False).values_list("seat", "user_id")
    made = [
        Review.objects.get_or_create(match=match, seat=seat, defaults={"user_id": user_id, "requested_at": now})[0]
        for seat, user_id in humans
    ]
    if made:
        _dispatch_after_commit()
    return made


def _dispatch_after_commit() -> None:
    # robust: the game has committed; a lost dispatch is sent again by beat's.
    outbox.send(ReviewsWaiting(), robust=True)


def reviews_dispatch(*, now: datetime | None = None) -> list[int]:
    """Queue pending reviews, oldest first, within the site-wide and per-player limits; returns
    the ids queued. A review left running far past its budget (its worker died: the task was
    acknowledged late and redelivered, but the row stayed claimed) waits in line again."""
    now = now or timezone.now()
    stale = now - STALE_AFTER
    with transaction.atomic():
        Review.objects.filter(status=Review.Status.RUNNING, started_at__lt=stale).update(status=Review.Status.PENDING)
        in_line = Review.objects.filter(status__in=IN_LINE)
        room = settings.REVIEW_QUEUE_SITE - in_line.count()
        per_user = dict(in_line.values("user_id").annotate(n=Count("id")).values_list("user_id", "n"))
        queued: list[int] = []
        # skip_locked: two dispatches at once never queue the same review twice.
        for review in (
            Review.objects.select_for_update(skip_locked=True)
            .filter(status=Review.Status.PENDING)
            .order_by("requested_at", "pk")
        ):
            if room <= 0:
                break
            if per_user.get(review.user_id, 0) >= settings.REVIEW_QUEUE_PER_USER:
                continue
            per_user[review.user_id] = per_user.get(review.user_id, 0) + 1
            room -= 1
            queued.append(review.pk)
        Review.objects.filter(pk__in=queued).update(status=Review.Status.QUEUED)
        waiting = Review.objects.filter(status__in=WAITING).count()
        for review_id in queued:
            outbox.send(ReviewQueued(review_id=review_id), robust=True)
    metrics.reviews_waiting(waiting)
    return queued


def moment_of(view: dict) -> int:
    """The trick (or SITA's turn) a decision was made in, 1 for the first; 0 before the first."""
    if "turn" in view:
        return view["turn"]
    return sum(view["tricks_won"]) + 1 if view["phase"] == "playing" else 0


def accuracy_of(loss: float, scale: float) -> float:
    """RULING P64: a decision's accuracy, 100 for the bot's choice, falling as the loss grows."""
    return 100.0 * math.exp(-loss / scale)


def _value_rows(evaluation: Evaluation) -> list[dict]:
    return [
        {"action": value.action, "points": round(value.points, 2), "first": round(value.first, 3)}
        for value in evaluation.values
    ]


def review_run(*, review_id: int, now: datetime | None = None) -> bool:
    """The task's work: evaluate and store the review if it is queued; False if another run has
    it, it is done, or its game is not a finished one (a game in play is never reviewed)."""
    claimed = Review.objects.filter(
        pk=review_id, status=Review.Status.QUEUED, match__status=Match.Status.FINISHED
    ).update(status=Review.Status.RUNNING, started_at=timezone.now())
    if not claimed:
        return False
    review = Review.objects.select_related("match").get(pk=review_id)
    started, wall = time.thread_time(), time.perf_counter()
    try:
        items = _evaluate_all(review)
    except Exception:
        Review.objects.filter(pk=review_id).update(status=Review.Status.FAILED)
        raise
    cpu = time.thread_time() - started
    game = catalog.get(review.match.game)
    with transaction.atomic():
        ReviewDecision.objects.filter(review=review).delete()
        ReviewDecision.objects.bulk_create(items)
        losses = [item.loss for item in items if item.value is not None]
        Review.objects.filter(pk=review_id).update(
            status=Review.Status.DONE,
            decisions=len(losses),
            average_loss=sum(losses) / len(losses) if losses else None,
            accuracy=sum(accuracy_of(loss, game.mistake) for loss in losses) / len(losses) if losses else None,
            mistakes=sum(1 for item in items if item.mistake),
            blunders=sum(1 for item in items if item.blunder),
            samples=sum(item.samples for item in items),
            cpu_seconds=cpu,
            runs=review.runs + 1,
            finished_at=now or timezone.now(),
        )
        _dispatch_after_commit()
        # The game-over panel links to the review now that it is ready, live (issue 55).
        outbox.send(ReviewDone(table_id=review.match.table_id, match_id=review.match_id))
    metrics.review_timed(review.match.game, cpu, time.perf_counter() - wall, len(items))
    return True


def _evaluate_all(review: Review) -> list[ReviewDecision]:
    match = review.match
    game = catalog.get(match.game)
    samples = settings.REVIEW_SAMPLES  # RULING P64: a count, the same on any machine under any load
    items: list[ReviewDecision] = []
    for index, decision in enumerate(decisions_of(match, review.seat, review.user_id)):
        evaluation = evaluate(decision.view, secret_rng("review", match.pk, review.seat, decision.opened), samples)
        items.append(_item(review, index + 1, decision, evaluation, game))
    return items


def _item(review: Review, index: int, decision: Decision, evaluation: Evaluation, game) -> ReviewDecision:
    chosen = evaluation.value_of(decision.action)
    loss = evaluation.loss(decision.action)
    return ReviewDecision(
        review=review,
        index=index,
        version=decision.version,
        round=decision.view["round_number"],
        moment=moment_of(decision.view),
        action=decision.action,
        value=None if chosen is None else chosen.points,
        best_action=evaluation.best.action,
        best_value=evaluation.best.points,
        loss=loss or 0.0,
        # RULING P64: a blunder is not counted as a mistake too.
        mistake=loss is not None and game.mistake <= loss < game.blunder,
        blunder=loss is not None and loss >= game.blunder,
        values=_value_rows(evaluation),
        samples=evaluation.samples,
    )


def review_rerun(*, review_id: int, by: User, reason: str, now: datetime | None = None) -> Review:
    """An admin runs a review again (RULING P19: saying why); it waits in line like any other.
    A review already waiting or running is refused."""
    if not by.is_staff:
        raise ReviewError(_("Only an admin can re-run a review."))
    reason = (reason or "").strip()
    if not reason:
        raise ReviewError(_("Re-running a review needs a reason."))
    with transaction.atomic():
        review = Review.objects.select_for_update().select_related("match").get(pk=review_id)
        if review.match.status != Match.Status.FINISHED:
            raise ReviewError(_("Only a finished game can be reviewed."))
        if review.status in (*WAITING, Review.Status.RUNNING):
            raise ReviewError(_("This review is already waiting or running."))
        review.status = Review.Status.PENDING
        review.reason = reason[:150]
        review.requested_at = now or timezone.now()
        review.save(update_fields=["status", "reason", "requested_at"])
        _dispatch_after_commit()
    return review
