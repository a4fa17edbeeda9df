"""The site's Redis clients, for what every process counts and keeps there besides the channel layer.

One client per event loop for async code (a client and its connections belong to the loop that
made them, and every test runs in a loop of its own), one per process for sync code (pages,
services, Celery tasks: redis-py's sync client is thread-safe and opens its connections again
after a fork). Each is built on its first use, from ``REDIS_URL``, never at import time (STYLE
§12, §20). The channel layer's, the Celery broker's and the watchers' own clients (each with
timeouts of its own: tables/live/layer_watch.py, config/health.py, core/metrics.py) are not these.

Both are typed as Any: redis-py annotates every reply of either client as ``Awaitable | value``,
which no caller could use without a cast.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

import redis
import redis.asyncio as aioredis
from django.conf import settings

# A bounded pool per event loop: thousands of sockets opening at once wait their turn for one of
# these connections instead of each opening its own (Redis refuses clients past maxclients). The
# table sockets' pool (32) and the page sockets' (16) were two; one of their sum keeps a process's
# connections to Redis as few as they were.
POOL_SIZE = 48
POOL_WAIT_SECONDS = 10

_async_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, aioredis.Redis] = weakref.WeakKeyDictionary()
_sync_clients: dict[str, redis.Redis] = {}
_scripts: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


def async_client() -> Any:
    """The pooled client of the running event loop."""
    loop = asyncio.get_running_loop()
    client = _async_clients.get(loop)
    if client is None:
        pool = aioredis.BlockingConnectionPool.from_url(
            settings.REDIS_URL, max_connections=POOL_SIZE, timeout=POOL_WAIT_SECONDS
        )
        client = _async_clients[loop] = aioredis.Redis(connection_pool=pool)
    return client


def sync_client() -> Any:
    """The process's client for sync code, by URL (a test's settings may point elsewhere)."""
    url = settings.REDIS_URL
    client = _sync_clients.get(url)
    if client is None:
        # Two threads may each build one at once: each uses its own, and the later is kept.
        client = _sync_clients[url] = redis.Redis.from_url(url)
    return client


def script(client: Any, source: str) -> Any:
    """The Lua script ``source`` registered with ``client`` (either kind) once: run by its hash
    (EVALSHA), sent again only if Redis lost it, so a script run for every opening or move is
    neither sent nor hashed each time."""
    registered = _scripts.setdefault(client, {})
    found = registered.get(source)
    if found is None:
        found = registered[source] = client.register_script(source)
    return found


def key_prefix() -> str:
    """What every key the site keeps in Redis starts with: the channel layer's prefix, so two sites
    (or two test workers) sharing a Redis never read each other's counts."""
    return settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"]
