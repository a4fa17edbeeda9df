"""Metrics of a separate process (a real Celery worker) reach the endpoint's sum through
PROMETHEUS_MULTIPROC_DIR, and a task's lag and run time are recorded (issue 28)."""

from __future__ import annotations

import pytest
from prometheus_client import CollectorRegistry
from prometheus_client.multiprocess import MultiProcessCollector

from tables.tasks import close_idle_lobbies
from tests.helpers import wait_for
from tests.tables.helpers import idle_lobby, is_closed

# Transactional: another process (a Celery worker, Daphne) reads what the test writes.
pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def metrics_dir(tmp_path, monkeypatch):
    """Set before the worker starts: it writes its samples there (the worker fixture copies os.environ)."""
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    return tmp_path


def test_a_worker_s_task_lag_and_run_time_are_summed_from_its_files(metrics_dir, host, worker) -> None:

    def sample(name: str) -> float:
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=str(metrics_dir))
        return registry.get_sample_value(name, {"task": "tables.tasks.close_idle_lobbies"}) or 0.0

    def run_once(countdown: float) -> None:
        table = idle_lobby(host)
        close_idle_lobbies.apply_async(countdown=countdown)
        assert wait_for(lambda: is_closed(table), 30)

    # The first one waits for the worker to start: its lag is real, but not the one measured here.
    run_once(0)
    assert wait_for(lambda: sample("sitaratas_task_seconds_count") == 1.0, 10)
    lag_before = sample("sitaratas_task_lag_seconds_sum")

    run_once(1)

    assert wait_for(lambda: sample("sitaratas_task_seconds_count") == 2.0, 10)
    assert sample("sitaratas_task_lag_seconds_count") == 2.0
    # Lag runs from the countdown's end, not from the send: well under the one-second countdown.
    assert 0 <= sample("sitaratas_task_lag_seconds_sum") - lag_before < 1.0
