"""JSON logs (issue 28): one line per HTTP request, socket command and Celery task.

Standard library only: ``JsonFormatter`` writes each record as one JSON object with the
record's extra fields (``table_id``, ``match_id``, ``user_id``, ``command``, ``ms``, …).
What is logged is chosen here, never the content of a message: a request is logged by its
URL pattern (a password-reset link carries its key in the path), a socket command by its
name and ids only (a SITA choice is a hidden card until every seat has chosen), a task by
its name and integer arguments (ids and versions).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime

from django.http import HttpRequest, HttpResponse

# The attributes every LogRecord has; anything else on a record came in as ``extra``.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime", "taskName"}

request_logger = logging.getLogger("ops.request")
socket_logger = logging.getLogger("ops.socket")
task_logger = logging.getLogger("ops.task")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update((key, value) for key, value in vars(record).items() if key not in _STANDARD)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


class RequestLogMiddleware:
    """One line per HTTP request: method, URL pattern, status, time, user and the ids in the URL."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        match = request.resolver_match
        fields = {
            "method": request.method,
            "route": ("/" + match.route) if match is not None else None,
            "status": response.status_code,
            "ms": round((time.perf_counter() - started) * 1000, 2),
            "user_id": getattr(getattr(request, "user", None), "pk", None),
        }
        if match is not None:
            fields.update((key, value) for key, value in match.kwargs.items() if key in ("table_id", "match_id", "pk"))
        request_logger.info("request", extra=fields)
        return response


def socket_command(
    *,
    command: str,
    table_id: int,
    match_id: int | None,
    user_id: int,
    version: int | None,
    outcome: str,
    seconds: float,
) -> None:
    socket_logger.info(
        "socket command",
        extra={
            "command": command,
            "table_id": table_id,
            "match_id": match_id,
            "user_id": user_id,
            "version": version,
            "outcome": outcome,
            "ms": round(seconds * 1000, 2),
        },
    )


def task_done(*, task: str, task_id: str, args: tuple, state: str, seconds: float) -> None:
    task_logger.info(
        "task",
        extra={
            "task": task,
            "task_id": task_id,
            "task_args": [arg for arg in args if isinstance(arg, int)],
            "state": state,
            "ms": round(seconds * 1000, 2),
        },
    )
