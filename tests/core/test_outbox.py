"""The one outbox (core/outbox.py), over real commits of PostgreSQL: an event goes out once after
its transaction commits, never for a write that rolled back, equal events of a transaction once,
and a savepoint rolled back takes exactly its own events with it."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import pytest
from django.db import connection, transaction

from accounts.models import User
from core import outbox
from tests.conftest import make_user

pytestmark = pytest.mark.django_db(transaction=True)


@dataclass(frozen=True, slots=True)
class Probe:
    n: int


class RolledBack(Exception):
    pass


@pytest.fixture
def sent() -> list[Probe]:
    delivered: list[Probe] = []
    outbox.handle(Probe, delivered.append)
    return delivered


def rolled_back(*events: Probe) -> None:
    try:
        with transaction.atomic():
            for event in events:
                outbox.send(event)
            raise RolledBack
    except RolledBack:
        pass


def test_an_event_goes_out_once_the_transaction_commits_and_only_then(sent) -> None:
    with transaction.atomic():
        outbox.send(Probe(1))
        assert sent == []
    assert sent == [Probe(1)]
    with transaction.atomic():
        pass
    assert sent == [Probe(1)]  # once: a later commit sends nothing again


def test_a_write_that_rolls_back_sends_nothing_and_the_next_sends_its_own(sent) -> None:
    rolled_back(Probe(1))
    assert sent == []
    # The rolled-back transaction's batch is gone with its hook: the next one starts its own.
    with transaction.atomic():
        outbox.send(Probe(2))
    assert sent == [Probe(2)]


def test_equal_events_of_a_transaction_go_once_in_the_order_first_handed_over(sent) -> None:
    with transaction.atomic():
        for n in (1, 2, 1, 3, 2):
            outbox.send(Probe(n))
        assert len(connection.run_on_commit) == 1  # one hook carries them all
    assert sent == [Probe(1), Probe(2), Probe(3)]


def test_a_savepoint_rolled_back_takes_its_own_events_only(sent) -> None:
    with transaction.atomic():
        outbox.send(Probe(1))
        rolled_back(Probe(2), Probe(1))  # Probe(1) there is dropped with its savepoint, not the outer one
        with transaction.atomic():
            outbox.send(Probe(3))
        outbox.send(Probe(4))
        assert sent == []
    assert sent == [Probe(1), Probe(3), Probe(4)]


def test_events_of_nested_blocks_go_out_in_the_order_handed_over(sent) -> None:
    with transaction.atomic():
        outbox.send(Probe(1))
        with transaction.atomic():
            outbox.send(Probe(2))
            with transaction.atomic():
                outbox.send(Probe(3))
            outbox.send(Probe(4))
        outbox.send(Probe(5))
    assert sent == [Probe(1), Probe(2), Probe(3), Probe(4), Probe(5)]


def test_an_outer_rollback_takes_the_events_of_its_released_savepoints(sent) -> None:
    try:
        with transaction.atomic():
            with transaction.atomic():
                outbox.send(Probe(1))
            outbox.send(Probe(2))
            raise RolledBack
    except RolledBack:
        pass
    assert sent == []


def test_outside_a_transaction_an_event_goes_at_once(sent) -> None:
    outbox.send(Probe(1))
    assert sent == [Probe(1)]


def test_a_robust_event_that_fails_is_logged_and_the_others_still_go(caplog) -> None:
    delivered: list[Probe] = []

    def flaky(event: Probe) -> None:
        if event.n == 1:
            raise ConnectionError("broker down")
        delivered.append(event)

    outbox.handle(Probe, flaky)
    with caplog.at_level(logging.ERROR, logger="core.outbox"), transaction.atomic():
        outbox.send(Probe(1), robust=True)
        outbox.send(Probe(2))
    assert delivered == [Probe(2)]
    assert "Probe was not delivered" in caplog.text


def test_a_failure_to_deliver_an_event_not_robust_is_raised_after_the_commit() -> None:
    def down(event: Probe) -> None:
        raise ConnectionError("broker down")

    outbox.handle(Probe, down)
    with pytest.raises(ConnectionError), transaction.atomic():
        written = make_user("written")
        outbox.send(Probe(1))
    assert User.objects.filter(pk=written.pk).exists()  # the write had committed; only the send failed
