"""An interrupted test command (SIGTERM to its process group, as a CI time limit sends) stops every
process it started within seconds: pytest and its workers, the Celery workers and servers its tests
started, the embedded servers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from django.db import connection

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def _processes_with(marker: str) -> list[int]:
    """Pids of live processes whose environment holds ``marker`` (every child inherits it)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if (
                marker.encode() in (entry / "environ").read_bytes()
                and "Z" not in (entry / "stat").read_text().split()[2]
            ):
                found.append(int(entry.name))
        except OSError:
            continue  # ended meanwhile, or not ours to read
    return found


def _wait_for(path: Path, seconds: float) -> str:
    deadline = time.monotonic() + seconds
    while not (path.exists() and path.read_text()):
        assert time.monotonic() < deadline, f"the probe never started ({path})"
        time.sleep(0.2)
    return path.read_text()


def test_sigterm_to_the_test_command_stops_everything_it_started(tmp_path: Path, db) -> None:
    settings = connection.settings_dict
    name = f"interrupt_probe_{os.getpid()}"
    pids_file = tmp_path / "pids"
    marker = f"INTERRUPT_PROBE_PIDS={pids_file}"
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{settings['USER'] or 'postgres'}@{settings['HOST']}:{settings['PORT']}/{name}",
        "CHANNELS_PREFIX": name,
        "CELERY_QUEUE": name,
        "INTERRUPT_PROBE_PIDS": str(pids_file),
    }
    env.pop("PYTEST_XDIST_WORKER", None)
    command = [sys.executable, "config/launch.py", "test", "tests/config/interrupt_probe.py", "-n", "1"]
    launcher = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True, stdout=subprocess.DEVNULL)
    try:
        worker_pids = [int(pid) for pid in _wait_for(pids_file, seconds=180).split()]
        assert worker_pids, "the probe started no worker"
        os.killpg(launcher.pid, signal.SIGTERM)
        launcher.wait(timeout=30)
        assert _processes_with(marker) == []
    finally:
        if launcher.poll() is None:
            os.killpg(launcher.pid, signal.SIGKILL)
        for pid in _processes_with(marker):
            os.kill(pid, signal.SIGKILL)
        with psycopg.connect(
            host=settings["HOST"],
            port=settings["PORT"],
            user=settings["USER"] or "postgres",
            dbname="postgres",
            autocommit=True,
        ) as admin:
            for (database,) in admin.execute("SELECT datname FROM pg_database WHERE datname LIKE %s", [f"%{name}%"]):
                admin.execute(f'DROP DATABASE "{database}" WITH (FORCE)')
