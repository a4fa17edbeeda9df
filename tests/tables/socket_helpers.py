"""WebSocket test helpers: a logged-in communicator per user, over the real Redis layer."""

from __future__ import annotations

import re
import weakref

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.urls import reverse

from config.asgi import application
from tables.render import regions
from tests.helpers import session_key_for

# A whole view's #live, or a push of changed regions' #live-meta (tables/render/regions.py).
VERSION = re.compile(r'id="live(?:-meta)?"[^>]*data-version="(\d+)"')


@database_sync_to_async
def session_cookie(user) -> str:
    return f"{settings.SESSION_COOKIE_NAME}={session_key_for(user)}"


async def connect(
    table_id: int,
    user=None,
    *,
    origin: str = "http://localhost",
    accept_language: str | None = None,
    address: str | None = None,
    session_key: str | None = None,
) -> tuple[WebsocketCommunicator, bool]:
    """``address``: the connection's peer, as Daphne gives it (a test communicator has none).
    ``session_key``: a login made before (``login_of``), else a new one of ``user``."""
    headers = [(b"origin", origin.encode()), (b"host", b"localhost")]
    if accept_language is not None:
        headers.append((b"accept-language", accept_language.encode()))
    if session_key is not None:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={session_key}".encode()))
    elif user is not None:
        headers.append((b"cookie", (await session_cookie(user)).encode()))
    communicator = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    if address is not None:
        communicator.scope["client"] = [address, 50000]  # read when the application first runs, below
    connected, _ = await communicator.connect(timeout=5)
    return communicator, connected


login_of = database_sync_to_async(session_key_for)


@database_sync_to_async
def why_refused(session_key: str | None = None, address: str = "127.0.0.1") -> str:
    """What a page is told after its handshake was refused (tables/views.py socket_refusal)."""
    client = Client(REMOTE_ADDR=address)
    if session_key is not None:
        client.cookies[settings.SESSION_COOKIE_NAME] = session_key
    return client.get(reverse("socket_refusal")).json()["message"] or ""


# The whole view each communicator shows, as a browser would after each push (tables/render/regions.py).
_pages: weakref.WeakKeyDictionary[WebsocketCommunicator, str] = weakref.WeakKeyDictionary()


def seen(communicator: WebsocketCommunicator, text: str) -> str:
    """``text`` as its socket's viewer sees it: a push of changed regions becomes the whole view
    it makes; a whole view, a flash or a chat line stays as it is."""
    page = _pages.get(communicator)
    if 'id="live"' in text[:200]:
        _pages[communicator] = text
        return text
    if page is None or 'id="live-meta"' not in text:
        return text
    page = _pages[communicator] = regions.apply(page, text)
    return page


async def receive(communicator: WebsocketCommunicator, timeout: float = 5) -> str:
    """The next message, as its viewer sees it (``seen``)."""
    return seen(communicator, await communicator.receive_from(timeout=timeout))


def version_of(html: str) -> int | None:
    found = VERSION.search(html)
    return int(found.group(1)) if found else None


async def receive_until_version(communicator: WebsocketCommunicator, version: int, timeout: float = 5) -> list[str]:
    """Every message up to (and including) the first live fragment at ``version`` or later."""
    received = []
    while True:
        text = await receive(communicator, timeout)
        received.append(text)
        seen = version_of(text)
        if seen is not None and seen >= version:
            return received


async def receive_with(communicator: WebsocketCommunicator, text: str, timeout: float = 5) -> str:
    """The first message that holds ``text``; those before it are passed over."""
    while True:
        message = await communicator.receive_from(timeout=timeout)
        if text in message:
            return message


async def receive_all_until(communicator: WebsocketCommunicator, text: str, timeout: float = 5) -> str:
    """Every message up to (and including) the first that holds ``text``, joined."""
    received = ""
    while text not in received:
        received += await communicator.receive_from(timeout=timeout)
    return received


async def drain(communicator: WebsocketCommunicator, quiet: float = 0.2) -> list[str]:
    received = []
    while not await communicator.receive_nothing(timeout=quiet):
        received.append(await receive(communicator))
    return received
