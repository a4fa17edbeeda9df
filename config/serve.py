"""Daphne on uvloop: ``python -m config.serve -b HOST -p PORT config.asgi:application``.

Takes Daphne's own arguments. Daphne creates its event loop when ``daphne.server`` is first
imported, so the loop policy must be set before that: too late in ``config/asgi.py``.

Why (issue 9): Twisted runs on the asyncio loop, and with asyncio's own loop the Python
selector code ran for every socket read and write. In the load benchmark's group echo at
300 moves/s (README "Performance": the stack's own cost per move, nothing of ours), each of
two Daphne processes used 26–28% of a core on uvloop against 29–33% without, in two runs
of each.
"""

from __future__ import annotations

import asyncio
import os
import sys

import uvloop


def command(host: str, port: int, python: str = sys.executable, app: str = "config.asgi:application") -> list[str]:
    """The command line of one Daphne process serving ``app`` (the site) on ``host``:``port``."""
    return [python, "-m", "config.serve", "-b", host, "-p", str(port), app]


def install_loop_policy() -> None:
    """Every loop created from now on is uvloop's; call before ``daphne.server`` is imported."""
    if "daphne.server" in sys.modules:
        raise RuntimeError("daphne.server is already imported: its event loop exists already")
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())


def plain_autobahn_debug_formatting() -> None:
    """Autobahn pretty-prints its ~50 protocol options for a debug line on every new WebSocket,
    whether or not debug lines are written; pprint is pure Python, and under a flood of
    openings (issue 21's abuse benchmark) it was a sizeable part of each one. Its debug lines
    (and its timings' text) get the plain repr instead."""
    from autobahn.websocket import protocol

    protocol.pformat = repr  # type: ignore[assignment]  # only its first argument is ever given


def size_default_executor() -> None:
    """Daphne builds its event loop's default executor with ``ASGI_THREADS`` threads when
    ``daphne.server`` is imported; without it, with as many as the machine has cores plus four.
    The site's database pool counts those threads (config/database.py), so the number is the
    settings' own, set before that import."""
    if "daphne.server" in sys.modules:
        raise RuntimeError("daphne.server is already imported: its executor exists already")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings

    os.environ["ASGI_THREADS"] = str(settings.ASGI_THREADS)


def main() -> int:
    install_loop_policy()
    size_default_executor()
    plain_autobahn_debug_formatting()
    from daphne.cli import CommandLineInterface

    CommandLineInterface.entrypoint()
    return 0


if __name__ == "__main__":
    sys.exit(main())
