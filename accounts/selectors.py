"""Reads for the profile page."""

from __future__ import annotations

from accounts.models import User


def profile_stats(*, player: User) -> dict:
    return {}
