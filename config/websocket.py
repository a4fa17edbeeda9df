"""The WebSocket door (issue 21): which pages may open a socket, and what an unknown path gets.

Channels' ``AllowedHostsOriginValidator`` compares only the Origin's host name with
ALLOWED_HOSTS: a page on ``http://localhost:9999`` (another program on the same machine)
or a plain-HTTP page on a site served over HTTPS could open a player's socket with the
player's cookie. Here the Origin must be exactly the site the socket was opened on:
the same scheme (``https`` for a socket over TLS, as the proxy reports it when
``DJANGO_BEHIND_PROXY`` is on), host and port, with a Host that ALLOWED_HOSTS accepts;
or one of ``CSRF_TRUSTED_ORIGINS``, where the same origin rule is configured for forms.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}
CLOSE_NOT_FOUND = 4404


def _header(scope: dict, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


def _normal(scheme: str, netloc: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) with the default port filled in, or None if it cannot be read."""
    try:
        parts = urlsplit(f"{scheme}://{netloc}")
        port = parts.port or DEFAULT_PORTS.get(scheme)
    except ValueError:
        return None
    if not parts.hostname or port is None:
        return None
    return scheme, parts.hostname.lower(), port


def socket_scheme(scope: dict) -> str:
    """The scheme of the page that may open this socket: ``https`` for a socket over TLS."""
    if scope.get("scheme") in ("wss", "https"):
        return "https"
    proxy = settings.SECURE_PROXY_SSL_HEADER
    if proxy:
        header, secure = proxy
        name = header.removeprefix("HTTP_").replace("_", "-").lower().encode()
        forwarded = (_header(scope, name) or "").split(",")[0].strip()
        if forwarded == secure:
            return "https"
    return "http"


def origin_allowed(scope: dict) -> bool:
    origin = _header(scope, b"origin")
    if not origin:
        return False  # browsers always send it; a script that leaves it out has no page to protect
    parsed = urlsplit(origin)
    if parsed.scheme not in DEFAULT_PORTS:
        return False
    seen = _normal(parsed.scheme, parsed.netloc)
    if seen is None:
        return False
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        if "*" not in trusted:
            trusted_parts = urlsplit(trusted)
            if _normal(trusted_parts.scheme, trusted_parts.netloc) == seen:
                return True
    host = _header(scope, b"host") or ""
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    return _normal(socket_scheme(scope), host) == seen


class SameOriginValidator:
    """ASGI middleware: a WebSocket whose Origin is not the site's own is refused at the handshake."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            denier = WebsocketDenier()
            return await denier(scope, receive, send)
        return await self.application(scope, receive, send)


class UnknownPathConsumer(AsyncWebsocketConsumer):
    """Any socket path no route knows: closed with 4404 rather than an error in the router."""

    async def connect(self) -> None:
        await self.close(code=CLOSE_NOT_FOUND)
