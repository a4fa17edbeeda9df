"""Chat events on the table's channel-layer group (``table.<id>``, shared with the game).

Each consumer of the table decides for its own viewer whether an event is shown
(tables/live/chat.py), as it renders its own view of a move. Events are small: one
message, one hidden id, or "re-read the chat". The writes' events (chat/events.py, and
social's block) come here from the outbox (core/outbox.py) after commit, registered in
``ChatConfig.ready``, and leave through ``core.groups.send``.
"""

from __future__ import annotations

from chat.events import ChatChanged, MessageHidden, MessagePosted, MuteChanged
from core import groups
from core.groups import table_group
from notifications import live
from social.events import BlockChanged


def _send(table_id: int, event: dict) -> None:
    groups.send(table_group(table_id), event)


def message_posted(event: MessagePosted) -> None:
    _send(event.table_id, {"type": "chat.message", "message": event.message})


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
