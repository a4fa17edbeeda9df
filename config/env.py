"""Typed readers for environment variables that fail loudly (docs/style.md §12).

A bad value stops start-up with ``ImproperlyConfigured`` naming the variable,
instead of silently meaning something else (healthchecks ``hc/settings.py``).
"""

from __future__ import annotations

import os
from urllib.parse import unquote

import environ
from django.core.exceptions import ImproperlyConfigured

TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off", ""}


def _raw(name: str) -> str | None:
    return os.environ.get(name)


def env_str(name: str, default: str | None = None) -> str:
    value = _raw(name)
    if value is None:
        if default is None:
            raise ImproperlyConfigured(f"Set the environment variable {name}.")
        return default
    return value


def env_bool(name: str, default: bool) -> bool:
    value = _raw(name)
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered in TRUE:
        return True
    if lowered in FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false (got {value!r}).")


def env_int(name: str, default: int, minimum: int | None = None) -> int:
    value = _raw(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number (got {value!r}).") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum} (got {number}).")
    return number


def env_proxies(name: str) -> int:
    """How many proxies of our own stand in front of the site: a count, or ``true`` (one) / ``false`` (none)."""
    value = _raw(name)
    if value is None:
        return 0
    lowered = value.strip().lower()
    if lowered in TRUE - {"1"}:
        return 1
    if lowered in FALSE - {"0"}:
        return 0
    try:
        number = int(lowered)
    except ValueError:
        raise ImproperlyConfigured(
            f"{name} must be how many proxies stand in front of the site (0, 1, 2, …) or true/false (got {value!r})."
        ) from None
    if number < 0:
        raise ImproperlyConfigured(f"{name} must be at least 0 (got {number}).")
    return number


def env_float(name: str, default: float, minimum: float = 0.0) -> float:
    value = _raw(name)
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number (got {value!r}).") from None
    if number < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum} (got {number}).")
    return number


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = _raw(name)
    if value is None:
        return default
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)} (got {value!r}).")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    value = _raw(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_database(name: str) -> dict:
    value = env_str(name)
    try:
        config = environ.Env.db_url_config(value)
    except Exception as error:  # environ raises several kinds for a malformed URL
        raise ImproperlyConfigured(f"{name} is not a valid database URL: {error}") from None
    if config.get("ENGINE") != "django.db.backends.postgresql":
        raise ImproperlyConfigured(f"{name} must be a postgres:// URL (got {value.split(':', 1)[0]}:).")
    # A Unix socket directory is written percent-encoded in the host part
    # (postgres://user@%2Fpath%2Fto%2Fdir/db); psycopg wants the plain path.
    config["HOST"] = unquote(config.get("HOST", ""))
    return config


def env_redis(name: str) -> str:
    value = env_str(name)
    if not value.startswith(("redis://", "rediss://")):
        raise ImproperlyConfigured(f"{name} must be a redis:// URL (got {value!r}).")
    return value


def env_email(name: str, default: str) -> dict:
    value = env_str(name, default)
    try:
        return environ.Env.email_url_config(value)
    except Exception as error:
        raise ImproperlyConfigured(f"{name} is not a valid email URL: {error}") from None
