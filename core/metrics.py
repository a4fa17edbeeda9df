"""Prometheus metrics (issue 28): what the site is doing, per process, summed at scrape time.

Daphne processes and Celery workers are separate processes, so with
``PROMETHEUS_MULTIPROC_DIR`` set (an empty directory per host, emptied before the site
starts; ``make run`` does it) each process writes its samples to memory-mapped files there
and the endpoint of any one process reports the sum over all of them (prometheus-client's
multi-process mode). Without it each process reports only its own, which is what the tests
and a single-process site need. The directory must be set before ``prometheus_client`` is
first imported, so it is read from the environment, not from settings.

The move path calls the small functions below; each costs a counter or histogram update
(a few microseconds), never a query.
"""

from __future__ import annotations

import os
import time

from django.db import transaction
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily

# Buckets for a move on the server: most are a few milliseconds (README "Performance").
MOVE_BUCKETS = (0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
BOT_BUCKETS = (0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
LAG_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)

MOVES = Counter("sitaratas_moves", "Moves applied (players' and bots'), counted after commit.", ["game"])
MOVE_SECONDS = Histogram(
    "sitaratas_move_seconds",
    "A player's move on the server: from the socket's message to the move's commit.",
    ["game"],
    buckets=MOVE_BUCKETS,
)
FAILED_MOVES = Counter("sitaratas_failed_moves", "Moves refused, by reason.", ["reason"])
OPEN_SOCKETS = Gauge("sitaratas_open_sockets", "Table sockets open, per process.", multiprocess_mode="liveall")
BOT_MOVE_SECONDS = Histogram("sitaratas_bot_move_seconds", "A bot's choice of one move.", ["game"], buckets=BOT_BUCKETS)
SAMPLE_BUCKETS = (1, 5, 10, 25, 50, 100, 150, 200, 300, 500, 1000, 2000)
BOT_SAMPLES = Histogram(
    "sitaratas_bot_samples",
    "Sampled deals a strong bot weighed for one move (RULING P49): below the setting means it was capped.",
    ["game"],
    buckets=SAMPLE_BUCKETS,
)
BOT_CAPPED = Counter(
    "sitaratas_bot_capped_moves", "Strong-bot moves stopped by the CPU safety cap (RULING P49).", ["game"]
)
LEDGER_TRANSFERS = Counter("sitaratas_ledger_transfers", "Ledger transfers committed.", ["asset", "reason"])
TASK_LAG = Histogram(
    "sitaratas_task_lag_seconds",
    "A Celery task's wait: from when it was due (sent, or its ETA) to its start.",
    ["task"],
    buckets=LAG_BUCKETS,
)
TASK_SECONDS = Histogram("sitaratas_task_seconds", "A Celery task's run time.", ["task"], buckets=LAG_BUCKETS)
# Issue 42: game reviews, run by their own low-priority worker.
REVIEW_BUCKETS = (0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 40.0, 60.0, 90.0, 120.0, 300.0)
REVIEWS_WAITING = Gauge(
    "sitaratas_reviews_waiting",
    "Game reviews waiting (pending behind a limit, or queued), as the last dispatch counted them.",
    multiprocess_mode="mostrecent",
)
REVIEW_CPU_SECONDS = Histogram(
    "sitaratas_review_cpu_seconds", "CPU time of one player's whole-game review.", ["game"], buckets=REVIEW_BUCKETS
)
REVIEW_SECONDS = Histogram(
    "sitaratas_review_seconds", "Wall time of one player's whole-game review.", ["game"], buckets=REVIEW_BUCKETS
)
REVIEW_DECISIONS = Counter("sitaratas_review_decisions", "Decisions reviewed.", ["game"])

# A refused move's message, by its opening words, to a reason with few values (a label per
# message text would grow without bound: engines name cards in theirs).
FAILURE_REASONS = (
    ("The game has moved on", "stale"),
    ("It is not your turn", "not_your_turn"),
    ("Play is paused", "paused"),
    ("This game is over", "over"),
    ("You are not playing", "not_seated"),
    ("The game has not started", "not_started"),
    ("The server could not take that just now", "database"),
)


def move_done(game: str, count: int = 1) -> None:
    """Count ``count`` moves of ``game`` once the transaction that applied them commits."""
    transaction.on_commit(lambda: MOVES.labels(game).inc(count))


def move_timed(game: str, seconds: float) -> None:
    MOVE_SECONDS.labels(game).observe(seconds)


def move_failed(message: str) -> None:
    reason = next((reason for opening, reason in FAILURE_REASONS if message.startswith(opening)), "illegal")
    FAILED_MOVES.labels(reason).inc()


def socket_opened() -> None:
    OPEN_SOCKETS.inc()


def socket_closed() -> None:
    OPEN_SOCKETS.dec()


def bot_timed(game: str, seconds: float) -> None:
    BOT_MOVE_SECONDS.labels(game).observe(seconds)


def bot_sampled(game: str, samples: int, *, capped: bool) -> None:
    """A strong bot's move: how many samples it weighed, and whether the CPU cap stopped it."""
    BOT_SAMPLES.labels(game).observe(samples)
    if capped:
        BOT_CAPPED.labels(game).inc()


def transfer_done(asset: str, reason: str) -> None:
    transaction.on_commit(lambda: LEDGER_TRANSFERS.labels(asset, reason).inc())


def task_started(task: str, due: float | None) -> None:
    if due is not None:
        TASK_LAG.labels(task).observe(max(0.0, time.time() - due))


def task_finished(task: str, seconds: float) -> None:
    TASK_SECONDS.labels(task).observe(seconds)


def reviews_waiting(count: int) -> None:
    REVIEWS_WAITING.set(count)


def review_timed(game: str, cpu: float, wall: float, decisions: int) -> None:
    REVIEW_CPU_SECONDS.labels(game).observe(cpu)
    REVIEW_SECONDS.labels(game).observe(wall)
    REVIEW_DECISIONS.labels(game).inc(decisions)


class QueueCollector:
    """The Celery queues' lengths (the site's and the reviews'), read from the broker at scrape
    time (a Redis list per queue)."""

    def collect(self):
        import redis
        from django.conf import settings

        family = GaugeMetricFamily(
            "sitaratas_celery_queue_length", "Tasks waiting in the Celery queue.", labels=["queue"]
        )
        queues = [settings.CELERY_TASK_DEFAULT_QUEUE, settings.CELERY_REVIEW_QUEUE]
        client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=2)
        try:
            for queue in queues:
                # kombu keeps a queue's priority steps (0, 3, 6, 9) in lists named queue, queue\x06\x163, …
                names = [queue] + [f"{queue}\x06\x16{priority}" for priority in (3, 6, 9)]
                pipe = client.pipeline()
                for name in names:
                    pipe.llen(name)
                family.add_metric([queue], sum(pipe.execute()))
        except redis.RedisError:
            pass  # the broker is down: no sample, and the scrape still answers
        finally:
            client.close()
        yield family


def exposition() -> bytes:
    """The text the endpoint serves: every process's samples in multi-process mode, else this one's."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.MultiProcessCollector(registry)
    else:
        from prometheus_client import REGISTRY

        registry = REGISTRY
    output = generate_latest(registry)
    queue_registry = CollectorRegistry()
    queue_registry.register(QueueCollector())
    return output + generate_latest(queue_registry)
