"""Each process names its connections, and only Daphne's are pooled (config/database.py, issue 34)."""

from __future__ import annotations

import socket

from django.conf import settings

from config.database import PoolSize, Process, database_settings, process_of

URL = {"ENGINE": "django.db.backends.postgresql", "NAME": "sitaratas", "HOST": "db", "PORT": 5432}
SIZE = PoolSize(executor_threads=8, http_requests=8)


def test_each_process_is_named_for_pg_stat_activity() -> None:
    assert process_of(["/srv/config/serve.py", "-b", "0.0.0.0", "-p", "8001", "config.asgi:application"]) == Process(
        "daphne", "daphne:8001"
    )
    assert process_of(["/venv/bin/daphne", "--port=8002", "config.asgi:application"]).name == "daphne:8002"
    host = socket.gethostname()
    worker = process_of(["/venv/bin/celery", "-A", "config", "worker", "-n", "worker0@%h"])
    assert worker.name == f"celery:worker0@{host}"[:63]
    assert process_of(["/venv/bin/celery", "-A", "config", "beat"]).name == "celery:beat"
    assert process_of(["manage.py", "migrate", "--noinput"]).name == "manage:migrate"
    assert process_of(["/venv/lib/pytest/__main__.py", "tests"]).name == "pytest"
    assert process_of(["-c"]).name == "python"


def test_a_daphne_process_borrows_from_a_pool_sized_by_its_threads() -> None:
    database = database_settings(URL, process=Process("daphne", "daphne:8001"), size=SIZE, timeout=5.0)

    # The default executor, Channels' database thread, and the page requests in flight.
    assert database["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 17, "timeout": 5.0, "name": "daphne:8001"}
    assert database["OPTIONS"]["application_name"] == "daphne:8001"
    assert database["CONN_MAX_AGE"] == 0  # Django's pool refuses anything else
    # Django passes ConnectionPool.check_connection to a pool when health checks are on.
    assert database["CONN_HEALTH_CHECKS"] is True


def test_a_celery_worker_connects_plainly_and_keeps_nothing() -> None:
    database = database_settings(URL, process=Process("celery", "celery:w@h"), size=SIZE, timeout=5.0)

    assert "pool" not in database["OPTIONS"]
    assert database["OPTIONS"]["application_name"] == "celery:w@h"
    assert database["CONN_MAX_AGE"] == 0


def test_no_setting_keeps_connections_open_any_more() -> None:
    assert settings.DATABASES["default"]["CONN_MAX_AGE"] == 0
    assert not hasattr(settings, "DATABASE_CONN_MAX_AGE")
