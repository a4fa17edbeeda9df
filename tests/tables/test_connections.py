"""A connection that died while idle costs one retry, not a lost move (core/connections.py).

Without a pool, health checks are off (issue 9), so a reused connection is tested only by its
next query; with one (a Daphne process, issue 34) each connection is checked as it is lent, and
one can still die under the work. These kill the connection's server process for real, as a
database restart would.
"""

from __future__ import annotations

import os

import psycopg
import pytest
from django.conf import settings
from django.db import OperationalError, connection

from core.connections import retry_on_dead_connection
from games.models import Match, MatchEvent
from tables import tasks
from tables.live.commands import run_command
from tables.live.messages import Message
from tables.models import Table
from tests.helpers import fair_value
from tests.tables.helpers import fill_with_bots, open_table, start_sitaratas_with_a_bot, state_of

# Transactional: these kill the test's own connection, and a transaction around the test with it.
pytestmark = pytest.mark.django_db(transaction=True)


def kill_this_threads_connection() -> None:
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    with psycopg.connect(**admin_parameters(), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])


def admin_parameters() -> dict:
    database = settings.DATABASES["default"]
    return {
        "host": database["HOST"],
        "port": database["PORT"],
        "user": database["USER"],
        "password": database["PASSWORD"],
        "dbname": database["NAME"],
    }


@pytest.mark.django_db  # plain: its connection stays alive
def test_health_checks_are_off_where_no_pool_lends_connections() -> None:
    # This process connects plainly (only Daphne's pool checks what it lends, config/database.py).
    assert "pool" not in settings.DATABASES["default"]["OPTIONS"]
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is False


@pytest.fixture
def pooled(transactional_db):
    """This process's connections borrowed from a pool of two, as a Daphne process's are."""
    database = connection.settings_dict
    saved = {key: database[key] for key in ("OPTIONS", "CONN_HEALTH_CHECKS")}
    name = f"pooltest{os.getpid()}"
    connection.close()
    database["OPTIONS"] = {**saved["OPTIONS"], "application_name": name, "pool": {"min_size": 1, "max_size": 2}}
    database["CONN_HEALTH_CHECKS"] = True
    try:
        yield name
    finally:
        connection.close()
        connection.close_pool()
        database.update(saved)


def kill_pooled_connections(name: str) -> int:
    """End every connection the pool holds, idle or lent, as a PostgreSQL restart would."""
    with psycopg.connect(**admin_parameters(), autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s", [name]
        ).fetchall()
    return len(rows)


def test_a_pooled_connection_that_died_idle_is_replaced_before_any_work_sees_it(pooled, host) -> None:
    table = open_table(host, "sita", seat_count=3)
    connection.close()  # given back to the pool, idle there
    assert kill_pooled_connections(pooled) >= 1
    calls = []

    @retry_on_dead_connection
    def read() -> str:
        calls.append(1)
        return Table.objects.get(pk=table.pk).game

    assert read() == "sita"
    assert calls == [1]  # the pool's check replaced it: no failed try


def test_a_pooled_connection_that_dies_during_the_work_is_retried_on_a_new_one(pooled, host) -> None:
    table = open_table(host, "sita", seat_count=3)
    connection.close()  # as after every call on a Daphne process: the thread holds none
    calls = []

    @retry_on_dead_connection
    def read() -> str:
        calls.append(1)
        if len(calls) == 1:
            kill_pooled_connections(pooled)
        return Table.objects.get(pk=table.pk).game

    assert read() == "sita"
    assert calls == [1, 1]


def test_a_move_on_a_dead_connection_is_made_once_on_a_new_one(host, player) -> None:
    match = start_sitaratas_with_a_bot(host, player)
    engine, state = state_of(match)
    seat = engine.to_act(state)[0]
    user = host if seat == 0 else player
    action = engine.legal_actions(state, seat)[0]
    kill_this_threads_connection()

    run_command(
        Message(command="act", action=action, version=match.version),
        table_id=match.table_id,
        match_id=match.pk,
        user=user,
    )

    after = Match.objects.get(pk=match.pk)
    assert after.version == match.version + 1
    assert MatchEvent.objects.filter(match=match, version=after.version, seat=seat).count() == 1


def test_a_bot_task_on_a_dead_connection_still_moves(host) -> None:
    table = open_table(host, "sita", seat_count=3)
    fill_with_bots(table, host)
    table.seats.filter(position=0).update(user=None)  # the host's seat goes to a bot too
    from tables.services import lobby

    lobby.bot_add(table_id=table.pk, host=host, position=0)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    kill_this_threads_connection()

    assert tasks.bots_move(match.pk, match.version) == 3  # every bot chose, in one transaction
    assert Match.objects.get(pk=match.pk).version == match.version + 3


@pytest.mark.django_db  # plain: its connection stays alive
def test_an_error_on_a_live_connection_is_raised_not_retried() -> None:
    connection.ensure_connection()
    calls = []

    @retry_on_dead_connection
    def timed_out() -> None:
        calls.append(1)
        raise OperationalError("canceling statement due to lock timeout")

    with pytest.raises(OperationalError):
        timed_out()
    assert calls == [1]
