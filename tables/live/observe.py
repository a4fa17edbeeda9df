"""The few calls the socket makes per command (issue 28): its metrics and its log line, in one place."""

from __future__ import annotations

import time
from typing import Any

from django.utils import translation

from core import logs, metrics


def command_done(consumer: Any, message: Any, started: float, *, refused: object = None) -> None:
    """A table socket's command finished (``refused`` is the message a refused one got)."""
    seconds = time.perf_counter() - started
    if message.command == "act":
        if refused is None:
            metrics.move_timed(consumer.snapshot.game, seconds)
        else:
            with translation.override("en"):  # the message may be lazy: sorted by its English words
                metrics.move_failed(str(refused))
    logs.socket_command(
        command=message.command,
        table_id=consumer.table_id,
        match_id=consumer.snapshot.match_id,
        user_id=consumer.user.pk,
        version=getattr(message, "version", None),
        outcome="refused" if refused is not None else "ok",
        seconds=seconds,
    )
