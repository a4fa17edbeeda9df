"""Daphne runs on uvloop when started through ``config.serve`` (issue 9)."""

from __future__ import annotations

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
