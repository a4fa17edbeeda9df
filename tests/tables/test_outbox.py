"""Tables' events through the outbox (core/outbox.py, tables/events.py): they go out once the
transaction commits, and never for a write that rolled back."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction

from core import outbox
from core.groups import table_group
from tables.events import TableChanged

pytestmark = pytest.mark.django_db


class RolledBack(Exception):
    pass


def _write(version: int, *, commit: bool) -> None:
    try:
        with transaction.atomic():
            outbox.send(TableChanged(table_id=91, match_id=4, version=version, state=f"state-{version}"))
            if not commit:
                raise RolledBack
    except RolledBack:
        pass


def test_an_event_goes_out_after_commit_and_never_for_a_write_that_rolled_back(
    django_capture_on_commit_callbacks,
) -> None:
    def write_both() -> list:
        # On this test's own thread and connection (sync_to_async from inside async_to_sync comes
        # back to it), where the test's transaction stands in for the commit.
        with django_capture_on_commit_callbacks(execute=True) as delivered:
            _write(1, commit=False)
            _write(2, commit=True)
        return delivered

    async def listen_while_writing() -> tuple[list, dict]:
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(table_group(91), channel)
        delivered = await sync_to_async(write_both)()
        return delivered, await asyncio.wait_for(layer.receive(channel), 5)

    delivered, message = async_to_sync(listen_while_writing)()
    assert len(delivered) == 1  # the rolled-back write's event went with its savepoint
    # The first message the table's group gets is the committed write's: the rolled-back one sent nothing.
    assert (message["type"], message["version"], message["state"]) == ("table.changed", 2, "state-2")


def test_an_event_with_no_handler_is_refused_with_the_reason(django_capture_on_commit_callbacks) -> None:
    class Unwired(TableChanged):
        pass

    with pytest.raises(RuntimeError, match="No handler for Unwired"), django_capture_on_commit_callbacks(execute=True):
        outbox.send(Unwired(table_id=1))  # delivered as the transaction commits
