"""Start, wait for and stop the site's processes: the run command's Daphne and Celery workers, and the
servers the tests and benchmarks start (browser tests, several Daphnes, fault stacks, load runs).

Standard library only: config/launch.py imports it before Django is set up.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# Every process started here that may still run: stop_all_on_termination() stops them when this
# process is told to end, so an interrupted test run leaves no server or worker behind.
_started: weakref.WeakSet[subprocess.Popen] = weakref.WeakSet()


def free_port() -> int:
    """A TCP port nothing listens on now (the kernel's choice)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def celery_worker_command(*options: str, python: str = sys.executable) -> list[str]:
    """The command line of a Celery worker of the site, with Celery's own ``options``."""
    return [str(Path(python).parent / "celery"), "-A", "config", "worker", *options]


def celery_beat_command(*options: str, python: str = sys.executable) -> list[str]:
    """The command line of the site's Celery beat on its own, with Celery's own ``options``."""
    return [str(Path(python).parent / "celery"), "-A", "config", "beat", *options]


def start(
    command: list[str],
    *,
    env: dict[str, str] | None = None,
    log: Path | None = None,
    append: bool = False,
    **popen: Any,
) -> subprocess.Popen:
    """Start ``command`` in the repository's root; its output goes to the file ``log`` if given
    (emptied first, unless ``append``: a process started again after a crash adds to its log)."""
    if log is None:
        process = subprocess.Popen(command, cwd=ROOT, env=env, **popen)
    else:
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "a" if append else "w") as output:  # the child keeps its own copy of the descriptor
            process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT, **popen)
    _started.add(process)
    return process


def wait_for_port(
    port: int, *, seconds: float = 30, process: subprocess.Popen | None = None, host: str = "127.0.0.1"
) -> None:
    """Return once something accepts connections on ``host``:``port``; RuntimeError after ``seconds``,
    or at once if ``process`` (the one meant to listen) has exited."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with socket.create_connection((host, port), timeout=0.2):
                return
        except OSError:
            if process is not None and process.poll() is not None:
                raise RuntimeError(f"the process meant to listen on {port} exited ({process.returncode})") from None
            if time.monotonic() > deadline:
                raise RuntimeError(f"nothing answers on port {port}") from None
            time.sleep(0.05)


def stop(
    processes: Iterable[subprocess.Popen | None], *, seconds: float = 10, sig: signal.Signals = signal.SIGTERM
) -> None:
    """Send ``sig`` to each process still running, all at once so they shut down side by side, wait
    up to ``seconds`` for each and kill any that is left."""
    running = [process for process in processes if process is not None]
    for process in running:
        if process.poll() is None:
            process.send_signal(sig)
    for process in running:
        try:
            process.wait(seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def still_running() -> list[subprocess.Popen]:
    """The processes started here that have not ended."""
    return [process for process in list(_started) if process.poll() is None]


def stop_all_on_termination(*, seconds: float = 3) -> None:
    """On SIGTERM (what a time limit or ``kill`` sends; SIGINT already unwinds as KeyboardInterrupt):
    stop every process this one started, killing what is left after ``seconds`` (a Celery worker
    finishing its task may ignore SIGTERM for longer), then end as SIGTERM would have. Call from the
    main thread."""
    if threading.current_thread() is not threading.main_thread():
        raise RuntimeError("signal handlers are installed from the main thread")

    def terminate(signum: int, frame: object) -> None:
        stop(still_running(), seconds=seconds)
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    signal.signal(signal.SIGTERM, terminate)
