"""The write side's outbox (tables/outbox.py): its events go out once the transaction commits,
and never for a write that rolled back."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction

from core.groups import table_group
from tables import outbox

pytestmark = pytest.mark.django_db(transaction=True)


class RolledBack(Exception):
    pass


def _write(version: int, *, commit: bool) -> None:
    try:
        with transaction.atomic():
            outbox.send(outbox.TableChanged(table_id=91, match_id=4, version=version, state=f"state-{version}"))
            if not commit:
                raise RolledBack
    except RolledBack:
        pass


async def test_an_event_goes_out_after_commit_and_never_for_a_write_that_rolled_back() -> None:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(table_group(91), channel)
    await sync_to_async(_write)(1, commit=False)
    await sync_to_async(_write)(2, commit=True)
    # The first message the table's group gets is the committed write's: the rolled-back one sent nothing.
    message = await asyncio.wait_for(layer.receive(channel), 5)
    assert (message["type"], message["version"], message["state"]) == ("table.changed", 2, "state-2")


def test_an_event_with_no_handler_is_refused_with_the_reason() -> None:
    class Unwired(outbox.TableChanged):
        pass

    with pytest.raises(RuntimeError, match="No handler for Unwired"):
        outbox.send(Unwired(table_id=1))  # outside a transaction: delivered at once
