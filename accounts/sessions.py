"""Sessions (``SESSION_ENGINE``): Django's database sessions, whose key rotations are remembered.

RULING P58 (issue 34): changing one's own password keeps that browser signed in, under a new
session key (``update_session_auth_hash`` rotates it, against session fixation). The table sockets that
browser has open were opened with the old key, and without this they were closed as logged out
(tables/live/guard.py found no session under it). Every rotation of a signed-in session is
remembered here for a while, old key to new, so a socket follows its own session across it;
every other session of the account still ends, and its sockets close.

The password is saved, and announced to the sockets, a moment before the session moves to its
new key with the new password's hash; the account adapter marks the session as about to rotate
before the save, so its sockets wait for the move instead of closing on the hash.

In the shared cache (Redis), so that it holds whichever process answers.
"""

from __future__ import annotations

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.core.cache import cache
from django.utils.crypto import constant_time_compare

# A socket told of the rotation follows it at once; this long covers one whose event was lost,
# until its next re-check (tables/live/guard.py, SESSION_RECHECK_SECONDS).
ROTATION_SECONDS = 3600
# From the password's save to the session's rotation is one request; a mark left by a request
# that failed in between lapses after this.
EXPECTED_SECONDS = 30


def _rotated_key(session_key: str) -> str:
    return f"session:rotated:{session_key}"


def _expected_key(session_key: str) -> str:
    return f"session:rotating:{session_key}"


class SessionStore(DatabaseSessionStore):
    def cycle_key(self) -> None:
        # Django's cycle_key, with the rotation remembered between the new key's creation and the
        # old one's deletion: a socket reading its session in between finds one or the other.
        data = self._session  # type: ignore[attr-defined]  # SessionBase's cached data, not in the stubs
        old = self.session_key
        self.create()
        self._session_cache = data
        if old:
            if data.get(SESSION_KEY):  # signed in: its sockets follow it to the new key
                cache.set(_rotated_key(old), self.session_key, ROTATION_SECONDS)
            expected = cache.get(_expected_key(old))
            if expected and self.session_key:
                # The new key is stored now with the old password's hash; the new hash is written when
                # the response saves the session, and a socket reading it before must not close.
                cache.set(_expected_key(self.session_key), expected, EXPECTED_SECONDS)
            self.delete(old)


def rotated_to(session_key: str) -> str | None:
    """The key the signed-in session ``session_key`` moved to, if it moved lately."""
    return cache.get(_rotated_key(session_key))


def rotation_expect(session_key: str, *, auth_hash: str) -> None:
    """This session's key is about to rotate: its own user is changing their password, and the
    session will carry ``auth_hash``, the new password's session hash."""
    cache.set(_expected_key(session_key), auth_hash, EXPECTED_SECONDS)


def rotation_expected(session_key: str, *, auth_hash: str) -> bool:
    """Whether this session is about to carry ``auth_hash`` (the user's current session hash)."""
    expected = cache.get(_expected_key(session_key))
    return isinstance(expected, str) and constant_time_compare(expected, auth_hash)
