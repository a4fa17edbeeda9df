"""The bell, live: each player's channel-layer group, what a socket is sent, and the page sockets.

Every socket a signed-in player has open hears their group (``notify.<user id>``, core/groups.py):
the table's socket where the page has one (tables/live/consumer.py joins it), else the page's own
small socket (notifications/consumer.py, ``/ws/me/``). An event says only "look again" (and which
notification is new); each socket reads the count and the new notification for its own viewer,
in its viewer's language, and sends a JSON frame ``{"bell": {...}}``.

The page sockets are counted apart from the table sockets' caps of RULING P16, with a cap of
their own (``MAX_PAGE_SOCKETS_PER_USER``), in a sorted set per user in Redis whose members a
process's heartbeat renews, so a crashed process's sockets stop counting within a minute.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from dataclasses import dataclass, field

from django.conf import settings
from django.utils import timezone

from core import groups
from core.groups import notify_group
from core.redis import async_client, key_prefix, script, sync_client
from notifications import selectors, texts
from notifications.events import BellChanged

logger = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 15.0
EXPIRY_SECONDS = 40.0
TOO_MANY = "You have too many pages of this site open. Close some of them to see your notifications live here."


def push(user_id: int, *, notification_id: int | None = None) -> None:
    """Tell every open socket of the player to look at their bell again (after a commit)."""
    tell(user_id, {"type": "notify.changed", "notification": notification_id})


def bell_changed(event: BellChanged) -> None:
    """The outbox's handler (notifications/events.py): a write that changed the bell has committed."""
    push(event.user_id, notification_id=event.notification_id)


def tell(user_id: int, event: dict) -> None:
    """Send ``event`` to every open socket of the player (their table sockets and page sockets)."""
    try:
        groups.send(notify_group(user_id), event)
    except Exception:  # noqa: BLE001 (what was written is saved: the next page load shows it)
        logger.warning("could not tell the sockets of user %s", user_id, exc_info=True)


def bell_frame(user_id: int, notification_id: int | None = None) -> dict:
    """Sync: what a socket sends its viewer: the unread count and, if given, the new notification
    (only the viewer's own: an id of someone else's is ignored). Nothing but the sentence a
    notification page shows and its link."""
    frame: dict = {"unread": selectors.unread_count(user_id), "new": None}
    if notification_id is not None:
        row = selectors.live_notifications(user_id).filter(pk=notification_id).first()
        if row is not None:
            frame["new"] = {"id": row.pk, "kind": row.kind, "text": texts.text(row), "url": texts.link(row)}
            until = (row.data or {}).get("until")
            if isinstance(until, str):
                # Issue 53: a notice with a deadline (a round's table starts then) is offered with its countdown.
                frame["new"]["until"] = until
                frame["new"]["now"] = timezone.now().isoformat()  # the page's clock may be off
    return {"bell": frame}


# --- the page sockets' own count (not the table sockets' of RULING P16) ---------------------


def page_sockets_key(user_id: int) -> str:
    return f"{key_prefix()}:pagesockets:{user_id}"


_ADMIT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 1 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 0
"""


def _ttl() -> int:
    return int(EXPIRY_SECONDS * 2) + 1


async def admit(user_id: int, channel_name: str) -> str | None:
    """Take one of the player's page-socket places; the refusal to show, or None."""
    now = time.time()
    refused = await script(async_client(), _ADMIT)(
        keys=[page_sockets_key(user_id)],
        args=[now, now + EXPIRY_SECONDS, channel_name, settings.MAX_PAGE_SOCKETS_PER_USER, _ttl()],
    )
    if refused:
        return TOO_MANY
    _registry().sockets[channel_name] = user_id
    _registry()  # starts the heartbeat with the process's first page socket
    return None


async def release(user_id: int, channel_name: str) -> None:
    registry = _registry()
    registry.sockets.pop(channel_name, None)
    if not registry.sockets and registry.task is not None:
        registry.task.cancel()
        registry.task = None
    await async_client().zrem(page_sockets_key(user_id), channel_name)


@dataclass
class _Registry:
    sockets: dict[str, int] = field(default_factory=dict)  # channel name → user id
    task: asyncio.Task | None = None


_registries: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Registry] = weakref.WeakKeyDictionary()


def _registry() -> _Registry:
    loop = asyncio.get_running_loop()
    registry = _registries.setdefault(loop, _Registry())
    if registry.sockets and (registry.task is None or registry.task.done()):
        registry.task = loop.create_task(_beat_forever(registry))
    return registry


async def _beat_forever(registry: _Registry) -> None:
    while True:
        await asyncio.sleep(HEARTBEAT_SECONDS)
        try:
            await beat(registry.sockets)
        except Exception:  # noqa: BLE001 (Redis away for a moment: the next beat tries again)
            logger.warning("page socket heartbeat failed", exc_info=True)


async def beat(sockets: dict[str, int]) -> None:
    """Renew this process's page sockets (their members only: a released one is not brought back)."""
    until = time.time() + EXPIRY_SECONDS
    by_user: dict[int, dict[str, float]] = {}
    for channel_name, user_id in list(sockets.items()):
        by_user.setdefault(user_id, {})[channel_name] = until
    async with async_client().pipeline(transaction=False) as pipe:
        for user_id, members in by_user.items():
            pipe.zadd(page_sockets_key(user_id), members, xx=True)
            pipe.expire(page_sockets_key(user_id), _ttl())
        await pipe.execute()


def online_page_users(user_ids: set[int]) -> set[int]:
    """Sync: which of ``user_ids`` have a live page socket now (the friends page's "online")."""
    if not user_ids:
        return set()
    ordered = sorted(user_ids)
    now = time.time()
    with sync_client().pipeline(transaction=False) as pipe:
        for user_id in ordered:
            pipe.zcount(page_sockets_key(user_id), now, "+inf")
        counts = pipe.execute()
    return {user_id for user_id, count in zip(ordered, counts) if count}
