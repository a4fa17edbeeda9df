"""Fixtures of the accounts' tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def instant_sign_up(settings) -> None:
    """A sign-up of a site without mail (ACCOUNT_EMAIL_VERIFICATION=none, the development
    default); the production default is in tests/accounts/test_abuse_accounts.py."""
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
