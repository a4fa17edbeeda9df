"""What a move costs each seat's connection and browser: bytes per seat per move, and Chromium's
CPU per push.

    .venv/bin/python tests/benchmarks/pushes.py [--moves 60] [--browser-moves 40]

It starts the site as tests/benchmarks/load.py does (Daphne and a Celery worker on a fresh
database). For each game, a table of four players is started through the services; every seat
and one spectator hold a plain WebSocket client that counts the bytes of each push; moves are
made one at a time through ``tables.services.match_act`` (one commit, one push per socket each),
and the next waits until every socket has heard the last. Printed: the median and mean bytes per
seat per move, and the whole view's size for comparison.

Then Chromium opens one seat's real table page (static/js/table.js, htmx) and the same kind of
moves are made for all seats, a move every 0.3 s; the renderer's main-thread time (DevTools'
``Performance.getMetrics``: TaskDuration, of it layout, style and script) over the pushes it
received, less what the page spends with no pushes in as long a time (the turn clock's tick),
gives the browser's CPU per push. To compare with an older commit, copy this file into a
checkout of it and run it there, one run after the other (it works with the older layout).

    PUSHES_DUMP=/tmp/pushes .venv/bin/python tests/benchmarks/pushes.py   # also keeps seat 0's pushes
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks import load  # noqa: E402  (the project, from its root)

DUMP = __import__("os").environ.get("PUSHES_DUMP")  # a folder: seat 0's changed-region pushes, one file each
IDLE_SECONDS = 12
GAMES = [("estimation", {"length": "micro"}), ("sitaratas", {}), ("sita", {})]
VERSION = re.compile(r'id="live(?:-meta)?"[^>]*?data-version="(\d+)"')


def log(message: str) -> None:
    print(f"-- {message}", file=sys.stderr, flush=True)


def make_move(table_id: int, rng: random.Random) -> int | None:
    """One legal move at a table through the services; the match's new version, or None when over."""
    from django.db import connection

    from accounts.models import User
    from games.models import Match
    from tables import matchstore

    try:
        from games.catalog import get_engine
        from tables.services.play import match_act
    except ImportError:  # the layout before tables/services/ was a package: to compare with a start commit
        from games.engines import get_engine  # type: ignore[attr-defined,no-redef]
        from tables.services import match_act  # type: ignore[attr-defined,no-redef]

    try:
        match = Match.objects.filter(table_id=table_id).order_by("-pk").first()
        engine = get_engine(match.game)
        state = matchstore.loaded(match.game, match.pk, match.version, match.state)
        if engine.is_over(state):
            return None
        seat = engine.to_act(state)[0]
        user = User.objects.get(pk=match.match_players.get(seat=seat).user_id)
        action = rng.choice(engine.legal_actions(state, seat))
        return match_act(match_id=match.pk, user=user, action=action, version=match.version).version
    finally:
        connection.close()


async def measure_bytes(base: str, players: list[tuple[int, str]], game: str, options: dict, moves: int) -> dict:
    import websockets

    table_id = (
        await asyncio.to_thread(load.open_tables, players[:4], game=game, seats=4, options=options, start=True)
    )[0]
    sessions = [session for _, session in players[:5]]  # four seats and a spectator
    received: list[list[tuple[int, int]]] = [[] for _ in sessions]  # (version, bytes) per socket
    whole: list[int] = []
    by_region: collections.Counter[str] = collections.Counter()  # bytes of changed-region pushes, by region id
    sockets = []
    for session in sessions:
        ws = await websockets.connect(
            f"{base.replace('http', 'ws')}/ws/tables/{table_id}/",
            additional_headers={"Cookie": f"sessionid={session}", "Origin": base},
            max_size=None,
        )
        sockets.append(ws)

    async def read(index: int, ws) -> None:
        async for text in ws:
            found = VERSION.search(text[:600])
            if found:
                received[index].append((int(found.group(1)), len(text.encode())))
                if 'id="live"' in text[:200]:
                    whole.append(len(text.encode()))
                else:
                    for region, size in regions_of(text):
                        by_region[region] += size
                    if DUMP and index == 0:
                        (Path(DUMP) / f"{game}-{found.group(1)}.html").write_text(text)

    readers = [asyncio.create_task(read(i, ws)) for i, ws in enumerate(sockets)]
    await asyncio.sleep(1.0)
    first = {i: len(r) for i, r in enumerate(received)}
    rng = random.Random(5)
    made = 0
    for _ in range(moves):
        version = await asyncio.to_thread(make_move, table_id, rng)
        if version is None:
            break
        made += 1
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not all(r and r[-1][0] >= version for r in received):
            await asyncio.sleep(0.005)
    for task in readers:
        task.cancel()
    for ws in sockets:
        await ws.close()
    per_move = [size for i, r in enumerate(received) for _, size in r[first[i] :]]
    return {
        "game": game,
        "moves": made,
        "pushes": len(per_move),
        "median": statistics.median(per_move),
        "mean": statistics.fmean(per_move),
        "whole_median": statistics.median(whole),
        "regions": by_region.most_common(8),
    }


def regions_of(message: str) -> list[tuple[str, int]]:
    """The outermost id'd elements of a changed-regions push and their sizes in bytes."""
    from tables.render import regions

    found = regions.scan(message) or {}
    outer = [
        (element_id, region)
        for element_id, region in found.items()
        if not any(other.start < region.start and region.end <= other.end for other in found.values())
    ]
    return [(element_id, len(message[region.start : region.end].encode())) for element_id, region in outer]


def measure_browser(base: str, players: list[tuple[int, str]], game: str, options: dict, moves: int) -> dict:
    from concurrent.futures import ThreadPoolExecutor

    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

    with ThreadPoolExecutor(1) as django_thread, sync_playwright() as playwright:
        table_id = django_thread.submit(
            load.open_tables, players[:4], game=game, seats=4, options=options, start=True
        ).result()[0]
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        context = browser.new_context(viewport={"width": 1366, "height": 800})
        context.add_cookies([{"name": "sessionid", "value": players[0][1], "url": base}])
        page = context.new_page()
        frames = []
        page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(len(payload))))
        page.goto(f"{base}/tables/{table_id}/")
        page.wait_for_selector("#live[data-status=playing]")
        page.wait_for_timeout(1000)
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable", {"timeDomain": "threadTicks"})

        def metrics() -> dict:
            return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}

        # The page's own work between pushes (the turn clock's tick, timers): measured with no
        # moves for as long as the pushes will take, and taken off, so what is left is the pushes'.
        idle_before, idle_started = metrics(), time.monotonic()
        page.wait_for_timeout(IDLE_SECONDS * 1000)
        idle_after, idle_seconds = metrics(), time.monotonic() - idle_started
        before, pushed, started = metrics(), len(frames), time.monotonic()
        rng = random.Random(6)
        made = 0
        for _ in range(moves):
            version = django_thread.submit(make_move, table_id, rng).result()
            if version is None:
                break
            made += 1
            page.wait_for_function(
                "v => +document.getElementById('live').dataset.version >= v", arg=version, timeout=10_000
            )
            page.wait_for_timeout(300)
        after, pushes, seconds = metrics(), len(frames) - pushed, time.monotonic() - started
        browser.close()
    names = ("TaskDuration", "LayoutDuration", "RecalcStyleDuration", "ScriptDuration")
    idle = {name: (idle_after[name] - idle_before[name]) / idle_seconds * seconds for name in names}
    per = {name: 1000 * (after[name] - before[name] - idle[name]) / max(pushes, 1) for name in names}
    raw = 1000 * (after["TaskDuration"] - before["TaskDuration"]) / max(pushes, 1)
    return {"game": game, "moves": made, "pushes": pushes, "raw": raw, **per}


def machine() -> str:
    cpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    model = next((line.split(":", 1)[1].strip() for line in cpu.splitlines() if line.startswith("Model name")), "?")
    return f"{model}, {len(__import__('os').sched_getaffinity(0))} cores"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--browser-moves", type=int, default=40)
    args = parser.parse_args()
    env, embedded = load.bench_environment()
    load.setup_django(env)
    with tempfile.TemporaryDirectory() as logs:
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)  # the page with DEBUG off: hashed files
        site = load.Site(env, 1, Path(logs))
        site.start()
        try:
            base = f"http://127.0.0.1:{site.ports[0]}"
            lines = ["game          moves  pushes  bytes/seat/move median  mean   whole view median"]
            for index, (game, options) in enumerate(GAMES):
                players = load.make_players(5, f"bytes{index}x")
                result = asyncio.run(measure_bytes(base, players, game, options, args.moves))
                lines.append(
                    f"{game:12}  {result['moves']:5}  {result['pushes']:6}  {result['median']:18,.0f}"
                    f"  {result['mean']:6,.0f}  {result['whole_median']:10,.0f}"
                )
                log(lines[-1])
                per_push = [f"{region} {size // max(result['pushes'], 1):,}" for region, size in result["regions"]]
                regions_line = ", ".join(per_push)
                lines.append(f"    bytes per push by region: {regions_line}")
            lines.append(
                "game          moves  pushes  Chromium ms per push, idle taken off: task  layout  style  script"
                "   task with idle"
            )
            for index, (game, options) in enumerate(GAMES):
                players = load.make_players(4, f"browser{index}x")
                result = measure_browser(base, players, game, options, args.browser_moves)
                lines.append(
                    f"{game:12}  {result['moves']:5}  {result['pushes']:6}  {result['TaskDuration']:40.1f}"
                    f"  {result['LayoutDuration']:6.1f}  {result['RecalcStyleDuration']:5.1f}"
                    f"  {result['ScriptDuration']:6.1f}  {result['raw']:16.1f}"
                )
                log(lines[-1])
        finally:
            site.stop()
            if embedded is not None:
                embedded.__exit__(None, None, None)
    print("\n".join(lines))
    print(f"machine: {machine()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
