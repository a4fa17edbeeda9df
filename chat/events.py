"""Chat's typed events: what a chat write hands the outbox (core/outbox.py) for after commit.

Where they go is chat/broadcast.py, registered from ``ChatConfig.ready``. Each event is small, and
what it changed is stored: a socket that misses one is put right by its panel's next read.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MessagePosted:
    """A message was posted: every socket of the table shows it to its viewer if their channel is
    theirs to read (RULING P25; tables/live/chat.py decides per socket)."""

    table_id: int
    message: dict  # chat.selectors.message_payload: only what its author typed, and who and when


@dataclass(frozen=True, slots=True)
class MessageHidden:
    """A moderator hid the message: every socket of the table takes it off its panel."""

    table_id: int
    message_id: int


@dataclass(frozen=True, slots=True)
class ChatChanged:
    """Every socket of the table reads its chat again (the host turned spectators' chat off or on,
    RULING P26)."""

    table_id: int


@dataclass(frozen=True, slots=True)
class MuteChanged:
    """A site-wide mute of the player was set or lifted (RULING P29): every open socket of theirs, on
    every table, reads the chat again, so the panel says so at once, not at the next page."""

    user_id: int
