"""Run only by tests/config/test_interrupt.py (its name keeps it out of the suite): a test that starts a
real Celery worker, writes the worker's pid where the outer test looks, and waits to be interrupted."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

# Transactional: another process (a Celery worker, Daphne) reads what the test writes.
pytestmark = pytest.mark.django_db(transaction=True)


def test_waits_with_a_worker_to_be_interrupted(worker) -> None:
    from config import processes

    pids = [str(process.pid) for process in processes.still_running()]
    Path(os.environ["INTERRUPT_PROBE_PIDS"]).write_text(" ".join(pids))
    time.sleep(300)
