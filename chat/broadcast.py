"""Chat events on the table's channel-layer group (``table.<id>``, shared with the game).

Each consumer of the table decides for its own viewer whether an event is shown
(tables/live/chat.py), as it renders its own view of a move. Events are small: one
message, one hidden id, or "re-read the chat". A posted message is sent by the poster's
socket; the writes' events (chat/events.py, and social's block) come here from the outbox
(core/outbox.py) after commit, registered in ``ChatConfig.ready``.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.utils import timezone

from chat.events import ChatChanged, MessageHidden, MuteChanged
from chat.models import ChatMessage
from core.groups import table_group
from notifications import live
from social.events import BlockChanged


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


def message_hidden(event: MessageHidden) -> None:
    _send(event.table_id, {"type": "chat.hidden", "id": event.message_id})


def chat_changed(event: ChatChanged) -> None:
    _send(event.table_id, {"type": "chat.sync"})


def mute_changed(event: MuteChanged) -> None:
    live.tell(event.user_id, {"type": "chat.sync"})


def block_changed(event: BlockChanged) -> None:
    """Social's block or unblock (RULING P67): the open table sockets of both read their chat
    again, without (or again with) the other's messages."""
    for user_id in event.user_ids:
        live.tell(user_id, {"type": "chat.sync"})
