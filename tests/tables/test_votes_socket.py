"""The dismissal vote through the real WebSocket path and the Redis layer (RULING S12)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.utils import timezone

from config.asgi import application
from games.catalog import get_engine
from games.models import Match
from payouts import selectors
from tables.models import DismissalVote, Table
from tables.tasks import vote_expire
from tests.conftest import make_user
from tests.tables.helpers import play_bots_until_human, start_sitaratas
from tests.tables.socket_helpers import receive_with

# Transactional: the consumer works on Channels' threads, on connections of their own.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_broker(monkeypatch) -> None:
    monkeypatch.setattr(vote_expire, "apply_async", lambda args, countdown: None)


@database_sync_to_async
def _cookie(user) -> bytes:
    session = SessionStore()
    session.update(
        {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
    )
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}".encode()


async def _open(table_id: int, user) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", await _cookie(user))]
    socket = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, _ = await socket.connect(timeout=5)
    assert connected
    return socket


@database_sync_to_async
def _setup(humans: int):
    users = [make_user(f"human{n}") for n in range(humans)]
    match = start_sitaratas(users[0], users[1:], seat_count=max(3, humans))
    return users, play_bots_until_human(match)


@database_sync_to_async
def _get(model, **lookup):
    return model.objects.get(**lookup)


@database_sync_to_async
def _setup_at(humans: int, seats: int):
    users = [make_user(f"human{n}") for n in range(humans)]
    match = start_sitaratas(users[0], users[1:], seat_count=seats)
    return users, play_bots_until_human(match)


@pytest.mark.parametrize("humans, seats", [(2, 3), (3, 3), (4, 4), (5, 5), (6, 6)])
async def test_a_majority_of_all_the_players_dismisses_the_attempt(humans, seats) -> None:
    # RULING S12: the book's strict majority of every player: 2 of 3, 3 of 4, 3 of 5, 4 of 6.
    users, match = await _setup_at(humans, seats)
    sockets = [await _open(match.table_id, user) for user in users]
    needed = {3: 2, 4: 3, 5: 3, 6: 4}[seats]
    await sockets[0].send_json_to({"command": "vote_propose"})
    html = await receive_with(sockets[-1], "Dismiss this game?")
    assert "<strong>1</strong> yes" in html and f"<strong>{needed}</strong> of {seats} needed" in html
    assert ("Bots do not vote" in html) == (humans < seats)
    assert "data-deadline" in html
    for socket in sockets[1:needed]:
        await socket.send_json_to({"command": "vote_yes"})
    for socket in sockets:
        await receive_with(socket, 'data-status="lobby"')
    match = await _get(Match, pk=match.pk)
    table = await _get(Table, pk=match.table_id)
    assert match.status == Match.Status.DISMISSED and table.status == Table.Status.LOBBY
    counts = await database_sync_to_async(lambda: [selectors.pass_counts(user=u) for u in users])()
    assert all(count == {"free": 4, "reserved": 1, "used": 0} for count in counts)
    for socket in sockets:
        await socket.disconnect()


async def test_a_rejected_vote_resumes_play_and_a_second_proposal_is_refused() -> None:
    users, match = await _setup(3)
    sockets = [await _open(match.table_id, user) for user in users]
    await sockets[1].send_json_to({"command": "vote_propose"})
    await receive_with(sockets[0], "Dismiss this game?")
    # Actions are refused while paused, with a message to that socket only.
    engine = get_engine("sitaratas")
    state = engine.loads(match.state)
    seat = engine.to_act(state)[0]
    action = engine.legal_actions(state, seat)[0]
    await sockets[seat].send_json_to({"command": "act", "action": action, "version": match.version})
    assert "paused" in await receive_with(sockets[seat], "paused")
    await sockets[0].send_json_to({"command": "vote_no"})
    await sockets[2].send_json_to({"command": "vote_no"})
    await receive_with(sockets[1], "Dismissal vote rejected")
    await sockets[0].send_json_to({"command": "vote_propose"})
    assert "already been proposed" in await receive_with(sockets[0], "already been proposed")
    await sockets[seat].send_json_to({"command": "act", "action": action, "version": match.version})
    await receive_with(sockets[seat], f'data-version="{match.version + 1}"')
    vote = await _get(DismissalVote, match_id=match.pk)
    assert vote.status == DismissalVote.Status.REJECTED and len(vote.no_voters) == 2
    for socket in sockets:
        await socket.disconnect()


async def test_the_vote_expires_after_60_seconds() -> None:
    start = timezone.now()
    users, match = await _setup(3)
    sockets = [await _open(match.table_id, user) for user in users]
    with time_machine.travel(start, tick=False):
        await sockets[0].send_json_to({"command": "vote_propose"})
        await receive_with(sockets[2], "Dismiss this game?")
    vote = await _get(DismissalVote, match_id=match.pk)
    assert vote.deadline == start + timedelta(seconds=60)
    with time_machine.travel(start + timedelta(seconds=60), tick=False):
        assert await database_sync_to_async(vote_expire)(vote.pk) is True
    for socket in sockets:
        await receive_with(socket, "Dismissal vote expired")
    assert (await _get(Match, pk=match.pk)).status == Match.Status.PLAYING
    for socket in sockets:
        await socket.disconnect()
