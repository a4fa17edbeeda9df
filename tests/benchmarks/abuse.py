"""Honest tables while abusers flood the site (issues 21 and 34): the same moves with and without each.

    .venv/bin/python tests/benchmarks/abuse.py                 # 100 tables at 50 moves/s, 7 abusers x 3 pairs
    .venv/bin/python tests/benchmarks/abuse.py --scenarios 2,3  # only some abusers (numbers: --help)
    .venv/bin/python tests/benchmarks/abuse.py --quick         # a short smoke run
    .venv/bin/python tests/benchmarks/abuse.py --proxy nginx   # everyone through nginx (deploy/nginx/)

The site, players, tables and honest seat clients are the load benchmark's
(tests/benchmarks/load.py): 100 four-seat Estimation tables played at 50 moves/s, latency
from the scheduled send, each table's players from a loopback address of their own. The
honest moves are measured in halves, interleaved: without an abuser, with one, without, with…
(``--rounds`` pairs per abuser), so the machine's own noise falls on both halves of a pair
alike; each pair gives one ratio of the honest round trip's p99, with over without, and the
median ratio and its spread are reported. Each abuser runs in a process of its own (so its
sending does not stall the honest clients' event loop):

- one user (issue 21): tries to open 50 table sockets and floods every one it gets with every
  kind of message as fast as ``--abuse-rate`` allows: resyncs, lobby commands, moves with stale
  or odd fields, votes, malformed JSON, binary frames and oversized frames; it hosts a lobby of
  its own and toggles ready there, and reconnects at once whenever a socket is closed on it;
- many accounts (issue 34): 5 or 10 fresh accounts, from one address (127.0.0.2) or from ten
  (127.0.0.2 to 127.0.0.11), each opening its 20 sockets (5 on a lobby it hosts, 15 on the
  honest tables) and sending 9 messages a second, inside every per-user limit: all resyncs, or
  ready and not ready in turn on its own lobby. Refused at the opening, a socket tries again
  5–30 s later (the single user above is the one that hammers the handshake).

What must show: the honest p99 with the single user within 1.5x of without (issue 21); with
10 accounts from one address within 1.5x, from ten addresses within 2x (issue 34); the Daphne
process's memory bounded. What the abusers got is printed too: sockets opened and refused
(RULINGS P16, P51), messages sent, refusals and pushes received, sockets closed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import resource
import secrets
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import uvloop

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402  (the load benchmark's machinery, beside this file)
from load import BIN, ROOT, Bench, CpuMeter, Site, TableRun, log, machine, measure_moves, ms, percentile  # noqa: E402

ABUSER_SOCKETS = 50
P99_LIMIT = 1.5  # honest round trip p99 with the abuser, as a multiple of the run without


# --- the abuser (its own process) -------------------------------------------------------------


def abusive_frames(version: int) -> list[str | bytes]:
    """One of each kind of message, honest-looking and not."""
    return [
        json.dumps({"command": "resync"}),
        json.dumps({"command": "ready"}),
        json.dumps({"command": "unready"}),
        json.dumps({"command": "seat_take", "position": random.randint(0, 3)}),
        json.dumps({"command": "seat_leave"}),
        json.dumps({"command": "bot_add", "position": 1}),
        json.dumps({"command": "start"}),
        json.dumps({"command": "vote_propose"}),
        json.dumps({"command": "act", "version": version, "type": "bid", "bid": "3"}),
        json.dumps({"command": "act", "version": "²", "type": "call", "value": "¹"}),
        json.dumps({"command": "act", "version": "9" * 5000}),
        json.dumps({"command": "no_such_command"}),
        "{not json",
        "[" * 3000,
        "x" * 100_000,
        b"\x00\x01\x02binary",
    ]


async def abuse(
    ports: list[int],
    session: str,
    table_ids: list[int],
    lobby_id: int,
    rate: float,
    seconds: float,
    sockets: int = ABUSER_SOCKETS,
) -> dict:
    import websockets

    counts = {
        "opened": 0,
        "refused_at_open": 0,
        "closed_for_flooding": 0,
        "closed_other": 0,
        "sent": 0,
        "refusals": 0,
        "pushes": 0,
    }
    stop_at = time.monotonic() + seconds
    # The abuser's own lobby takes five of the sockets (the per-table cap), the rest the honest tables.
    targets = [lobby_id] * min(5, sockets) + [table_ids[i % len(table_ids)] for i in range(sockets - 5)]

    async def one(index: int, table_id: int) -> None:
        port = ports[table_id % len(ports)]
        url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}/"
        while time.monotonic() < stop_at:
            try:
                async with websockets.connect(
                    url,
                    origin=f"http://127.0.0.1:{port}",
                    max_size=None,
                    additional_headers={"Cookie": f"sessionid={session}"},
                    open_timeout=10,
                    ping_interval=None,
                ) as ws:
                    first = await asyncio.wait_for(ws.recv(), 10)
                    if "windows open" in first or "Wait a few seconds" in first:
                        # Over the caps, or cooling down after a flood. Then try again a second later:
                        # this abuser floods with messages; a flood of handshakes is the proxy's to
                        # limit (deploy/nginx/: docs/ops.md, "Deployment").
                        counts["refused_at_open"] += 1
                        await asyncio.sleep(1.0)
                        continue
                    counts["opened"] += 1
                    version = int(load.VERSION_RE.search(first[: load.HEAD]).group(1)) if "data-version" in first else 0

                    async def read() -> None:
                        nonlocal version
                        try:
                            async for message in ws:
                                if 'role="alert"' in message:
                                    counts["refusals"] += 1
                                else:
                                    counts["pushes"] += 1
                                    found = load.VERSION_RE.search(message[: load.HEAD])
                                    version = int(found.group(1)) if found else version
                        except websockets.ConnectionClosed:
                            pass

                    reader = asyncio.ensure_future(read())
                    tick = 1.0 / rate
                    try:
                        while time.monotonic() < stop_at and not reader.done():
                            for frame in abusive_frames(version):
                                await ws.send(frame)
                                counts["sent"] += 1
                                await asyncio.sleep(tick)
                    except websockets.ConnectionClosed:
                        pass
                    await asyncio.wait([reader], timeout=1.0)
                    reader.cancel()
                    if ws.close_code is not None and time.monotonic() < stop_at:
                        counts["closed_for_flooding" if ws.close_code == 4429 else "closed_other"] += 1
            except websockets.InvalidStatus:
                # Refused at the handshake (RULINGS P16, P51: the caps, a flood's cooling down, a
                # back-off): this abuser reopens at once, as a script that ignores the wait would.
                counts["refused_at_open"] += 1
            except (TimeoutError, OSError, websockets.WebSocketException):
                counts["closed_other"] += 1
                await asyncio.sleep(0.2)

    await asyncio.gather(*(one(index, table_id) for index, table_id in enumerate(targets)), return_exceptions=True)
    return counts


def abuser_process(ports, session, table_ids, lobby_id, rate, seconds, sockets, results) -> None:
    results.put(uvloop.run(abuse(ports, session, table_ids, lobby_id, rate, seconds, sockets)))


# --- many accounts at allowed rates (issue 34) -------------------------------------------------

SOCKETS_PER_ACCOUNT = 20  # RULING P16: 5 on one table, 20 in all
ACCOUNT_RATE = 9.0  # messages/s per account, under the per-user 10/s (RULING P15)
RETRY_AFTER_REFUSAL = (5.0, 30.0)  # seconds, drawn at random


async def flood_accounts(
    ports: list[int], accounts: list[tuple[str, int, str]], table_ids: list[int], kind: str, seconds: float
) -> dict:
    """Each account (session, own lobby, source address) opens its 20 sockets, 5 on its own lobby
    and 15 on honest tables, retrying a refused opening a second later, and sends ACCOUNT_RATE
    messages a second over the sockets it holds: all resyncs (``resync``), or ready and not ready
    in turn on its own lobby (``ready``)."""
    import websockets

    counts = {"opened": 0, "refused_at_open": 0, "closed": 0, "sent": 0, "refusals": 0, "pushes": 0}
    stop_at = time.monotonic() + seconds

    async def account(session: str, lobby_id: int, address: str) -> None:
        lobby_sockets: list = []
        other_sockets: list = []

        async def hold(table_id: int, into: list) -> None:
            port = ports[table_id % len(ports)]
            while time.monotonic() < stop_at:
                try:
                    async with websockets.connect(
                        f"ws://127.0.0.1:{port}/ws/tables/{table_id}/",
                        origin=f"http://127.0.0.1:{port}",
                        max_size=None,
                        additional_headers={"Cookie": f"sessionid={session}"},
                        open_timeout=10,
                        ping_interval=None,
                        local_addr=(address, 0),
                    ) as ws:
                        first = await asyncio.wait_for(ws.recv(), 10)
                        if 'id="live"' not in first:
                            # Refused (the address's openings, RULING P51, or the user's caps, P16): it
                            # tries again later, as a page told to wait would, not at once in a loop
                            # (a flood of handshakes is the single user's, above).
                            counts["refused_at_open"] += 1
                            await asyncio.sleep(random.uniform(*RETRY_AFTER_REFUSAL))
                            continue
                        counts["opened"] += 1
                        into.append(ws)
                        try:
                            async for message in ws:
                                counts["refusals" if 'role="alert"' in message else "pushes"] += 1
                        finally:
                            into.remove(ws)
                        if time.monotonic() < stop_at:
                            counts["closed"] += 1
                except websockets.InvalidStatus:
                    counts["refused_at_open"] += 1  # at the handshake: tries again later, as above
                    await asyncio.sleep(random.uniform(*RETRY_AFTER_REFUSAL))
                except (TimeoutError, OSError, websockets.WebSocketException):
                    await asyncio.sleep(1.0)

        targets = [lobby_id] * 5 + [table_ids[(hash(session) + i) % len(table_ids)] for i in range(15)]
        holders = [
            asyncio.ensure_future(hold(table_id, lobby_sockets if table_id == lobby_id else other_sockets))
            for table_id in targets
        ]
        ready = False
        tick = 1.0 / ACCOUNT_RATE
        turn = 0
        while time.monotonic() < stop_at:
            await asyncio.sleep(tick)
            if kind == "ready":
                sockets = lobby_sockets
                ready = not ready
                frame = {"command": "ready", "entropy": secrets.token_hex(16)} if ready else {"command": "unready"}
            else:
                sockets = lobby_sockets + other_sockets
                frame = {"command": "resync"}
            if not sockets:
                continue
            turn += 1
            try:
                await sockets[turn % len(sockets)].send(json.dumps(frame))
                counts["sent"] += 1
            except websockets.WebSocketException:
                pass
        for holder in holders:
            holder.cancel()
        await asyncio.gather(*holders, return_exceptions=True)

    await asyncio.gather(*(account(*entry) for entry in accounts), return_exceptions=True)
    return counts


def accounts_process(ports, accounts, table_ids, kind, seconds, results) -> None:
    results.put(uvloop.run(flood_accounts(ports, accounts, table_ids, kind, seconds)))


@dataclass(frozen=True)
class Scenario:
    name: str
    accounts: int  # 0: the single user of issue 21, flooding with every kind of message
    addresses: int = 1
    kind: str = "resync"
    limit: float = P99_LIMIT


SCENARIOS = [
    Scenario("one user, every kind of message", 0),
    Scenario("5 accounts, 1 address, resync", 5),
    Scenario("10 accounts, 1 address, resync", 10),
    Scenario("10 accounts, 10 addresses, resync", 10, 10, limit=2.0),
    Scenario("5 accounts, 1 address, ready/unready", 5, kind="ready"),
    Scenario("10 accounts, 1 address, ready/unready", 10, kind="ready"),
    Scenario("10 accounts, 10 addresses, ready/unready", 10, 10, kind="ready", limit=2.0),
]


# --- the measurement ------------------------------------------------------------------------


def daphne_memory(site: Site) -> list[float]:
    import psutil

    return [psutil.Process(process.pid).memory_info().rss / 2**20 for process in site.daphnes]


def redis_memory(env: dict) -> float:
    import redis

    return redis.Redis.from_url(env["REDIS_URL"]).info("memory")["used_memory"] / 2**20


def abuser_addresses(count: int) -> list[str]:
    """The abusers' own loopback addresses, 127.0.0.2 on (the honest players are on 127.1.x.y)."""
    return [f"127.0.0.{2 + number}" for number in range(count)]


def start_abuser(args, site: Site, scenario: Scenario, table_ids, single, floods, seconds: float):
    spawn = multiprocessing.get_context("spawn")  # a fresh interpreter, not a fork of this running loop
    results = spawn.Queue()
    if scenario.accounts == 0:
        session, lobby_id = single
        ports = site.entry(args.proxy)
        arguments = (ports, session, table_ids, lobby_id, args.abuse_rate, seconds, args.abuser_sockets)
        target = abuser_process
    else:
        addresses = abuser_addresses(scenario.addresses)
        accounts = [
            (session, lobby_id, addresses[number % len(addresses)])
            for number, (session, lobby_id) in enumerate(floods[: scenario.accounts])
        ]
        target, arguments = accounts_process, (site.entry(args.proxy), accounts, table_ids, scenario.kind, seconds)
    process = spawn.Process(target=target, args=(*arguments, results))
    process.start()
    return process, results


async def run(args: argparse.Namespace, site: Site, players, table_ids, single, floods) -> list[str]:
    cpu = CpuMeter(site)
    bench = Bench()
    seats = args.seats
    tables = [
        TableRun(bench, table_id, players[i * seats : (i + 1) * seats], site.entry(args.proxy))
        for i, table_id in enumerate(table_ids)
    ]
    log(f"connecting {len(tables) * seats} seat clients")
    tasks = [asyncio.ensure_future(client.run()) for table in tables for client in table.clients]
    await asyncio.wait_for(asyncio.gather(*(c.connected.wait() for t in tables for c in t.clients)), 120)

    memory = {"start": daphne_memory(site)}
    chosen = [SCENARIOS[index] for index in args.scenarios]
    measured: dict[str, dict] = {}
    attack_seconds = args.warmup + args.seconds + 1
    # Interleaved (A B A B …): the machine's own noise (other work on it, the games' growing states)
    # falls on both halves of each pair alike; each pair gives one ratio.
    for scenario in chosen:
        entry = measured[scenario.name] = {"quiet": [], "abused": [], "ratios": [], "counts": None, "cpu": []}
        entry["memory_before"] = daphne_memory(site)
        for number in range(args.rounds):
            log(f"{scenario.name}: round {number + 1} of {args.rounds}, nobody else on the site")
            quiet = await measure_moves(
                bench, tables, rate=args.rate, warmup=args.warmup, seconds=args.seconds, cpu=cpu
            )
            log(f"{scenario.name}: round {number + 1} of {args.rounds}, with the abuser")
            process, results = start_abuser(args, site, scenario, table_ids, single, floods, attack_seconds)
            cpu.groups["abuser"] = [process.pid]  # its own CPU comes off the same two cores
            abused = await measure_moves(
                bench, tables, rate=args.rate, warmup=args.warmup, seconds=args.seconds, cpu=cpu
            )
            del cpu.groups["abuser"]
            entry["counts"] = await asyncio.to_thread(results.get, True, attack_seconds + 60)
            await asyncio.to_thread(process.join, 30)
            await asyncio.sleep(3)  # the abuser's sockets close; the next quiet half starts clean
            a, b = percentile(quiet["rtt"], 99), percentile(abused["rtt"], 99)
            # Issue 52: the median and p90 too, each a ratio of with over without in its pair.
            for share in (50, 90):
                entry.setdefault(f"ratios{share}", []).append(
                    percentile(abused["rtt"], share) / percentile(quiet["rtt"], share)
                )
            entry["quiet"].append(a)
            entry["abused"].append(b)
            entry["ratios"].append(b / a)
            entry["cpu"].append(sum(v for k, v in abused["cpu"].items() if k.startswith("daphne")))
            entry.setdefault("abuser_cpu", []).append(abused["cpu"].get("abuser", 0.0))
            entry.setdefault("quiet_cpu", []).append(sum(v for k, v in quiet["cpu"].items() if k.startswith("daphne")))
            entry.setdefault("errors", []).append((abused["errors"], abused["dropped"], abused["timeouts"]))
            log(
                f"  p99 {ms(a).strip()} ms without, {ms(b).strip()} ms with: {b / a:.2f}x; "
                f"p50 {entry['ratios50'][-1]:.2f}x, p90 {entry['ratios90'][-1]:.2f}x"
            )
        entry["memory_after"] = daphne_memory(site)
    memory["after"] = daphne_memory(site)

    bench.stopping = True
    for table in tables:
        for client in table.clients:
            if client.ws is not None:
                await client.ws.close()
    await asyncio.gather(*tasks, return_exceptions=True)

    mem = lambda values: " + ".join(f"{value:.0f}" for value in values)  # noqa: E731
    lines = [
        f"abuse benchmark: {len(tables)} {args.game} tables x {seats} seats at {args.rate:.0f} moves/s, "
        f"{len(site.ports)} Daphne process(es){' behind nginx (deploy/nginx/)' if site.front else ''}, "
        f"1 Celery worker, DEBUG off; machine: {machine()}",
        f"interleaved halves of {args.seconds:.0f} s (after {args.warmup:.0f} s warm-up), "
        f"{args.rounds} pairs per abuser; honest players on 127.1.x.y, one address per table; abusers on 127.0.0.2 on",
        f"many accounts: {SOCKETS_PER_ACCOUNT} sockets each tried (5 on its own lobby), "
        f"{ACCOUNT_RATE:.0f} messages/s each",
        "",
        f"  {'abuser':<42}{'p99 without':>12}{'p99 with':>10}{'ratio median':>14}{'spread':>14}"
        f"{'Daphne CPU':>13}{'abuser CPU':>11}  errors/drops/timeouts",
    ]
    checks = []
    for scenario in chosen:
        entry = measured[scenario.name]
        ratios = sorted(entry["ratios"])
        median = statistics.median(ratios)
        lines.append(
            f"  {scenario.name:<42}{ms(statistics.median(entry['quiet'])):>12}"
            f"{ms(statistics.median(entry['abused'])):>10}"
            f"{median:>13.2f}x{f'{ratios[0]:.2f}–{ratios[-1]:.2f}x':>14}"
            f"{statistics.median(entry['quiet_cpu']):>6.0f}→{statistics.median(entry['cpu']):.0f}%"
            f"{statistics.median(entry['abuser_cpu']):>10.0f}%"
            f"  {' '.join('/'.join(map(str, e)) for e in entry['errors'])}"
        )
        for share in (50, 90):
            shares = sorted(entry[f"ratios{share}"])
            lines.append(
                f"      p{share} with / without: median {statistics.median(shares):.2f}x, "
                f"spread {shares[0]:.2f}–{shares[-1]:.2f}x over {len(shares)} pairs"
            )
        lines.append(
            "      the abuser got (last round): "
            + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in entry["counts"].items())
        )
        checks.append(
            load.check(f"{scenario.name}: median ratio {median:.2f}x <= {scenario.limit}x", median <= scenario.limit)
        )
        before, after = entry["memory_before"], entry["memory_after"]
        checks.append(
            load.check(
                f"{scenario.name}: Daphne memory {mem(after)} MiB after its last half, <= 1.5x + 50 MiB of "
                f"{mem(before)} before its first",
                max(after) <= max(before) * 1.5 + 50,
            )
        )
    lines += [
        "",
        f"  Daphne memory MiB: {mem(memory['start'])} at the start, {mem(memory['after'])} after the last abuser",
        "",
        "targets (issues 21 and 34)",
        *checks,
    ]
    return lines


def open_lobby(abuser_id: int, game: str, seats: int, options: dict) -> int:
    from accounts.models import User
    from tables.services import lobby

    table = lobby.table_create(host=User.objects.get(pk=abuser_id), game=game, seat_count=seats, options=options)
    return table.pk


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--game", default="estimation")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--options", default='{"length": "full"}')
    parser.add_argument("--rate", type=float, default=50.0, help="honest moves/s offered")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds per run")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--daphne", type=int, default=1, help="Daphne processes")
    parser.add_argument("--abuse-rate", type=float, default=100.0, help="messages/s the abuser sends per socket")
    parser.add_argument(
        "--abuser-sockets",
        type=int,
        default=ABUSER_SOCKETS,
        help="sockets the single user keeps (re)opening, 5 on its own lobby (issue 52: 10)",
    )
    parser.add_argument("--rounds", type=int, default=3, help="pairs of halves (without, with) per abuser")
    parser.add_argument(
        "--scenarios",
        default=",".join(str(number) for number in range(len(SCENARIOS))),
        help="which abusers, by number: "
        + "; ".join(f"{number} {scenario.name}" for number, scenario in enumerate(SCENARIOS)),
    )
    parser.add_argument(
        "--proxy",
        choices=["direct", "nginx"],
        default="direct",
        help="nginx: honest players and abusers all through nginx (deploy/nginx/), each from its own address",
    )
    parser.add_argument("--quick", action="store_true", help="10 tables at 5 moves/s, 5-second halves, 1 pair")
    args = parser.parse_args()
    args.scenarios = [int(number) for number in args.scenarios.split(",")]
    if args.quick:
        args.tables, args.rate, args.seconds, args.warmup, args.rounds = 10, 5.0, 5.0, 2.0, 1
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    env, services = load.bench_environment()
    log(f"migrating {load.BENCH_DB}")
    subprocess.run([str(BIN / "python"), "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    load.setup_django(env)
    log("creating players and tables")
    options = json.loads(args.options)
    players = load.make_players(args.tables * args.seats, "p")
    table_ids = load.open_tables(players, game=args.game, seats=args.seats, options=options, start=True)
    abuser = load.make_players(1, "abuser")[0]
    single = (abuser[1], open_lobby(abuser[0], args.game, args.seats, options))
    # Issue 34: fresh accounts, each hosting a lobby of its own (where the ready/unready flood goes).
    floods = [
        (session, open_lobby(user_id, args.game, args.seats, options))
        for user_id, session in load.make_players(max(s.accounts for s in SCENARIOS), "flood")
    ]
    from django.db import connections

    connections.close_all()
    site = Site(env, args.daphne, ROOT / "test-artifacts" / "abuse-logs", proxy=args.proxy == "nginx")
    try:
        site.start()
        lines = uvloop.run(run(args, site, players, table_ids, single, floods))
    finally:
        site.stop()
        if services is not None:
            services.__exit__(None, None, None)
    print("\n".join(lines), flush=True)
    return 0


if __name__ == "__main__":
    random.seed(21)
    sys.exit(main())
