"""One migrated test database per run, copied for each xdist worker.

Migrating a database costs seconds of CPU (every app's migrations, the ledger's triggers); with
each worker migrating its own, four workers on two cores made the first test wait minutes. Here
the first worker to arrive takes a PostgreSQL advisory lock, migrates a template database and
marks it with the run's id; every worker then copies the template under the same lock
(``CREATE DATABASE … TEMPLATE``, a file copy of a fraction of a second). The controller drops the
template when the run ends. A template left behind by a killed run carries another run's id, so
the next run builds its own instead of trusting a schema it did not migrate.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg import sql

RUN_ID = "TEST_TEMPLATE_RUN"  # the environment variable that hands the run's id to its workers


def new_run_id() -> str:
    return uuid.uuid4().hex


def worker_id() -> str | None:
    return os.environ.get("PYTEST_XDIST_WORKER")


def template_name(settings_dict: dict[str, Any]) -> str:
    """``test_<name>_template``: the test database's name before pytest-django gave it the
    worker's suffix."""
    name = (settings_dict.get("TEST") or {}).get("NAME") or f"test_{settings_dict['NAME']}"
    worker = worker_id()
    if worker and name.endswith(f"_{worker}"):
        name = name.removesuffix(f"_{worker}")
    return f"{name}_template"


@contextmanager
def maintenance(settings_dict: dict[str, Any]) -> Iterator[psycopg.Connection]:
    """A connection to the server's ``postgres`` database, outside any database it copies."""
    with psycopg.connect(
        dbname="postgres",
        host=settings_dict.get("HOST") or None,
        port=settings_dict.get("PORT") or None,
        user=settings_dict.get("USER") or None,
        password=settings_dict.get("PASSWORD") or None,
        autocommit=True,
    ) as admin:
        yield admin


@contextmanager
def locked(admin: psycopg.Connection, name: str) -> Iterator[None]:
    """A session advisory lock: released with the connection if this process dies holding it."""
    admin.execute("SELECT pg_advisory_lock(hashtext(%s))", [name])
    try:
        yield
    finally:
        admin.execute("SELECT pg_advisory_unlock(hashtext(%s))", [name])


def marked_run(admin: psycopg.Connection, name: str) -> str | None:
    row = admin.execute(
        "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s", [name]
    ).fetchone()
    return row[0] if row else None


def drop(admin: psycopg.Connection, name: str) -> None:
    admin.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))


def build_template(connection, name: str, run_id: str, verbosity: int) -> None:
    """Migrate a database called ``name`` as Django makes a test database, then leave it."""
    test_settings = connection.settings_dict.setdefault("TEST", {})
    own_name = test_settings.get("NAME")
    test_settings["NAME"] = name
    try:
        connection.creation.create_test_db(verbosity=verbosity, autoclobber=True, serialize=False)
    finally:
        test_settings["NAME"] = own_name
        # A copy needs its template free of sessions: this one's, and a pool's if it keeps any.
        connection.close()
        if hasattr(connection, "close_pool"):
            connection.close_pool()
    with maintenance(connection.settings_dict) as admin:
        admin.execute(sql.SQL("COMMENT ON DATABASE {} IS {}").format(sql.Identifier(name), sql.Literal(run_id)))


def clone_for_worker(connection, run_id: str, verbosity: int) -> tuple[Any, str, bool]:
    """This worker's own test database, copied from the run's template (migrated first if no
    worker has yet); returns the entry ``django.test.utils.teardown_databases`` expects."""
    from django.conf import settings

    old_name = connection.settings_dict["NAME"]
    target = connection.settings_dict["TEST"]["NAME"]  # pytest-django gave it the worker's suffix
    template = template_name(connection.settings_dict)
    with maintenance(connection.settings_dict) as admin, locked(admin, template):
        if marked_run(admin, template) != run_id:
            drop(admin, template)
            build_template(connection, template, run_id, verbosity)
        drop(admin, target)
        admin.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(sql.Identifier(target), sql.Identifier(template))
        )
    connection.close()
    settings.DATABASES[connection.alias]["NAME"] = target
    connection.settings_dict["NAME"] = target
    return connection, old_name, True


def drop_worker_copy(connection, old_name: str) -> None:
    """At a worker's end: its copy, by force. A server or worker a test started (a browser test's
    Daphne, a fault test's Celery) may hold a session for a moment after it was stopped, and
    Django's own drop would then fail the run's last test with "being accessed by other users"."""
    from django.conf import settings

    target = connection.settings_dict["NAME"]
    connection.close()
    if hasattr(connection, "close_pool"):
        connection.close_pool()
    with maintenance(connection.settings_dict) as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(target)))
    settings.DATABASES[connection.alias]["NAME"] = old_name
    connection.settings_dict["NAME"] = old_name


def drop_template(settings_dict: dict[str, Any], run_id: str) -> None:
    """At the run's end (the controller, after every worker is done): this run's template only."""
    template = template_name(settings_dict)
    with maintenance(settings_dict) as admin, locked(admin, template):
        if marked_run(admin, template) == run_id:
            drop(admin, template)
