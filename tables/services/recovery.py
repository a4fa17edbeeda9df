"""Work a lost Celery task should have done, made good by a beat task (issue 28, RULING P35).

A bot's move and a dismissal vote's deadline travel as Celery tasks queued after commit, and a
task can be lost: Redis down when it is queued (the move committed; queueing failed after it),
Redis restarted without saving its queue, a worker killed while it held a task with a
countdown (with late acknowledgement the broker hands it out again, but only after its
visibility timeout, an hour). Nothing of a game lives in the task: the state and the vote's
deadline are in PostgreSQL. So beat runs ``stalled_work_resume`` every
``RESUME_STALLED_SECONDS``: an open vote past its deadline is closed, and a game whose awaited
seat is a bot and whose last move is older than that gets its bot task queued again. Both are
the ordinary idempotent services: a task that does turn up after all finds the vote closed or
the version passed, and does nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F, OuterRef, Subquery
from django.db.models.functions import Coalesce

from core import outbox
from games.catalog import get_engine
from games.models import Match, MatchEvent, MatchPlayer
from tables import matchstore
from tables.events import BotsDue
from tables.models import DismissalVote
from tables.services.votes import vote_close_expired


def stalled_work_resume(*, now: datetime) -> dict[str, int]:
    """Close overdue votes and queue the bots of stalled games again. Safe to run twice or at once."""
    closed = 0
    for vote_id in DismissalVote.objects.filter(status=DismissalVote.Status.OPEN, deadline__lte=now).values_list(
        "pk", flat=True
    ):
        closed += vote_close_expired(vote_id=vote_id, now=now)
    cutoff = now - timedelta(seconds=settings.RESUME_STALLED_SECONDS)
    last_move = MatchEvent.objects.filter(match=OuterRef("pk")).order_by("-version").values("created_at")[:1]
    stalled = (
        Match.objects.filter(status=Match.Status.PLAYING, match_players__user__is_bot=True)
        .distinct()
        .annotate(last_move=Coalesce(Subquery(last_move), F("started_at")))
        .filter(last_move__lt=cutoff)
        .values_list("pk", "game", "version", "state")
    )
    queued = 0
    for match_id, game, version, text in stalled.iterator(chunk_size=100):
        bot_seats = set(MatchPlayer.objects.filter(match_id=match_id, user__is_bot=True).values_list("seat", flat=True))
        # A human thinking is no stall: only a game waiting for one of its bots is resumed.
        if bot_seats & set(get_engine(game).to_act(matchstore.loaded(game, match_id, version, text))):
            outbox.send(BotsDue(match_id=match_id, version=version, delay=False))
            queued += 1
    return {"votes_closed": closed, "bots_queued": queued}
