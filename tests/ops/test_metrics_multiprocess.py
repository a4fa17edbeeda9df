"""Metrics of a separate process (a real Celery worker) reach the endpoint's sum through
PROMETHEUS_MULTIPROC_DIR, and a task's lag and run time are recorded (issue 28)."""

from __future__ import annotations

import os

import pytest
import redis
from django.conf import settings
from prometheus_client import CollectorRegistry
from prometheus_client.multiprocess import MultiProcessCollector

from tests.helpers import wait_for

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def metrics_dir(tmp_path, monkeypatch):
    """Set before the worker starts: it writes its samples there (the worker fixture copies os.environ)."""
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    return tmp_path


def test_a_worker_s_task_lag_and_run_time_are_summed_from_its_files(metrics_dir, worker) -> None:  # noqa: F811
    from config.celery import ping

    client = redis.Redis.from_url(settings.REDIS_URL)

    def sample(name: str) -> float:
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=str(metrics_dir))
        return registry.get_sample_value(name, {"task": "config.celery.ping"}) or 0.0

    def ping_once(key: str, countdown: float) -> None:
        client.delete(key)
        ping.apply_async((key,), countdown=countdown)
        assert wait_for(lambda: client.get(key) == b"pong", 30)

    # The first one waits for the worker to start: its lag is real, but not the one measured here.
    ping_once(f"test-metrics-warm-{os.getpid()}", 0)
    assert wait_for(lambda: sample("sitaratas_task_seconds_count") == 1.0, 10)
    lag_before = sample("sitaratas_task_lag_seconds_sum")

    ping_once(f"test-metrics-ping-{os.getpid()}", 1)

    assert wait_for(lambda: sample("sitaratas_task_seconds_count") == 2.0, 10)
    assert sample("sitaratas_task_lag_seconds_count") == 2.0
    # Lag runs from the countdown's end, not from the send: well under the one-second countdown.
    assert 0 <= sample("sitaratas_task_lag_seconds_sum") - lag_before < 1.0
