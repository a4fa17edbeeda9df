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


# Every environment variable the site reads, its default and meaning: the source of
# docs/configuration.md (``python -m config.env --markdown``). tests/config/test_configuration_doc.py
# fails when that file differs from this list, or when config/ reads a variable missing here.
DOCUMENTED: tuple[tuple[str, str, str], ...] = (
    ("DATABASE_URL", "embedded PostgreSQL", "`postgres://user:pass@host:port/db`"),
    ("REDIS_URL", "embedded Redis", "`redis://host:port/db`: channel layer and Celery broker"),
    ("DJANGO_DEBUG", "`false` (`make run` sets `true`)", "never `true` in production"),
    ("DJANGO_SECRET_KEY", "required unless DEBUG", "at least 32 characters, random"),
    ("DJANGO_ALLOWED_HOSTS", "`localhost,127.0.0.1,[::1]`", "comma-separated; also the WebSocket origin check"),
    ("DJANGO_CSRF_TRUSTED_ORIGINS", "empty", "e.g. `https://cards.example.com`"),
    ("DJANGO_SECURE_SSL_REDIRECT", "`true` unless DEBUG", "redirect HTTP to HTTPS"),
    ("DJANGO_SECURE_COOKIES", "`true` unless DEBUG", "session and CSRF cookies over HTTPS only"),
    ("DJANGO_HSTS_SECONDS", "`3600` unless DEBUG", "raise to a year once HTTPS is settled"),
    ("DJANGO_HSTS_INCLUDE_SUBDOMAINS", "`false`", "the domain owner's decision"),
    ("DJANGO_HSTS_PRELOAD", "`false`", "the domain owner's decision"),
    (
        "DJANGO_BEHIND_PROXY",
        "`0` (`false`)",
        "how many proxies of your own stand in front (`true` is 1): then `X-Forwarded-Proto: https` is trusted"
        " and the client's address is the right-most entry of `X-Forwarded-For` they did not write themselves"
        " (core/addresses.py; never Daphne's `--proxy-headers`). Login, sign-up and socket limits count that"
        " address (P18, P51, P53)",
    ),
    (
        "ASGI_THREADS",
        "`8`",
        "threads of a Daphne process's default executor (moves, chat); counted in its database pool",
    ),
    (
        "DATABASE_POOL_HTTP",
        "`8`",
        "page requests in flight a Daphne process keeps database connections for; its pool holds"
        ' `ASGI_THREADS` + 1 + this (docs/ops.md, "Database connections")',
    ),
    (
        "DATABASE_POOL_TIMEOUT",
        "`3`",
        "seconds a request or move waits for a free pooled connection (or for PostgreSQL to answer again)"
        " before it fails",
    ),
    ("EMAIL_URL", "`consolemail://`", "e.g. `smtp+tls://user:pass@smtp.example.com:587`"),
    ("DEFAULT_FROM_EMAIL", "`Sitaratas <noreply@localhost>`", "sender of password-reset mail"),
    (
        "ACCOUNT_EMAIL_VERIFICATION",
        "`mandatory` (`none` with DEBUG)",
        "`none`, `optional` or `mandatory`; only `mandatory` keeps sign-up from telling which addresses are"
        " registered (RULING P18)",
    ),
    ("BOT_DELAY_SECONDS", "`1.0` (`0` in tests)", "a bot's natural pause before it moves"),
    (
        "BOT_STRONG_SAMPLES",
        "`200`",
        "sampled deals a strong bot weighs per move (P49): its strength, the same on a busy server as on an"
        " idle one; see docs/performance.md",
    ),
    (
        "BOT_MOVE_CPU_CAP_MS",
        "`2000`",
        "safety cap per strong-bot move, in the worker thread's own CPU time (P49); a move it stops is counted"
        " in `sitaratas_bot_capped_moves`",
    ),
    ("STARTING_COINS", "`1000`", "coins for a new account (RULING P4)"),
    ("STARTING_PASSES", "`5`", "Sitaratas game passes for a new account (P6)"),
    ("LOBBY_IDLE_HOURS", "`24`", "idle lobbies close after this (P8)"),
    ("MAX_OPEN_LOBBIES", "`3`", "tables one account may have waiting for players at once (P52)"),
    ("MAX_GAMES_IN_PLAY", "`6`", "tables one account may sit at, waiting or playing, at once; tournaments apart (P87)"),
    ("LOBBY_PAGE_SIZE", "`25`", "open tables per page of the lobby's list (P52)"),
    ("DISMISSAL_VOTE_SECONDS", "`60`", "how long a dismissal vote stays open (S12)"),
    (
        "TOURNAMENT_READY_SECONDS",
        "`60`",
        "a tournament round's players have this long to press \"I'm ready\" at their table; then it starts (P80)",
    ),
    ("SEASON_MIN_GAMES", "`10`", "finished games in a month to appear on that month's ladder (P84)"),
    ("CELERY_QUEUE", "`sitaratas`", "the Celery queue; set it (and `CHANNELS_PREFIX`) to share a Redis between sites"),
    ("CHANNELS_PREFIX", "`asgi`", "the channel layer's key prefix, to share a Redis between sites"),
    (
        "CHANNELS_SHARDS",
        "`8`",
        "connections each process publishes table updates on (the same Redis, as channels-redis shards)",
    ),
    ("SITE_NAME", "`Sitaratas`", "the site's name in pages and mails"),
    (
        "VAPID_PRIVATE_KEY",
        "empty (no Web Push)",
        "the site's VAPID private key for Web Push, base64url (`manage.py vapid_keys` makes a pair); keep it secret",
    ),
    ("VAPID_PUBLIC_KEY", "empty (no Web Push)", "the public half of that pair, base64url; browsers subscribe with it"),
    (
        "VAPID_SUBJECT",
        "`mailto:` + the address of `DEFAULT_FROM_EMAIL`",
        "how a push service can reach the site's operator (`mailto:` or `https:`)",
    ),
    (
        "PUSH_SERVICES",
        "`.googleapis.com,.push.services.mozilla.com,.notify.windows.com,.push.apple.com`",
        "hosts (a leading dot: and their subdomains) of the push services the site posts to, over https only",
    ),
    ("PUSHES_PER_HOUR", "`30`", "push notices one player's devices get in an hour at most (P75)"),
    ("PUSH_DEVICES_PER_USER", "`10`", "devices one player may have notified"),
    ("EMAILS_PER_HOUR", "`10`", "notification e-mails one player gets in an hour at most; one per table (P76)"),
    (
        "TURN_NOTICE_SECONDS",
        "`20`",
        "a turn waited this long with none of the player's sockets on the table is pushed to their devices (P74)",
    ),
    ("NOTIFICATION_DAYS", "`30`", "days a notification lives, read or not, before beat's sweep deletes it (P69)"),
    ("MAX_PAGE_SOCKETS_PER_USER", "`10`", "the bell's sockets one player may hold open on pages without a table"),
    ("FRIEND_REQUESTS_PER_HOUR", "`20`", "friend requests one account may send in an hour (P68)"),
    ("INVITES_PER_HOUR", "`30`", "table invitations one account may send in an hour (P68)"),
    (
        "SITE_URL",
        "`http://localhost:8000`",
        "the site's own address, for links in e-mails that do not answer a request (notices, unsubscribe)",
    ),
    ("LOG_LEVEL", "`INFO`", "`DEBUG`, `INFO`, `WARNING` or `ERROR`"),
    (
        "LOG_FORMAT",
        "`json` (`make run`: `text`)",
        "`json`: one JSON line per record, request, socket command and task; `text` for a terminal",
    ),
    (
        "HOST",
        "`127.0.0.1`",
        "where `make run` listens; with `DJANGO_DEBUG` on it refuses any `HOST` but a loopback address",
    ),
    ("PORT", "`8000`", "the port `make run` listens on"),
    ("METRICS_TOKEN", "empty (no endpoint)", "bearer token for Prometheus' `/metrics` (docs/ops.md)"),
    (
        "PROMETHEUS_MULTIPROC_DIR",
        "unset (`make run`: `.local/metrics`)",
        "an empty directory shared by a host's processes, so `/metrics` sums them",
    ),
    (
        "RESUME_STALLED_SECONDS",
        "`10`",
        "a bot awaited this long, or a vote past its deadline, is resumed by beat's sweep (P35)",
    ),
    ("REVIEWS_ENABLED", "`true`", "review every human's decisions once a game ends (issue 42)"),
    ("REVIEW_SAMPLES", "`200`", "sampled deals each reviewed decision is weighed on (P64; at least 8)"),
    ("HINT_SAMPLES", "`60`", "sampled deals behind a practice table's hint (P65)"),
    ("REVIEW_QUEUE_PER_USER", "`2`", "reviews queued or running at once per player; the rest wait their turn"),
    ("REVIEW_QUEUE_SITE", "`20`", "reviews queued or running at once site-wide; the rest wait their turn"),
    (
        "CELERY_REVIEW_QUEUE",
        "`<CELERY_QUEUE>.review`",
        "the reviews' own queue: only the review worker reads it (`make run` starts one with `nice -n 19`;"
        " elsewhere run `nice -n 19 celery -A config worker -Q <queue> --concurrency 1`)",
    ),
)


def markdown() -> str:
    """The configuration table docs/configuration.md holds between its markers."""
    lines = ["| variable | default | meaning |", "|---|---|---|"]
    lines += [f"| `{name}` | {default} | {meaning} |" for name, default, meaning in DOCUMENTED]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    import sys

    if sys.argv[1:] != ["--markdown"]:
        sys.exit("usage: python -m config.env --markdown")
    sys.stdout.write(markdown())
