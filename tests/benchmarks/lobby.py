"""What a lobby poll costs (issue 34, finding 8): every viewer re-fetches the list every 4 s.

    .venv/bin/python tests/benchmarks/lobby.py             # 127 open tables, as the issue found
    .venv/bin/python tests/benchmarks/lobby.py --tables 500

On a fresh database beside the site's (as the load benchmark makes it), opens ``--tables``
lobbies (a host each), then times the list's fragment through the real view (Django's test
client, DEBUG off, a signed-in viewer) three ways: every row rendered (the list before paging),
one page rendered (the first poll after the shared fragment expired), and one page shared (every
other poll: the session and the user are read, nothing of the list). A push on change would
instead render the page once per change per process and send it to every lobby viewer's socket:
the rendered page's time the number of changes a second, plus a send per viewer and change.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402
from load import BIN, ROOT, log  # noqa: E402


def timed(call, times: int) -> tuple[float, int]:
    durations = []
    size = 0
    for _ in range(times):
        started = time.perf_counter()
        size = len(call())
        durations.append(time.perf_counter() - started)
    return statistics.median(durations) * 1000, size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=127)
    parser.add_argument("--times", type=int, default=30)
    args = parser.parse_args()
    env, services = load.bench_environment()
    try:
        subprocess.run(
            [str(BIN / "python"), "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
        )
        env["DJANGO_ALLOWED_HOSTS"] = "testserver"
        load.setup_django(env)
        from django.conf import settings
        from django.test import Client

        from tables import views

        log(f"opening {args.tables} tables")
        hosts = load.make_players(args.tables, "h")
        half = args.tables // 2
        load.open_tables(hosts[:half], game="sita", seats=4, options={}, start=False)
        load.open_tables(hosts[half:], game="estimation", seats=4, options={}, start=False)
        client = Client()
        client.cookies["sessionid"] = hosts[0][1]

        def poll() -> bytes:
            return client.get("/", HTTP_HX_REQUEST="true").content

        def unshared() -> bytes:
            views.lobby_fragments.clear()
            return poll()

        settings.LOBBY_PAGE_SIZE = 10**6
        every_row = timed(unshared, args.times)
        settings.LOBBY_PAGE_SIZE = 25
        one_page = timed(unshared, args.times)
        poll()
        shared = timed(poll, args.times)
    finally:
        if services is not None:
            services.__exit__(None, None, None)
    print(f"lobby poll, {args.tables} open tables, median of {args.times}; machine: {load.machine()}")
    for name, (milliseconds, size) in (
        ("every row rendered (before)", every_row),
        ("one page of 25 rendered", one_page),
        ("one page of 25 shared", shared),
    ):
        print(f"  {name:<30}{milliseconds:>8.1f} ms {size / 1024:>8.1f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
