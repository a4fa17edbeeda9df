"""WebSocket test helpers: a logged-in communicator per user, over the real Redis layer."""

from __future__ import annotations

import re
import weakref
from collections.abc import Awaitable, Callable

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
    """What came until a quiet spell: for what a socket is expected to have been sent, never to
    show that something was not (``nothing_before``)."""
    received = []
    while not await communicator.receive_nothing(timeout=quiet):
        received.append(await receive(communicator))
    return received


async def nothing_before(
    communicator: WebsocketCommunicator,
    later: str | Callable[[str], bool],
    *,
    cause: Awaitable[object] | None = None,
    unwanted: str | None = None,
    timeout: float = 5,
) -> None:
    """That a message did not come, shown by order rather than by a quiet spell (which passes
    when the message is merely slow): ``cause`` (or what the caller did just before) makes the
    site send a later message, the first that ``later`` matches (a text it holds, or a test of
    it); every message up to it is read, and any before it fails the test (with ``unwanted``, any
    holding that text). The later message must come the way the unwanted one would have, after
    it: a push through the channel layer for a group event, the socket's own reply for one of its
    replies. Each way keeps its order; the two together do not."""
    if cause is not None:
        await cause
    matches = (lambda text: later in text) if isinstance(later, str) else later
    while True:
        text = await receive(communicator, timeout)
        if matches(text):
            return
        if unwanted is None or unwanted in text:
            what = "a message" if unwanted is None else repr(unwanted)
            raise AssertionError(f"{what} came before the later one: {text[:500]}")


async def connect_with_cookie(table_id: int, cookie: str) -> tuple[WebsocketCommunicator, bool]:
    """A table socket sent ``cookie`` as it stands (a browser's own session cookie)."""
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie.encode())]
    communicator = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    return communicator, connected


async def closed_with(communicator: WebsocketCommunicator, timeout: float = 3) -> int | None:
    """The close code, after whatever the socket sent before closing."""
    while True:
        output = await communicator.receive_output(timeout=timeout)
        if output["type"] == "websocket.close":
            return output.get("code")


async def still_open(communicator: WebsocketCommunicator) -> bool:
    """The socket answers a resync with the live view."""
    await communicator.send_json_to({"command": "resync"})
    return 'id="live"' in " ".join(await drain(communicator, quiet=0.5))
