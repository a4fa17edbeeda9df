"""Chat events on the table's channel-layer group (``table.<id>``, shared with the game).

Each consumer of the table decides for its own viewer whether an event is shown
(tables/live/chat.py), as it renders its own view of a move. Events are small: one
message, one hidden id, or "re-read the chat".
"""

from __future__ import annotations

from functools import partial

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from chat.models import ChatMessage
from core.groups import table_group
from notifications import live


def message_payload(message: ChatMessage, *, author_name: str) -> dict:
    """What a browser gets of a message: nothing but what its author typed, and who and when."""
    at = timezone.localtime(message.created_at)
    return {
        "id": message.pk,
        "channel": message.channel,
        "author_id": message.author_id,
        "author": author_name,
        "text": message.text,
        "at": at.isoformat(),
        "time": f"{at:%H:%M}",
    }


async def send_message(table_id: int, payload: dict) -> None:
    await get_channel_layer().group_send(table_group(table_id), {"type": "chat.message", "message": payload})


def _send(table_id: int, event: dict) -> None:
    async_to_sync(get_channel_layer().group_send)(table_group(table_id), event)


def hidden_on_commit(table_id: int, message_id: int) -> None:
    transaction.on_commit(lambda: _send(table_id, {"type": "chat.hidden", "id": message_id}))


def sync_on_commit(table_id: int) -> None:
    transaction.on_commit(lambda: _send(table_id, {"type": "chat.sync"}))


def user_sync_on_commit(user_id: int) -> None:
    """Every open socket of the player (on every table) re-reads the chat: a site-wide mute set
    or lifted (RULING P29) shows at once, not at the next page."""
    transaction.on_commit(partial(live.tell, user_id, {"type": "chat.sync"}))
