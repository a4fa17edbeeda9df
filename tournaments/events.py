"""What a tournament tells others after commit: its page's sockets, and its players' bells.

The socket event is small ("re-read the standings"); each consumer renders the fragment for its
own viewer's language. Notifications go through the notifications app, inside the caller's
transaction (it pushes and delivers after commit itself).
"""

from __future__ import annotations

import logging
import uuid

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from core.groups import tournament_group

logger = logging.getLogger(__name__)


def changed_on_commit(tournament_id: int) -> None:
    transaction.on_commit(lambda: _send(tournament_id), robust=True)


def _send(tournament_id: int) -> None:
    layer = get_channel_layer()
    if layer is not None:
        # The id lets a process's sockets share one read of the change (tournaments/consumer.py).
        event = {"type": "tournament.changed", "id": uuid.uuid4().hex}
        async_to_sync(layer.group_send)(tournament_group(tournament_id), event)


def notify_players(tournament_id: int, *, kind: str, user_ids: list[int], minutes: int | None = None) -> None:
    """The bell for each player: the tournament starts in ``minutes``, or their round's table is ready."""
    from tournaments.notices import notice_send

    notice_send(tournament_id=tournament_id, kind=kind, user_ids=user_ids, minutes=minutes)
