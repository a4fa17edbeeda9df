"""The backup procedure of docs/ops.md, run by its script on the test database (issue 28)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.models import Match
from tests.helpers import database_url
from tests.ops.helpers import finished_staked_game
from tests.tables.helpers import start_sitaratas_with_a_bot

# Transactional: pg_dump and the restore read committed rows.
pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
SCRIPT = Path(__file__).with_name("backup_restore.py")


def run_script() -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT)],
        env={**os.environ, "DATABASE_URL": database_url()},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_dump_restored_into_a_fresh_database_verifies_clean(host, player, outsider) -> None:
    finished_staked_game(host, player)
    start_sitaratas_with_a_bot(outsider, player)

    done = run_script()

    assert done.returncode == 0, done.stderr
    assert "restored into the fresh database" in done.stdout
    assert "verify_matches: 2 match(es)" in done.stdout and "checked: OK" in done.stdout


def test_a_restored_copy_of_a_damaged_database_fails_the_check(host, player) -> None:
    match = start_sitaratas_with_a_bot(host, player)
    Match.objects.filter(pk=match.pk).update(version=match.version + 1)

    done = run_script()

    assert done.returncode == 1
    assert f"match {match.pk}" in done.stderr and "event log ends at" in done.stderr
