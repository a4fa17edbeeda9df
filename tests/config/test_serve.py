"""Daphne runs on uvloop when started through ``config.serve`` (issue 9), with the executor threads
its database pool is sized for (issue 34)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

LOOP_OF_DAPHNE = """
from config.serve import install_loop_policy
install_loop_policy()
import daphne.server
from twisted.internet import reactor
print(type(daphne.server.twisted_loop).__module__, reactor._asyncioEventloop is daphne.server.twisted_loop)
"""

TOO_LATE = """
import daphne.server
from config.serve import install_loop_policy
install_loop_policy()
"""


def run_python(code: str) -> subprocess.CompletedProcess:
    # A process of its own: this one may have imported daphne.server already.
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_daphne_and_its_twisted_reactor_run_on_the_uvloop_loop() -> None:
    result = run_python(LOOP_OF_DAPHNE)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["uvloop", "True"]


def test_setting_the_policy_after_daphne_made_its_loop_is_refused_not_ignored() -> None:
    result = run_python(TOO_LATE)
    assert result.returncode != 0
    assert "already imported" in result.stderr


EXECUTOR_OF_DAPHNE = """
from config.serve import install_loop_policy, size_default_executor
install_loop_policy()
size_default_executor()
import daphne.server, threading, time

def busy():
    time.sleep(0.3)
    return threading.get_ident()

async def main():
    loop = daphne.server.twisted_loop
    threads = await asyncio.gather(*(loop.run_in_executor(None, busy) for _ in range(20)))
    print(len(set(threads)))

import asyncio
daphne.server.twisted_loop.run_until_complete(main())
"""


def test_daphne_s_default_executor_has_the_threads_its_database_pool_counts() -> None:
    # Issue 34: the pool is sized by these threads (config/database.py); Daphne's own default
    # would be the machine's cores plus four.
    environment = {key: value for key, value in os.environ.items() if key != "ASGI_THREADS"}
    command = [sys.executable, "-c", EXECUTOR_OF_DAPHNE]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60, env=environment)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["8"]
