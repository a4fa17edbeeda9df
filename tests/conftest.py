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
