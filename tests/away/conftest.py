"""The tests' own push service and the site set up to send to it."""

from __future__ import annotations

import pytest

from away.vapid import key_pair
from tests.away.push_service import PushService


@pytest.fixture
def push_service():
    service = PushService().start()
    yield service
    service.stop()


@pytest.fixture
def push_settings(settings, push_service, eager_bots):
    """VAPID keys, the local service allowed, and Celery tasks run as they are queued."""
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = key_pair()
    settings.VAPID_SUBJECT = "mailto:ops@example.com"
    settings.PUSH_EXTRA_ORIGINS = [push_service.origin]
    settings.TURN_NOTICE_SECONDS = 0
    return settings


@pytest.fixture
def subscribe(push_service, push_settings):
    """``subscribe(user)``: a browser of ``user`` subscribes at the push service and gives the site its keys."""
    from away.services import device_add

    def make(user, *, wants_push: bool = True):
        from notifications import kinds
        from notifications.models import Preference

        subscription = push_service.subscribe()
        info = subscription.info()
        device_add(user=user, endpoint=info["endpoint"], name="Test browser", **info["keys"])
        if wants_push:
            for kind in kinds.all_kinds():
                Preference.objects.update_or_create(user=user, kind=kind.code, defaults={"push": True})
        return subscription

    return make


@pytest.fixture
def queued_only(push_settings):
    """Tasks go to the broker and wait there, as they would for a busy worker; the test runs them."""
    from config.celery import app

    app.conf.task_always_eager = False
    yield
    app.control.purge()
    app.conf.task_always_eager = True
