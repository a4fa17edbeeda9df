"""The one place that knows a client's address (issue 34): for page requests and table sockets alike.

Without a proxy the address is the connection's peer. Behind ``DJANGO_BEHIND_PROXY`` = N
proxies of our own, each proxy appends the address it was reached from to
``X-Forwarded-For``; the right-most N entries were therefore written by our proxies, and
the N-th from the right is what the outermost of them saw: the client. Anything left of
it was written by the client itself and may be made up, so it is never read. (Daphne's
``--proxy-headers`` takes the left-most entry, from any peer: an attacker would choose
their own address, so the site never runs with it.) A chain shorter than N (a request
that came through fewer of our proxies, such as a health check from inside) gives its
left-most entry, which one of our proxies wrote; an entry with a port gives its address; an
entry that is not an address gives the peer.

Limits count per address (``limit_key``): an IPv6 client is given a /64 by its provider,
so the whole /64 is one client, as allauth counts it too (``ALLAUTH_RATE_LIMIT_IPV6_PREFIX``).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from django.conf import settings
from django.http import HttpRequest

UNKNOWN = "unknown"  # no peer at all (an in-process test client): every such client counts as one
IPV6_PREFIX = 64


def clean(text: str | None) -> str | None:
    """``text`` as a normal address string, or None if it is not one ("[::1]" and "::1" are one)."""
    if not text:
        return None
    text = text.strip()
    # A proxy may write the client's port too: "[2001:db8::1]:443", "1.2.3.4:5678" (a bare IPv6
    # address has several colons, an IPv4 one with a port exactly one).
    if text.startswith("[") and "]" in text:
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return None


def from_chain(peer: str | None, forwarded: Iterable[str], trusted: int) -> str:
    """The client's address: ``peer`` is the connection's, ``forwarded`` every X-Forwarded-For
    header in the order received, ``trusted`` how many proxies of our own stand in front."""
    direct = clean(peer) or UNKNOWN
    if trusted <= 0:
        return direct
    chain = [entry.strip() for header in forwarded for entry in header.split(",") if entry.strip()]
    if not chain:
        return direct
    return clean(chain[-trusted] if len(chain) >= trusted else chain[0]) or direct


def trusted_proxies() -> int:
    return settings.TRUSTED_PROXIES


def request_address(request: HttpRequest) -> str:
    """A page request's client address."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    return from_chain(request.META.get("REMOTE_ADDR"), [forwarded] if forwarded else [], trusted_proxies())


def scope_address(scope: dict) -> str:
    """An ASGI connection's client address (a table socket): the peer is ``scope["client"]``."""
    client = scope.get("client") or (None, None)
    forwarded = [value.decode("latin-1") for name, value in scope.get("headers", ()) if name == b"x-forwarded-for"]
    return from_chain(client[0], forwarded, trusted_proxies())


def limit_key(address: str) -> str:
    """What per-address limits count under: the address, or its /64 for IPv6."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv4Address):
        return str(parsed)
    if parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return f"{ipaddress.IPv6Network(f'{parsed}/{IPV6_PREFIX}', strict=False).network_address}/{IPV6_PREFIX}"
