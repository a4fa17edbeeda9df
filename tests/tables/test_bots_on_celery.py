"""Bot-only tables finish by themselves with a real Celery worker process (issue 6, RULING P1)."""

from __future__ import annotations

import pytest

from games.models import Match
from tables.services import lobby
from tables.tasks import close_idle_lobbies
from tests.helpers import fair_value, wait_for
from tests.tables.helpers import idle_lobby, is_closed, open_table

# Transactional: another process (a Celery worker, Daphne) reads what the test writes.
pytestmark = pytest.mark.django_db(transaction=True)


def test_a_task_queued_with_a_countdown_runs_on_a_real_worker(host, worker) -> None:
    table = idle_lobby(host)
    close_idle_lobbies.apply_async(countdown=1)
    assert wait_for(lambda: is_closed(table), 30)


@pytest.mark.parametrize(("game", "options"), [("sitaratas", {"order": "down_up"}), ("estimation", {}), ("sita", {})])
def test_a_bot_only_table_finishes_by_itself(host, worker, game, options) -> None:
    table = open_table(host, game, options=options)
    table.seats.filter(position=0).update(user=None)
    for position in range(table.seat_count):
        lobby.bot_add(table_id=table.pk, host=host, position=position)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    assert wait_for(lambda: Match.objects.get(pk=match.pk).status == Match.Status.FINISHED, 240)
    match.refresh_from_db()
    assert match.record["over"] is True


def test_a_table_of_strong_and_easy_bots_finishes_by_itself(host, worker) -> None:
    # Issue 25: the worker plays each seat at the level the host chose (RULING P45).
    table = open_table(host, "sita")
    table.seats.filter(position=0).update(user=None)
    for position, level in enumerate(("strong", "easy", "strong")):
        lobby.bot_add(table_id=table.pk, host=host, position=position, level=level)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    assert wait_for(lambda: Match.objects.get(pk=match.pk).status == Match.Status.FINISHED, 240)
    levels = sorted(match.match_players.values_list("user__bot_level", flat=True))
    assert levels == ["easy", "strong", "strong"]
