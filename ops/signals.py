"""Hooks that need no line in the code they watch: ledger transfers and Celery tasks (issue 28)."""

from __future__ import annotations

import time
from datetime import datetime

from celery import signals as celery_signals
from django.db.models.signals import post_save
from django.dispatch import receiver

from core import logs, metrics
from payouts.models import Transfer

_started: dict[str, float] = {}  # task id -> perf_counter at its start, in this worker process


@receiver(post_save, sender=Transfer, dispatch_uid="ops-ledger-transfers")
def _transfer_saved(sender, instance: Transfer, created: bool, **kwargs) -> None:
    if created:
        metrics.transfer_done(instance.asset, instance.reason)


@celery_signals.before_task_publish.connect(dispatch_uid="ops-task-sent")
def _task_sent(headers: dict | None = None, **kwargs) -> None:
    if headers is not None:
        headers.setdefault("sent_at", time.time())


@celery_signals.task_prerun.connect(dispatch_uid="ops-task-start")
def _task_started(task_id: str, task, **kwargs) -> None:
    _started[task_id] = time.perf_counter()
    request = task.request
    due = getattr(request, "sent_at", None)
    eta = getattr(request, "eta", None)
    if eta:  # a countdown: the task was due at its end, not when it was sent
        due = max(due or 0.0, datetime.fromisoformat(eta).timestamp() if isinstance(eta, str) else eta.timestamp())
    metrics.task_started(task.name, due)


@celery_signals.task_postrun.connect(dispatch_uid="ops-task-end")
def _task_finished(task_id: str, task, args: tuple = (), state: str | None = None, **kwargs) -> None:
    started = _started.pop(task_id, None)
    seconds = time.perf_counter() - started if started is not None else 0.0
    metrics.task_finished(task.name, seconds)
    logs.task_done(task=task.name, task_id=task_id, args=tuple(args or ()), state=state or "", seconds=seconds)
