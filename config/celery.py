"""The Celery app: broker on Redis, tasks found in each app's ``tasks`` module."""

import os

from celery import Celery
from celery.signals import celeryd_after_setup

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@celeryd_after_setup.connect
def pin_queues(sender=None, instance=None, **kwargs) -> None:
    """A worker reads the queues it started with, and only those. Without ``-Q`` Celery reads
    every queue it knows, and it learns one each time it routes a task there: a site worker that
    dispatched a review (issue 42) would take the reviews' queue on its next reconnection."""
    queues = (instance.app if instance is not None else app).amqp.queues
    queues.select(list(queues.consume_from))
