"""One more try for work whose connection died under it (issues 9 and 34).

A Daphne process borrows its connections from a pool that tests each one before lending it
(config/database.py), and the other processes open theirs fresh for each task or command.
A connection can still die between being lent and being used, or in the middle of the work
(a database restart, an administrator ending the backend): its next query fails, then it is
closed (a pooled one is dropped, not given back) and the work is done once more on a new one.
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
        # The connection this work runs on, taken now: with a pool, a thread holds none between
        # calls (each is given back when its call ends), and which one failed must be known.
        connection.ensure_connection()
        reused = connection.connection
        try:
            return function(*args, **kwargs)
        except (InterfaceError, OperationalError):
            # psycopg marks a connection whose server went away as broken. A new connection that
            # fails is an outage, and any other error is the work's own: both are raised.
            if not reused.broken:
                raise
            logger.warning("database connection lost; retrying %s on a new one", function.__qualname__)
            if connection.connection is reused:  # unless a failed transaction already replaced it
                connection.close()
            return function(*args, **kwargs)

    return call
