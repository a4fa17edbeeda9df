"""A move's budget (issue 54): what one human move costs the site, counted, against a checked-in file.

One scripted move at a 4-seat Estimation tournament table, every seat a human, with all that a
busy site has open at the same time, each over Channels' ``WebsocketCommunicator`` on the real
Redis channel layer and the real PostgreSQL: the four seats' table sockets, a spectator's table
socket, a lobby viewer (the lobby's list is an htmx poll, polled once before the move; the page's
own socket is the bell's ``/ws/me/``), a friend of a seat's player with the bell's socket, and the
tournament's page socket. Everything the move causes from the moment the acting seat sends it
until every socket has had its push and a quiet spell has passed is counted (docs/design.md,
"How a move flows"): SQL statements on every connection and thread, Redis commands of the site's
clients (core/redis.py) and the channel layer's publishes, the layer's group sends, sends and the
messages it delivers to each socket, the Celery tasks queued, the renders, and the frames and
bytes each socket is sent. No bot moves after it (four humans), and none of the counts depends on
timing: the deal's seed and every name are fixed, and the presence heartbeat is kept out of the
window. All the sockets are in this test's one event loop: one Daphne process's worth.

Every count is printed (``-s`` shows them; a failure lists them all) and checked against
tests/tables/move_budget.json. Raising a budget is a change of its own, in a commit that says
which feature needs it and why; bringing a count down lowers its budget in the same change.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from pathlib import Path

import psycopg
import pytest
from celery.app.task import Task
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from channels_redis.pubsub import RedisPubSubLoopLayer, RedisSingleShardConnection
from django.test import Client
from django.urls import reverse
from redis.asyncio.client import Pipeline as AsyncPipeline
from redis.asyncio.client import Redis as AsyncRedis
from redis.client import Pipeline, Redis

from config.asgi import application
from core import redis as site_redis
from games.models import Match
from games.records import fairness as protocol
from notifications import live
from tables.live import layer_watch
from tables.render import fragment, regions
from tables.services import lobby, play
from tests.conftest import make_user
from tests.social.helpers import befriend
from tests.tables.helpers import state_of
from tests.tables.socket_helpers import connect, drain, session_cookie, version_of
from tests.tournaments.helpers import create, sign_up, staff, start
from tournaments import consumer as tournament_consumer
from tournaments import services
from tournaments.models import Round

# Transactional: the consumers work on threads of their own, on connections of their own. No id
# is in the pushes of a card played (the whole view's heading has the table's), so the bytes do
# not depend on what the tests before this one made.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

BUDGET = Path(__file__).with_name("move_budget.json")
SEED = 20261208  # the deal's, whatever the table's id and secret (so the move and its views are the same each run)
VALUE = "0123456789abcdef0123456789abcdef"  # every player's random value (RULING P31)
MOVES_BEFORE = 40  # at most, to the table's first trick with a card on it
QUIET = 0.5  # after the last push: what comes later is no longer the move's (nothing is asserted of time)


class Counts:
    """What the counted window saw; the wrappers below add to it from any thread."""

    def __init__(self) -> None:
        self.on = False
        self.lock = threading.Lock()
        self.sql: list[str] = []
        self.redis: Counter[str] = Counter()  # the site's clients: commands and round trips; the rest apart
        self.layer: Counter[str] = Counter()  # group_send, send, PUBLISH
        self.delivered: Counter[str] = Counter()  # by channel name
        self.commits: Counter[str] = Counter()
        self.tasks: list[str] = []
        self.renders: Counter[str] = Counter()

    def add(self, what: Counter, key: str, count: int = 1) -> None:
        if self.on:
            with self.lock:
                what[key] += count


def _site_pools() -> set[int]:
    clients = [*site_redis._async_clients.values(), *site_redis._sync_clients.values()]
    return {id(client.connection_pool) for client in clients}


@pytest.fixture
def counts(monkeypatch, settings) -> Counts:
    counts = Counts()
    # RULING P17's heartbeat renews every socket each 15 s: kept out of the window.
    settings.PRESENCE_HEARTBEAT_SECONDS = 3600
    monkeypatch.setattr(layer_watch, "CHECK_SECONDS", 3600.0)

    # SQL: every statement on every connection of every thread (the consumers' pool threads have
    # their own), counted where psycopg sends it. Django's execute wrappers would miss the move's
    # own statements: tables/matchstore.py runs them on psycopg cursors of its own (server-side
    # binding), past Django's cursor wrapper. BEGIN is psycopg's, sent with the first statement; a
    # commit is counted apart.
    execute, executemany, commit = psycopg.Cursor.execute, psycopg.Cursor.executemany, psycopg.Connection.commit

    def counted_execute(self, query, *args, **kwargs):
        if counts.on:
            with counts.lock:
                counts.sql.append(query if isinstance(query, str) else repr(query))
        return execute(self, query, *args, **kwargs)

    def counted_executemany(self, query, *args, **kwargs):
        if counts.on:
            with counts.lock:
                counts.sql.append(f"(many) {query}")
        return executemany(self, query, *args, **kwargs)

    def counted_commit(self) -> None:
        counts.add(counts.commits, "COMMIT")
        return commit(self)

    monkeypatch.setattr(psycopg.Cursor, "execute", counted_execute)
    monkeypatch.setattr(psycopg.Cursor, "executemany", counted_executemany)
    monkeypatch.setattr(psycopg.Connection, "commit", counted_commit)

    # Redis: a command of a client, or a pipeline (one round trip, its commands each counted).
    def source(client) -> str:
        return "site" if id(client.connection_pool) in _site_pools() else "other"

    def command(original):
        def sync(self, *args, **options):
            counts.add(counts.redis, f"{source(self)}: {args[0]}")
            counts.add(counts.redis, f"{source(self)} commands")
            counts.add(counts.redis, f"{source(self)} round trips")
            return original(self, *args, **options)

        async def asynchronous(self, *args, **options):
            counts.add(counts.redis, f"{source(self)}: {args[0]}")
            counts.add(counts.redis, f"{source(self)} commands")
            counts.add(counts.redis, f"{source(self)} round trips")
            return await original(self, *args, **options)

        return asynchronous if original is AsyncRedis.execute_command else sync

    def pipeline(original, asynchronous: bool):
        def count(self) -> None:
            for queued_command in self.command_stack:
                counts.add(counts.redis, f"{source(self)}: {queued_command[0][0]} (pipelined)")
            counts.add(counts.redis, f"{source(self)} commands", len(self.command_stack))
            counts.add(counts.redis, f"{source(self)} round trips")

        def sync(self, *args, **kwargs):
            count(self)
            return original(self, *args, **kwargs)

        async def run(self, *args, **kwargs):
            count(self)
            return await original(self, *args, **kwargs)

        return run if asynchronous else sync

    monkeypatch.setattr(Redis, "execute_command", command(Redis.execute_command))
    monkeypatch.setattr(AsyncRedis, "execute_command", command(AsyncRedis.execute_command))
    monkeypatch.setattr(Pipeline, "execute", pipeline(Pipeline.execute, False))
    monkeypatch.setattr(AsyncPipeline, "execute", pipeline(AsyncPipeline.execute, True))

    # The channel layer (channels_redis's pub/sub layer, on connections of its own).
    def layer_method(name: str, original):
        async def counted(self, *args, **kwargs):
            counts.add(counts.layer, name)
            return await original(self, *args, **kwargs)

        return counted

    monkeypatch.setattr(RedisPubSubLoopLayer, "group_send", layer_method("group_send", RedisPubSubLoopLayer.group_send))
    monkeypatch.setattr(RedisPubSubLoopLayer, "send", layer_method("send", RedisPubSubLoopLayer.send))
    monkeypatch.setattr(
        RedisSingleShardConnection, "publish", layer_method("PUBLISH", RedisSingleShardConnection.publish)
    )
    receive = RedisPubSubLoopLayer.receive

    async def received(self, channel):
        message = await receive(self, channel)
        counts.add(counts.delivered, channel)
        return message

    monkeypatch.setattr(RedisPubSubLoopLayer, "receive", received)

    # Celery tasks queued (their broker's Redis commands are the "other" ones above).
    apply_async = Task.apply_async

    def queued(self, *args, **kwargs):
        if counts.on:
            with counts.lock:
                counts.tasks.append(self.name)
        return apply_async(self, *args, **kwargs)

    monkeypatch.setattr(Task, "apply_async", queued)

    # Renders: the table's fragment (tables/render/fragment.py), the tournament's standings, the bell's frame.
    def rendering(module, name: str, label: str):
        original = getattr(module, name)

        def counted(*args, **kwargs):
            counts.add(counts.renders, label)
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)

    rendering(fragment, "render_live", "table fragment")
    rendering(tournament_consumer, "standings_render", "tournament standings")
    rendering(live, "bell_frame", "bell frame")
    return counts


def _table(names: dict[str, str]):
    """A running tournament's round-1 table: four humans, all ready, started with a fixed seed."""
    organiser = staff()
    seated = [make_user(name) for name in names["seats"]]
    others = {role: make_user(names[role]) for role in ("spectator", "lobby", "friend")}
    befriend(others["friend"], seated[0])
    tournament = create(organiser)
    sign_up(tournament, seated)
    start(tournament)
    round_ = Round.objects.get(tournament=tournament, number=1)
    (round_table,) = round_.tables.all()
    for user in seated:
        lobby.seat_ready(table_id=round_table.table_id, user=user, ready=True, entropy=VALUE)
    services.round_tables_start(round_id=round_.pk, now=round_.tables_start_at)
    match = Match.objects.get(table_id=round_table.table_id)
    seat_users = {seat.position: seat.user for seat in round_table.table.seats.select_related("user")}
    # On to a trick with a card on it: the counted move is a card played, as most of a game's are
    # (the deal's first moves change the screen's outline, and are sent whole).
    engine, state = state_of(match)
    for _ in range(MOVES_BEFORE):
        if state.phase == "playing" and state.trick:
            break
        seat = engine.to_act(state)[0]
        play.match_act(
            match_id=match.pk, user=seat_users[seat], action=engine.legal_actions(state, seat)[0], version=match.version
        )
        engine, state = state_of(match)
    assert state.phase == "playing" and state.trick, state.phase
    acting = engine.to_act(state)[0]
    action = engine.legal_actions(state, acting)[0]
    return tournament, round_table.table, match, seat_users, acting, action, others


def _lobby_poll(user) -> None:
    client = Client()
    client.force_login(user)
    assert client.get(reverse("lobby"), headers={"HX-Request": "true"}).status_code == 200


async def _page_socket(user) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    headers.append((b"cookie", (await session_cookie(user)).encode()))
    communicator = WebsocketCommunicator(application, "/ws/me/", headers=headers)
    assert (await communicator.connect(timeout=5))[0]
    return communicator


async def _tournament_socket(tournament_id: int, user) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    headers.append((b"cookie", (await session_cookie(user)).encode()))
    communicator = WebsocketCommunicator(application, f"/ws/tournaments/{tournament_id}/", headers=headers)
    assert (await communicator.connect(timeout=5))[0]
    return communicator


def measured(counts: Counts, sockets: dict[str, WebsocketCommunicator], channels: dict[str, str], sent: dict) -> dict:
    seats = [name for name in sockets if name.startswith("seat")]
    frames = {name: len(texts) for name, texts in sent.items()}
    sizes = {name: sum(len(text.encode()) for text in texts) for name, texts in sent.items()}
    delivered = {name: counts.delivered[channel] for name, channel in channels.items()}
    return {
        "sql_statements": len(counts.sql),
        "sql_commits": counts.commits["COMMIT"],
        "redis_commands_site": counts.redis["site commands"],
        "redis_round_trips_site": counts.redis["site round trips"],
        # The rest of Redis: the channel layer's PUBLISHes (counted below) and the Celery broker's.
        "redis_commands_celery_broker": counts.redis["other commands"] - counts.layer["PUBLISH"],
        "layer_group_sends": counts.layer["group_send"],
        "layer_sends": counts.layer["send"],
        "layer_publishes": counts.layer["PUBLISH"],
        "layer_messages_delivered": sum(delivered.values()),
        "layer_messages_per_seat_socket": max(delivered[name] for name in seats),
        "layer_messages_spectator": delivered["spectator"],
        "layer_messages_lobby_viewer": delivered["lobby"],
        "layer_messages_friend_bell": delivered["friend"],
        "layer_messages_tournament_page": delivered["tournament"],
        "celery_tasks_queued": len(counts.tasks),
        "renders_table_fragment": counts.renders["table fragment"],
        "renders_other": counts.renders["tournament standings"] + counts.renders["bell frame"],
        # tables/render/regions.py: what a push sends, decided by comparing each socket's last view
        # with the new one (both cached: computed once for the sockets that share them).
        "region_diffs": counts.renders["region diffs"],
        "region_scans": counts.renders["region scans"],
        "frames_per_seat_socket": max(frames[name] for name in seats),
        "frames_spectator": frames["spectator"],
        "frames_others": sum(frames[name] for name in ("lobby", "friend", "tournament")),
        "bytes_per_seat_socket": max(sizes[name] for name in seats),
        "bytes_all_seats": sum(sizes[name] for name in seats),
        "bytes_spectator": sizes["spectator"],
        "bytes_others": sum(sizes[name] for name in ("lobby", "friend", "tournament")),
    }


def report(found: dict, budget: dict, counts: Counts, sent: dict) -> str:
    lines = [f"{'count':34} {'budget':>8} {'measured':>9}"]
    for name, value in found.items():
        limit = budget.get(name, {}).get("budget")
        flag = "  OVER" if limit is not None and value > limit else ""
        lines.append(f"{name:34} {limit if limit is not None else '-':>8} {value:>9}{flag}")
    lines.append(f"per socket: frames { ({k: len(v) for k, v in sent.items()}) }")
    lines.append(f"per socket: bytes { ({k: sum(len(t.encode()) for t in v) for k, v in sent.items()}) }")
    lines.append(f"tasks queued: {Counter(counts.tasks)}")
    lines.append(f"renders: {dict(counts.renders)}")
    lines.append(f"redis: {dict(counts.redis)}")
    lines.append("SQL statements:")
    lines += [f"  {sql[:160]}" for sql in counts.sql]
    return "\n".join(lines)


async def test_one_move_stays_within_its_budget(monkeypatch, counts: Counts) -> None:
    derive = protocol.derive_seed_v2
    monkeypatch.setattr(protocol, "derive_seed_v2", lambda *args: (derive(*args)[0], SEED))
    names = {"seats": ["ahti", "brita", "cyril", "dora"], "spectator": "eino", "lobby": "fanny", "friend": "gusti"}
    tournament, table, match, seat_users, acting, action, others = await database_sync_to_async(_table)(names)
    await database_sync_to_async(_lobby_poll)(others["lobby"])

    # Each socket's layer channel: the one the layer makes as it opens (one socket at a time).
    made: list[str] = []
    new_channel = RedisPubSubLoopLayer.new_channel

    async def named(self, *args, **kwargs):
        name = await new_channel(self, *args, **kwargs)
        made.append(name)
        return name

    monkeypatch.setattr(RedisPubSubLoopLayer, "new_channel", named)
    sockets: dict[str, WebsocketCommunicator] = {}
    channels: dict[str, str] = {}

    async def opened(name: str, opening) -> None:
        before = len(made)
        sockets[name] = await opening
        assert len(made) == before + 1, name
        channels[name] = made[-1]

    for position, user in sorted(seat_users.items()):
        await opened(f"seat{position}", _connected(table.pk, user))
    await opened("spectator", _connected(table.pk, others["spectator"]))
    await opened("lobby", _page_socket(others["lobby"]))
    await opened("friend", _page_socket(others["friend"]))
    await opened("tournament", _tournament_socket(tournament.pk, others["lobby"]))  # the lobby viewer's other tab
    for communicator in sockets.values():  # the openings' views, presence pushes and bells
        await drain(communicator, quiet=QUIET)

    diffs, scans = regions.changes.cache_info().misses, regions.scan.cache_info().misses
    counts.on = True
    acting_socket = sockets[f"seat{acting}"]
    await acting_socket.send_json_to({"command": "act", "action": action, "version": match.version})
    # The frames as sent (socket_helpers' receive would make each push of regions the whole view).
    sent: dict[str, list[str]] = {name: [] for name in sockets}
    for name in [*(f"seat{position}" for position in sorted(seat_users)), "spectator"]:
        while (version_of(sent[name][-1]) if sent[name] else None) != match.version + 1:
            sent[name].append(await sockets[name].receive_from(timeout=5))
    for name, communicator in sockets.items():
        while not await communicator.receive_nothing(timeout=QUIET):
            sent[name].append(await communicator.receive_from())
    counts.on = False
    counts.renders["region diffs"] = regions.changes.cache_info().misses - diffs
    counts.renders["region scans"] = regions.scan.cache_info().misses - scans
    for communicator in sockets.values():
        await communicator.disconnect()

    moved = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    assert moved.version == match.version + 1  # the one move, and no other (no bot sits here)
    budget = json.loads(BUDGET.read_text())["counts"]
    found = measured(counts, sockets, channels, sent)
    text = report(found, budget, counts, sent)
    print(text)
    assert set(found) == set(budget), f"the budget file and the test name different counts\n{text}"
    over = [name for name, value in found.items() if value > budget[name]["budget"]]
    assert not over, f"over budget: {', '.join(over)}\n{text}"


async def _connected(table_id: int, user) -> WebsocketCommunicator:
    communicator, connected = await connect(table_id, user)
    assert connected
    return communicator
