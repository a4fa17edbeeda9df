"""How each process holds its database connections (docs/ops.md, "Database connections").

Issue 34: under ASGI every HTTP request runs on a thread of its own (asgiref gives each request
its own executor), and with ``CONN_MAX_AGE`` above 0 that thread's connection outlived the
request, open until a garbage collection freed the thread's storage: 25 page loads, 25 more
connections, until PostgreSQL refused clients. A Daphne process now borrows every connection
from one pool of a fixed size and gives it back when the request, or the socket's database
call, is done (``CONN_MAX_AGE`` 0, which Django's pool requires).

The pool is sized by the threads that can hold a connection at once: the event loop's default
executor (``ASGI_THREADS``, which Daphne reads to build it: moves, chat and session checks run
there), Channels' one thread for ``database_sync_to_async`` (the socket's snapshot loads, its
login), and the HTTP requests in flight. A thread that finds the pool empty waits up to the
pool's timeout, then fails (a 500 for a page, a "not saved" for a move) instead of opening one
more. The pool checks a connection before lending it, so one that died with a PostgreSQL
restart is replaced, not handed to a move.

Celery's workers close every connection before and after each task (its Django fix-up; with a
pool under prefork it closes the pool too), so a pool there would be rebuilt per task: they
connect plainly, one connection per worker process at most.

Every connection names its process (``application_name``), so ``pg_stat_activity`` shows who
holds what: ``daphne:8001``, ``celery:worker0@host``, ``manage:migrate``.

Standard library only: config/settings.py reads it before Django is set up.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from pathlib import Path

# PostgreSQL keeps the first 63 bytes of an application_name (NAMEDATALEN - 1).
NAME_LIMIT = 63


@dataclass(frozen=True)
class Process:
    kind: str  # "daphne", "celery", "manage" or the program's own name
    name: str  # what pg_stat_activity shows in application_name

    @property
    def pooled(self) -> bool:
        return self.kind == "daphne"


def _option(argv: list[str], *flags: str) -> str | None:
    """The value of the first of ``flags`` in ``argv`` (``-p 8001``, ``--port=8001``), if any."""
    for index, arg in enumerate(argv):
        for flag in flags:
            if arg == flag and index + 1 < len(argv):
                return argv[index + 1]
            if flag.startswith("--") and arg.startswith(f"{flag}="):
                return arg.split("=", 1)[1]
    return None


def process_of(argv: list[str]) -> Process:
    """Which of the site's processes runs with this command line.

    Daphne is ``python -m config.serve …`` (or ``daphne …``): named by its port. A Celery worker
    is named by its node name (``-n``, with Celery's ``%h`` for the host name), beat as such.
    """
    program = Path(argv[0]).name if argv else ""
    parent = Path(argv[0]).parent.name if argv else ""
    if program == "daphne" or (program in {"serve.py", "__main__.py"} and parent == "config"):
        port = _option(argv[1:], "-p", "--port")
        return Process("daphne", f"daphne:{port}" if port else f"daphne:pid{os.getpid()}")
    if program == "celery" or (program == "__main__.py" and parent == "celery"):
        if "beat" in argv[1:] and "worker" not in argv[1:]:
            return Process("celery", "celery:beat")
        node = _option(argv[1:], "-n", "--hostname") or "celery@%h"
        node = node.replace("%h", socket.gethostname()).replace("%n", node.split("@", 1)[0])
        return Process("celery", f"celery:{node}"[:NAME_LIMIT])
    if program == "manage.py":
        command = argv[1] if len(argv) > 1 else "help"
        return Process("manage", f"manage:{command}"[:NAME_LIMIT])
    if program == "__main__.py":  # python -m <package>
        program = parent
    if not program or program.startswith("-"):  # python -c, an interactive interpreter
        program = "python"
    return Process(program, program[:NAME_LIMIT])


@dataclass(frozen=True)
class PoolSize:
    """The threads of one Daphne process that can hold a connection at the same time."""

    executor_threads: int  # ASGI_THREADS: the event loop's default executor
    http_requests: int  # page requests in flight, each on a thread of its own
    channels_threads: int = 1  # Channels' database_sync_to_async, thread-sensitive: one thread

    @property
    def connections(self) -> int:
        return self.executor_threads + self.channels_threads + self.http_requests


def database_settings(url_config: dict, *, process: Process, size: PoolSize, timeout: float) -> dict:
    """Django's ``DATABASES["default"]`` for ``process``, from the parsed ``DATABASE_URL``."""
    database = dict(url_config)
    options = dict(database.get("OPTIONS") or {})
    options["application_name"] = process.name
    # Every connection is given back (or closed) when its request or call ends: never kept by a
    # thread that may die holding it.
    database["CONN_MAX_AGE"] = 0
    if process.pooled:
        options["pool"] = {
            # One connection ready for the first request; the rest are opened as threads ask,
            # and closed again after ten idle minutes (psycopg's max_idle).
            "min_size": 1,
            "max_size": size.connections,
            "timeout": timeout,
            "name": process.name,
        }
        # With a pool, Django passes ConnectionPool.check_connection as the pool's check: a
        # connection is tested (one empty query) each time it is lent, and a dead one is
        # dropped and another taken. Without one (Celery, manage.py), each task or command
        # opens its connection fresh, and the work that may meet one dying in use retries
        # once (core/connections.py).
        database["CONN_HEALTH_CHECKS"] = True
    else:
        database["CONN_HEALTH_CHECKS"] = False
    database["OPTIONS"] = options
    return database
