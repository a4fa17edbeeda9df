"""The friends page: requests, friends with where each one is, blocks.

It sits in ``pages``, above tables, because a friend's whereabouts are tables' facts: a seat at a
table waiting for players (a link to join), a seat in a game (a link to watch), or only a live
socket (online): a table's socket (tables/live/presence.py) or a page's bell socket
(notifications/live.py). The links follow what the viewer may do at a private table (RULING P66).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string

from accounts.models import User
from accounts.selectors import users_named_publicly
from core.redis import sync_client
from games import catalog
from notifications.live import online_page_users
from social import selectors as social
from social.models import Friendship
from tables.live.presence import sockets_key
from tables.models import Seat, Table
from tables.selectors import privacy

if TYPE_CHECKING:
    from accounts.requests import AuthenticatedRequest

OFFLINE, ONLINE, LOBBY, PLAYING = "offline", "online", "lobby", "playing"
LOBBY_FRIENDS = 8  # the friends the lobby shows at most; "All friends" leads to the rest


@dataclass(frozen=True)
class Whereabouts:
    friend: User
    state: str
    table: Table | None = None
    link: bool = False  # whether the viewer may follow the friend there (join or watch)


def _online_at_tables(user_ids: list[int]) -> set[int]:
    if not user_ids:
        return set()
    now = time.time()
    with sync_client().pipeline(transaction=False) as pipe:
        for user_id in user_ids:
            pipe.zcount(sockets_key(user_id), now, "+inf")
        counts = pipe.execute()
    return {user_id for user_id, count in zip(user_ids, counts) if count}


def whereabouts(viewer: User) -> list[Whereabouts]:
    rows = (
        Friendship.objects.filter(user=viewer)
        .prefetch_related(Prefetch("friend", queryset=users_named_publicly()))
        .order_by("friend__username")
    )
    friends = [row.friend for row in rows]
    ids = [friend.pk for friend in friends]
    seats = (
        Seat.objects.filter(user_id__in=ids, table__status__in=[Table.Status.LOBBY, Table.Status.PLAYING])
        .select_related("table")
        .order_by("-table__last_activity_at")
    )
    at: dict[int, Table] = {}
    for seat in seats:
        if seat.user_id is not None:  # always: the seats are the friends' (a bot's empty seat has none)
            at.setdefault(seat.user_id, seat.table)  # the most recently active table, if several
    online = _online_at_tables(ids) | online_page_users(set(ids))
    found = []
    for friend in friends:
        table = at.get(friend.pk)
        if table is not None and table.status == Table.Status.PLAYING:
            found.append(Whereabouts(friend, PLAYING, table, privacy.may_watch(table=table, user=viewer)))
        elif table is not None:
            found.append(Whereabouts(friend, LOBBY, table, privacy.may_sit(table=table, user=viewer)))
        else:
            found.append(Whereabouts(friend, ONLINE if friend.pk in online else OFFLINE))
    order = {PLAYING: 0, LOBBY: 1, ONLINE: 2, OFFLINE: 3}
    return sorted(found, key=lambda where: order[where.state])


@login_required
def friends(request: AuthenticatedRequest) -> HttpResponse:
    context = {
        "friends": whereabouts(request.user),
        "received": social.requests_received(user_id=request.user.pk),
        "sent": social.requests_sent(user_id=request.user.pk),
        "blocked": social.blocked_by_me(user_id=request.user.pk),
        "challenge_games": catalog.titles(),  # issue 53: "Challenge" on each friend's row
        "nav": "friends",
    }
    return render(request, "pages/friends.html", context)


def lobby_friends(request: HttpRequest) -> str:
    """The lobby's slot (tables.lobby_slots): the viewer's friends who are not offline, where each one
    is, as the friends page says it; nothing for a visitor or when none is online."""
    if not request.user.is_authenticated:
        return ""
    present = [where for where in whereabouts(request.user) if where.state != OFFLINE]
    if not present:
        return ""
    # No request: the page's context processors (the bell's count, …) have already run for the lobby.
    return render_to_string("pages/_lobby_friends.html", {"friends": present[:LOBBY_FRIENDS]})
