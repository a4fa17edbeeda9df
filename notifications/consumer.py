"""The bell's sockets: the half that the table's socket mixes in, and the page's own small socket.

Both join the player's group (``notify.<user id>``, core/groups.py) and answer its one
event by sending the viewer's bell, read for them alone. The page socket takes no commands:
a browser sends it nothing, and one that keeps sending is closed.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation

from core.groups import notify_group
from core.i18n import scope_language
from notifications import live

if TYPE_CHECKING:
    from accounts.models import User

CLOSE_UNAUTHENTICATED = 4401
CLOSE_TOO_MANY = 4409
CLOSE_CHATTY = 4429
CLOSE_LOOK_AGAIN = 4000  # the login changed: the page reconnects and is authenticated afresh
FRAMES_IGNORED = 10


class BellSocketMixin:
    """For a consumer that has ``user``, ``channel_layer`` and ``channel_name``."""

    bell_group: str | None = None
    # Provided by the consumer this is mixed into.
    user: User
    channel_layer: Any
    channel_name: str
    send: Any

    async def bell_join(self) -> None:
        self.bell_group = notify_group(self.user.pk)
        await self.channel_layer.group_add(self.bell_group, self.channel_name)

    async def bell_leave(self) -> None:
        if self.bell_group is not None:
            await self.channel_layer.group_discard(self.bell_group, self.channel_name)
            self.bell_group = None

    async def notify_changed(self, event: dict) -> None:
        frame = await database_sync_to_async(live.bell_frame, thread_sensitive=False)(
            self.user.pk, event.get("notification")
        )
        await self.send(text_data=json.dumps(frame, ensure_ascii=False))


class PageConsumer(BellSocketMixin, AsyncWebsocketConsumer):
    """``/ws/me/``: the bell of a page that has no table socket."""

    admitted = False
    frames = 0

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.user = user
        self.session_key = self.scope["session"].session_key
        refusal = await live.admit(user.pk, self.channel_name)
        await self.accept()
        if refusal:
            with translation.override(scope_language(self.scope)):
                await self.send(text_data=json.dumps({"bell": {"refused": str(translation.gettext(refusal))}}))
            await self.close(code=CLOSE_TOO_MANY)
            return
        self.admitted = True
        await self.bell_join()
        await self.notify_changed({})  # the count now: something may have come while the page loaded

    async def disconnect(self, code: int) -> None:
        await self.bell_leave()
        if self.admitted:
            self.admitted = False
            await live.release(self.user.pk, self.channel_name)

    async def dispatch(self, message: dict) -> None:
        # Each frame in the viewer's language, as the table's socket does (issue 26).
        with translation.override(scope_language(self.scope)):
            await super().dispatch(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        self.frames += 1
        if self.frames > FRAMES_IGNORED:
            await self.close(code=CLOSE_CHATTY)

    async def session_ended(self, event: dict) -> None:
        # RULING P18: logged out on this browser: the page's socket closes with the table's.
        if event.get("session_key") == self.session_key:
            await self.close(code=CLOSE_UNAUTHENTICATED)

    async def chat_sync(self, event: dict) -> None:
        pass  # for the table's sockets on the same group (a block changes whose chat they show)

    async def session_check(self, event: dict) -> None:
        # The account was saved (a new password): the page opens its socket again, and the
        # handshake reads the session afresh.
        await self.close(code=CLOSE_LOOK_AGAIN)
