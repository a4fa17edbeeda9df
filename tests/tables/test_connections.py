"""A connection that died while idle costs one retry, not a lost move (tables/connections.py).

Health checks are off (issue 9), so a reused connection is tested only by its next query.
These kill the connection's server process for real, as a database restart would.
"""

from __future__ import annotations

import psycopg
import pytest
from django.conf import settings
from django.db import OperationalError, connection

from games.models import Match, MatchEvent
from tables import tasks
from tables.connections import retry_on_dead_connection
from tables.live.commands import run_command
from tables.live.messages import Message
from tests.helpers import fair_value
from tests.tables.helpers import fill_with_bots, open_table, start_sitaratas_with_a_bot, state_of

pytestmark = pytest.mark.django_db(transaction=True)


def kill_this_threads_connection() -> None:
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    database = settings.DATABASES["default"]
    with psycopg.connect(
        host=database["HOST"],
        port=database["PORT"],
        user=database["USER"],
        password=database["PASSWORD"],
        dbname=database["NAME"],
        autocommit=True,
    ) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_health_checks_are_off() -> None:
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is False


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
    from tables import services

    services.bot_add(table_id=table.pk, host=host, position=0)
    match = services.table_start(table_id=table.pk, host=host, entropy=fair_value())
    kill_this_threads_connection()

    assert tasks.bots_move(match.pk, match.version) == 3  # every bot chose, in one transaction
    assert Match.objects.get(pk=match.pk).version == match.version + 3


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
