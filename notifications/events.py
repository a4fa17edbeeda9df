"""Notifications' typed events: what a write hands the outbox (core/outbox.py) for after commit.

Where they go is registered in ``NotificationsConfig.ready``. The bell is notifications/live.py,
and the away delivery is notifications/tasks.py. Any app may send ``BellChanged``, since the bell
is the player's and sits low. The ``Notification`` rows are stored, and every bell frame reads
them, so a bell that misses an event is put right by the next push or page.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BellChanged:
    """Every open socket of the player looks at their bell again. ``notification_id``: the new
    notification to show."""

    user_id: int
    notification_id: int | None = None


@dataclass(frozen=True, slots=True)
class DeliveryDue:
    """The notification goes to the away channels (e-mail, web push), once (RULING P69)."""

    notification_id: int
