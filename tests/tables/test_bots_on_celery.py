"""Bot-only tables finish by themselves with a real Celery worker process (issue 6, RULING P1)."""

from __future__ import annotations

import os

import pytest
import redis
from django.conf import settings

from games.models import Match
from tables import services
from tests.helpers import wait_for
from tests.tables.helpers import open_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_task_queued_with_a_countdown_runs_on_a_real_worker(worker) -> None:
    from config.celery import ping

    client = redis.Redis.from_url(settings.REDIS_URL)
    key = f"test-ping-{os.getpid()}"
    client.delete(key)
    ping.apply_async((key,), countdown=1)
    assert wait_for(lambda: client.get(key) == b"pong", 30)


@pytest.mark.parametrize(("game", "options"), [("sitaratas", {"order": "down_up"}), ("estimation", {}), ("sita", {})])
def test_a_bot_only_table_finishes_by_itself(host, worker, game, options) -> None:
    table = open_table(host, game, options=options)
    table.seats.filter(position=0).update(user=None)
    for position in range(table.seat_count):
        services.bot_add(table_id=table.pk, host=host, position=position)
    match = services.table_start(table_id=table.pk, host=host)
    assert wait_for(lambda: Match.objects.get(pk=match.pk).status == Match.Status.FINISHED, 240)
    match.refresh_from_db()
    assert match.record["over"] is True


def test_a_table_of_strong_and_easy_bots_finishes_by_itself(host, worker) -> None:
    # Issue 25: the worker plays each seat at the level the host chose (RULING P45).
    table = open_table(host, "sita")
    table.seats.filter(position=0).update(user=None)
    for position, level in enumerate(("strong", "easy", "strong")):
        services.bot_add(table_id=table.pk, host=host, position=position, level=level)
    match = services.table_start(table_id=table.pk, host=host)
    assert wait_for(lambda: Match.objects.get(pk=match.pk).status == Match.Status.FINISHED, 240)
    levels = sorted(match.match_players.values_list("user__bot_level", flat=True))
    assert levels == ["easy", "strong", "strong"]
