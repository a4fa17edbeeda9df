"""Table sockets are sent the whole view again when the channel layer's Redis restarts
(issue 28, RULING P37).

While Redis is down every table update published in that time is lost. The sockets stay open
(the layer's connections resubscribe when Redis answers again), so a seat could go on showing
a game that has moved on, even a turn of its own it never heard of. Each Daphne process
therefore watches Redis on a connection of its own: when a check fails, or Redis answers with
another ``run_id`` (it restarted between two checks), every table socket of the process
re-reads its table and is sent the whole current view once Redis is back, each after a random
wait of up to ``SPREAD_SECONDS`` so that thousands of sockets do not read the database in the
same instant. (A socket that did drop reconnects by itself, after a random wait too:
static/js/table.js.)
"""

from __future__ import annotations

import asyncio
import logging
import random
import weakref

import redis.asyncio as redis
from django.conf import settings

logger = logging.getLogger(__name__)

CHECK_SECONDS = 1.0
SPREAD_SECONDS = 2.0

_sockets: weakref.WeakSet = weakref.WeakSet()
_watcher: asyncio.Task | None = None


def watch(consumer) -> None:
    """Refresh ``consumer`` after a Redis restart; starts this process's watcher if needed."""
    global _watcher
    _sockets.add(consumer)
    loop = asyncio.get_running_loop()
    if _watcher is None or _watcher.done() or _watcher.get_loop() is not loop:  # a test's loop may be gone
        _watcher = loop.create_task(_watch())


def unwatch(consumer) -> None:
    _sockets.discard(consumer)


async def _watch() -> None:
    client = redis.Redis.from_url(
        settings.REDIS_URL, socket_timeout=CHECK_SECONDS, socket_connect_timeout=CHECK_SECONDS
    )
    known, lost = None, False
    try:
        while _sockets:
            await asyncio.sleep(CHECK_SECONDS)
            try:
                run_id = (await client.info("server"))["run_id"]
            except (redis.RedisError, OSError):
                if not lost:
                    logger.warning(
                        "channel layer Redis unreachable; table sockets get their whole view when it is back"
                    )
                lost = True
                continue
            if lost or (known is not None and run_id != known):
                sockets = list(_sockets)
                logger.warning("channel layer Redis is back; sending %d table socket(s) their whole view", len(sockets))
                await asyncio.gather(*(_refresh(consumer) for consumer in sockets))
            known, lost = run_id, False
    finally:
        await client.aclose()


async def _refresh(consumer) -> None:
    await asyncio.sleep(random.uniform(0, SPREAD_SECONDS))
    try:
        # The consumer's own handler for "something changed, read it all again".
        await consumer.table_changed({"type": "table.changed", "match_id": None})
    except Exception:  # noqa: BLE001  (a socket that closed meanwhile, or Redis gone again: the next check retries)
        logger.warning("could not refresh a table socket after the Redis restart", exc_info=True)
