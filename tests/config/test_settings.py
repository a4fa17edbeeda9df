"""Settings fail loudly on a bad environment value, naming the variable (issue 2)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.config.helpers import ROOT, start_django


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("DJANGO_DEBUG", "maybe"),
        ("BOT_DELAY_SECONDS", "soon"),
        ("BOT_STRONG_SAMPLES", "many"),
        ("BOT_STRONG_SAMPLES", "0"),
        ("BOT_MOVE_CPU_CAP_MS", "0"),
        ("STARTING_COINS", "-5"),
        ("DATABASE_URL", "mysql://x@localhost/db"),
        ("REDIS_URL", "localhost:6379"),
        ("ACCOUNT_EMAIL_VERIFICATION", "sometimes"),
        ("CHANNELS_SHARDS", "0"),
    ],
)
def test_a_bad_value_stops_start_up_naming_the_variable(variable: str, value: str) -> None:
    result = start_django(**{variable: value})
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert variable in result.stderr


def test_production_needs_a_real_secret_key() -> None:
    result = start_django(DJANGO_DEBUG="false", DJANGO_SECRET_KEY="short")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_good_values_start() -> None:
    assert start_django().returncode == 0


def test_deploy_check_is_clean_apart_from_what_a_deployment_sets() -> None:
    env = {**os.environ, "DJANGO_DEBUG": "false", "DJANGO_SECURE_SSL_REDIRECT": "true", "DJANGO_SECURE_COOKIES": "true"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    # HSTS subdomains/preload (W005, W021) are a decision for whoever owns the domain (README).
    problems = [
        line
        for line in result.stderr.splitlines()
        if line.startswith("?:") and "W005" not in line and "W021" not in line
    ]
    assert problems == [], result.stderr


def test_manage_py_names_the_bad_variable_instead_of_an_obscure_error() -> None:
    # Django's command runner swallows a settings error and fails later with
    # "Models aren't loaded yet"; manage.py reports the variable itself.
    env = {**os.environ, "DJANGO_DEBUG": "maybe"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode != 0
    assert "Configuration error: DJANGO_DEBUG must be true or false" in result.stderr
    assert "AppRegistryNotReady" not in result.stderr


def test_a_site_worker_never_takes_up_the_review_queue_it_routes_to() -> None:
    from config.celery import app, pin_queues

    queues = app.amqp.queues
    try:
        pin_queues()
        app.amqp.router.route({}, "games.tasks.review_run")  # learns the review queue
        assert list(queues.consume_from) == [app.conf.task_default_queue]
        assert app.conf.task_routes["games.tasks.review_run"]["queue"] in queues
    finally:
        queues._consume_from = None  # this process's app is shared by the other tests
