"""Database connections without a health check before every use (issue 9).

Django can test a reused connection with ``SELECT 1`` before each request
(``CONN_HEALTH_CHECKS``). On the table socket that is one more round trip before every
move, and each round trip of a move's pool thread costs two hand-overs of the GIL with
the busy event loop. The site turns it off (config/settings.py) and checks after a
failure instead: a connection that died while idle (a database restart, say) fails its
next query; then it is closed and the work is done once more on a new connection.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import TypeVar

from django.db import InterfaceError, OperationalError, connection

logger = logging.getLogger(__name__)
Result = TypeVar("Result")


def retry_on_dead_connection(function: Callable[..., Result]) -> Callable[..., Result]:
    """Run ``function``; if it failed because its connection had died, once more on a new one.

    Only for work whose transactions are safe to repeat: a move that did commit before its
    connection broke is refused the second time (its version has passed), and the tasks are
    harmless when run twice. An error on a live connection (a lock timeout, say) is raised.
    """

    @functools.wraps(function)
    def call(*args, **kwargs) -> Result:
        reused = connection.connection  # the open psycopg connection this work starts on, if any
        try:
            return function(*args, **kwargs)
        except (InterfaceError, OperationalError):
            # psycopg marks a connection whose server went away as broken. A new connection that
            # fails is an outage, and any other error is the work's own: both are raised.
            if reused is None or not reused.broken:
                raise
            logger.warning("database connection lost; retrying %s on a new one", function.__qualname__)
            if connection.connection is reused:  # unless a failed transaction already replaced it
                connection.close()
            return function(*args, **kwargs)

    return call
