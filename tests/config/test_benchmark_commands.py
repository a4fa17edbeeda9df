"""The site's benchmarks in docs/performance.md's "How to run them" start on a fresh clone as written.

Those that start the whole stack (load, abuse, lobby, pushes) are checked as far as a fresh
interpreter with no environment gets: they import and answer ``--help``. The render benchmark
needs no service, so it runs whole at its smallest size. (The library's own benchmarks run in
tests/games/test_benchmarks.py.)
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from config.processes import ROOT

BENCHMARKS = ROOT / "tests" / "benchmarks"


def _run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin"},  # as on a fresh clone: no settings, secret or service address
        timeout=120,
    )


@pytest.mark.parametrize("script", ["load.py", "abuse.py", "lobby.py", "pushes.py"])
def test_a_benchmark_of_the_whole_stack_imports_and_says_how_to_run_it(script: str) -> None:
    result = _run(str(BENCHMARKS / script), "--help")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith(f"usage: {script}")


def test_the_render_benchmark_runs_with_no_service_and_no_settings() -> None:
    result = _run(str(BENCHMARKS / "render.py"), "--repeat", "1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "per render" in result.stdout
