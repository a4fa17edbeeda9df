"""The table's WebSocket: thin (docs/style.md §9). Authenticate, join ``table.<id>``, parse, call a
service off the event loop, and render this viewer's own fragment on every change.

Errors go back to this socket only. Every push is the whole current view with its
version, so a lost message heals with the next one.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import DatabaseError, DataError
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from core import addresses, groups, limits, metrics
from core.groups import table_group
from core.i18n import scope_language
from core.sockets import LoopDispatch
from notifications.consumer import BellSocketMixin
from tables.errors import TableError
from tables.live import fanout, guard, layer_watch, observe, presence
from tables.live.chat import ChatSocketMixin, is_chat_command
from tables.live.commands import run_command
from tables.live.messages import ParseError, parse_message
from tables.render import fragment, regions
from tables.selectors import privacy

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404
CLOSE_FORBIDDEN = 4403
CLOSE_ABANDONED = 1006  # the connection went before the opening finished (no close frame)
UNSAVED = _("The server could not take that just now. Please try again.")
NOT_UNDERSTOOD = _("That message could not be understood.")

logger = logging.getLogger(__name__)


class TableConsumer(ChatSocketMixin, BellSocketMixin, LoopDispatch, AsyncJsonWebsocketConsumer):
    # Chat rides on this socket; its commands and group events live in tables/live/chat.py (issue 23).
    # So does the bell (notifications/consumer.py): a table page opens no second socket for it.
    connected: AbstractSet[int] | None = None
    admitted = False  # holds one of the user's socket places (RULING P16)
    group: str | None = None  # the table's group, once the opening has joined it
    closing = False
    language: str | None = None  # the viewer's, from the handshake (core/i18n.py, issue 26)
    pushed: str | None = None  # the last view sent: answers a resync (issue 34)
    access_version = 0  # the table's access version this socket's permission was decided under

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.user = user
        self.address = addresses.scope_address(self.scope)
        self.throttle, self.buckets = guard.new_throttle(), guard.message_buckets(user.pk, self.address)
        self.login_recheck = guard.new_session_check()
        self.session_key = self.scope["session"].session_key
        groups.socket_loop.set(asyncio.get_running_loop())  # see core/groups.py send
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        refusal = await presence.admit(self.table_id, self.channel_name, user.pk)
        if refusal:
            # RULING P16: refused at the handshake, never accepted, with no pause held here; the
            # login waits before its next opening (refused before the session is
            # read, guard.OpeningLimit), and the page asks why (tables/views.py socket_refusal).
            await limits.backoff_earn(guard.login_backoff(self.session_key), refusal, guard.OPENING_BACKOFF)
            self.closing = True
            await self.close(code=guard.CLOSE_TOO_MANY_SOCKETS)
            return
        self.admitted = True
        try:
            await self._open(user)
        except BaseException:
            # The opening died before it finished: its client gave up, or Daphne cancelled this
            # consumer past its handshake limit under load. Give the socket place back now, not
            # when it expires, or the client's reconnect is refused (4409) for that long.
            await asyncio.shield(self._abandon())
            raise

    async def _open(self, user) -> None:
        group = table_group(self.table_id)
        # Join before reading: a move committed after the read is then always heard (the
        # layer delivers only to members), and one committed before it is in the snapshot.
        await self.channel_layer.group_add(group, self.channel_name)
        self.snapshot = await database_sync_to_async(fragment.load_snapshot)(self.table_id)
        if self.snapshot is None:
            await self.channel_layer.group_discard(group, self.channel_name)
            await self._release()
            await self.close(code=CLOSE_NOT_FOUND)
            return
        # RULING P66: a private table's socket only for whom its page is.
        private_refusal = await database_sync_to_async(privacy.open_refusal, thread_sensitive=False)(
            self.table_id, user
        )
        if private_refusal:
            await self.channel_layer.group_discard(group, self.channel_name)
            await self._release()
            await self.accept()
            await self._refuse_and_close(private_refusal, CLOSE_FORBIDDEN)
            return
        self.group = group
        self.access_version = self.snapshot.access_version
        await self.accept()
        metrics.socket_opened()
        layer_watch.watch(self)
        await presence.join(self.table_id, self.channel_name, user.pk)
        await self.bell_join()
        if fragment.seat_of(self.snapshot, user.pk) is not None:
            await self._announce_presence()
        await self._push()

    async def disconnect(self, code: int) -> None:
        await self._release()
        if self.group:
            metrics.socket_closed()
            layer_watch.unwatch(self)
            await presence.leave(self.table_id, self.channel_name)
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.bell_leave()
            if fragment.seat_of(self.snapshot, self.user.pk) is not None:
                await self._announce_presence()

    async def dispatch(self, message: dict) -> None:
        if self.language is None:
            self.language = scope_language(self.scope)
        # Issue 26: every render and refusal of this socket in its viewer's language; the
        # services it calls off the loop inherit it (sync_to_async copies the context).
        with translation.override(self.language):
            await super().dispatch(message)  # on the loop, with no hop to Channels' thread (LoopDispatch)

    @classmethod
    async def decode_json(cls, text_data: str) -> object:
        # Malformed JSON is refused like any other bad message, not by dropping the socket.
        try:
            return json.loads(text_data)
        except (ValueError, RecursionError):  # RecursionError: "[[[[…" deeper than Python recurses
            return None

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs) -> None:
        """Every frame, whatever its command, passes the limits and checks of tables/live/guard.py first."""
        if self.closing:
            return
        # The socket's own bucket first: a socket flooding on its own costs no Redis round trip.
        shared = not self.throttle.has_token() or await limits.take(*self.buckets) is None
        if not await self._admitted(self.throttle.admit(shared)):
            return
        refusal = guard.frame_refusal(text_data)
        if refusal:
            await self.send(text_data=fragment.render_flash(refusal))
            return
        # RULING P18: an ended login is told to the socket (session_ended, session_check); the
        # message itself re-reads the session only now and then, in case such an event was lost.
        if self.login_recheck.due() and not await self._session_holds():
            return
        try:
            await self.receive_json(await self.decode_json(text_data or ""), **kwargs)  # None was refused above
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError, OverflowError, DataError):
            # Input the parser let through and something further in choked on: refused like any
            # other bad message, and logged, rather than closing the socket with a 1011.
            logger.warning("refused a table message that raised", exc_info=True)
            await self.send(text_data=fragment.render_flash(NOT_UNDERSTOOD))

    async def _admitted(self, verdict: guard.Verdict) -> bool:
        """Whether a message passed its limits; one that did not is told (once a dry spell) or,
        flooding, closes the socket (RULING P15)."""
        if verdict is guard.Verdict.CLOSE:
            await presence.cool_down(self.table_id, self.user.pk)
            await self._refuse_and_close(guard.FLOODING, guard.CLOSE_FLOODING)
            return False
        if verdict is guard.Verdict.REFUSE:
            await self.send(text_data=fragment.render_flash(guard.SLOW_DOWN))
        return verdict is guard.Verdict.PASS

    async def receive_json(self, content: object, **kwargs) -> None:
        if is_chat_command(content):
            await self.chat_receive(content)
            return
        try:
            message = parse_message(content, game=self.snapshot.game)
        except ParseError as error:
            await self.send(text_data=fragment.render_flash(str(error)))
            return
        # RULING P51: taking and leaving seats and being ready or not, per user across every socket
        # and process: each is a write and a lobby change that every socket of the table sees.
        if message.command in guard.LOBBY_COMMANDS and await limits.take(guard.lobby_bucket(self.user.pk)):
            await self._admitted(self.throttle.admit(False))
            return
        if message.command == "resync":
            # Issue 34: the site's own page never asks for one (a reconnect brings the whole view), so
            # a resync is a script's. It is answered with this socket's last push: the current view as
            # this process knows it, for this viewer alone, with no database read or render.
            await self.send(text_data=self.pushed or await self._render())
            return
        started = time.perf_counter()
        try:
            # Issue 9: not on the one thread that every database_sync_to_async call of this process
            # shares by default, or all the tables' moves would wait for each other. A pool thread
            # has its own database connection; moves on one match still run one at a time under
            # its row lock (matchstore.lock_match). The broadcast after commit goes to the event
            # loop (tables/live/broadcast.py); an older version arriving after a newer one never
            # replaces it (table_changed).
            reply = await database_sync_to_async(run_command, thread_sensitive=False)(
                message, table_id=self.table_id, match_id=self.snapshot.match_id, user=self.user, address=self.address
            )
        except TableError as error:
            observe.command_done(self, message, started, refused=error.args[0] if error.args else str(error))
            # Stale or refused: tell this socket only, and show it the current truth.
            await self.send(text_data=fragment.render_flash(str(error)))
            self.snapshot = await database_sync_to_async(fragment.load_snapshot)(self.table_id)
            await self._push()
        except DataError:
            raise  # input the database refused (a value out of range): receive() answers it as not understood
        except DatabaseError:
            # RULING P36: the database could not be reached (a restart, a failover). The command was
            # one transaction, so nothing of it is written; this socket is told and its player tries again.
            observe.command_done(self, message, started, refused=UNSAVED)
            await self.send(text_data=fragment.render_flash(UNSAVED))
        else:
            observe.command_done(self, message, started)
            if reply:
                await self.send(text_data=reply)  # for this socket only (a hint, RULING P65)

    # --- group events ---------------------------------------------------------------------

    async def table_changed(self, event: dict) -> None:
        before = self.snapshot
        same_match = event.get("match_id") is not None and event["match_id"] == self.snapshot.match_id
        # A state whose finished rounds this process has not read yet (issue 27) is read with the table.
        if (
            same_match
            and event.get("state")
            and not event.get("lobby")
            and event["version"] > self.snapshot.version
            and fragment.state_at_hand(self.snapshot, event["version"], event["state"])
        ):
            self.snapshot = fanout.moved(
                self.snapshot, event.get("id"), version=event["version"], state=event["state"], clock=event.get("clock")
            )
        else:
            # One read per process for all its sockets of this table (tables/live/fanout.py).
            self.snapshot = await fanout.table_snapshot(self.table_id, event.get("id")) or self.snapshot
            # Who is connected, read again with the seats: a spectator's sockets announce nothing
            # (only seats show a dot), so one who just sat down is known from here on.
            self.connected = await fanout.connected(self.table_id, event.get("id"))
        if self._access_to_decide(event, before) and await self._access_withdrawn():
            return
        await self._push(changed_only=True)

    def _access_to_decide(self, event: dict, before: fragment.Snapshot) -> bool:
        """RULING P66: whether this socket's permission must be decided again before this push. A
        change of who may see the table raised its access version (the lobby read shows it, a move
        carries it, so a lost message is made good by the next push); one that names its users
        (a block, an unfriending) concerns their sockets alone, unless this socket missed another."""
        version = max(self.snapshot.access_version, event.get("access") or 0)
        if version > self.access_version:
            named = event.get("access_users")
            concerned = named is None or self.user.pk in named or version > self.access_version + 1
            self.access_version = version
            return concerned
        # Who sits decides who may watch a private table (the seated, their friends), and the
        # socket's snapshot shows who sits: no version of its own.
        # A move keeps the seats' very tuple: nothing to compare then.
        changed = before.seats is not self.snapshot.seats
        return self.snapshot.private and changed and fragment.sitting(before) != fragment.sitting(self.snapshot)

    async def _access_withdrawn(self) -> bool:
        """Decide again, as at the opening; a socket no longer allowed is told why and closed."""
        refusal = await database_sync_to_async(privacy.open_refusal, thread_sensitive=False)(self.table_id, self.user)
        if refusal is None:
            return False
        # Out of the table's group first: nothing more of the table reaches it before the close.
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await self._refuse_and_close(refusal, CLOSE_FORBIDDEN)
        return True

    async def presence_changed(self, event: dict) -> None:
        self.connected = await fanout.connected(self.table_id, event.get("id"))
        await self._push(changed_only=True)

    async def session_ended(self, event: dict) -> None:
        # RULING P18: logged out (tables/live/sessions.py); only the socket of that session closes.
        if event.get("session_key") == self.session_key and not self.closing:
            await self._refuse_and_close(guard.LOGGED_OUT, guard.CLOSE_LOGGED_OUT)

    async def session_check(self, event: dict) -> None:
        # RULING P18: the account was saved (a new password, deactivated): does this login still hold?
        await self._session_holds()

    async def _session_holds(self) -> bool:
        """Read the session again (RULING P18); a socket whose login ended is told and closed."""
        key = await database_sync_to_async(guard.session_now, thread_sensitive=False)(self.session_key, self.user.pk)
        self.login_recheck.done()
        if key is None:
            if not self.closing:
                await self._refuse_and_close(guard.LOGGED_OUT, guard.CLOSE_LOGGED_OUT)
            return False
        # Issue 34: the same login under its new key (a password change on this browser), so a
        # later logout there, announced by that key, still finds this socket.
        self.session_key = key
        return not self.closing

    async def _abandon(self) -> None:
        await self.disconnect(CLOSE_ABANDONED)
        self.group = None  # left already: a disconnect after this has nothing more to undo
        await self.channel_layer.group_discard(table_group(self.table_id), self.channel_name)

    async def _release(self) -> None:
        if self.admitted:
            self.admitted = False
            await presence.release(self.table_id, self.channel_name, self.user.pk)

    async def _refuse_and_close(self, message: StrOrPromise, code: int) -> None:
        self.closing = True
        await self.send(text_data=fragment.render_flash(message))
        await self.close(code=code)

    # --- helpers ----------------------------------------------------------------------------

    async def _announce_presence(self) -> None:
        await self.channel_layer.group_send(self.group, {"type": "presence.changed", "id": uuid.uuid4().hex})

    async def _render(self) -> str:
        # Who is connected is read once per presence change, not once per move (issue 9).
        if self.connected is None:
            self.connected = await presence.connected_users(self.table_id)
        # Rendering reads no database: the snapshot holds everything.
        return fanout.render(self.snapshot, user_id=self.user.pk, connected=self.connected)

    async def _push(self, *, changed_only: bool = False) -> None:
        if self.closing:
            return  # refused or revoked: told why, and nothing more
        html = await self._render()
        # Issue 34: an event that changes nothing this viewer sees (a change undone within a spell of
        # tables/live/broadcast.py's coalescing, a presence change of a spectator) sends nothing.
        if changed_only and (html is self.pushed or html == self.pushed):
            return
        # Issue 43: only the regions that changed since this socket's last push; the whole view on
        # connect, after a refusal (the current truth, whole) and when regions.changes says so.
        message = regions.changes(self.pushed, html) if changed_only and self.pushed else None
        self.pushed = html
        if message != "":
            await self.send(text_data=html if message is None else message)
