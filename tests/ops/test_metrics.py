"""The Prometheus endpoint (issue 28): behind its token, and its values move when a move is made."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import AsyncClient, Client
from prometheus_client.parser import text_string_to_metric_families

from games.models import Match
from tests.tables.helpers import start_table, state_of
from tests.tables.socket_helpers import connect, drain, receive_until_version

TOKEN = "metrics-token-for-the-tests-0123456789"


def samples(text: str) -> dict[tuple, float]:
    """(sample name, sorted labels) -> value, from the exposition text."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def scrape() -> dict[tuple, float]:
    response = await AsyncClient().get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    return samples(response.content.decode())


def value(scraped: dict, name: str, **labels) -> float:
    return scraped.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.mark.django_db
def test_without_a_token_set_there_is_no_endpoint_and_a_wrong_token_is_refused(settings) -> None:
    settings.METRICS_TOKEN = ""
    assert Client().get("/metrics").status_code == 404
    settings.METRICS_TOKEN = TOKEN
    assert Client().get("/metrics").status_code == 401
    assert Client().get("/metrics", headers={"Authorization": "Bearer not-the-token"}).status_code == 401
    assert Client().get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200


@pytest.mark.django_db
def test_prometheus_scrapes_plain_http_where_every_other_page_goes_to_https(settings) -> None:
    settings.METRICS_TOKEN, settings.SECURE_SSL_REDIRECT = TOKEN, True
    assert Client().get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
    assert Client().get("/health/").status_code == 301


@database_sync_to_async
def start_sitaratas(host, player):
    return start_table(host, "sitaratas", seat_count=3, guests=[player])


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_move_over_the_socket_moves_the_scraped_values(host, player, settings, eager_bots) -> None:
    settings.METRICS_TOKEN = TOKEN
    before = await scrape()
    table, match = await start_sitaratas(host, player)
    sockets = [(await connect(table.pk, user))[0] for user in (host, player)]
    for socket in sockets:
        await drain(socket)
    opened = await scrape()
    assert value(opened, "sitaratas_open_sockets") == value(before, "sitaratas_open_sockets") + 2
    # RULING P6: the start used a pass per player: two committed ledger transfers.
    assert (
        value(opened, "sitaratas_ledger_transfers_total", asset="passes", reason="pass_use")
        == value(before, "sitaratas_ledger_transfers_total", asset="passes", reason="pass_use") + 2
    )

    engine, state = await database_sync_to_async(state_of)(match)
    match = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    seat = engine.to_act(state)[0]
    socket = sockets[seat]
    action = engine.legal_actions(state, seat)[0]
    await socket.send_json_to({"command": "act", "action": action, "version": match.version})
    await receive_until_version(socket, match.version + 1)
    await socket.send_json_to({"command": "act", "action": action, "version": match.version})  # now stale
    assert any("moved on" in reply for reply in await drain(socket))
    after = await scrape()

    moves = value(after, "sitaratas_moves_total", game="sitaratas") - value(
        opened, "sitaratas_moves_total", game="sitaratas"
    )
    assert moves >= 1  # the player's move, and any bot move it let happen
    assert (
        value(after, "sitaratas_move_seconds_count", game="sitaratas")
        == value(opened, "sitaratas_move_seconds_count", game="sitaratas") + 1
    )
    assert value(after, "sitaratas_move_seconds_sum", game="sitaratas") > value(
        opened, "sitaratas_move_seconds_sum", game="sitaratas"
    )
    assert (
        value(after, "sitaratas_failed_moves_total", reason="stale")
        == value(opened, "sitaratas_failed_moves_total", reason="stale") + 1
    )
    # Every move since the first scrape but the player's one was a bot's, each timed once.
    bot_moves = (
        value(after, "sitaratas_moves_total", game="sitaratas")
        - value(before, "sitaratas_moves_total", game="sitaratas")
        - 1
    )
    assert (
        value(after, "sitaratas_bot_move_seconds_count", game="sitaratas")
        == value(before, "sitaratas_bot_move_seconds_count", game="sitaratas") + bot_moves
    )
    assert ("sitaratas_celery_queue_length", (("queue", settings.CELERY_TASK_DEFAULT_QUEUE),)) in after

    for socket in sockets:
        await socket.disconnect()
    closed = await scrape()
    assert value(closed, "sitaratas_open_sockets") == value(before, "sitaratas_open_sockets")


def test_every_metric_the_grafana_dashboard_plots_is_served(settings) -> None:
    import json
    import re
    from pathlib import Path

    from core.metrics import exposition

    dashboard = json.loads(
        (Path(__file__).resolve().parents[2] / "docs" / "ops" / "grafana-dashboard.json").read_text()
    )
    plotted = {
        re.sub(r"_(bucket|total)$", "", name)
        for panel in dashboard["panels"]
        for target in panel["targets"]
        for name in re.findall(r"sitaratas_\w+", target["expr"])
    }
    served = {family.name for family in text_string_to_metric_families(exposition().decode())}
    assert plotted and plotted <= served, plotted - served
