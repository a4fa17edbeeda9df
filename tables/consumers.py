"""The table's WebSocket: thin (docs/style.md §9). Authenticate, join ``table.<id>``, parse, call a
service off the event loop, and render this viewer's own fragment on every change.

Errors go back to this socket only. Every push is the whole current view with its
version, so a lost message heals with the next one.
"""

from __future__ import annotations

import asyncio
import json
import time

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import DatabaseError

from chat.socket import ChatSocketMixin, is_chat_command
from ops import metrics, observe
from tables import broadcast, layer_watch, live, presence
from tables.actions import ParseError, parse_message
from tables.commands import run_command
from tables.errors import TableError

CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404
UNSAVED = "The server could not take that just now. Please try again."


class TableConsumer(ChatSocketMixin, AsyncJsonWebsocketConsumer):
    # Chat rides on this socket; its commands and group events live in chat/socket.py (issue 23).
    connected: set[int] | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.user = user
        broadcast.socket_loop.set(asyncio.get_running_loop())  # see tables/broadcast.py
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        group = broadcast.group_name(self.table_id)
        # Join before reading: a move committed after the read is then always heard (the
        # layer delivers only to members), and one committed before it is in the snapshot.
        await self.channel_layer.group_add(group, self.channel_name)
        self.snapshot = await database_sync_to_async(live.load_snapshot)(self.table_id)
        if self.snapshot is None:
            await self.channel_layer.group_discard(group, self.channel_name)
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.group = group
        await self.accept()
        metrics.socket_opened()
        layer_watch.watch(self)
        await presence.join(self.table_id, self.channel_name, user.pk)
        await self._announce_presence()
        await self._push()

    async def disconnect(self, code: int) -> None:
        if getattr(self, "group", None):
            metrics.socket_closed()
            layer_watch.unwatch(self)
            await presence.leave(self.table_id, self.channel_name)
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self._announce_presence()

    async def dispatch(self, message: dict) -> None:
        # Channels (4.2+) first closes stale database connections on the one shared thread of
        # database_sync_to_async, before every message: each seat's update would queue behind
        # the moves of every other table in the process (issue 9). Our handlers reach the
        # database only through database_sync_to_async, which does the same around each call.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    @classmethod
    async def decode_json(cls, text_data: str) -> object:
        # Malformed JSON is refused like any other bad message, not by dropping the socket.
        try:
            return json.loads(text_data)
        except ValueError:
            return None

    async def receive_json(self, content: object, **kwargs) -> None:
        if is_chat_command(content):
            await self.chat_receive(content)
            return
        try:
            message = parse_message(content, game=self.snapshot.game)
        except ParseError as error:
            await self.send(text_data=live.render_flash(str(error)))
            return
        if message.command == "resync":
            self.snapshot = await database_sync_to_async(live.load_snapshot)(self.table_id)
            await self._push()
            return
        started = time.perf_counter()
        try:
            # Issue 9: not on the one thread that every database_sync_to_async call of this process
            # shares by default, or all the tables' moves would wait for each other. A pool thread
            # has its own database connection; moves on one match still run one at a time under
            # its row lock (services._lock_match). The broadcast after commit goes to the event
            # loop (tables/broadcast.py); an older version arriving after a newer one never
            # replaces it (table_changed).
            await database_sync_to_async(run_command, thread_sensitive=False)(
                message, table_id=self.table_id, match_id=self.snapshot.match_id, user=self.user
            )
        except TableError as error:
            observe.command_done(self, message, started, refused=str(error))
            # Stale or refused: tell this socket only, and show it the current truth.
            await self.send(text_data=live.render_flash(str(error)))
            self.snapshot = await database_sync_to_async(live.load_snapshot)(self.table_id)
            await self._push()
        except DatabaseError:
            # RULING P36: the database could not be reached (a restart, a failover). The command was
            # one transaction, so nothing of it is written; this socket is told and its player tries again.
            observe.command_done(self, message, started, refused=UNSAVED)
            await self.send(text_data=live.render_flash(UNSAVED))
        else:
            observe.command_done(self, message, started)

    # --- group events ---------------------------------------------------------------------

    async def table_changed(self, event: dict) -> None:
        same_match = event.get("match_id") is not None and event["match_id"] == self.snapshot.match_id
        if same_match and event.get("state") and not event.get("lobby") and event["version"] > self.snapshot.version:
            self.snapshot = self.snapshot.with_state(version=event["version"], state=event["state"],
                                                     clock=event.get("clock"))
        else:
            self.snapshot = await database_sync_to_async(live.load_snapshot)(self.table_id)
        await self._push()

    async def presence_changed(self, event: dict) -> None:
        self.connected = await presence.connected_users(self.table_id)
        await self._push()

    # --- helpers ----------------------------------------------------------------------------

    async def _announce_presence(self) -> None:
        await self.channel_layer.group_send(self.group, {"type": "presence.changed"})

    async def _push(self) -> None:
        # Who is connected is read once per presence change, not once per move (issue 9).
        if self.connected is None:
            self.connected = await presence.connected_users(self.table_id)
        # Rendering reads no database: the snapshot holds everything.
        html = live.render_live(self.snapshot, user_id=self.user.pk, connected=self.connected, oob=True)
        await self.send(text_data=html)
