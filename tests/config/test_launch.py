"""``make run`` with DEBUG on listens only on a loopback address (issue 34)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config import launch

ROOT = Path(__file__).resolve().parents[2]


def run_command(**env: str) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if key not in ("DJANGO_DEBUG", "HOST")}
    return subprocess.run(
        [sys.executable, str(ROOT / "config" / "launch.py"), "run"],
        cwd=ROOT,
        env={**environment, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_run_with_debug_on_refuses_to_listen_on_every_address_and_starts_nothing(monkeypatch) -> None:
    started = []
    monkeypatch.setattr(launch, "Services", lambda: started.append("services"))
    monkeypatch.setattr(launch, "manage", lambda *args: started.append(args))
    monkeypatch.setenv("HOST", "0.0.0.0")
    monkeypatch.delenv("DJANGO_DEBUG", raising=False)  # run's own default: on

    assert launch.run_site() == 2
    assert started == []


def test_the_run_command_says_why_and_exits_non_zero() -> None:
    result = run_command(HOST="0.0.0.0")

    assert result.returncode == 2
    assert "DJANGO_DEBUG" in result.stderr
    assert "HOST=0.0.0.0" in result.stderr
    assert "The site is at" not in result.stderr


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"])
def test_loopback_addresses_are_fine_with_debug_on(monkeypatch, host) -> None:
    monkeypatch.setenv("DJANGO_DEBUG", "true")
    assert launch.debug_listening_refusal(host) is None


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "cards.example.com"])
def test_other_addresses_are_refused_with_debug_on(monkeypatch, host) -> None:
    monkeypatch.setenv("DJANGO_DEBUG", "true")
    assert "DJANGO_DEBUG" in launch.debug_listening_refusal(host)


def test_any_address_is_fine_with_debug_off(monkeypatch) -> None:
    monkeypatch.setenv("DJANGO_DEBUG", "false")
    assert launch.debug_listening_refusal("0.0.0.0") is None


def test_the_review_worker_reads_only_the_review_queue_at_the_lowest_priority(monkeypatch) -> None:
    monkeypatch.setenv("CELERY_QUEUE", "site")
    monkeypatch.delenv("CELERY_REVIEW_QUEUE", raising=False)
    command = launch.review_worker_command()
    assert command[:3] == ["nice", "-n", "19"]
    assert command[command.index("-Q") + 1] == "site.review"
    assert command[command.index("--concurrency") + 1] == "1"
