"""The strong bots compiled by mypyc (issue 55): built from today's sources, and playing exactly
the moves their plain Python plays. How much faster is the benchmark's (tests/benchmarks/bot_speed.py)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config import compile_bots
from config.processes import ROOT
from games.bots import draw, strong_sita, tricks
from games.bots.sources import is_compiled
from tests.helpers import in_ci

BENCHMARKS = ROOT / "tests" / "benchmarks"


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(st.integers(0, 200), max_size=120), st.integers(0, 2**32))
def test_the_bots_shuffle_is_the_standard_librarys(items, seed) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    mine, standard = list(items), list(items)
    draw.shuffle(ours, mine)
    theirs.shuffle(standard)
    assert mine == standard
    assert ours.getstate() == theirs.getstate()  # the same draws: the moves after it do not change


def test_the_compiled_bots_are_built_from_todays_sources() -> None:
    if not compile_bots.extensions() and not in_ci():
        pytest.skip("the bots are not compiled here (python config/compile_bots.py builds them)")
    assert compile_bots.is_current(), "a bot source changed since the build: run python config/compile_bots.py"
    assert is_compiled(tricks) and is_compiled(strong_sita)


def _moves(sources: bool) -> dict:
    """The speed benchmark's record of one game per bot game, in a fresh interpreter."""
    first = "from games.bots.sources import prefer_sources; prefer_sources()\n" if sources else ""
    code = (
        f"import sys, json; sys.path[:0] = [{str(BENCHMARKS)!r}, {str(ROOT)!r}]\n{first}"
        "import bot_speed\n"
        "print(json.dumps({game: bot_speed.measure(game, 1, 40)['digest'] for game in bot_speed.OPTIONS}))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.slow
def test_compiled_and_plain_bots_make_the_same_moves() -> None:
    if not compile_bots.extensions() and not in_ci():
        pytest.skip("the bots are not compiled here")
    assert _moves(sources=False) == _moves(sources=True)
