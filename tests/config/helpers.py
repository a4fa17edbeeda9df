"""Config test helpers: Django set up in a process of its own, under an environment of the test's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def start_django(**overrides: str) -> subprocess.CompletedProcess:
    """``django.setup()`` in a new Python with ``overrides`` on top of this environment."""
    env = {**os.environ, **overrides}
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
