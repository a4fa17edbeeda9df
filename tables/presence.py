"""Who is connected to a table, kept in Redis so every Daphne process sees the same (RULING S11).

A hash per table maps each socket's channel name to its user id; a user is
connected while at least one of their sockets is in it.
"""

from __future__ import annotations

import asyncio
import weakref

import redis.asyncio as aioredis
from django.conf import settings

TTL_SECONDS = 24 * 3600


_clients: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, aioredis.Redis]" = weakref.WeakKeyDictionary()


def _client() -> aioredis.Redis:
    """One pooled client per event loop (a client cannot cross loops)."""
    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None:
        client = _clients[loop] = aioredis.Redis.from_url(settings.REDIS_URL)
    return client


def _key(table_id: int) -> str:
    return f"{settings.CHANNEL_LAYERS['default']['CONFIG']['prefix']}:presence:{table_id}"


async def join(table_id: int, channel_name: str, user_id: int) -> None:
    key = _key(table_id)
    async with _client().pipeline() as pipe:
        await pipe.hset(key, channel_name, user_id).expire(key, TTL_SECONDS).execute()


async def leave(table_id: int, channel_name: str) -> None:
    await _client().hdel(_key(table_id), channel_name)


async def connected_users(table_id: int) -> set[int]:
    values = await _client().hvals(_key(table_id))
    return {int(value) for value in values}
