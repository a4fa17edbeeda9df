"""The Celery app: broker on Redis, tasks found in each app's ``tasks`` module."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(ignore_result=True)
def ping(key: str) -> None:
    """Proves a worker is alive: writes "pong" under ``key`` in Redis (used by the tests)."""
    import redis
    from django.conf import settings

    redis.Redis.from_url(settings.REDIS_URL).set(key, "pong", ex=60)
