"""Fixtures of the tables' tests."""

from __future__ import annotations

import pytest


class QueuedTasks(list):
    """The tables' Celery tasks queued after commit, in order: ``(task name, args, countdown)``."""

    def args(self, task: str) -> list[tuple]:
        return [args for name, args, _ in self if name == task]

    def calls(self, task: str) -> list[tuple]:
        """Each call's arguments followed by its countdown."""
        return [(*args, countdown) for name, args, countdown in self if name == task]


@pytest.fixture
def queued(monkeypatch) -> QueuedTasks:
    """Bots' moves, vote and clock expiries, quick play's bot fills and turn notices' checks
    recorded instead of sent to the broker, as if lost (the tests with a real worker send them)."""
    from tables import tasks

    recorded = QueuedTasks()
    for name in ("bots_move", "vote_expire", "clock_expire", "quick_bots_fill", "turn_notices_check"):

        def record(args, countdown=None, _name=name, **options) -> None:
            recorded.append((_name, tuple(args), countdown))

        monkeypatch.setattr(getattr(tasks, name), "apply_async", record)
    return recorded
