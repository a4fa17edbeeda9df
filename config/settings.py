"""The one settings module. Every knob comes from the environment (README, "Configuration")."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

from config.database import PoolSize, database_settings, process_of
from config.env import (
    env_bool,
    env_choice,
    env_database,
    env_email,
    env_float,
    env_int,
    env_list,
    env_proxies,
    env_redis,
    env_str,
)
from games.bots import budget

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DJANGO_DEBUG", False)
if DEBUG:
    SECRET_KEY = env_str("DJANGO_SECRET_KEY", "dev-only-insecure-key-do-not-use-in-production")
else:
    SECRET_KEY = env_str("DJANGO_SECRET_KEY")
    if len(SECRET_KEY) < 32:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be at least 32 characters long.")

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "template_partials",
    "allauth",
    "allauth.account",
    "csp",
    "accounts",
    "games",
    "tables",
    "payouts",
    "notifications",
    "social",
    "chat",
    "tournaments",
    "away",
    "pages",
    "ops",
]

MIDDLEWARE = [
    "core.logs.RequestLogMiddleware",  # first: it times the whole request (issue 28)
    "django.middleware.security.SecurityMiddleware",
    "config.hardening.RequestSanityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # Issue 26: the language from the cookie the switcher sets, else the browser's Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "core.i18n.ProfileLanguageMiddleware",  # a signed-in player's own choice wins (issue 26)
    "core.time_zones.TimeZoneMiddleware",  # and their own time zone, for every page and form (issue 53)
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.context_processors.site",
                "notifications.context_processors.bell",
                "django.template.context_processors.i18n",
            ],
        },
    },
    {
        # Only the live table fragment, rendered once per seat on every move (issue 9).
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "tables.render.templates.environment"},
    },
]

# Issue 34: who holds each connection, and how many a Daphne process may hold (config/database.py,
# docs/ops.md "Database connections"). Daphne reads ASGI_THREADS for its event loop's default
# executor, and config/serve.py sets it from here, so the pool and the executor agree.
SITE_PROCESS = process_of(sys.argv)
ASGI_THREADS = env_int("ASGI_THREADS", 8, minimum=1)
DATABASE_POOL_SIZE = PoolSize(executor_threads=ASGI_THREADS, http_requests=env_int("DATABASE_POOL_HTTP", 8, minimum=1))
DATABASES = {
    "default": database_settings(
        env_database("DATABASE_URL"),
        process=SITE_PROCESS,
        size=DATABASE_POOL_SIZE,
        timeout=env_float("DATABASE_POOL_TIMEOUT", 3.0, minimum=0.1),
    )
}

REDIS_URL = env_redis("REDIS_URL")

# Shared by every process: allauth's login and sign-up limits must hold whichever process answers.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": env_str("CHANNELS_PREFIX", "asgi"),
    },
}

CHANNEL_LAYERS: dict[str, dict[str, Any]] = {
    "default": {
        # Pub/sub: a group send is one PUBLISH, and each process reads its tables' messages as a
        # stream on one connection. The list-based layer pulled every message with two round
        # trips on one receive loop per process, and under load seats' updates queued there
        # for seconds (issue 9). Delivery is at most once, like any push here: every push is
        # the whole view, so the next one (or the resync a reconnecting page sends) heals it.
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {
            # socket_timeout None: an idle WebSocket must not be dropped by a read
            # timeout on the layer's blocking receive (the redis-py 8 trap).
            # The same Redis as several shards: the layer sends one PUBLISH at a time per shard
            # and waits for Redis to answer, and under load that wait is a turn of a busy event
            # loop, so every table's broadcast queued behind the others' (issue 9: a group send
            # waited 450 ms at p50 with one shard, at 300 moves/s offered on a 2-core machine).
            # Groups and channels hash to a shard by name, the same in every process.
            "hosts": [{"address": REDIS_URL, "socket_timeout": None}] * env_int("CHANNELS_SHARDS", 8, minimum=1),
            "prefix": env_str("CHANNELS_PREFIX", "asgi"),
        },
    },
}

CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "sitaratas")
CELERY_BEAT_SCHEDULE_FILENAME = str(BASE_DIR / ".local" / "celerybeat-schedule")
# The workers log through LOGGING below (one JSON line per task), not Celery's own set-up.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Django's database sessions, remembering where a signed-in session's key rotated to, so a table
# socket follows its own browser's session across a password change (accounts/sessions.py).
SESSION_ENGINE = "accounts.sessions"
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "lobby"
ACCOUNT_LOGOUT_REDIRECT_URL = "lobby"
ACCOUNT_ADAPTER = "accounts.adapters.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
# RULING P18: signing up must not tell who is registered. allauth can hide a taken address only by
# answering every sign-up with "check your mail" (mandatory verification); the mail to an address
# already registered says so. Development (DEBUG) keeps the instant sign-up unless set.
ACCOUNT_EMAIL_VERIFICATION = env_choice(
    "ACCOUNT_EMAIL_VERIFICATION", "none" if DEBUG else "mandatory", ("none", "optional", "mandatory")
)
ACCOUNT_PREVENT_ENUMERATION = True
# RULING P18: failed logins are counted per account *and* address (accounts/adapters.py), so one
# person guessing cannot lock everyone behind the same address out, nor lock an account for
# people elsewhere. The per-address cap on all login attempts is high, against floods only.
# Issue 34: the account is the one the login text names (its username or its e-mail address), and the
# address is the client's behind the proxy (core/addresses.py). Sign-ups from one address are
# limited too (RULING P53): 20 sign-up forms sent an hour, filled in well or not.
ACCOUNT_RATE_LIMITS = {"login_failed": "5/5m/key", "login": "100/m/ip", "signup": "20/h/ip"}
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_LOGIN_ON_PASSWORD_RESET = True

_email = env_email("EMAIL_URL", "consolemail://")
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email.get("EMAIL_HOST", "")
EMAIL_PORT = _email.get("EMAIL_PORT") or 25
EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = bool(_email.get("EMAIL_USE_TLS", False))
EMAIL_USE_SSL = bool(_email.get("EMAIL_USE_SSL", False))
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Sitaratas <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Issue 26: English is the source; Estonian and Arabic (right to left) are complete catalogues in
# locale/ (tests/config/test_catalogues.py fails on a missing or fuzzy entry).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("et", "Eesti"), ("ar", "العربية")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates per language (config/formats/): templates ask for DATE_FORMAT, DATETIME_FORMAT or TIME_FORMAT.
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / ".local" / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Production safety: on unless DEBUG; each can be switched off where a proxy does the job.
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 0 if DEBUG else 3600, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", False)
# Issue 34: how many proxies of our own stand in front (`true` is one). The client's address is then
# read from X-Forwarded-For as core/addresses.py says, for the site's limits and allauth's alike.
TRUSTED_PROXIES = env_proxies("DJANGO_BEHIND_PROXY")
ALLAUTH_TRUSTED_PROXY_COUNT = TRUSTED_PROXIES
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if TRUSTED_PROXIES else None
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# django-csp 4: no inline or injected script runs; JavaScript comes from static/js only.
# Styles may be inline (style= attributes, htmx's indicator style). 'self' covers the table
# socket (ws/wss on the same host and port) in CSP Level 3 browsers.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# One JSON line per record (issue 28: requests, socket commands, tasks); "text" for a terminal.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "core.logs.JsonFormatter"}, "text": {"format": "%(levelname)s %(name)s %(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": env_choice("LOG_FORMAT", "json", ("json", "text"))}
    },
    "root": {"handlers": ["console"], "level": env_choice("LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR"))},
}

# The Prometheus endpoint /metrics answers only ``Authorization: Bearer <METRICS_TOKEN>``;
# with no token it does not exist (issue 28).
METRICS_TOKEN = env_str("METRICS_TOKEN", "")
# Prometheus scrapes each host's Daphne over the internal network, not through the HTTPS proxy.
SECURE_REDIRECT_EXEMPT = [r"^metrics$"]

# The site's own terms (RULINGS P1, P4, P6, P8, S12: docs/rules/).
SITE_NAME = env_str("SITE_NAME", "Sitaratas")
BOT_DELAY_SECONDS = env_float("BOT_DELAY_SECONDS", 1.0)
# RULING P49: a strong bot's budget is a count of sampled deals per move, so its strength does
# not depend on the server's load; the CPU cap (the thread's own CPU time) is only a safety net.
# The site passes both to the bots (tables/botplay.py); the bots read no environment.
BOT_STRONG_SAMPLES = env_int("BOT_STRONG_SAMPLES", budget.DEFAULT_SAMPLES, minimum=1)
BOT_MOVE_CPU_CAP_MS = env_float("BOT_MOVE_CPU_CAP_MS", 1000 * budget.DEFAULT_CPU_SECONDS, minimum=1.0)
STARTING_COINS = env_int("STARTING_COINS", 1000, minimum=0)
STARTING_PASSES = env_int("STARTING_PASSES", 5, minimum=0)
LOBBY_IDLE_HOURS = env_int("LOBBY_IDLE_HOURS", 24, minimum=1)
# RULING P52: tables one account may have waiting for players at once (issue 34: one opened 22 in a second).
MAX_OPEN_LOBBIES = env_int("MAX_OPEN_LOBBIES", 3, minimum=1)
# RULING P87: tables one account may sit at, waiting or playing, at once (issue 52: ten strong-bot
# games of one account took 0.44 of a core); a tournament's tables are not counted.
MAX_GAMES_IN_PLAY = env_int("MAX_GAMES_IN_PLAY", 6, minimum=1)
# The lobby's list of open tables, this many to a page (issue 34: it listed every one, 127 rows).
LOBBY_PAGE_SIZE = env_int("LOBBY_PAGE_SIZE", 25, minimum=1)
DISMISSAL_VOTE_SECONDS = env_int("DISMISSAL_VOTE_SECONDS", 60, minimum=1)
# RULING P35: a bot awaited this long after the last move, or a vote this long past its deadline,
# was lost with its task; beat's sweep (tables/services/recovery.py) queues it again.
RESUME_STALLED_SECONDS = env_int("RESUME_STALLED_SECONDS", 10, minimum=1)
# RULINGS P80, P84: a round's window to press "I'm ready"; the games a month's ladder asks for.
TOURNAMENT_READY_SECONDS = env_int("TOURNAMENT_READY_SECONDS", 60, minimum=0)
SEASON_MIN_GAMES = env_int("SEASON_MIN_GAMES", 10, minimum=1)

# Issue 42 (RULING P64): game reviews. Their task goes to a queue of its own, which only the
# review worker reads (``make run`` starts one at the lowest CPU priority), so a review never
# delays a move or a bot; each reviewed decision is weighed on REVIEW_SAMPLES sampled deals.
CELERY_REVIEW_QUEUE = env_str("CELERY_REVIEW_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}.review")
CELERY_TASK_ROUTES = {"games.tasks.review_run": {"queue": CELERY_REVIEW_QUEUE}}
REVIEWS_ENABLED = env_bool("REVIEWS_ENABLED", True)
REVIEW_SAMPLES = env_int("REVIEW_SAMPLES", 200, minimum=8)
REVIEW_QUEUE_PER_USER = env_int("REVIEW_QUEUE_PER_USER", 2, minimum=1)
REVIEW_QUEUE_SITE = env_int("REVIEW_QUEUE_SITE", 20, minimum=1)
# RULING P65: a practice table's hint, weighed on the asking socket's request.
HINT_SAMPLES = env_int("HINT_SAMPLES", 60, minimum=1)

# Issue 40: Web Push (RULINGS P74, P75). The VAPID pair comes from ``manage.py vapid_keys``; without
# it no device is offered notices. The site posts only to the push services named here (https),
# so a player cannot make it post anywhere else; the tests add their own local service.
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = env_str("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = env_str("VAPID_SUBJECT", "mailto:" + DEFAULT_FROM_EMAIL.rsplit("<", 1)[-1].rstrip(">").strip())
PUSH_SERVICES = env_list(
    "PUSH_SERVICES",
    [".googleapis.com", ".push.services.mozilla.com", ".notify.windows.com", ".push.apple.com"],
)
PUSH_EXTRA_ORIGINS: list[str] = []
PUSHES_PER_HOUR = env_int("PUSHES_PER_HOUR", 30, minimum=1)
PUSH_DEVICES_PER_USER = env_int("PUSH_DEVICES_PER_USER", 10, minimum=1)
# RULING P76: notification e-mails one player gets in an hour at most (and one per table).
EMAILS_PER_HOUR = env_int("EMAILS_PER_HOUR", 10, minimum=1)
# RULING P74: a turn waited this long with none of the player's sockets on the table is pushed.
TURN_NOTICE_SECONDS = env_int("TURN_NOTICE_SECONDS", 20, minimum=1)
# RULING P69: a notification lives this many days, read or not; beat's sweep deletes it then.
NOTIFICATION_DAYS = env_int("NOTIFICATION_DAYS", 30, minimum=1)
# The bell's own socket on pages without a table socket, counted apart from RULING P16's caps.
MAX_PAGE_SOCKETS_PER_USER = env_int("MAX_PAGE_SOCKETS_PER_USER", 10, minimum=1)
# RULING P68: friend requests and table invitations one account may send in an hour.
FRIEND_REQUESTS_PER_HOUR = env_int("FRIEND_REQUESTS_PER_HOUR", 20, minimum=1)
INVITES_PER_HOUR = env_int("INVITES_PER_HOUR", 30, minimum=1)
# The site's own address, for the links in e-mails that are not answers to a request.
SITE_URL = env_str("SITE_URL", "http://localhost:8000")

CELERY_BEAT_SCHEDULE = {
    # RULING P69: notifications past their time are deleted (twice is once).
    "expire-notifications": {"task": "notifications.tasks.notifications_expire", "schedule": 3600.0},
    "close-idle-lobbies": {"task": "tables.tasks.close_idle_lobbies", "schedule": 600.0},
    # The turn clock's safety net: deadlines that passed while no worker ran (issue 19).
    "sweep-turn-clocks": {"task": "tables.tasks.clocks_sweep", "schedule": 15.0},
    "resume-stalled-work": {"task": "tables.tasks.resume_stalled_work", "schedule": float(RESUME_STALLED_SECONDS)},
    # Issue 28: replay the last day's games and check the ledgers; the result goes to the log.
    "verify-matches-nightly": {"task": "ops.tasks.verify_matches_nightly", "schedule": crontab(hour=3, minute=30)},
    # Reviews waiting behind the limits, or whose task the broker lost, are sent again.
    "dispatch-reviews": {"task": "games.tasks.reviews_dispatch", "schedule": 60.0},
    # RULINGS P80, P82, P84: tournaments start, rounds that ended are noticed, seasons are frozen.
    "sweep-tournaments": {"task": "tournaments.tasks.tournaments_sweep", "schedule": 30.0},
    "freeze-seasons": {"task": "tournaments.tasks.seasons_freeze", "schedule": crontab(minute=5)},
}
