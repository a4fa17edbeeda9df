"""A game played across five hosts while one web host is cut off and then both restart (issue 43).

Hosts (tests/faults/hosts.py): a database host (PostgreSQL, reached over TCP), a Redis host, two
web hosts each running Daphne and a Celery worker, beat beside Redis (exactly one, off the web
hosts, as docs/ops.md advises), and
nginx on a fifth, configured as production is (deploy/nginx/). Network namespaces where they
can be made; else loopback aliases, each web host behind a fault proxy (tests/faults/forward.py)
that cuts it off. The test says which ran.

1. The web host holding the table's sockets is cut off mid-game (its link down: silence, no
   goodbye). nginx closes the silent sockets (its socket read timeout, after Daphne's pings stop)
   and the pages reconnect through it to the other host; the game goes on.
2. The host comes back; then a deploy: each web host's Daphne and worker are restarted in turn,
   during play. Every socket on the stopped one reconnects to the other.

Then the event log has every version once, by the right seat, and verify_matches is clean:
nothing lost, nothing doubled.
"""

from __future__ import annotations

import signal
import subprocess
import time
from dataclasses import dataclass, field

import psycopg
import pytest

from config import launch, processes, proxy, serve
from tests.faults.helpers import check_log_and_ledgers, current_version, play, scene
from tests.faults.hosts import Host, Network, established
from tests.faults.stack import PYTHON, Stack, launch_dsn, say, scratch
from tests.helpers import needs_tool

pytestmark = [
    pytest.mark.slow,
    needs_tool(proxy.nginx_binary(), "nginx is not installed (apt-get install nginx)"),
]

DAPHNE_PORT = 8000  # what nginx reaches on a web host
INNER_PORT = 8001  # behind the fault proxy, on loopback aliases


@dataclass
class WebHost:
    """Daphne and a Celery worker on one host; on loopback aliases, behind a fault proxy."""

    host: Host
    stack: Stack
    namespaces: bool
    daphne: subprocess.Popen | None = None
    worker: subprocess.Popen | None = None
    gate: subprocess.Popen | None = None
    restarts: int = field(default=0)

    @property
    def upstream(self) -> str:
        return f"{self.host.address}:{DAPHNE_PORT}"

    def start(self) -> None:
        port = DAPHNE_PORT if self.namespaces else INNER_PORT
        env, name = self.stack.env, self.host.name
        logs = {"log": self.stack._log(f"{name}-daphne"), "append": True}
        self.daphne = processes.start(self.host.command(*serve.command(self.host.address, port)), env=env, **logs)
        worker = processes.celery_worker_command(
            "--pool", "solo", "--without-mingle", "--without-gossip", "-n", f"{name}@%h", "--loglevel", "INFO"
        )
        self.worker = processes.start(
            self.host.command(*worker), env=env, log=self.stack._log(f"{name}-worker"), append=True
        )
        processes.wait_for_port(port, host=self.host.address, process=self.daphne, seconds=120)
        if not self.namespaces and self.gate is None:
            self.gate = processes.start(
                [PYTHON, "-m", "tests.faults.forward", self.upstream, f"{self.host.address}:{INNER_PORT}"],
                log=self.stack._log(f"{name}-gate"),
            )
            processes.wait_for_port(DAPHNE_PORT, host=self.host.address, process=self.gate)

    def stop(self) -> None:
        """A deploy's stop: SIGTERM, as systemd sends it (Daphne closes its sockets, the worker
        finishes its task)."""
        processes.stop([self.daphne, self.worker], seconds=20)
        self.restarts += 1

    def sockets(self) -> int:
        port = DAPHNE_PORT if self.namespaces else INNER_PORT
        return established(self.host, port)

    def close(self) -> None:
        processes.stop([self.daphne, self.worker, self.gate], seconds=5)


def test_a_game_across_five_hosts_with_a_web_host_cut_off_and_a_rolling_restart(template) -> None:
    network = Network()
    stack = None
    webs: list[WebHost] = []
    started: list[subprocess.Popen] = []
    front = None
    try:
        say(f"hosts: {network.describe()}")
        db, cache = network.host("db", 2), network.host("redis", 3)
        web_hosts = [network.host("web1", 11), network.host("web2", 12)]
        edge = network.host("nginx", 20)
        stack = Stack(scratch("hosts"), template, "five_hosts", DJANGO_BEHIND_PROXY="1")
        # A connection that vanished mid-transaction (its host cut off) must not hold its row locks
        # until TCP gives up, hours later: docs/ops.md asks the same of production.
        with psycopg.connect(launch_dsn(stack.database_url), autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET idle_in_transaction_session_timeout = '5s'")
            conn.execute("SELECT pg_reload_conf()")
        socket_path = f"{stack.postgres.pgdata}/.s.PGSQL.5432"
        forward = [PYTHON, "-m", "tests.faults.forward", f"{db.address}:5432", socket_path]
        started.append(processes.start(db.command(*forward), log=stack._log("db-forward")))
        processes.wait_for_port(5432, host=db.address, process=started[-1])
        redis = [launch.redis_binary(), "--bind", cache.address, "--port", "6379", "--save", "", "--appendonly", "no"]
        started.append(processes.start(cache.command(*redis), log=stack._log("redis-host")))
        processes.wait_for_port(6379, host=cache.address, process=started[-1])
        stack.env.update(
            {
                "DATABASE_URL": f"postgres://postgres@{db.address}:5432/{stack.database_url.rsplit('/', 1)[1]}",
                "REDIS_URL": f"redis://{cache.address}:6379/0",
                "DJANGO_ALLOWED_HOSTS": f"{edge.address},127.0.0.1,localhost",
            }
        )
        say(f"database host {db.address} (PostgreSQL over TCP), Redis host {cache.address}")
        webs = [WebHost(host, stack, network.namespaces) for host in web_hosts]
        for web in webs:
            web.start()
        say(f"web hosts {', '.join(web.host.address for web in webs)}: Daphne and a worker each")
        beat = processes.celery_beat_command(
            "--schedule", str(stack.directory / "celerybeat-schedule"), "--loglevel", "INFO"
        )
        started.append(processes.start(cache.command(*beat), env=stack.env, log=stack._log("beat"), append=True))
        say(f"beat on the Redis host {cache.address}: a web host cut off stops no sweep")
        front = proxy.LocalProxy(
            [web.upstream for web in webs],
            80 if network.namespaces else processes.free_port(),
            host=edge.address,
            static_root=stack.directory,
            prefix=stack.directory / "nginx",
            wrap=edge.wrap,
        )
        front.start()
        say(f"nginx host {edge.address}: deploy/nginx/sitaratas.conf in front of both web hosts")

        found = scene(stack)
        marks: dict[str, float | int] = {}

        def cut_then_deploy() -> None:
            holding = next((web for web in webs if web.sockets() >= 2), None)
            assert holding is not None, "no web host holds the table's two sockets"
            other = webs[1 - webs.index(holding)]
            version = current_version(stack, found)
            marks["cut_at"], marks["cut_version"] = time.monotonic(), version
            if network.namespaces:
                network.cut(holding.host)
                say(f"at version {version}: cut {holding.host.name} off (its link down), which held both sockets")
            else:
                holding.gate.send_signal(signal.SIGUSR1)
                holding.worker.send_signal(signal.SIGSTOP)
                say(f"at version {version}: cut {holding.host.name} off (its fault proxy silent, its worker frozen)")
            wait_for(lambda: current_version(stack, found) >= version + 6, 120, "the game did not go on after the cut")
            marks["recovered"] = time.monotonic() - marks["cut_at"]
            assert other.sockets() >= 2, "the players did not reconnect to the other web host"
            say(
                f"checked: both sockets reconnected through nginx to {other.host.name}; the game was 6 moves on "
                f"{marks['recovered']:.0f} s after the cut"
            )
            if network.namespaces:
                network.mend(holding.host)
            else:
                holding.gate.send_signal(signal.SIGUSR2)
                holding.worker.send_signal(signal.SIGCONT)
            say(f"{holding.host.name} is back on the network")
            marks["deploy_at"] = time.monotonic()
            for web in webs:
                version = current_version(stack, found)
                web.stop()
                say(f"deploy: stopped {web.host.name} (SIGTERM to Daphne and its worker) at version {version}")
                web.start()
                say(f"deploy: started {web.host.name} again")
                wait_for(lambda v=version: current_version(stack, found) >= v + 3, 60, "play stopped in the deploy")
            marks["deploy_done"] = time.monotonic()

        entry = (edge.address, front.port)
        game = play(stack, found, fault_at=6, fault=cut_then_deploy, moves_after=6, timeout=300, entry=entry)

        for player in game.players:
            during = [when for when, _ in player.views if marks["deploy_at"] <= when <= marks["deploy_done"]]
            gaps = [later - earlier for earlier, later in zip(during, during[1:])]
            longest = max(gaps, default=0.0)
            # The page's reconnect waits at most 4 s (static/js/table.js); with the handshake and the
            # other seats' think time, a player refused for longer than that would show a gap far over it.
            assert longest < 20, f"seat {player.seat + 1} saw nothing for {longest:.1f} s during the deploy"
            say(
                f"checked: seat {player.seat + 1} reconnected {len(player.ports_used) - 1} time(s); longest wait "
                f"between two views during the deploy {longest:.1f} s; moves pressed again after a refusal "
                f"{player.retried}"
            )
        check_log_and_ledgers(stack, found)
    finally:
        if front is not None:
            front.stop()
        for web in webs:
            web.close()
        processes.stop(started, seconds=5)
        if stack is not None:
            stack.close()
        network.close()


def wait_for(condition, seconds: float, message: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, message
        time.sleep(0.2)
