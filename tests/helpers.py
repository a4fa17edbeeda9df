"""Helpers shared across the test folders."""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import connections, transaction


def fair_value() -> str:
    """A player's random value for the deal, as their browser sends it with "ready" or "start"
    (RULING P31: the site refuses both without one and never draws it in the player's place)."""
    return secrets.token_hex(16)


def race(*calls) -> list:
    """Run the calls at once, each on its own thread and database connection; return results or errors."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:  # noqa: BLE001 (the test inspects what each got)
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def session_key_for(user) -> str:
    """A logged-in session for ``user``, as the login view would make it."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def database_url() -> str:
    """The URL of the test database pytest-django made (this xdist worker's own), for the site's
    processes a test starts."""
    settings = connections["default"].settings_dict
    port = f":{settings['PORT']}" if settings.get("PORT") else ""
    auth = settings["USER"] or "postgres"
    if settings.get("PASSWORD"):
        auth += f":{quote(settings['PASSWORD'], safe='')}"
    return f"postgres://{auth}@{quote(settings['HOST'] or '', safe='')}{port}/{settings['NAME']}"


def in_ci() -> bool:
    """On CI (.ci/run sets CI=true), a missing tool fails the run instead of skipping its tests."""
    return os.environ.get("CI", "").lower() == "true"


def needs_tool(found: object, missing: str) -> pytest.MarkDecorator:
    """The mark of a test that runs a tool of the machine's (``found``: where it is, or None):
    skipped where the tool is missing, but on CI failed before its fixtures start anything,
    saying what is missing (tests/conftest.py), for .ci/run installs every tool."""
    if found or not in_ci():
        return pytest.mark.skipif(not found, reason=missing)
    return pytest.mark.missing_tool(missing)


def is_browser_test(item) -> bool:
    return "browser" in Path(str(item.fspath)).parts


def wait_for(predicate, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


@contextmanager
def rolled_back_after(django_db_blocker) -> Iterator[None]:
    """Django's ``setUpTestData`` for a class- or module-scoped fixture: what it writes inside is
    read by every test of its scope (each test's own writes roll back to a savepoint inside this
    transaction) and rolled back after the last. For data the tests only read; on-commit work
    never runs here, as in any ``db`` test."""
    with django_db_blocker.unblock(), transaction.atomic():
        try:
            yield
        finally:
            transaction.set_rollback(True)
