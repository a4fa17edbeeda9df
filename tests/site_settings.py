"""The settings of the site the browser tests drive (tests/browser/conftest.py): the site's own,
with Django's fast test hasher. The production hasher (PBKDF2, a million rounds) costs 0.3 s of
CPU for each sign-up and login, and the users the tests make in their own process must be
checkable here."""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# RULING P53's sign-up limit per address: the browser tests sign up from one address, many times an hour.
ACCOUNT_RATE_LIMITS = {**ACCOUNT_RATE_LIMITS, "signup": ""}  # noqa: F405
