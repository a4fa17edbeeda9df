"""Shared fixtures: personas (host, player, outsider) like healthchecks' ``hc/test.py``."""

from __future__ import annotations

import pytest

from accounts.models import User


def make_user(username: str) -> User:
    return User.objects.create_user(username=username, email=f"{username}@example.com", password="a-long-pass-phrase")


@pytest.fixture
def host(db) -> User:
    return make_user("hana")


@pytest.fixture
def player(db) -> User:
    return make_user("piet")


@pytest.fixture
def outsider(db) -> User:
    return make_user("olga")


@pytest.fixture(autouse=True)
def _static_files_without_collectstatic(settings) -> None:
    """The manifest storage needs ``collectstatic``; the tests serve static files from the finders."""
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """A channel layer per test: channels-redis binds its locks to the event loop that first used
    them, and every async test runs in a loop of its own."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


def pytest_collection_modifyitems(config, items) -> None:
    """Browser tests run last: Playwright's sync API keeps an event loop in the main thread for the
    rest of the session, and sync code after it could not call async_to_sync any more."""
    items.sort(key=lambda item: "tests/browser/" in str(item.fspath).replace("\\", "/"))
    # A real browser against real servers on a shared machine can miss a deadline once: a browser
    # test gets one more try (pytest-rerunfailures); a test that fails twice fails the run.
    for item in items:
        if "tests/browser/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.flaky(reruns=1, reruns_delay=2))


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """A request's language stays active in its thread (Django's LocaleMiddleware does not reset
    it): the next test must not read its refusals in the last test's Arabic (issue 26)."""
    yield
    from django.utils import translation

    translation.deactivate()
