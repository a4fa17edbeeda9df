"""The benchmarks of the pure library run on a fresh clone: no settings, no database, no Redis.

Each runs at its smallest size in a fresh interpreter whose environment names no settings module
and no database. Those that use only the library (the engines, the bots, the tournaments'
pairing) also run with every import of Django and of the site's apps made to fail, so a module of
the library that reaches the site again fails here, not on the next person to measure it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from config.processes import ROOT

BENCHMARKS = ROOT / "tests" / "benchmarks"
# What the library may not import (docs/design.md: the held-out rule), nor its benchmarks.
SITE = ("django", "channels", "celery", "psycopg", "redis", "config", "core", "accounts", "payouts", "tables")
SITE += ("notifications", "social", "chat", "away", "pages", "ops")
PURE = [
    ("bots.py", "--game", "sita", "--deals", "1"),
    ("bot_speed.py", "--games", "1", "--game", "sita", "--samples", "20"),
    ("engine_sitaratas.py", "--quick"),
    ("engine_estimation.py", "--seconds", "0.1", "--bot-games", "1", "--margin-games", "1"),
    ("engine_sita.py", "--seconds", "0.1", "--matches", "1"),
    ("tournaments.py", "--players", "8", "--rounds", "1"),
]
SLOW = {"bots.py", "bot_speed.py", "engine_sitaratas.py"}  # several seconds each, even at their smallest


def _run(arguments: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin"},  # no DJANGO_SETTINGS_MODULE, DATABASE_URL, REDIS_URL or secret key
        timeout=120,
    )


def _refusing(code: str) -> list[str]:
    """``python -c`` running ``code`` with every import of the site refused."""
    guard = (
        "import runpy, sys\n"
        "class Refuse:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        f"        if name.split('.')[0] in {SITE!r}:\n"
        "            raise ImportError('not allowed: ' + name)\n"
        "sys.meta_path.insert(0, Refuse())\n"
    )
    return ["-c", guard + code]


def _as_main(script: str, *options: str) -> str:
    """The benchmark run as its own ``__main__``, as ``python tests/benchmarks/<script>`` runs it."""
    return f"sys.argv = {[script, *options]!r}\nrunpy.run_path({str(BENCHMARKS / script)!r}, run_name='__main__')\n"


@pytest.mark.parametrize(
    "command",
    [pytest.param(command, marks=[pytest.mark.slow] if command[0] in SLOW else []) for command in PURE],
    ids=[command[0] for command in PURE],
)
def test_a_benchmark_of_the_library_runs_without_django(command: tuple[str, ...]) -> None:
    result = _run(_refusing(_as_main(*command)))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip(), result.stderr  # it measured something and said so


def test_the_guard_refuses_the_site() -> None:
    # What makes the test above fail for a benchmark that reaches the site (here, through the catalogue).
    result = _run(_refusing("import games.catalog\n"))
    assert result.returncode != 0 and "not allowed: django" in result.stderr


def test_the_review_benchmark_runs_without_the_sites_settings() -> None:
    """It reads the review thresholds from the catalogue, so it configures a bare Django itself."""
    result = _run(
        [str(BENCHMARKS / "review.py"), "--games", "sita", "--samples", "8", "--points", "1", "--playouts", "1"]
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "sita {'matches': 1}" in result.stdout and "calibration on 1 points" in result.stdout


# --- what docs/performance.md's "How to run them" says, as written ---------------------------

DOCUMENTED = ROOT / "docs" / "performance.md"
# Run by tests/config/test_benchmark_commands.py: those that start the whole stack (--help), and
# the render benchmark; the review benchmark is run above.
RUN_ELSEWHERE = {"load.py", "abuse.py", "lobby.py", "pushes.py", "render.py"}
# The documented placeholders, at the smallest size (bots.py's "--game G --deals N --every K").
SMALLEST = {"G": "sita", "N": "1", "K": "1"}


def _documented() -> list[list[str]]:
    """Every command of "How to run them", as its words after ``.venv/bin/python``."""
    text = DOCUMENTED.read_text(encoding="utf-8")
    block = text.split("## How to run them", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = []
    for line in block.splitlines():
        words = line.split("#", 1)[0].split()
        if words and words[0] == ".venv/bin/python":
            commands.append(words[1:])
    return commands


def test_every_documented_benchmark_is_run_by_a_test() -> None:
    documented = {Path(command[0]).name for command in _documented()}
    assert {"bots.py", "load.py", "review.py"} <= documented  # the block was found and read
    run_here = {command[0] for command in PURE} | {"review.py"}
    assert documented <= run_here | RUN_ELSEWHERE, documented - run_here - RUN_ELSEWHERE
    assert all((BENCHMARKS / name).exists() for name in documented)


@pytest.mark.parametrize("command", _documented(), ids=lambda command: " ".join(command))
def test_each_documented_option_is_one_the_benchmark_takes(command: list[str]) -> None:
    """An option the documentation names that the script does not take fails on a fresh clone."""
    options = [word.split("=", 1)[0] for word in command[1:] if word.startswith("--")]
    if not options:
        return  # nothing to check, and engine_sitaratas.py has no --help: it would run whole
    result = _run([command[0], "--help"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert all(option in result.stdout for option in options), (options, result.stdout)


@pytest.mark.slow
def test_the_bot_benchmark_runs_as_documented_from_a_fresh_clone() -> None:
    """docs/performance.md's own line, its placeholders at their smallest, run as a script from
    the clone's root with no settings, database or Redis (issue 55: it failed with
    ImproperlyConfigured when it reached the bots through the catalogue)."""
    (command,) = [command for command in _documented() if command[0].endswith("/bots.py")]
    result = _run([SMALLEST.get(word, word) for word in command])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "FINAL sita: deals 1" in result.stdout and "ImproperlyConfigured" not in result.stderr
