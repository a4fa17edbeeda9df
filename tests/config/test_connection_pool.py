"""The site's processes hold no more database connections than their pools allow (issue 34).

Before the pool, every signed-in page load left its request thread's connection open
(``CONN_MAX_AGE`` 60 under ASGI) until a garbage collection: 25 page loads, 25 more
connections. These start a real Daphne and a real Celery worker on the test database, drive
page loads, table sockets and tasks at them, and read ``pg_stat_activity`` by
``application_name``, which names each process (config/database.py).
"""

from __future__ import annotations

import asyncio
import os
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import websockets
from django.db import connection

from config import processes, serve
from tests.conftest import make_user
from tests.helpers import database_url, session_key_for
from tests.tables.helpers import open_table

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "test-artifacts" / "logs"
EXECUTOR_THREADS, HTTP_REQUESTS = 3, 3
POOL_SIZE = EXECUTOR_THREADS + 1 + HTTP_REQUESTS  # config/database.py PoolSize
WORKER_CONCURRENCY = 2

# Transactional: another process (a Celery worker, Daphne) reads what the test writes.
pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def site():
    """One Daphne and one prefork Celery worker of the site, on the test database."""
    port, node = processes.free_port(), f"pool{os.getpid()}"
    queue = f"pool-{os.getpid()}"
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "DJANGO_DEBUG": "true",  # static files from the finders
        "DJANGO_SETTINGS_MODULE": "tests.site_settings",
        "CHANNELS_PREFIX": f"pool{os.getpid()}",
        "CELERY_QUEUE": queue,
        "ASGI_THREADS": str(EXECUTOR_THREADS),
        "DATABASE_POOL_HTTP": str(HTTP_REQUESTS),
        # This counts connections, not waits: 12 loads at once share 7, and on a busy machine one
        # can wait longer than the production 3 s for its turn (a 500 that says nothing of leaks).
        "DATABASE_POOL_TIMEOUT": "60",
    }
    daphne = processes.start(serve.command("127.0.0.1", port), env=env, log=LOGS / "pool-daphne.log")
    worker = processes.start(
        processes.celery_worker_command(
            "--concurrency", str(WORKER_CONCURRENCY), "-n", f"{node}@%h", "-Q", queue, "--loglevel", "WARNING"
        ),
        env=env,
        log=LOGS / "pool-worker.log",
    )
    try:
        processes.wait_for_port(port, process=daphne, seconds=120)
        yield port, queue
    finally:
        processes.stop([daphne, worker], seconds=20)


def held_connections() -> dict[str, int]:
    """Connections to the test database now, by the process that holds them."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT application_name, count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid() GROUP BY application_name"
        )
        return dict(cursor.fetchall())


def of(prefix: str, held: dict[str, int]) -> int:
    """Connections of this test's own processes only: a browser test's site, started once for the
    xdist worker, uses the same test database under names of the same kind."""
    return sum(count for name, count in held.items() if name.startswith(prefix))


def load_pages(port: int, sessions: list[str], paths: list[str], count: int) -> None:
    """``count`` signed-in page loads, 12 at a time, each session in turn."""

    def load(index: int) -> None:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}{paths[index % len(paths)]}",
            headers={"Cookie": f"sessionid={sessions[index % len(sessions)]}"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.status == 200
            assert b'action="/accounts/logout/"' in response.read()  # signed in

    with ThreadPoolExecutor(12) as pool:
        list(pool.map(load, range(count)))


async def hold_sockets(port: int, table_id: int, sessions: list[str]) -> None:
    """A socket per session on the table, each shown the table, then its chat panel asked for."""
    url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}/"

    async def one(session: str):
        socket = await websockets.connect(
            url, origin=f"http://127.0.0.1:{port}", additional_headers={"Cookie": f"sessionid={session}"}
        )
        await asyncio.wait_for(socket.recv(), 20)  # the whole view, read from the database
        return socket

    # Opened six at a time, all held together: Daphne drops a handshake its application has not
    # accepted within 5 s, and 24 at once through 3 threads can take that long on a busy machine.
    sockets = []
    for start in range(0, len(sessions), 6):
        sockets += await asyncio.gather(*(one(session) for session in sessions[start : start + 6]))
    try:
        await asyncio.gather(*(socket.send('{"command": "chat_sync"}') for socket in sockets))
        await asyncio.gather(*(asyncio.wait_for(socket.recv(), 20) for socket in sockets))
    finally:
        await asyncio.gather(*(socket.close() for socket in sockets))


def test_each_process_holds_at_most_its_pool_and_more_requests_add_none(site) -> None:
    port, queue = site
    users = [make_user(f"pool{index}") for index in range(6)]
    sessions = [session_key_for(user) for user in users]
    table = open_table(users[0], "sita", seat_count=6)
    paths = ["/", f"/tables/{table.pk}/", "/history/"]

    load_pages(port, sessions, paths, 40)
    after_some = held_connections()
    load_pages(port, sessions, paths, 200)
    asyncio.run(hold_sockets(port, table.pk, sessions * 4))
    from config.celery import app

    for _ in range(40):
        app.send_task("tables.tasks.close_idle_lobbies", queue=queue)
    load_pages(port, sessions, paths, 40)
    after_many = held_connections()

    print(f"connections after 40 page loads {after_some}; after 280, 24 sockets and 40 tasks {after_many}")
    daphne, worker = f"daphne:{port}", f"celery:pool{os.getpid()}@"
    assert 1 <= of(daphne, after_some) <= POOL_SIZE
    # The old code's request threads each kept one: 280 page loads would hold hundreds.
    assert 1 <= of(daphne, after_many) <= POOL_SIZE
    assert of(worker, after_many) <= WORKER_CONCURRENCY
