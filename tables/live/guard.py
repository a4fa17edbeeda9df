"""Fair use on the table socket (issue 21): what every frame passes before any command sees it.

The consumer runs each incoming frame through here first, whatever its command, so a
command added later is limited and checked like the others:

- a token bucket per socket (RULING P15): a burst of 10, then 5 messages a second; one per
  user over all their sockets: a burst of 20, then 10 a second; and one per client address
  over every account behind it (RULING P51): a burst of 100, then 50 a second. The user's and
  the address's are counted in Redis (core/limits.py), so they hold across processes. A
  message over any limit is refused (the socket is told once per dry spell), and a socket that
  keeps sending into an empty bucket is closed;
- sitting, leaving, ready and not ready per user (RULING P51): a burst of 6, then one a second;
- socket openings per client address (RULING P51): a burst of 30, then one a second, counted
  before the session is read (``OpeningLimit``);
- the frame itself: text only, at most ``MAX_FRAME_CHARS``, JSON nesting Python can read;
- the session (RULING P18): a socket whose login has ended is closed when it is told so
  (tables/live/sessions.py: logout, a password change or reset, deactivation); as a safety net for
  a lost event or a session ended without one (expired, deleted), a socket that sends a
  message re-checks its session if ``SESSION_RECHECK_SECONDS`` have passed since the last
  check. The check reads the database on a pool thread, so it is not made for every frame.
  A socket follows its own session to a new key when that rotates (issue 34: its user changed
  their password on that browser).
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.base import SessionBase
from django.http.cookie import parse_cookie
from django.utils.crypto import constant_time_compare
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _

from accounts import sessions
from accounts.models import User
from core import addresses, limits
from core.connections import retry_on_dead_connection
from tables.live import presence

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

BURST = 10
RATE = 5.0  # messages per second, refilled continuously
# Per user, over all their sockets in every process (counted in Redis, core/limits.py): 20
# sockets at 5 a second each would let one account make 100 refused commands a second.
USER_BURST = 20
USER_RATE = 10.0
# RULING P51: per client address (core/addresses.py), over every account behind it: issue 34
# found five fresh accounts, each inside its own limits, together slowing every table. An office
# or a school behind one address plays at a message every few seconds a head; this is fifty people
# clicking at once, every second.
ADDRESS_BURST = 100
ADDRESS_RATE = 50.0
# RULING P51: sitting, leaving, ready and not ready, per user over all their sockets: a player clicks
# them a few times a minute; a script toggling "ready" made a write and a lobby change each time.
LOBBY_COMMANDS = frozenset({"seat_take", "seat_leave", "ready", "unready", "rematch", "rematch_decline"})
LOBBY_BURST = 6
LOBBY_RATE = 1.0
# RULING P51: socket openings per client address: a burst of 30 (a family reloading its pages), then
# one a second. Refused before the session is read or the table loaded.
HANDSHAKE_BURST = 30
HANDSHAKE_RATE = 1.0
# Refused messages build up a penalty that drains at RATE too: a socket still sending after
# ~4 seconds at twice the allowed rate (or a second of a scripted flood) is cut off.
PENALTY_TO_CLOSE = 20
# A browser's message is a few hundred characters (htmx sends the form's fields and headers).
MAX_FRAME_CHARS = 4096
# RULING P18: a message re-checks the session when this long has passed since its last check
# (the handshake checked it). Every ended login the site itself causes is told to the sockets.
SESSION_RECHECK_SECONDS = 60.0

# RULINGS P16, P51: a refused handshake is held at most this long, under Daphne's own limit on an
# unanswered handshake (5 s), then answered.
HOLD_SECONDS = 3.0
# RULINGS P16, P51: what a refused opening earns, per address and per login (``backoff_names``):
# a wait of a second, doubled by each refusal after a wait up to a minute, forgotten ten minutes
# after the last refusal.
OPENING_BACKOFF = limits.Backoff(base=1.0, ceiling=60.0, memory=600)
# A refusal is still told to a page this long after its wait ended: a held handshake is answered
# when the wait is over (``reject``), and only then does the page ask why.
TOLD_SECONDS = 10.0

CLOSE_LOGGED_OUT = 4401
CLOSE_TOO_MANY_SOCKETS = 4409
CLOSE_FLOODING = 4429

SLOW_DOWN = _("Too many messages: slow down. The last one was not carried out.")
TOO_MANY_OPENINGS = _("Too many table windows opened from your network just now. Wait a minute, then reload the page.")
FLOODING = _("Too many messages: this window is disconnected. Reload the page to reconnect.")
BINARY = _("Only text messages are accepted.")
NUL = _("That message has a character it cannot have.")
TOO_LONG = _("That message is too long.")
LOGGED_OUT = _("You are logged out. Log in again to play.")


class Verdict(Enum):
    PASS = "pass"
    REFUSE = "refuse"  # refused; tell the socket
    DROP = "drop"  # refused; it was told already in this dry spell
    CLOSE = "close"  # flooding: disconnect


@dataclass
class Throttle:
    """One socket's token bucket and flood penalty (RULING P15). ``clock`` is for tests."""

    burst: float = BURST
    rate: float = RATE
    close_at: float = PENALTY_TO_CLOSE
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    penalty: float = 0.0
    told: bool = False
    stamp: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst
        self.stamp = self.clock()

    def has_token(self) -> bool:
        """Refill this bucket; whether it holds a token (then the shared buckets are asked)."""
        now = self.clock()
        elapsed, self.stamp = now - self.stamp, now
        self.tokens = min(self.burst, self.tokens + elapsed * self.rate)
        self.penalty = max(0.0, self.penalty - elapsed * self.rate)
        return self.tokens >= 1

    def admit(self, shared: bool = True) -> Verdict:
        """One message: it passes if this bucket has a token and ``shared`` says the buckets the
        message also draws on (its user's, its address's: ``message_buckets``) gave theirs."""
        if self.has_token() and shared:
            self.tokens -= 1
            self.told = False
            return Verdict.PASS
        self.penalty += 1
        if self.penalty >= self.close_at:
            return Verdict.CLOSE
        if self.told:
            return Verdict.DROP
        self.told = True
        return Verdict.REFUSE


def new_throttle() -> Throttle:
    """A socket's throttle at the current limits (read at each connect, so a test can lower them)."""
    return Throttle(burst=BURST, rate=RATE, close_at=PENALTY_TO_CLOSE)


def message_buckets(user_id: int, address: str) -> tuple[limits.Bucket, ...]:
    """What a message draws on besides its socket's own bucket: its user's, and its address's
    (RULINGS P15, P51). A connection with no address (an in-process test client) has only the user's."""
    user = limits.Bucket(f"messages:user:{user_id}", USER_BURST, USER_RATE)
    if address == addresses.UNKNOWN:
        return (user,)
    return user, limits.Bucket(f"messages:address:{addresses.limit_key(address)}", ADDRESS_BURST, ADDRESS_RATE)


def lobby_bucket(user_id: int) -> limits.Bucket:
    return limits.Bucket(f"lobby:user:{user_id}", LOBBY_BURST, LOBBY_RATE)


def handshake_bucket(address: str) -> limits.Bucket | None:
    if address == addresses.UNKNOWN:
        return None
    return limits.Bucket(f"handshakes:{addresses.limit_key(address)}", HANDSHAKE_BURST, HANDSHAKE_RATE)


@dataclass
class SessionCheck:
    """When a socket's session is due to be read again (RULING P18). ``clock`` is for tests."""

    every: float = SESSION_RECHECK_SECONDS
    clock: Callable[[], float] = time.monotonic
    checked: float = field(init=False)

    def __post_init__(self) -> None:
        self.checked = self.clock()  # the handshake's authentication read the session

    def due(self) -> bool:
        return self.clock() - self.checked >= self.every

    def done(self) -> None:
        self.checked = self.clock()


session_clock = time.monotonic  # what new sockets' re-checks measure time by (a test moves it)


def new_session_check() -> SessionCheck:
    """A socket's session re-check at the current interval and clock (read at each connect, for tests)."""
    return SessionCheck(every=SESSION_RECHECK_SECONDS, clock=session_clock)


def frame_refusal(text_data: str | None) -> StrOrPromise | None:
    """Why a frame is refused before it is parsed, or None."""
    if text_data is None:
        return BINARY
    if len(text_data) > MAX_FRAME_CHARS:
        return TOO_LONG
    # PostgreSQL stores no NUL in text: a chat line or name carrying one would fail deep inside.
    if "\x00" in text_data or "\\u0000" in text_data:
        return NUL
    return None


# A session whose key rotated again before its sockets followed: a few moves are followed, not a chain.
MAX_ROTATIONS = 4


@retry_on_dead_connection
def session_now(session_key: str | None, user_id: int) -> str | None:
    """RULING P18: the key under which the socket's login still holds, as Django's own
    per-request check would say; None once it has ended.

    The session must still exist for this user, and carry the hash of the user's current
    password (a password change or reset logs out everywhere by changing it), and the
    account must be active. RULING P58: a signed-in session whose key rotated (its user changed
    their own password on that browser) is followed to its new key (accounts/sessions.py).
    """
    from django.conf import settings

    store_class = import_string(f"{settings.SESSION_ENGINE}.SessionStore")
    for _rotation in range(MAX_ROTATIONS + 1):
        if not session_key:
            return None
        store: SessionBase = store_class(session_key)
        data = store.load()
        if data:
            return session_key if _login_holds(data, session_key, user_id) else None
        session_key = sessions.rotated_to(session_key)
    return None


def _login_holds(data: dict, session_key: str, user_id: int) -> bool:
    if data.get(SESSION_KEY) != str(user_id):
        return False
    user = User.objects.filter(pk=user_id, is_active=True).only("password").first()
    if user is None:
        return False
    stored = data.get(HASH_SESSION_KEY) or ""
    current = user.get_session_auth_hash()
    # As django.contrib.auth.get_user: a hash made with a SECRET_KEY_FALLBACKS key still holds.
    if constant_time_compare(stored, current) or any(
        constant_time_compare(stored, fallback) for fallback in user.get_session_auth_fallback_hash()
    ):
        return True
    # The new password is saved (and announced) a moment before this browser's session carries its
    # hash: it holds until then, for this password only (the move tells the sockets again).
    return sessions.rotation_expected(session_key, auth_hash=current)


def backoff_names(address: str, session_key: str | None) -> list[str]:
    """Whose back-off an opening answers to (RULINGS P16, P51): its address's, and its login's
    (the session cookie's key, hashed: known before the session is read)."""
    names = [] if address == addresses.UNKNOWN else [f"address:{addresses.limit_key(address)}"]
    return names + login_backoff(session_key)


def login_backoff(session_key: str | None) -> list[str]:
    """A login's own back-off (the socket caps of RULING P16 are one user's: the others behind the
    same address do not wait for them)."""
    return [f"login:{hashlib.sha256(session_key.encode()).hexdigest()[:32]}"] if session_key else []


def scope_session_key(scope: dict) -> str | None:
    """The session cookie's value, read from the handshake's headers (no session is loaded)."""
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            return parse_cookie(value.decode("latin-1")).get(settings.SESSION_COOKIE_NAME) or None
    return None


def refusal_text(refused: limits.Refused) -> StrOrPromise:
    """What the page says about a refused opening (it asks: tables/views.py socket_refusal)."""
    per_table, in_all = presence.caps()
    texts = {
        "cooling": presence.COOLING_DOWN,
        "here": presence.TOO_MANY_HERE.format(per_table),
        "all": presence.TOO_MANY_IN_ALL.format(in_all),
    }
    return texts.get(refused.why, TOO_MANY_OPENINGS)


async def reject(receive, send, code: int, *, hold: float = 0.0) -> None:
    """Refuse a handshake before accepting it: the client gets HTTP 403 and nothing else (its page
    asks why), and the site spends no session read and no render on it. ``hold``: answered only
    when the client's wait is over (up to HOLD_SECONDS), so one that reconnects at once is paced
    by its wait itself: a held handshake costs a sleeping coroutine, a refused one answered at
    once costs a handshake more, at once, again."""
    await receive()  # websocket.connect
    if hold > 0:
        await asyncio.sleep(min(hold, HOLD_SECONDS))
    await send({"type": "websocket.close", "code": code})


class OpeningLimit:
    """ASGI middleware: table sockets opened from one address over every account behind it (RULING
    P51), and any address or login still waiting out a refusal (RULING P16), refused at the
    handshake, before the session and the user are read: a flood of refused openings costs one
    Redis round trip each."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and scope.get("path", "").startswith("/ws/tables/"):
            address = addresses.scope_address(scope)
            names = backoff_names(address, scope_session_key(scope))
            if names:
                # An empty bucket is the address's refusal, earned on its back-off (the first name).
                bucket = handshake_bucket(address)
                refused = await limits.backoff_refusal(names, bucket, OPENING_BACKOFF, empty_why="address")
                if refused is not None:
                    return await reject(receive, send, CLOSE_FLOODING, hold=refused.seconds)
        return await self.application(scope, receive, send)
