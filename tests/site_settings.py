"""The settings of the site the browser tests drive (tests/browser/conftest.py): the site's own,
with Django's fast test hasher. The production hasher (PBKDF2, a million rounds) costs 0.3 s of
CPU for each sign-up and login, and the users the tests make in their own process must be
checkable here."""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
