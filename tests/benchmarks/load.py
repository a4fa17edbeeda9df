"""Live play under load: the real site, human-like socket clients, and a bare echo beside it.

    .venv/bin/python tests/benchmarks/load.py                  # the issue's targets, ~3 minutes
    .venv/bin/python tests/benchmarks/load.py --daphne 2       # two Daphne processes, each table on one
    .venv/bin/python tests/benchmarks/load.py --daphne 2 --spread seats  # a table's seats spread over both
    .venv/bin/python tests/benchmarks/load.py --daphne 2 --advance 850  # games late in their course
    .venv/bin/python tests/benchmarks/load.py --quick          # a short smoke run
    .venv/bin/python tests/benchmarks/load.py --chat 10        # and a chat message every 10 moves
    .venv/bin/python tests/benchmarks/load.py --languages en,et,ar  # each table's seats in three languages
    .venv/bin/python tests/benchmarks/load.py --proxy nginx    # each phase direct and through nginx, A B A B

It starts the site as ``make run`` does (Daphne, a Celery worker, PostgreSQL, Redis) with
DEBUG off, against a fresh database ``sitaratas_bench`` on the server of ``DATABASE_URL``
(or the embedded servers of config/launch.py when ``DATABASE_URL`` / ``REDIS_URL`` are
unset). Players get real sessions; tables are opened and started through ``tables.services``,
each phase of moves on tables of its own, opened (and with ``--advance``, played on) just
before it.
Every seat is a plain asyncio WebSocket client that reads only what the server pushes: the
fragment's ``data-version``, whether its own seat is marked to act, and the hidden fields of
the enabled ``ws-send`` forms (the buttons a person would press); it presses one after a
think time, sending the form's fields as htmx's ws-send does, with the version it saw.

Latency is measured from the *scheduled* send time, so a stall anywhere (client included)
cannot hide: round trip = scheduled send → the actor's own update; fan-out = scheduled send
→ the last seat's update. The same Daphne serves two bare echoes (tests/benchmarks/echo.py), measured at
the same rates: ``ws/echo/`` (one message in, one out: the physical limit of a round trip
here) and ``ws/echo/<room>/`` (one in, a group send, a fragment-sized message out to every
socket of the room: a move with nothing of ours in it). Our round trip and fan-out are
printed as ratios of them, with the CPU each costs. The client also times its own event loop,
so a stall of the client (or of the whole machine) shows as such and is not taken for the site's,
and it times bare durable commits on the same PostgreSQL: every move waits for one.

With several Daphne processes, each table's sockets go to one of them, as the load balancer
of docs/ops.md's "Deployment" (deploy/nginx/) routes them by the socket's path (``--spread tables``): that process
parses each new state once and renders the blocks every viewer shares once per move.
``--spread seats`` spreads a table's seats over the processes instead, as a load balancer that
ignores the path would. Then idle table sockets are opened in steps while WebSocket pings
measure whether the process still answers within 50 ms.

With ``--chat N`` (issue 23), the seat that makes every Nth move of a table also says
something in the players' chat over the same socket, as a player would; the chat's round trip
(send → the author's own copy) and fan-out (→ the last seat's copy) are printed beside the
moves', and the moves' targets must still be met; ``--chat-pairs K`` also plays each rate K
times without the chat and with it, interleaved, and prints the chat's CPU per message and its
share of a move's. ``LOAD_BENCH_DB`` names the benchmark's
database (default ``sitaratas_bench``; it is dropped and made afresh) to run beside another.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import secrets
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import uvloop

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from config import processes, serve  # noqa: E402  (the project, from its root)

BIN = Path(sys.executable).parent
BENCH_DB = os.environ.get("LOAD_BENCH_DB", "sitaratas_bench")  # another name to run beside another bench
SECRET = "bench-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz"
ECHO_SITE = "tests.benchmarks.echo_site:application"  # the site with the bare echo sockets beside it
TARGETS = {  # issue 9, on a 2-core machine
    "rtt_p50_ms": 15,
    "rtt_p99_ms": 50,
    "fanout_p99_ms": 80,
    "high_rate": 300,
    "high_p99_ms": 100,
    "idle_sockets": 2000,
    "heartbeat_ms": 50,
}

ISSUE27 = {  # issue 27, on the same 2-core machine
    "late_rate": 300,
    "late_p99_ms": 50,
    "top_rate": 500,
    "top_p99_ms": 100,
    "cpu_ratio": 2.0,
    "flat_ratio": 1.3,
    "idle_sockets": 10_000,
    "idle_p99_ms": 50,
    "idle_max_ms": 100,
    "socket_kib": 50,
    "resyncs": 0,
}

ISSUE43 = {  # issue 43, on the same machine
    "nginx_share": 0.10,  # nginx's CPU per move, of Daphne's
    "idle_ratio": 5.0,  # ping p99 at 10,000 idle sockets, of the p99 at 2,500
    "chat_share": 0.05,  # a chat message per 10 moves, added to Daphne's CPU per move
}

# The paced clients offer the rate exactly in the long run, but a 30-second window cuts each
# table's moves at its edges (one more or one fewer): about 0.2 moves/s either way over 100
# tables. A site that completes every move offered sustains the rate within half a percent.
SUSTAINED = 0.995

VERSION_RE = re.compile(r'data-version="(\d+)"')
STATUS_RE = re.compile(r'data-status="(\w+)"')
MY_TURN = 'class="seat me to-act'
HEAD = 400  # characters: the fragment's opening tag, with its version and status
FORM_RE = re.compile(r"<form ws-send[^>]*>(.*?)</form>", re.S)
INPUT_RE = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')


def log(message: str) -> None:
    print(f"-- {message}", file=sys.stderr, flush=True)


# --- the site ---------------------------------------------------------------------------------


def bench_environment() -> tuple[dict, object]:
    """The children's environment: a fresh database on the same server, DEBUG off, own prefixes."""
    services = None
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        from config.launch import Services

        services = Services().__enter__()
    parts = urlsplit(os.environ["DATABASE_URL"])
    database_url = urlunsplit(parts._replace(path=f"/{BENCH_DB}"))
    admin_url = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{BENCH_DB}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{BENCH_DB}"')
    tag = f"bench{os.getpid()}"
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": SECRET,
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_SECURE_COOKIES": "false",
        "CHANNELS_PREFIX": tag,
        "CELERY_QUEUE": tag,
        "LOG_LEVEL": "WARNING",
        "BOT_DELAY_SECONDS": "0",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    return env, services


class Site:
    """Daphne process(es) and a Celery worker, as ``make run`` starts them; with ``proxy``, nginx in
    front of them too, configured as production is (deploy/nginx/, ``make run PROXY=1``). The
    Daphnes then trust the address nginx passes on (``DJANGO_BEHIND_PROXY=1``); a client that
    connects to a Daphne directly sends no X-Forwarded-For and is its own peer address, so the
    same processes serve both ways in one run."""

    def __init__(self, env: dict, daphnes: int, logs: Path, proxy: bool = False) -> None:
        self.env, self.logs = ({**env, "DJANGO_BEHIND_PROXY": "1"} if proxy else env), logs
        self.ports = [processes.free_port() for _ in range(daphnes)]
        self.daphnes: list[subprocess.Popen] = []
        self.worker: subprocess.Popen | None = None
        self.front = None
        if proxy:
            from config.proxy import LocalProxy

            front_dir = logs / "nginx"
            front_dir.mkdir(parents=True, exist_ok=True)
            self.front = LocalProxy(
                [f"127.0.0.1:{port}" for port in self.ports], processes.free_port(), prefix=front_dir
            )

    def entry(self, via: str) -> list[int]:
        """The ports clients connect to: each Daphne's ("direct"), or nginx's ("nginx")."""
        return [self.front.port] if via == "nginx" else self.ports

    def start(self) -> None:
        for index, port in enumerate(self.ports):
            self.daphnes.append(
                processes.start(
                    serve.command("127.0.0.1", port, app=ECHO_SITE), env=self.env, log=self.logs / f"daphne-{index}.log"
                )
            )
        self.worker = processes.start(
            processes.celery_worker_command("--concurrency", "1", "--loglevel", "WARNING", python=str(BIN / "python")),
            env=self.env,
            log=self.logs / "celery.log",
        )
        for port, daphne in zip(self.ports, self.daphnes):
            try:
                processes.wait_for_port(port, process=daphne, seconds=120)  # a busy machine starts Django slowly
            except RuntimeError as error:
                raise SystemExit(f"{error}; see the server log.") from None
        if self.front is not None:
            self.front.start()

    def stop(self) -> None:
        processes.stop([*self.daphnes, self.worker])
        if self.front is not None:
            self.front.stop()


class CpuMeter:
    """CPU seconds of each process over a phase, as a percentage of one core."""

    def __init__(self, site: Site) -> None:
        import psutil

        self.psutil = psutil
        self.groups = {f"daphne-{i}": [site.daphnes[i].pid] for i in range(len(site.daphnes))}
        self.groups["celery"] = [site.worker.pid]
        self.groups["client"] = [os.getpid()]
        if site.front is not None:
            self.groups["nginx"] = [site.front.process.pid]

    def _pids(self) -> dict[str, list]:
        groups = {name: [self.psutil.Process(pid)] for name, [pid] in self.groups.items()}
        groups["celery"] += groups["celery"][0].children(recursive=True)
        if "nginx" in groups:
            groups["nginx"] += groups["nginx"][0].children()  # the master and its workers
        groups["postgres"] = [
            p for p in self.psutil.process_iter(["name"]) if (p.info["name"] or "").startswith("postgres")
        ]
        groups["redis"] = [
            p for p in self.psutil.process_iter(["name"]) if (p.info["name"] or "").startswith("redis-server")
        ]
        return groups

    def _sample(self) -> dict[str, dict[int, float]]:
        sample: dict[str, dict[int, float]] = {}
        for name, members in self._pids().items():
            sample[name] = {}
            for process in members:
                try:
                    times = process.cpu_times()
                    sample[name][process.pid] = times.user + times.system
                except self.psutil.Error:
                    pass
        return sample

    def start(self) -> None:
        self.started, self.before = time.monotonic(), self._sample()

    def stop(self) -> dict[str, float]:
        """Per group; a process born during the phase counts from zero (PostgreSQL forks backends)."""
        elapsed, after = time.monotonic() - self.started, self._sample()
        return {
            name: 100 * sum(t - self.before.get(name, {}).get(pid, 0.0) for pid, t in pids.items()) / elapsed
            for name, pids in after.items()
        }


# --- players and tables (through Django, in this process) -------------------------------------


def setup_django(env: dict) -> None:
    os.environ.update(env)
    import django

    django.setup()


def make_players(count: int, prefix: str, languages: tuple[str, ...] = ("",)) -> list[tuple[int, str]]:
    """Users with real sessions: (user id, session key); their profile languages in turn (issue 26)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore
    from django.db import transaction

    from accounts.models import User

    password = make_password("bench-pass-phrase-not-used")
    players = []
    with transaction.atomic():  # one commit: thousands of durable ones took minutes
        for index in range(count):
            user = User.objects.create(
                username=f"{prefix}{index}",
                email=f"{prefix}{index}@example.com",
                password=password,
                language=languages[index % len(languages)],
            )
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            players.append((user.pk, session.session_key))
    return players


def open_tables(players: list[tuple[int, str]], *, game: str, seats: int, options: dict, start: bool) -> list[int]:
    from django.db import transaction

    from accounts.models import User
    from tables.services import lobby

    users = {user.pk: user for user in User.objects.filter(pk__in=[pk for pk, _ in players])}
    table_ids = []
    step = seats if start else 1  # a lobby needs only its host
    with transaction.atomic():  # the services' own transactions nest in one commit
        for first in range(0, len(players) - step + 1, step):
            group = [users[pk] for pk, _ in players[first : first + step]]
            table = lobby.table_create(host=group[0], game=game, seat_count=seats, options=options)
            if start:
                for position, user in enumerate(group[1:], start=1):
                    lobby.seat_take(table_id=table.pk, user=user, position=position)
                    lobby.seat_ready(table_id=table.pk, user=user, ready=True, entropy=secrets.token_hex(16))
                lobby.table_start(table_id=table.pk, host=group[0], entropy=secrets.token_hex(16))
            table_ids.append(table.pk)
    return table_ids


def advance_games(table_ids: list[int], moves: int, *, until=None) -> None:
    """Play each table's game ``moves`` moves on, as its players could have.

    A fresh game's state is small; an Estimation state carries every round played, so late in
    a game a move could write, send and render more (2 KB of state in round 1, 46 KB in round
    18). Advanced tables measure a site whose games are under way, not only just begun.

    The engine plays each game's moves here and ``tables.services`` writes them as one move of
    many events, the way it writes a round of SITA bots' choices (``action_apply`` per action,
    then ``move_save``): the same state, finished rounds, versions and MatchEvents as one
    transaction per move would leave, in one per game. (Through ``match_act`` one by one, 100
    games of 850 moves took over 16 minutes of durable commits on a loaded 2-core machine.)
    ``until``: stop a game earlier, at the first state it holds true of.
    """
    from django.db import transaction
    from django.utils import timezone

    from games.catalog import get_engine
    from games.models import Match
    from tables import matchstore
    from tables.moves import MoveEvent
    from tables.services import steps

    rng = random.Random(7)
    for table_id in table_ids:
        with transaction.atomic():
            match = matchstore.lock_match(Match.objects.values_list("pk", flat=True).get(table_id=table_id))
            engine = get_engine(match.game)
            users = {player.seat: player.user_id for player in match.match_players.all()}
            state = matchstore.loaded(match.game, match.pk, match.version, match.state)
            events: list[MoveEvent] = []
            now = timezone.now()
            to_act = engine.to_act(state)
            for _ in range(moves):
                if engine.is_over(state) or (until is not None and until(state)):
                    break
                seat = to_act[0]
                action = rng.choice(engine.legal_actions(state, seat))
                state, to_act = steps.action_apply(
                    match=match,
                    engine=engine,
                    state=state,
                    to_act=to_act,
                    seat=seat,
                    user_id=users[seat],
                    action=action,
                    now=now,
                    events=events,
                )
            if events:
                steps.move_save(match=match, state=state, engine=engine, to_act=to_act, events=events, now=now)


def measure_flat(players: list[tuple[int, str]], *, moves: int = 40) -> dict:
    """A move's cost in round 1 and in round 18 of a full Estimation game, on a quiet site.

    For each: CPU of the move's service call and the four seats' renders (what a Daphne process
    does per move with a table's sockets on it), the bytes of the state text the move writes,
    and the WAL PostgreSQL wrote for the move: its records, read back with pg_walinspect, that
    touch this database, and the commits of their transactions (the site is not running yet,
    so nothing else writes here; other databases on the server are left out). Full-page
    images are printed apart: they come with the first change of a page after a checkpoint,
    whatever the move.
    """
    from django.db import connection

    from games.catalog import get_engine
    from games.models import Match
    from tables import matchstore
    from tables.render import fragment
    from tables.services import play as play_service

    table_ids = open_tables(players, game="estimation", seats=4, options={"length": "full"}, start=True)
    engine = get_engine("estimation")
    results = {}

    with connection.cursor() as cursor:
        cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_walinspect")
        cursor.execute("SELECT oid FROM pg_database WHERE datname = current_database()")
        ours = f"%rel %/{cursor.fetchone()[0]}/%"

    def lsn() -> str:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_current_wal_insert_lsn()")
            return cursor.fetchone()[0]

    def wal(start: str) -> tuple[int, int]:
        """(bytes, of which full-page images) of this database's WAL since ``start``: the move
        committed durably, so its records are all flushed."""
        with connection.cursor() as cursor:
            cursor.execute(
                """
                WITH r AS (SELECT xid, record_length, fpi_length, block_ref
                           FROM pg_get_wal_records_info(%s, pg_current_wal_flush_lsn()))
                SELECT coalesce(sum(record_length), 0), coalesce(sum(fpi_length), 0) FROM r
                WHERE xid IN (SELECT xid FROM r WHERE block_ref LIKE %s AND xid <> '0')""",
                [start, ours],
            )
            return tuple(int(value) for value in cursor.fetchone())

    # The second game to the start of its last round.
    advance_games(table_ids[1:], 10**6, until=lambda state: state.round_number >= state.rounds_total)
    for label, table_id in (("round 1", table_ids[0]), ("round 18", table_ids[1])):
        match = Match.objects.get(table_id=table_id)
        users = {player.seat: player.user for player in match.match_players.select_related("user")}
        rng = random.Random(5)
        snap = fragment.load_snapshot(table_id)
        cpu, written, images, sent = [], [], [], []
        for _ in range(moves):
            state = matchstore.loaded(match.game, match.pk, match.version, match.state)
            seat = engine.to_act(state)[0]
            action = rng.choice(engine.legal_actions(state, seat))
            start = lsn()
            started = time.process_time()
            match = play_service.match_act(match_id=match.pk, user=users[seat], action=action, version=match.version)
            snap = snap.with_state(version=match.version, state=match.state)
            for viewer in users.values():
                fragment.render_live(snap, user_id=viewer.pk, connected={u.pk for u in users.values()}, oob=True)
            cpu.append(time.process_time() - started)
            total, image = wal(start)
            written.append(total)
            images.append(image)
            sent.append(len(match.state.encode()))
        results[label] = {
            "cpu": cpu,
            "wal": written,
            "fpi": images,
            "statement": sent,
            "state_kib": len(engine.dumps(matchstore.loaded(match.game, match.pk, match.version, match.state))) / 1024,
        }
    return results


def play_bot_games(base_url: str, sessions: list[str], *, games: list[tuple[str, dict]]) -> list[dict]:
    """Each game with three bots and one human in headless Chromium, on the real table page and its
    static/js/table.js; the human presses a random enabled button whenever the page offers one.
    Every socket message the page sends is counted, resyncs apart."""
    from concurrent.futures import ThreadPoolExecutor

    from playwright.sync_api import sync_playwright

    def start_table(game: str, options: dict, session: str) -> int:
        """On a thread of its own: Django refuses the database on the thread of Playwright's loop."""
        from django.contrib.sessions.backends.db import SessionStore
        from django.db import connection

        from accounts.models import User
        from tables.services import lobby

        try:
            user = User.objects.get(pk=SessionStore(session_key=session)["_auth_user_id"])
            table = lobby.table_create(host=user, game=game, seat_count=4, options=options)
            for position in range(1, 4):
                lobby.bot_add(table_id=table.pk, host=user, position=position)
            lobby.table_start(table_id=table.pk, host=user, entropy=secrets.token_hex(16))
            return table.pk
        finally:
            connection.close()

    results = []
    with sync_playwright() as playwright, ThreadPoolExecutor(1) as django_thread:
        from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS  # the one the browser tests run

        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, "--disable-dev-shm-usage"]
        )
        for (game, options), session in zip(games, sessions):
            table_id = django_thread.submit(start_table, game, options, session).result()
            context = browser.new_context()
            context.add_cookies([{"name": "sessionid", "value": session, "url": base_url}])
            context.add_init_script("""
                window.__sent = {resync: 0, other: 0};
                const send = WebSocket.prototype.send;
                WebSocket.prototype.send = function (data) {
                  try { window.__sent[JSON.parse(data).command === "resync" ? "resync" : "other"] += 1; } catch (e) {}
                  return send.call(this, data);
                };""")
            page = context.new_page()
            page.goto(f"{base_url}/tables/{table_id}/")
            started, presses, rng = time.monotonic(), 0, random.Random(9)
            status = "playing"
            while time.monotonic() - started < 600:
                try:
                    status = page.eval_on_selector("#live", "el => el.dataset.status")
                    if status != "playing":
                        break
                    buttons = page.query_selector_all("#live form[ws-send] button:not([disabled])")
                    acts = [
                        b
                        for b in buttons
                        if b.evaluate("b => !!(b.form && b.form.querySelector('input[name=command][value=act]'))")
                    ]
                    if acts:
                        rng.choice(acts).click(timeout=2000)
                        presses += 1
                except Exception:  # noqa: BLE001 — the fragment was swapped under the click: look again
                    pass
                page.wait_for_timeout(60)
            sent = page.evaluate("window.__sent")
            sent["table_js"] = page.evaluate(
                "typeof htmx !== 'undefined' && typeof htmx.config.wsReconnectDelay === 'function'"
            )
            version = page.eval_on_selector("#live", "el => el.dataset.version")
            results.append(
                {
                    "game": game,
                    "status": status,
                    "version": int(version),
                    "presses": presses,
                    **sent,
                    "seconds": time.monotonic() - started,
                }
            )
            context.close()
        browser.close()
    return results


# --- statistics -------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def ms(value: float) -> str:
    return f"{value * 1000:7.1f}"


# --- the table clients ------------------------------------------------------------------------


@dataclass
class Pending:
    version: int
    scheduled: float
    actor: int
    seen: set = field(default_factory=set)


class Stats:
    def __init__(self) -> None:
        self.reset(0, float("inf"))
        self.errors = self.dropped = self.timeouts = 0
        self.chat_sent = 0

    def reset(self, start: float, end: float) -> None:
        self.start, self.end = start, end
        self.rtt: list[float] = []
        self.fanout: list[float] = []
        self.sent = self.errors = self.dropped = self.timeouts = 0
        self.chat_rtt: list[float] = []
        self.chat_fanout: list[float] = []
        self.chat_sent = 0

    def counts(self, scheduled: float) -> bool:
        return self.start <= scheduled < self.end


def client_address(index: int) -> str:
    """The ``index``-th loopback address from 127.1.0.1 on: on Linux all of 127/8 reaches lo, and a
    client may bind any of them as its source. The site limits openings and messages per address
    (RULING P51), so each table's players come from an address of their own, as households do."""
    return f"127.{1 + index // 62_500 % 250}.{index // 250 % 250}.{index % 250 + 1}"


class TableRun:
    """One table's four clients; they share a clock, so fan-out is measured exactly."""

    def __init__(self, bench: Bench, table_id: int, seats: list[tuple[int, str]], ports: list[int]) -> None:
        self.bench, self.table_id = bench, table_id
        self.pending: Pending | None = None
        self.over = False
        self.slot: float | None = None
        self.moves = 0  # moves sent by this table's clients, for --chat
        self.chats: dict[str, Pending] = {}  # chat text -> when it was sent and which seats have it
        spread = bench.spread_seats
        self.clients = [
            SeatClient(self, position, session, ports[(table_id + (position if spread else 0)) % len(ports)])
            for position, (_, session) in enumerate(seats)
        ]

    def next_send(self, now: float) -> float:
        """When this table's next move goes out: one ``interval`` after its last slot, give or take
        a quarter (a person's think time). The jitter does not add up, so the table offers
        exactly its share of the rate; a move whose slot has passed goes out now, and a table
        more than a slot behind starts afresh instead of catching up in a burst."""
        interval = self.bench.interval
        if self.slot is None or self.slot + interval < now - interval:
            self.slot = now + random.uniform(0, interval)
        else:
            self.slot += interval
        return max(now, self.slot + random.uniform(-0.25, 0.25) * interval)

    def chat_arrived(self, client: SeatClient, text: str, now: float) -> None:
        pending = self.chats.get(text)
        if pending is None or client.position in pending.seen:
            return
        pending.seen.add(client.position)
        stats = self.bench.stats
        counted = stats.counts(pending.scheduled)
        if client.position == pending.actor and counted:
            stats.chat_rtt.append(now - pending.scheduled)
        if len(pending.seen) == len(self.clients):
            if counted:
                stats.chat_fanout.append(now - pending.scheduled)
            del self.chats[text]

    def arrived(self, client: SeatClient, version: int, now: float) -> None:
        pending = self.pending
        if pending is None or version <= pending.version or client.position in pending.seen:
            return
        pending.seen.add(client.position)
        stats = self.bench.stats
        counted = stats.counts(pending.scheduled)
        if client.position == pending.actor and counted:
            stats.rtt.append(now - pending.scheduled)
        if len(pending.seen) == len(self.clients):
            if counted:
                stats.fanout.append(now - pending.scheduled)
            self.pending = None


class SeatClient:
    def __init__(self, table: TableRun, position: int, session: str, port: int) -> None:
        self.table, self.position, self.session, self.port = table, position, session, port
        self.version = -1
        self.acted_version = -1
        self.ws = None
        self.connected = asyncio.Event()

    async def run(self) -> None:
        import websockets

        url = f"ws://127.0.0.1:{self.port}/ws/tables/{self.table.table_id}/"
        headers = {"Cookie": f"sessionid={self.session}"}
        while not self.table.bench.stopping:
            try:
                async with self.table.bench.handshakes:  # a crowd connects gradually, as people do
                    ws = await websockets.connect(
                        url,
                        origin=f"http://127.0.0.1:{self.port}",
                        additional_headers=headers,
                        max_size=None,
                        ping_interval=None,
                        open_timeout=30,
                        local_addr=(client_address(self.table.table_id), 0),
                    )
                async with ws:
                    self.ws = ws
                    self.connected.set()
                    async for message in ws:
                        self.received(message, time.perf_counter())
            except Exception as error:  # noqa: BLE001 — every failure is counted and retried
                if self.table.bench.stopping:
                    return
                self.table.bench.stats.dropped += 1
                log(f"table {self.table.table_id} seat {self.position}: connection lost ({error!r}); reconnecting")
                await asyncio.sleep(0.5)
            else:
                if not self.table.bench.stopping:
                    self.table.bench.stats.dropped += 1
                    await asyncio.sleep(0.5)

    def received(self, message: str, now: float) -> None:
        # The client shares the machine with the site, so it reads no more than it must: the
        # version and status are in the fragment's first tag, this seat's mark in the seat list.
        if message.startswith('{"chat"'):
            self.chat_received(message, now)
            return
        head = message[:HEAD]
        match = VERSION_RE.search(head)
        if match is None:
            if 'role="alert"' in message:  # a refusal, to this socket only
                self.table.bench.stats.errors += 1
                text = re.sub(r"<[^>]+>|\s+", " ", message).strip()[:120]
                log(f"refused: table {self.table.table_id} seat {self.position} at version {self.version}: {text}")
            return
        version = self.version = int(match.group(1))
        self.table.arrived(self, version, now)
        status = STATUS_RE.search(head)
        if status and status.group(1) != "playing":
            self.table.over = True
            return
        if version <= self.acted_version or MY_TURN not in message[: message.find("</ol>")]:
            return
        actions = [fields for fields in forms_of(message) if fields.get("command") == "act"]
        if actions:
            self.acted_version = version
            asyncio.ensure_future(self.act(version, random.choice(actions), self.table.next_send(now)))

    def chat_received(self, message: str, now: float) -> None:
        frame = json.loads(message)["chat"]
        if frame["type"] == "message":
            self.table.chat_arrived(self, frame["message"]["text"], now)
        elif frame["type"] == "error":  # a refused chat message, to this socket only
            self.table.bench.stats.errors += 1
            log(f"chat refused: table {self.table.table_id} seat {self.position}: {frame['message']}")

    async def say(self, scheduled: float) -> None:
        """One chat message in the players' chat; its text is unique, so its copies are told apart
        (and the repeat limit never refuses it)."""
        table = self.table
        text = f"gl hf, move {table.moves} at table {table.table_id}"
        table.chats[text] = Pending(version=table.moves, scheduled=scheduled, actor=self.position)
        if table.bench.stats.counts(scheduled):
            table.bench.stats.chat_sent += 1
        await self.ws.send(json.dumps({"command": "chat_send", "channel": "players", "text": text}))

    async def act(self, version: int, fields: dict, scheduled: float) -> None:
        delay = scheduled - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        bench = self.table.bench
        if self.version != version or bench.stopping:
            return
        self.table.pending = Pending(version=version, scheduled=scheduled, actor=self.position)
        if bench.stats.counts(scheduled):
            bench.stats.sent += 1
        try:
            await self.ws.send(json.dumps({**fields, "version": version}))
            self.table.moves += 1
            if bench.chat_every and self.table.moves % bench.chat_every == 0:
                await self.say(time.perf_counter())
        except Exception:  # noqa: BLE001
            bench.stats.errors += 1
            return
        await asyncio.sleep(10)
        if self.version == version and not bench.stopping:  # nothing came back: count it, ask again
            bench.stats.timeouts += 1
            log(f"timeout: table {self.table.table_id} seat {self.position} version {version} fields {fields}")
            self.acted_version = version - 1
            await self.ws.send(json.dumps({"command": "resync"}))


def forms_of(message: str) -> list[dict]:
    found = []
    for body in FORM_RE.findall(message):
        if "disabled" in body.split("<button", 1)[-1].split(">", 1)[0]:
            continue
        found.append(dict(INPUT_RE.findall(body)))
    return found


class Bench:
    def __init__(self) -> None:
        self.stats = Stats()
        self.stopping = False
        self.interval = 1.0  # seconds between one table's moves: tables / rate
        self.handshakes = asyncio.Semaphore(16)
        self.spread_seats = False
        self.chat_every = 0  # --chat: one chat message per this many moves of a table (0: none)


async def watch_loop_lag(lags: list[float], stop: asyncio.Event, tick: float = 0.005) -> None:
    """How late this client's own event loop wakes up: a stall here (the client, or the whole
    machine pausing) delays every measured update, whatever the server did."""
    while not stop.is_set():
        started = time.perf_counter()
        await asyncio.sleep(tick)
        lags.append(time.perf_counter() - started - tick)


async def measure_moves(
    bench: Bench, tables: list[TableRun], *, rate: float, warmup: float, seconds: float, cpu: CpuMeter
) -> dict:
    bench.interval = len(tables) / rate
    await asyncio.sleep(warmup)
    now = time.perf_counter()
    bench.stats.reset(now, now + seconds)
    cpu.start()
    lags: list[float] = []
    stop = asyncio.Event()
    watcher = asyncio.ensure_future(watch_loop_lag(lags, stop))
    await asyncio.sleep(seconds)
    stop.set()
    await watcher
    usage = cpu.stop()
    await asyncio.sleep(1.0)  # let the last moves of the window land
    stats = bench.stats
    result = {
        "offered": stats.sent / seconds,
        "achieved": len(stats.rtt) / seconds,
        "rtt": stats.rtt,
        "fanout": stats.fanout,
        "errors": stats.errors,
        "dropped": stats.dropped,
        "timeouts": stats.timeouts,
        "cpu": usage,
        "over": sum(table.over for table in tables),
        "lag": lags,
        "chat_sent": stats.chat_sent,
        "chat_rate": stats.chat_sent / seconds,
        "chat_rtt": stats.chat_rtt,
        "chat_fanout": stats.chat_fanout,
    }
    bench.stats.reset(0, -1)
    return result


# --- the echo beside it -----------------------------------------------------------------------


async def measure_echo(ports: list[int], *, rate: float, clients: int, seconds: float) -> dict:
    import websockets

    latencies: list[float] = []
    errors = 0
    stop_at = time.perf_counter() + seconds
    payload = json.dumps({"command": "act", "action": {"type": "play", "card": "QS"}, "version": 123, "pad": "x" * 40})

    async def one(index: int) -> None:
        nonlocal errors
        port = ports[index % len(ports)]
        async with websockets.connect(
            f"ws://127.0.0.1:{port}/ws/echo/",
            origin=f"http://127.0.0.1:{port}",
            ping_interval=None,
            max_size=None,
            local_addr=(client_address(index), 0),  # as the tables' players: nginx limits per address
        ) as ws:
            scheduled = time.perf_counter() + random.uniform(0, clients / rate)
            while scheduled < stop_at:
                delay = scheduled - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                await ws.send(payload)
                reply = await ws.recv()
                if reply != payload:
                    errors += 1
                latencies.append(time.perf_counter() - scheduled)
                scheduled += random.uniform(0.5, 1.5) * clients / rate

    await asyncio.gather(*(one(index) for index in range(clients)))
    return {"rtt": latencies, "achieved": len(latencies) / seconds, "errors": errors}


async def measure_group_echo(
    ports: list[int], *, rate: float, rooms: int, seats: int, spread: bool, seconds: float, cpu: CpuMeter
) -> dict:
    """A move with nothing of ours in it: one socket of a room sends, the channel layer hands it to
    every socket of the room, and each gets a fragment-sized reply (tests/benchmarks/echo.py). Laid out
    over the Daphne processes as the tables are."""
    import websockets

    sockets: dict[tuple[int, int], object] = {}
    pending: dict[str, tuple[float, int, set]] = {}
    rtt: list[float] = []
    fanout: list[float] = []

    async def read(room: int, seat: int, ws) -> None:
        async for message in ws:
            now = time.perf_counter()
            entry = pending.get(message.split(" ", 1)[0])
            if entry is None:
                continue
            scheduled, sender, seen = entry
            seen.add(seat)
            if seat == sender:
                rtt.append(now - scheduled)
            if len(seen) == seats:
                fanout.append(now - scheduled)
                del pending[message.split(" ", 1)[0]]

    readers = []
    for room in range(rooms):
        for seat in range(seats):
            port = ports[(room + (seat if spread else 0)) % len(ports)]
            ws = await websockets.connect(
                f"ws://127.0.0.1:{port}/ws/echo/{room}/",
                origin=f"http://127.0.0.1:{port}",
                ping_interval=None,
                max_size=None,
                local_addr=(client_address(room), 0),
            )
            sockets[room, seat] = ws
            readers.append(asyncio.ensure_future(read(room, seat, ws)))
    await asyncio.sleep(1.0)
    interval = rooms / rate
    stop_at = time.perf_counter() + seconds

    async def play(room: int) -> None:
        scheduled, count = time.perf_counter() + random.uniform(0, interval), 0
        while scheduled < stop_at:
            delay = scheduled - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            sender, key = random.randrange(seats), f"{room}:{count}"
            count += 1
            pending[key] = (scheduled, sender, set())
            await sockets[room, sender].send(f'{key} {{"command": "act", "version": {count}}}')
            scheduled += random.uniform(0.5, 1.5) * interval

    cpu.start()
    await asyncio.gather(*(play(room) for room in range(rooms)))
    usage = cpu.stop()
    await asyncio.sleep(1.0)
    await asyncio.gather(*(ws.close() for ws in sockets.values()), return_exceptions=True)
    await asyncio.gather(*readers, return_exceptions=True)
    return {"rtt": rtt, "fanout": fanout, "achieved": len(fanout) / seconds, "lost": len(pending), "cpu": usage}


def measure_commits(database_url: str, *, seconds: float) -> list[float]:
    """Bare durable commits (a one-row UPDATE, then COMMIT) on the site's PostgreSQL: every move
    waits for one, so a slow disk flush stalls every table at once, whatever the site does."""
    import psycopg

    latencies = []
    with psycopg.connect(database_url) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS bench_commit_probe (id int PRIMARY KEY, n int)")
        conn.execute("INSERT INTO bench_commit_probe VALUES (1, 0) ON CONFLICT DO NOTHING")
        conn.commit()
        stop_at = time.perf_counter() + seconds
        while time.perf_counter() < stop_at:
            started = time.perf_counter()
            conn.execute("UPDATE bench_commit_probe SET n = n + 1 WHERE id = 1")
            conn.commit()
            latencies.append(time.perf_counter() - started)
            time.sleep(0.005)
        conn.execute("DROP TABLE bench_commit_probe")
        conn.commit()
    return latencies


# --- idle sockets -----------------------------------------------------------------------------


async def measure_idle(
    port: int, sessions: list[str], table_ids: list[int], *, steps: list[int], pid: int
) -> list[dict]:
    """Open idle table sockets (four per lobby table, its host's) in steps; ping them all.
    The Daphne process's resident memory before and at each step gives the memory per socket."""
    import psutil
    import websockets

    sockets = []
    results = []
    daphne = psutil.Process(pid)
    memory_before = daphne.memory_info().rss
    url = f"ws://127.0.0.1:{port}/ws/tables/"

    async def open_one(index: int):
        session, table_id = sessions[index % len(sessions)], table_ids[index % len(table_ids)]
        ws = await websockets.connect(
            f"{url}{table_id}/",
            origin=f"http://127.0.0.1:{port}",
            ping_interval=None,
            additional_headers={"Cookie": f"sessionid={session}"},
            open_timeout=60,
            max_queue=4,
            local_addr=(client_address(index // 4), 0),  # a lobby's four sockets from one address
        )
        await ws.recv()  # the first fragment: the consumer is really up
        return ws

    for target in steps:
        started = time.perf_counter()
        failed = 0
        while len(sockets) < target:
            batch = min(16, target - len(sockets))
            opened = await asyncio.gather(*(open_one(len(sockets) + i) for i in range(batch)), return_exceptions=True)
            failed += sum(isinstance(ws, BaseException) for ws in opened)
            sockets += [ws for ws in opened if not isinstance(ws, BaseException)]
            if failed > 50:
                break
        opened_in = time.perf_counter() - started
        await asyncio.sleep(2.0)
        pings: list[float] = []
        lost = 0

        async def ping(ws) -> None:
            nonlocal lost
            await asyncio.sleep(random.uniform(0, 3.0))  # spread over 3 s, like heartbeats
            sent = time.perf_counter()
            try:
                waiter = await ws.ping()
                await asyncio.wait_for(waiter, 5)
                pings.append(time.perf_counter() - sent)  # noqa: B023 (gathered below, in this same step)
            except Exception:  # noqa: BLE001
                lost += 1

        await asyncio.gather(*(ping(ws) for ws in sockets))
        results.append(
            {
                "sockets": len(sockets),
                "failed": failed,
                "opened_in": opened_in,
                "pings": pings,
                "lost": lost,
                "rss": daphne.memory_info().rss,
                "rss_before": memory_before,
            }
        )
        if failed > 50:  # a slow answer does not stop it: each target's step is measured
            break
    # Closed 50 at a time: 10,000 closed at once took a Redis connection each in the Daphne
    # process (docs/performance.md) and filled the Redis server's clients, which is shared.
    for first in range(0, len(sockets), 50):
        await asyncio.gather(*(ws.close() for ws in sockets[first : first + 50]), return_exceptions=True)
    return results


# --- the run ----------------------------------------------------------------------------------


def report_moves(name: str, result: dict, echo: dict, group: dict) -> list[str]:
    rtt, fan = result["rtt"], result["fanout"]
    echo50, echo99 = percentile(echo["rtt"], 50), percentile(echo["rtt"], 99)
    group50, group99 = percentile(group["fanout"], 50), percentile(group["fanout"], 99)

    def cpu(usage: dict) -> str:
        return "  ".join(f"{k} {v:.0f}%" for k, v in usage.items())

    chat = []
    if result["chat_sent"]:
        crtt, cfan = result["chat_rtt"], result["chat_fanout"]
        chat = [
            f"  chat msgs/s sent {result['chat_rate']:7.2f}   "
            f"(one per {result['chat_every']} moves of a table; {result['chat_sent']} sent, {len(crtt)} back)",
            f"  chat round trip ms   p50 {ms(percentile(crtt, 50))}  p99 {ms(percentile(crtt, 99))}  "
            f"max {ms(max(crtt) if crtt else float('nan'))}   fan-out p99 {ms(percentile(cfan, 99))}  (n={len(cfan)})",
        ]
    return [
        f"{name}",
        f"  moves/s offered {result['offered']:7.1f}   achieved {result['achieved']:7.1f}   "
        f"(echo msgs/s {echo['achieved']:.1f}, group echo moves/s {group['achieved']:.1f})",
        f"  move round trip ms   p50 {ms(percentile(rtt, 50))}  p90 {ms(percentile(rtt, 90))}  "
        f"p99 {ms(percentile(rtt, 99))}  max {ms(max(rtt) if rtt else float('nan'))}   (n={len(rtt)})",
        f"  fan-out (last seat)  p50 {ms(percentile(fan, 50))}  p99 {ms(percentile(fan, 99))}  (n={len(fan)})",
        f"  echo round trip ms   p50 {ms(echo50)}  p90 {ms(percentile(echo['rtt'], 90))}  "
        f"p99 {ms(echo99)}  max {ms(max(echo['rtt']) if echo['rtt'] else float('nan'))}   (n={len(echo['rtt'])})",
        f"  group echo fan-out   p50 {ms(group50)}  p99 {ms(group99)}  (n={len(group['fanout'])}, "
        f"lost {group['lost']}; 1 in, every seat out, fragment-sized, nothing of ours)",
        f"  ratio to echo        p50 {percentile(rtt, 50) / echo50:7.1f}x  p99 {percentile(rtt, 99) / echo99:7.1f}x   "
        f"fan-out to group echo  p50 {percentile(fan, 50) / group50:5.1f}x  p99 {percentile(fan, 99) / group99:5.1f}x",
        f"  errors {result['errors']}  dropped connections {result['dropped']}  timeouts {result['timeouts']}  "
        f"echo errors {echo['errors']}  games over {result['over']}",
        f"  client loop lag ms   p99 {ms(percentile(result['lag'], 99))}"
        f"  max {ms(max(result['lag']) if result['lag'] else 0)}"
        f"   (a stall of the client or the machine, not of the site)",
        f"  CPU (% of one core)  {cpu(result['cpu'])}",
        f"  CPU in group echo    {cpu(group['cpu'])}",
        per_move_line(result, group),
        *chat,
    ]


def cpu_per_move(result: dict, prefix: str = "daphne") -> float:
    """Core-seconds the processes named ``prefix…`` spent per move achieved (the group echo's
    ``achieved`` counts its moves fanned out to every seat)."""
    cores = sum(value for name, value in result["cpu"].items() if name.startswith(prefix)) / 100
    return cores / result["achieved"] if result["achieved"] else float("nan")


def per_move_line(result: dict, group: dict) -> str:
    site, echo = cpu_per_move(result), cpu_per_move(group)
    line = (
        f"  CPU per achieved move  Daphne {site * 1e3:.2f} ms at {result['achieved']:.1f}/s, group echo "
        f"{echo * 1e3:.2f} ms at {group['achieved']:.1f}/s: {site / echo:.2f}x"
    )
    if "nginx" in result["cpu"]:
        nginx = cpu_per_move(result, "nginx")
        line += f"; nginx {nginx * 1e3:.3f} ms = {nginx / site:.1%} of Daphne's"
    if result["chat_sent"]:
        line += f"; chat messages {result['chat_rate']:.1f}/s beside the moves (one per {result['chat_every']})"
    return line


def report_pairs(rate: float, runs: list[tuple[str, dict, dict]]) -> list[str]:
    """Each pair (direct, then through nginx) of one rate: the ratio of their move p99s, and what
    nginx itself cost per move against Daphne."""
    import statistics

    direct = [result for via, result, _ in runs if via == "direct"]
    proxied = [result for via, result, _ in runs if via == "nginx"]
    ratios = sorted(percentile(b["rtt"], 99) / percentile(a["rtt"], 99) for a, b in zip(direct, proxied))
    shares = sorted(cpu_per_move(b, "nginx") / cpu_per_move(b) for b in proxied)
    daphne = sorted(cpu_per_move(b) / cpu_per_move(a) for a, b in zip(direct, proxied))
    spread = lambda values: f"{values[0]:.2f}–{values[-1]:.2f}"  # noqa: E731
    return [
        f"\n  through nginx against direct at {rate:.0f} moves/s offered, {len(ratios)} pair(s) interleaved (A B A B):",
        f"    move round trip p99 ratio median {statistics.median(ratios):.2f}x (spread {spread(ratios)})",
        f"    Daphne CPU per move through nginx / direct median {statistics.median(daphne):.2f}x "
        f"(spread {spread(daphne)})",
        check(
            f"nginx's own CPU per move median {statistics.median(shares):.1%} of Daphne's (spread "
            f"{shares[0]:.1%}–{shares[-1]:.1%}; <= {ISSUE43['nginx_share']:.0%})",
            statistics.median(shares) <= ISSUE43["nginx_share"],
        ),
    ]


def report_chat_pairs(rate: float, results: list[dict]) -> list[str]:
    """Pairs (no chat, chat) of one rate: Daphne's CPU per move with the chat against without, and
    what one chat message cost (the added core-seconds over the messages sent)."""
    import statistics

    pairs = [(a, b) for a, b in zip(results[0::2], results[1::2]) if b["chat_rate"]]
    if not pairs:
        return [f"\n  no chat message was sent at {rate:.0f} moves/s offered: the phases were too short"]
    quiet, chatty = [a for a, _ in pairs], [b for _, b in pairs]
    added = sorted(cpu_per_move(b) / cpu_per_move(a) - 1 for a, b in zip(quiet, chatty))
    per_message = sorted(
        (cpu_per_move(b) - cpu_per_move(a)) * b["achieved"] / b["chat_rate"] for a, b in zip(quiet, chatty)
    )
    move = statistics.median(cpu_per_move(a) for a in quiet)
    return [
        f"\n  a chat message every {chatty[0]['chat_every']} moves against none at {rate:.0f} moves/s offered, "
        f"{len(added)} pair(s) interleaved (A B A B):",
        f"    Daphne CPU per chat message median {statistics.median(per_message) * 1e3:.2f} ms "
        f"(spread {per_message[0] * 1e3:.2f}–{per_message[-1] * 1e3:.2f}) beside a move's {move * 1e3:.2f} ms",
        check(
            f"the chat adds median {statistics.median(added):.1%} to Daphne's CPU per move (spread "
            f"{added[0]:.1%}–{added[-1]:.1%}; <= {ISSUE43['chat_share']:.0%})",
            statistics.median(added) <= ISSUE43["chat_share"],
        ),
    ]


def report_flat(flat: dict) -> list[str]:
    one, last = flat["round 1"], flat["round 18"]
    lines = [
        "\n[4] a move's cost over a full Estimation game (service call + four seats' renders, in the "
        "benchmark's process; WAL: the move's records, min and median, of which full-page images)"
    ]
    for label, r in flat.items():
        lines.append(
            f"  {label:8s} CPU per move p50 {percentile(r['cpu'], 50) * 1e6:7.0f} us  mean "
            f"{sum(r['cpu']) / len(r['cpu']) * 1e6:7.0f} us"
            f"   state text written {sum(r['statement']) / len(r['statement']):7.0f} B"
            f"   WAL min {min(r['wal']):6d} B  median {percentile(r['wal'], 50):6.0f} B"
            f" (full-page images median {percentile(r['fpi'], 50):5.0f} B, total {sum(r['fpi'])} B)"
            f"   whole state {r['state_kib']:.1f} KiB"
        )
    cpu = percentile(last["cpu"], 50) / percentile(one["cpu"], 50)
    written = (sum(last["statement"]) / len(last["statement"])) / (sum(one["statement"]) / len(one["statement"]))
    wal = percentile(last["wal"], 50) / max(percentile(one["wal"], 50), 1)
    limit = ISSUE27["flat_ratio"]
    lines += [
        check(
            f"round 18 / round 1: CPU per move {cpu:.2f}x, state bytes written {written:.2f}x, WAL {wal:.2f}x "
            f"(each <= {limit}x)",
            cpu <= limit and written <= limit and wal <= limit,
        )
    ]
    return lines


def check(label: str, ok: bool | None) -> str:
    """A target's line; ``ok`` None: this run does not measure it (say, late games without --advance)."""
    return f"  [{'n/a ' if ok is None else 'PASS' if ok else 'FAIL'}] {label}"


def prepare_tables(args: argparse.Namespace, players: list[tuple[int, str]]) -> list[int]:
    """A phase's tables, started and played ``--advance`` moves on (on a thread: the caller's loop runs)."""
    from django.db import connection

    try:
        table_ids = open_tables(players, game=args.game, seats=args.seats, options=json.loads(args.options), start=True)
        if args.advance:
            started = time.monotonic()
            advance_games(table_ids, args.advance)
            log(f"played each game {args.advance} moves on in {time.monotonic() - started:.1f} s")
        return table_ids
    finally:
        connection.close()


def end_tables(table_ids: list[int]) -> None:
    """Abort a measured phase's games, as an admin would end abandoned tables (RULING P8).

    Left in play, their players gone, each seat's turn clock runs out and the house plays for it
    (RULINGS P11, P12): a minute after each phase, 100 games moved by the Celery worker, one
    decision a minute per seat, through every later phase and the bot games (thousands of house
    moves in five minutes, the bot games' moves waiting behind them on the one worker)."""
    from django.db import connection

    from accounts.models import User
    from games.models import Match
    from tables.services import endings

    try:
        admin, _ = User.objects.get_or_create(
            username="bench-admin", defaults={"email": "bench-admin@example.com", "is_staff": True}
        )
        playing = Match.objects.filter(table_id__in=table_ids, status=Match.Status.PLAYING).values_list("pk", flat=True)
        for match_id in list(playing):
            endings.match_abort(match_id=match_id, by=admin, reason="benchmark phase over")
    finally:
        connection.close()


async def play_phase(
    args: argparse.Namespace, site: Site, cpu: CpuMeter, players, *, rate: float, via: str = "direct", chat: int
) -> dict:
    """One phase's tables, opened, their seat clients connected, played at ``rate`` and measured.

    Each phase plays its own tables: a phase at 500 moves/s plays 150 moves of each of 100
    games in 30 seconds, so on shared tables the later phases would find games nearer their end
    than the first (or over, after ``--advance 850``). On its own tables each phase finds its
    games where the run put them: just begun, or ``--advance`` moves on. They are opened just
    before the phase, so each seat's turn clock (60 s a decision) runs for a player who is at
    the table; tables left waiting through the earlier phases would have had their seats
    played by the house (RULINGS P11, P12), refusing the clients' moves as stale.
    """
    table_ids = await asyncio.to_thread(prepare_tables, args, players)
    bench = Bench()
    bench.spread_seats = args.spread == "seats"
    bench.chat_every = chat
    bench.interval = len(table_ids) / rate
    seats = args.seats
    tables = [
        TableRun(bench, table_id, players[i * seats : (i + 1) * seats], site.entry(via))
        for i, table_id in enumerate(table_ids)
    ]
    log(f"connecting {len(tables) * seats} seat clients ({via})")
    tasks = [asyncio.ensure_future(client.run()) for table in tables for client in table.clients]
    await asyncio.wait_for(asyncio.gather(*(c.connected.wait() for t in tables for c in t.clients)), 120)
    log(f"moves at {rate}/s offered ({via})")
    result = await measure_moves(bench, tables, rate=rate, warmup=args.warmup, seconds=args.seconds, cpu=cpu)
    result["chat_every"] = chat
    bench.stopping = True
    for table in tables:
        for client in table.clients:
            if client.ws is not None:
                await client.ws.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.to_thread(end_tables, table_ids)
    return result


async def run(args: argparse.Namespace, site: Site, phases: list[list], idle_tables, idle_players) -> list[str]:
    """``phases``: the players of each phase of moves (low rate, high rate, top rate)."""
    cpu = CpuMeter(site)
    spread = args.spread == "seats"
    seats, count = args.seats, args.tables
    layout = (
        "" if len(site.ports) == 1 else (" (seats spread over them)" if spread else " (each table's sockets on one)")
    )
    advanced = f", each game {args.advance} moves on" if args.advance else ", games just begun"
    advanced += f", a chat message every {args.chat} moves" if args.chat else ""
    lines = [
        f"load benchmark: {count} {args.game} tables x {seats} seats per phase{advanced}, {len(site.ports)} "
        f"Daphne process(es){layout}, 1 Celery worker, DEBUG off; machine: {machine()}; "
        f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    ]

    rates = [args.rate, args.high_rate] + ([args.top_rate] if args.top_rate else [])
    # Direct, and with --proxy nginx through nginx too, interleaved (A B A B): the machine's own
    # noise falls on both alike, and each pair gives one ratio.
    ways = [("direct", args.chat)] if site.front is None else [("direct", args.chat), ("nginx", args.chat)] * args.pairs
    # --chat-pairs: the same phase without the chat and with it, interleaved too, for the chat's
    # own cost per message beside a move's.
    chat_ways = [("direct", 0), ("direct", args.chat)] * args.chat_pairs if args.chat else []

    log("bare commits")
    commits = await asyncio.to_thread(measure_commits, site.env["DATABASE_URL"], seconds=args.echo_seconds)
    lines.append(
        f"bare commit ms (one-row UPDATE + COMMIT on the same PostgreSQL, nothing of ours)   "
        f"p50 {ms(percentile(commits, 50))}  p99 {ms(percentile(commits, 99))}  "
        f"p99.9 {ms(percentile(commits, 99.9))}  max {ms(max(commits))}   (n={len(commits)})"
    )

    results, groups = [], []
    for index, (rate, players) in enumerate(zip(rates, phases)):
        label, runs = ["[1]", "[2]", "[2b]"][index], []
        for via, chat in ways + chat_ways:
            result = await play_phase(args, site, cpu, players, rate=rate, via=via, chat=chat)
            # Equal work: the echoes are offered the rate the site achieved, by the same way in.
            achieved = max(result["achieved"], 1.0)
            log(f"echo and group echo at {achieved:.1f}/s ({via})")
            ports = site.entry(via)
            echo = await measure_echo(ports, rate=achieved, clients=count, seconds=args.echo_seconds)
            group = await measure_group_echo(
                ports, rate=achieved, rooms=count, seats=seats, spread=spread, seconds=args.echo_seconds, cpu=cpu
            )
            way = " through nginx" if via == "nginx" else (" direct" if site.front is not None else "")
            way += "" if chat == args.chat else ", no chat"
            lines += report_moves(f"\n{label} {rate:.0f} moves/s offered{way}", result, echo, group)
            runs.append((via, result, group))
        if site.front is not None:
            lines += report_pairs(rate, runs[: len(ways)])
        if chat_ways:
            lines += report_chat_pairs(rate, [result for _, result, _ in runs[len(ways) :]])
        results.append(runs[0][1])
        groups.append(runs[0][2])
    low, high = results[0], results[1]
    top = results[2] if args.top_rate else None

    idle = []
    if args.idle_steps:
        log("idle sockets")
        idle = await measure_idle(
            site.ports[0],
            [session for _, session in idle_players],
            idle_tables,
            steps=args.idle_steps,
            pid=site.daphnes[0].pid,
        )
        lines.append("\n[3] idle table sockets on one Daphne process, WebSocket ping answered")
        for step in idle:
            lines.append(
                f"  {step['sockets']:5d} sockets (opened in {step['opened_in']:.1f} s, {step['failed']} failed)"
                f"   ping p50 {ms(percentile(step['pings'], 50))}  p99 {ms(percentile(step['pings'], 99))}  "
                f"max {ms(max(step['pings']) if step['pings'] else float('nan'))} ms   lost {step['lost']}"
                f"   Daphne RSS {step['rss'] / 2**20:.0f} MiB "
                f"({(step['rss'] - step['rss_before']) / max(step['sockets'], 1) / 1024:.0f} KiB per socket)"
            )

    by_count = {step["sockets"]: step for step in idle if step["pings"]}
    if 2500 in by_count and len(by_count) > 1:
        most = max(by_count)
        ratio = percentile(by_count[most]["pings"], 99) / percentile(by_count[2500]["pings"], 99)
        lines.append(
            check(
                f"ping p99 at {most} idle sockets = {ratio:.1f}x the p99 at 2500 (<= {ISSUE43['idle_ratio']}x)",
                ratio <= ISSUE43["idle_ratio"] if most >= 10_000 else None,
            )
        )

    held = max(
        [
            s["sockets"]
            for s in idle
            if not s["failed"] and not s["lost"] and percentile(s["pings"], 99) <= TARGETS["heartbeat_ms"] / 1000
        ]
        or [0]
    )
    t, heading = run_targets(args)
    clean = lambda r: r["errors"] == 0 and r["dropped"] == 0 and r["timeouts"] == 0  # noqa: E731
    lines += [
        f"\n{heading}",
        check(
            f"{args.rate:.0f} moves/s: round trip p50 {percentile(low['rtt'], 50) * 1000:.1f} <= {t['rtt_p50_ms']} ms",
            percentile(low["rtt"], 50) * 1000 <= t["rtt_p50_ms"],
        ),
        check(
            f"{args.rate:.0f} moves/s: round trip p99 {percentile(low['rtt'], 99) * 1000:.1f} <= {t['rtt_p99_ms']} ms",
            percentile(low["rtt"], 99) * 1000 <= t["rtt_p99_ms"],
        ),
        check(
            f"{args.rate:.0f} moves/s: every seat updated p99 {percentile(low['fanout'], 99) * 1000:.1f} "
            f"<= {t['fanout_p99_ms']} ms",
            percentile(low["fanout"], 99) * 1000 <= t["fanout_p99_ms"],
        ),
        check(
            f"sustained {high['achieved']:.1f} >= {t['high_rate'] * t['sustained']:.1f} moves/s with p99 "
            f"{percentile(high['rtt'], 99) * 1000:.1f} <= {t['high_p99_ms']} ms",
            high["achieved"] >= t["high_rate"] * t["sustained"]
            and percentile(high["rtt"], 99) * 1000 <= t["high_p99_ms"],
        ),
        check(
            f"no errors, drops or timeouts ({low['errors'] + high['errors']} errors, "
            f"{low['dropped'] + high['dropped']} dropped, {low['timeouts'] + high['timeouts']} timeouts)",
            clean(low) and clean(high),
        ),
    ]
    if args.idle_steps:
        lines.append(
            check(
                f"idle sockets held by one Daphne with ping p99 <= {t['heartbeat_ms']} ms: {held} "
                f">= {t['idle_sockets']}",
                held >= t["idle_sockets"],
            )
        )

    # Issue 27's targets: what this run measured of them (the flat cost and the bot games are
    # measured around this, in main, and checked there).
    u = {**ISSUE27, "sustained": t["sustained"]}
    if args.quick:
        u.update(late_rate=args.high_rate, top_rate=args.top_rate, idle_sockets=t["idle_sockets"])
    daphnes = [name for name in high["cpu"] if name.startswith("daphne")]
    mean = lambda usage: sum(usage[name] for name in daphnes) / len(daphnes)  # noqa: E731
    # Issue 43: per move achieved, the group echo offered the rate the site achieved.
    ratio = cpu_per_move(high) / max(cpu_per_move(groups[1]), 1e-12)
    low_ratio = cpu_per_move(low) / max(cpu_per_move(groups[0]), 1e-12)
    p99 = lambda r: percentile(r["rtt"], 99) * 1000  # noqa: E731
    late = args.advance >= 850
    lines += [
        "\ntargets (issue 27)"
        + (
            ""
            if not args.quick
            else f", the rates scaled to this quick run ({args.high_rate:.0f} and {args.top_rate:.0f} "
            f"moves/s, {u['idle_sockets']} idle sockets)"
        ),
        check(
            f"games late in their course (advance {args.advance} >= 850): {high['achieved']:.1f} >= "
            f"{u['late_rate'] * u['sustained']:.1f} moves/s with p99 {p99(high):.1f} <= {u['late_p99_ms']} ms",
            high["achieved"] >= u["late_rate"] * u["sustained"] and p99(high) <= u["late_p99_ms"] if late else None,
        ),
    ]
    if top is not None:
        lines.append(
            check(
                f"{args.top_rate:.0f} moves/s (advance {args.advance}): {top['achieved']:.1f} >= "
                f"{u['top_rate'] * u['sustained']:.1f} with p99 {p99(top):.1f} <= {u['top_p99_ms']} ms, "
                f"{top['errors'] + top['dropped'] + top['timeouts']} errors/drops/timeouts",
                top["achieved"] >= u["top_rate"] * u["sustained"] and p99(top) <= u["top_p99_ms"] and clean(top),
            )
        )
    for offered, phase, group, per_move in (
        (args.rate, low, groups[0], low_ratio),
        (args.high_rate, high, groups[1], ratio),
    ):
        lines.append(
            check(
                f"Daphne CPU per achieved move at {offered:.0f} moves/s offered ({phase['achieved']:.1f} achieved): "
                f"{cpu_per_move(phase) * 1e3:.2f} ms = {per_move:.2f}x the group echo's "
                f"{cpu_per_move(group) * 1e3:.2f} ms at the same rate (<= {u['cpu_ratio']}x; "
                f"{mean(phase['cpu']):.0f}% against {mean(group['cpu']):.0f}% per process)",
                per_move <= u["cpu_ratio"],
            )
        )
    if idle:
        last = idle[-1]
        longest = max(last["pings"]) * 1000 if last["pings"] else float("nan")
        per_socket = (last["rss"] - last["rss_before"]) / max(last["sockets"], 1) / 1024
        lines += [
            check(
                f"{last['sockets']} idle sockets ({last['failed']} failed, {last['lost']} lost) with ping p99 "
                f"{percentile(last['pings'], 99) * 1000:.1f} <= {u['idle_p99_ms']} ms and the longest "
                f"{longest:.1f} <= {u['idle_max_ms']} ms (target {u['idle_sockets']})",
                last["sockets"] >= u["idle_sockets"]
                and not last["failed"]
                and not last["lost"]
                and percentile(last["pings"], 99) * 1000 <= u["idle_p99_ms"]
                and longest <= u["idle_max_ms"],
            ),
            check(
                f"resident memory per idle socket {per_socket:.1f} KiB <= {u['socket_kib']} KiB",
                per_socket <= u["socket_kib"],
            ),
        ]
    return lines


def run_targets(args: argparse.Namespace) -> tuple[dict, str]:
    """The targets this run can be held to, and the heading that says which they are.

    A full run is held to issue 9's targets. A quick run offers far less than 300 moves/s and
    opens far fewer than 2,000 idle sockets, so those two targets could only ever fail there:
    it is held to its own rates instead, with the same latency limits.
    """
    if not args.quick:
        return {**TARGETS, "sustained": SUSTAINED}, "targets (issue 9)"
    # A short window cuts one move more or fewer per table at its edges (see SUSTAINED).
    edges = 1 - args.tables / (args.seconds * args.high_rate)
    scaled = {
        **TARGETS,
        "high_rate": args.high_rate,
        "idle_sockets": max(args.idle_steps, default=0),
        "sustained": min(SUSTAINED, edges),
    }
    return scaled, (
        f"targets scaled to this quick run ({args.high_rate:.0f} moves/s, "
        f"{scaled['idle_sockets']} idle sockets; the full run holds {TARGETS['high_rate']} and "
        f"{TARGETS['idle_sockets']})"
    )


def machine() -> str:
    import platform

    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return (
        f"{os.cpu_count()} cores {model}, {memory:.0f} GiB, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--game", default="estimation")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--options", default='{"length": "full"}')
    parser.add_argument("--rate", type=float, default=50.0, help="moves/s offered in phase 1")
    parser.add_argument("--high-rate", type=float, default=300.0, help="moves/s offered in phase 2")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds per phase")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--echo-seconds", type=float, default=15.0)
    parser.add_argument("--daphne", type=int, default=1, help="Daphne processes; seats are spread over them")
    parser.add_argument(
        "--spread",
        choices=["tables", "seats"],
        default="tables",
        help="with several Daphne processes: each table's sockets on one (as deployed), or its seats spread",
    )
    parser.add_argument("--top-rate", type=float, default=500.0, help="moves/s offered in phase 2b (issue 27; 0 skips)")
    parser.add_argument(
        "--idle-steps", default="2500,5000,7500,10000", help="idle sockets to open, in steps ('' skips)"
    )
    parser.add_argument("--flat-moves", type=int, default=40, help="moves measured in round 1 and round 18 (0 skips)")
    parser.add_argument(
        "--bot-games",
        default="sita,estimation",
        help="games played by three bots and one human in Chromium, resyncs counted ('' skips)",
    )
    parser.add_argument(
        "--advance",
        type=int,
        default=0,
        metavar="MOVES",
        help="play each game this many moves on before measuring (an Estimation game has ~1,100)",
    )
    parser.add_argument(
        "--chat",
        type=int,
        default=0,
        metavar="MOVES",
        help="one players' chat message per this many moves of a table (issue 23: 10)",
    )
    parser.add_argument(
        "--languages",
        default="",
        help="players' languages in turn, e.g. en,et,ar (issue 26: each seat renders its own)",
    )
    parser.add_argument(
        "--proxy",
        choices=["none", "nginx"],
        default="none",
        help="nginx: each phase of moves also through nginx (deploy/nginx/), interleaved with direct ones",
    )
    parser.add_argument("--pairs", type=int, default=2, help="with --proxy: pairs (direct, nginx) per rate")
    parser.add_argument(
        "--chat-pairs", type=int, default=0, help="with --chat: also pairs (no chat, chat) per rate, direct"
    )
    parser.add_argument("--quick", action="store_true", help="10 tables, short phases, 500 idle sockets")
    args = parser.parse_args()
    if args.quick:
        args.tables, args.seconds, args.warmup, args.echo_seconds = 10, 5.0, 2.0, 3.0
        args.rate, args.high_rate, args.idle_steps, args.top_rate = 5.0, 30.0, "500", 50.0
        args.flat_moves = min(args.flat_moves, 10)
    args.idle_steps = [int(step) for step in args.idle_steps.split(",") if step]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    env, services = bench_environment()
    log(f"migrating {BENCH_DB}")
    subprocess.run([str(BIN / "python"), "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    if args.bot_games:  # the table page with DEBUG off serves the collected, hashed files
        subprocess.run(
            [str(BIN / "python"), "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
        )
    setup_django(env)
    log("creating players and tables")
    # Each phase of moves has its own players and tables (see play_phase).
    languages = tuple(args.languages.split(","))
    phases = [
        make_players(args.tables * args.seats, f"p{phase}-", languages) for phase in range(3 if args.top_rate else 2)
    ]
    flat = None
    if args.flat_moves:
        log("a move's cost in round 1 and round 18")
        flat = measure_flat(make_players(8, "f"), moves=args.flat_moves)
    # Four idle sockets per lobby and per player: within the limits per table and per user (RULING P16).
    idle_players = make_players(max(args.idle_steps, default=0) // 4 + 1, "w") if args.idle_steps else []
    idle_tables = (
        open_tables(idle_players, game=args.game, seats=args.seats, options=json.loads(args.options), start=False)
        if args.idle_steps
        else []
    )
    bot_sessions = [session for _, session in make_players(2, "h")]
    from django.db import connections

    connections.close_all()
    site = Site(env, args.daphne, ROOT / "test-artifacts" / "load-logs", proxy=args.proxy == "nginx")
    lines: list[str] = []  # printed even when a later part fails
    try:
        site.start()
        # The clients share the machine with the site: on uvloop's event loop, as the site's
        # Daphne is, they take less of the CPU the site needs.
        lines += uvloop.run(run(args, site, phases, idle_tables, idle_players))
        if flat:
            lines += report_flat(flat)
        bot_games = [game for game in args.bot_games.split(",") if game]
        if bot_games:
            log(f"bot games with one human in Chromium: {', '.join(bot_games)}")
            short = {"sita": {"matches": 1}, "estimation": {"length": "micro"}, "sitaratas": {"deck": "classic"}}
            played = play_bot_games(
                f"http://127.0.0.1:{site.ports[0]}", bot_sessions, games=[(game, short[game]) for game in bot_games]
            )
            lines.append("\n[5] bot games with one human socket (Chromium, static/js/table.js)")
            for game in played:
                lines.append(
                    f"  {game['game']}: ended '{game['status']}' at version {game['version']} in "
                    f"{game['seconds']:.0f} s; human presses {game['presses']}, messages sent {game['other']}, "
                    f"resyncs {game['resync']}; table.js loaded {game['table_js']}"
                )
            total = sum(game["resync"] for game in played)
            whole = all(game["status"] == "finished" and game["table_js"] for game in played)
            lines.append(
                check(
                    f"resyncs in whole games played by bots with one human socket: {total} "
                    f"(every game finished: {whole})",
                    total == ISSUE27["resyncs"] and whole,
                )
            )
        site.stop()
        # Issue 28: every game the run played replays to its stored state, and the ledgers balance.
        log("verify_matches on the benchmark's database")
        verified = subprocess.run(
            [str(BIN / "python"), "manage.py", "verify_matches"], cwd=ROOT, env=env, capture_output=True, text=True
        )
        lines.append(f"\nintegrity: {(verified.stdout or verified.stderr).strip().splitlines()[-1]}")
    finally:
        site.stop()
        if services is not None:
            services.__exit__(None, None, None)
        print("\n".join(lines), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
