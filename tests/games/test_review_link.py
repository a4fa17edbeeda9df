"""Issue 55: the game-over panel links to the player's review as soon as it is ready, pushed to the
table's sockets when the review task stores it (an outbox event, games.events.ReviewDone)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from games.models import Review
from games.services import reviews
from tables.render import fragment
from tests.games.history_helpers import play_to_end, started_match
from tests.tables.socket_helpers import connect, drain, receive_with

READY = "Your review is ready"
WAITING = "The strong bot is reviewing your decisions"


def _finished(host, player):
    match = play_to_end(started_match(host, "sita", humans=(player,), options={"matches": 1}))
    return match, list(Review.objects.filter(match=match).order_by("seat"))


# Transactional: the review's outbox event goes after its commit, to the sockets on their own loop.
@pytest.mark.django_db(transaction=True)
async def test_the_game_over_panel_links_to_the_review_once_it_is_ready_live(reviews_on, host, player) -> None:
    match, (mine, theirs) = await database_sync_to_async(_finished)(host, player)
    socket, _ = await connect(match.table_id, host)
    first = "".join(await drain(socket))
    assert WAITING in first and READY not in first

    await database_sync_to_async(reviews.reviews_dispatch)()
    assert await database_sync_to_async(reviews.review_run)(review_id=mine.pk)
    pushed = await receive_with(socket, READY, timeout=10)
    assert f'href="{reverse("match", args=[match.pk])}#review"' in pushed
    await socket.disconnect()


def test_each_player_sees_only_their_own_reviews_state(reviews_on, db, host, player, outsider) -> None:
    match, (mine, theirs) = _finished(host, player)
    reviews.reviews_dispatch()
    assert reviews.review_run(review_id=mine.pk)
    snapshot = fragment.load_snapshot(match.table_id)
    assert READY in fragment.render_live(snapshot, user_id=host.pk, connected=set())
    theirs_page = fragment.render_live(snapshot, user_id=player.pk, connected=set())
    assert WAITING in theirs_page and READY not in theirs_page
    watcher = fragment.render_live(snapshot, user_id=outsider.pk, connected=set())
    assert READY not in watcher and WAITING not in watcher
