"""Accounts test helpers: the sign-up form as a new player fills it in."""

from __future__ import annotations

SIGNUP = {
    "username": "mari",
    "email": "mari@example.com",
    "password1": "Kolm-Kaardi-Trikk",
    "password2": "Kolm-Kaardi-Trikk",
}
