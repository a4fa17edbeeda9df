"""Chat over the table's own socket (no second connection): the commands and the group events.

``TableConsumer`` mixes this in and hands it every command whose name starts with
``chat_`` before its own parsing. Chat frames are JSON (``{"chat": {...}}``), never HTML:
the page's chat script puts every text into text nodes, so nothing a person types is
ever markup, and the htmx swap of game fragments never sees them.

Which messages a socket is shown is decided here for its own viewer, as each consumer
renders its own view of a move: a player in a game gets only the players' chat (RULING
P25), and no one gets the messages of a person they muted (RULING P28) or on either side of a
block with them (RULING P67).
"""

from __future__ import annotations

import json
from typing import Any, TypeGuard

from channels.db import database_sync_to_async
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from chat import rules, selectors, services
from chat.services import ChatError
from tables.render import fragment

COMMANDS = {"chat_sync", "chat_send", "chat_report", "chat_mute", "chat_unmute", "chat_spectators"}
# Refusals after which the panel may be showing the wrong room: the socket is sent it again.
_RESYNC_AFTER = {"chat_send"}


def is_chat_command(content: object) -> TypeGuard[dict[str, Any]]:
    return isinstance(content, dict) and content.get("command") in COMMANDS


def _int(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    raise ChatError(_("That chat message could not be understood."))


def _on(value: object) -> bool:
    if value in (True, "on", "true", "1", 1):
        return True
    if value in (False, "off", "false", "0", 0):
        return False
    raise ChatError(_("That chat message could not be understood."))


def _post(table_id: int, user: User, content: dict) -> None:
    """The message goes to every socket of the table after its commit (chat/events.py MessagePosted)."""
    services.message_post(
        table_id=table_id,
        user=user,
        channel=content.get("channel"),  # type: ignore[arg-type]  # the service refuses what is not a channel
        text=content.get("text"),
    )


def run_chat_command(content: dict, *, table_id: int, user: User) -> tuple[str, object]:
    """Sync: run one chat command and say what to do next: ("state", panel state), ("notice",
    text) or ("done", None): a post or a switch reaches every socket through the outbox."""
    command = content["command"]
    if command == "chat_sync":
        return "state", selectors.panel_state(table_id=table_id, user=user)
    if command == "chat_send":
        _post(table_id, user, content)
        return "done", None
    if command == "chat_report":
        services.message_report(
            message_id=_int(content.get("id")), user=user, reason=content.get("reason"), table_id=table_id
        )
        return "notice", str(_("Thank you: a moderator will look at that message."))
    if command in ("chat_mute", "chat_unmute"):
        services.personal_mute_set(owner=user, muted_id=_int(content.get("user")), on=command == "chat_mute")
        return "state", selectors.panel_state(table_id=table_id, user=user)
    services.spectator_chat_set(table_id=table_id, by=user, on=_on(content.get("on")))
    return "done", None  # every socket of the table re-reads the chat (chat.sync)


class ChatSocketMixin:
    """The chat half of the table consumer (it provides ``user``, ``table_id``, ``snapshot``)."""

    chat_muted: frozenset[int] = frozenset()
    # Provided by the consumer this is mixed into.
    closing: bool
    user: User
    table_id: int
    snapshot: Any
    send: Any

    async def chat_receive(self, content: dict) -> None:
        try:
            outcome, value = await database_sync_to_async(run_chat_command, thread_sensitive=False)(
                content, table_id=self.table_id, user=self.user
            )
        except ChatError as error:
            # To this socket only; nothing was written.
            await self._chat_send({"type": "error", "message": str(error)})
            if content["command"] in _RESYNC_AFTER:
                await self._chat_state()
            return
        if outcome == "state":
            await self._chat_send_state(value)
        elif outcome == "notice":
            await self._chat_send({"type": "notice", "message": value})

    # --- group events (the table's group carries them beside table.changed) -----------------

    async def chat_message(self, event: dict) -> None:
        message = event["message"]
        if message["author_id"] in self.chat_muted:
            return
        is_player = fragment.seat_of(self.snapshot, self.user.pk) is not None
        if message["channel"] not in rules.visible_channels(is_player=is_player, status=self.snapshot.status):
            return
        await self._chat_send({"type": "message", "message": message})

    async def chat_hidden(self, event: dict) -> None:
        # Sent to every socket, seen or not: the id alone says nothing.
        await self._chat_send({"type": "hide", "id": event["id"]})

    async def chat_sync(self, event: dict) -> None:
        await self._chat_state()

    # --- helpers ----------------------------------------------------------------------------

    async def _chat_state(self) -> None:
        state = await database_sync_to_async(selectors.panel_state, thread_sensitive=False)(
            table_id=self.table_id, user=self.user
        )
        await self._chat_send_state(state)

    async def _chat_send_state(self, state: dict | None) -> None:
        if state is None:
            return
        self.chat_muted = frozenset(state["unseen"])  # muted and blocked either way (RULINGS P28, P67)
        await self._chat_send(state)

    async def _chat_send(self, frame: dict) -> None:
        if self.closing:
            return  # refused or revoked (RULING P66): nothing more of the table's chat
        await self.send(text_data=json.dumps({"chat": frame}, ensure_ascii=False))
