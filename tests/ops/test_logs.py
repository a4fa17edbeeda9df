"""JSON logs (issue 28): one line per request, socket command and task, with ids and no hidden card."""

from __future__ import annotations

import json
import logging

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from core.logs import JsonFormatter, task_done
from games.models import Match
from tests.tables.helpers import open_table, start_table, state_of
from tests.tables.socket_helpers import connect, drain, receive_until_version


def lines(caplog, logger: str) -> list[dict]:
    formatter = JsonFormatter()
    return [json.loads(formatter.format(record)) for record in caplog.records if record.name == logger]


@pytest.mark.django_db
def test_a_request_is_one_json_line_with_its_route_status_and_ids(caplog, host) -> None:
    table = open_table(host, "sita")
    client = Client()
    client.force_login(host)
    with caplog.at_level(logging.INFO, logger="ops.request"):
        assert client.get(f"/tables/{table.pk}/").status_code == 200
    [line] = lines(caplog, "ops.request")
    assert line["route"] == "/tables/<int:table_id>/" and line["table_id"] == table.pk
    assert (line["method"], line["status"], line["user_id"]) == ("GET", 200, host.pk)
    assert line["ms"] >= 0 and line["level"] == "INFO" and line["time"].endswith("+00:00")


def test_a_task_line_keeps_only_its_integer_arguments(caplog) -> None:
    with caplog.at_level(logging.INFO, logger="ops.task"):
        task_done(task="tables.tasks.bots_move", task_id="abc", args=(12, 7, "secret"), state="SUCCESS", seconds=0.01)
    [line] = lines(caplog, "ops.task")
    assert line["task_args"] == [12, 7] and line["task"] == "tables.tasks.bots_move" and line["ms"] == 10.0


@database_sync_to_async
def start_sita(host, player):
    return start_table(host, "sita", seat_count=3, guests=[player])


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_socket_command_is_one_line_with_its_ids_and_never_the_card_chosen(caplog, host, player) -> None:
    table, match = await start_sita(host, player)
    socket, _ = await connect(table.pk, player)
    await drain(socket)
    engine, state = await database_sync_to_async(state_of)(match)
    match = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    action = engine.legal_actions(state, 1)[-1]  # SITA: a hidden choice until every seat has chosen
    with caplog.at_level(logging.INFO, logger="ops.socket"):
        await socket.send_json_to({"command": "act", "action": action, "version": match.version})
        await receive_until_version(socket, match.version + 1)
    await socket.disconnect()
    [line] = lines(caplog, "ops.socket")
    assert line["command"] == "act" and line["outcome"] == "ok" and line["version"] == match.version
    assert (line["table_id"], line["match_id"], line["user_id"]) == (table.pk, match.pk, player.pk)
    # Nothing of the message itself: no action, so no card.
    assert set(line) == {
        "time",
        "level",
        "logger",
        "message",
        "command",
        "table_id",
        "match_id",
        "user_id",
        "version",
        "outcome",
        "ms",
    }
