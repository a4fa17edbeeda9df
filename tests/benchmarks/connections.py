"""What one database call costs a thread under each way of holding connections (issue 34). Not a test.

Run: ``DATABASE_URL=… REDIS_URL=… .venv/bin/python tests/benchmarks/connections.py [--calls 500]``

One call is what a socket's ``database_sync_to_async`` does: close an obsolete connection, run a
query (``SELECT 1``), close again. Measured four ways, each in passes of ``--calls`` calls, the
median pass printed in µs per call of wall time (most of it waiting for PostgreSQL):

- a persistent connection (what ``CONN_MAX_AGE`` 60 gave, and what leaked under ASGI);
- the Daphne processes' pool, checked as each connection is lent (config/database.py);
- the pool without the check (to show what the check costs: one round trip);
- a plain connection per call (Celery's workers, which connect per task).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SECRET_KEY", "connections-benchmark-only-" + "k" * 40)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import close_old_connections, connection  # noqa: E402

POOL = {"min_size": 1, "max_size": 4, "timeout": 3.0}
WAYS = {
    "persistent connection (CONN_MAX_AGE 60, before)": {"CONN_MAX_AGE": 600, "pool": None, "check": False},
    "pool, checked as lent (Daphne, now)": {"CONN_MAX_AGE": 0, "pool": POOL, "check": True},
    "pool, not checked": {"CONN_MAX_AGE": 0, "pool": POOL, "check": False},
    "plain connection per call (Celery)": {"CONN_MAX_AGE": 0, "pool": None, "check": False},
}


def call() -> None:
    close_old_connections()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    close_old_connections()


def hold_connections(way: dict) -> None:
    connection.close()
    if connection.pool is not None:
        connection.close_pool()
    database = connection.settings_dict
    options = {key: value for key, value in database["OPTIONS"].items() if key != "pool"}
    if way["pool"]:
        options["pool"] = way["pool"]
    database.update(OPTIONS=options, CONN_MAX_AGE=way["CONN_MAX_AGE"], CONN_HEALTH_CHECKS=way["check"])


def measure(calls: int, passes: int = 5) -> list[float]:
    for _ in range(50):
        call()
    figures = []
    for _ in range(passes):
        started = time.perf_counter()
        for _ in range(calls):
            call()
        figures.append((time.perf_counter() - started) / calls * 1e6)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=500)
    options = parser.parse_args()
    for name, way in WAYS.items():
        hold_connections(way)
        figures = measure(options.calls)
        passes = ", ".join(f"{figure:.0f}" for figure in figures)
        print(f"{name:50} {statistics.median(figures):6.0f} µs a call  (passes: {passes})")
    hold_connections(WAYS["plain connection per call (Celery)"])


if __name__ == "__main__":
    main()
