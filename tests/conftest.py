"""Shared fixtures: personas (host, player, outsider) like healthchecks' ``hc/test.py``."""

from __future__ import annotations

import functools
import os
import time

import pytest
from django.core.management.base import CommandError
from django.db import OperationalError
from django.test import TransactionTestCase
from psycopg.errors import DeadlockDetected

from accounts.models import User
from config import processes
from tests import site_settings, template_db
from tests.helpers import database_url, is_browser_test

# make_user's password, for tests that log its users in through the site's own form
USER_PASSWORD = "a-long-pass-phrase"


def make_user(username: str) -> User:
    return User.objects.create_user(username=username, email=f"{username}@example.com", password=USER_PASSWORD)


@pytest.fixture
def host(db) -> User:
    return make_user("hana")


@pytest.fixture
def player(db) -> User:
    return make_user("piet")


@pytest.fixture
def outsider(db) -> User:
    return make_user("olga")


@pytest.fixture
def started_table(host):
    """``started_table(game, guests=[player], bots=1, seat_count=3, options=…, stake=…)``: the host's
    table with the guests seated and ready, bots in the empty seats (or ``bots`` of them), started:
    (table, match). From async tests: ``await database_sync_to_async(started_table)(…)``."""
    from tests.tables.helpers import start_table

    return functools.partial(start_table, host)


@pytest.fixture(scope="session")
def django_db_setup(request, django_test_environment, django_db_blocker, django_db_modify_db_settings):
    """pytest-django's, except on an xdist worker: there the database is a copy of the run's one
    migrated template (tests/template_db.py), not a migration of its own."""
    from django.db import connections
    from django.test.utils import setup_databases, teardown_databases

    verbosity = request.config.option.verbose
    run_id = os.environ.get(template_db.RUN_ID)
    copied = bool(template_db.worker_id() and run_id)
    with django_db_blocker.unblock():
        if copied:
            connection, old_name, _ = template_db.clone_for_worker(connections["default"], run_id, verbosity)
        else:
            databases = setup_databases(verbosity=verbosity, interactive=False)
    yield
    with django_db_blocker.unblock():
        if copied:
            template_db.drop_worker_copy(connection, old_name)
        else:
            teardown_databases(databases, verbosity=verbosity)


@pytest.fixture
def eager_bots(settings):
    """Celery tasks (bots' moves, the clock's, a notification's delivery) run in the test's own
    process as they are queued; in a plain ``django_db`` test, as its on-commit callbacks run
    (``django_capture_on_commit_callbacks(execute=True)``)."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    from config.celery import app

    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = False


@pytest.fixture
def worker(settings):
    """A real ``celery worker`` process on the real broker and the test database, on its own queue."""
    from config.celery import app

    queue, default = f"test-{os.getpid()}", app.conf.task_default_queue
    settings.CELERY_TASK_DEFAULT_QUEUE = app.conf.task_default_queue = queue
    env = {**os.environ, "DATABASE_URL": database_url(), "CELERY_QUEUE": queue, "BOT_DELAY_SECONDS": "0"}
    process = processes.start(
        processes.celery_worker_command("--pool", "solo", "-Q", queue, "--loglevel", "WARNING"), env=env
    )
    yield queue
    processes.stop([process], seconds=20)
    app.conf.task_default_queue = default


@pytest.fixture(autouse=True)
def _static_files_without_collectstatic(settings) -> None:
    """The manifest storage needs ``collectstatic``; the tests serve static files from the finders."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings) -> None:
    """Django's advice for test suites: the production hasher (PBKDF2, a million rounds) costs
    0.3 s of CPU per user made and per login, hundreds of times a run. The site the browser tests
    drive uses the same list."""
    settings.PASSWORD_HASHERS = site_settings.PASSWORD_HASHERS


def _caused_by_a_deadlock(error: BaseException | None) -> bool:
    # The flush command wraps the database's error in its own CommandError ("couldn't be flushed").
    while error is not None:
        if isinstance(error, DeadlockDetected):
            return True
        error = error.__cause__
    return False


@pytest.fixture(autouse=True, scope="session")
def _flush_retried_after_a_deadlock():
    """A transactional test's data is emptied with one TRUNCATE of every table when it ends, while
    a Celery worker of the site under test may still be writing a bot's move: PostgreSQL breaks
    the deadlock by refusing one of the two. When the TRUNCATE is the one refused, it is tried
    again (the bot's write, when refused, belonged to a game the test is done with)."""
    original = TransactionTestCase._fixture_teardown

    def teardown(self) -> None:
        for attempt in range(5):
            try:
                return original(self)
            except (OperationalError, CommandError) as error:
                if attempt == 4 or not _caused_by_a_deadlock(error):
                    raise
                time.sleep(0.2)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TransactionTestCase, "_fixture_teardown", teardown)
        yield


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """A channel layer per test: channels-redis binds its locks to the event loop that first used
    them, and every async test runs in a loop of its own."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


def pytest_configure(config) -> None:
    # An interrupted run (SIGTERM from a time limit, or passed on by the test command) stops the
    # servers and workers this process started before it ends; SIGINT unwinds through the fixtures.
    processes.stop_all_on_termination()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item) -> None:
    # tests/helpers.py needs_tool: on CI a tool a test runs is missing, which fails it, not skips it.
    missing = item.get_closest_marker("missing_tool")
    if missing is not None:
        pytest.fail(f"{missing.args[0]}, and CI=true", pytrace=False)


def pytest_collection_modifyitems(config, items) -> None:
    for item in items:
        if "worker" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)  # a real Celery worker process: left out of the quick loop
        if is_browser_test(item):
            item.add_marker(pytest.mark.browser)  # by path: every file under tests/browser/
            # With pytest-xdist (the test command's --dist loadgroup) each browser test file runs
            # on one worker, its tests one after another in one Chromium; a worker that runs any
            # starts its own Daphne and Celery worker (tests/browser/conftest.py) for the session.
            if config.pluginmanager.hasplugin("xdist"):
                item.add_marker(pytest.mark.xdist_group(f"browser-{item.module.__name__}"))
        retry = item.get_closest_marker("retry")
        if retry is not None:
            # One more try (pytest-rerunfailures) only for a test that names the cause outside the
            # site it retries: every other failure, once, fails the run.
            if not retry.kwargs.get("reason"):
                raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.retry needs reason=<the outside cause>")
            item.add_marker(pytest.mark.flaky(reruns=1, reruns_delay=2))


def pytest_deselected(items) -> None:
    """On an xdist worker, what its markers left out goes back to the controller's summary."""
    workeroutput = getattr(items[0].config, "workeroutput", None) if items else None
    if workeroutput is not None:
        workeroutput["deselected"] = workeroutput.get("deselected", 0) + len(items)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    # Every worker collects the whole suite, so each leaves out the same tests.
    config = node.config
    config._deselected_on_workers = max(
        getattr(config, "_deselected_on_workers", 0), node.workeroutput.get("deselected", 0)
    )


def pytest_terminal_summary(terminalreporter, config) -> None:
    """A run narrowed by markers (``make test-fast``) says what share of the suite it ran."""
    left_out = len(terminalreporter.stats.get("deselected", [])) or getattr(config, "_deselected_on_workers", 0)
    if not config.option.markexpr or not left_out:
        return
    outcomes = ("passed", "failed", "error", "skipped", "xfailed", "xpassed")
    ran = sum(len(terminalreporter.stats.get(outcome, [])) for outcome in outcomes)
    terminalreporter.write_line(
        f"{ran} tests run, {left_out} left out by -m {config.option.markexpr!r}: "
        f"{ran / (ran + left_out):.0%} of {ran + left_out}"
    )


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config, specs) -> None:
    """Each xdist worker gets a Redis key prefix and a Celery queue of its own (and, from
    pytest-django, a database of its own): table ids restart in every worker's database, so
    without them one worker's sockets would hear the other's tables, presence and tasks. Set in
    the worker's environment before it loads the settings, and passed on to the processes its
    tests start."""
    for spec in specs:
        for name in ("CHANNELS_PREFIX", "CELERY_QUEUE"):
            spec.env[name] = f"{os.environ.get(name, 'test')}-{spec.id}"
        spec.env[template_db.RUN_ID] = template_run_id(config)


def template_run_id(config) -> str:
    """The id that marks this run's template database (tests/template_db.py), made once."""
    if not hasattr(config, "_template_run_id"):
        config._template_run_id = template_db.new_run_id()
    return config._template_run_id


def pytest_sessionfinish(session) -> None:
    """The controller drops the template its workers copied, once they are all done."""
    run_id = getattr(session.config, "_template_run_id", None)
    if run_id and not template_db.worker_id():
        from django.conf import settings

        template_db.drop_template(settings.DATABASES["default"], run_id)


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """A request's language stays active in its thread (Django's LocaleMiddleware does not reset
    it): the next test must not read its refusals in the last test's Arabic (issue 26)."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def _no_reviews_unless_asked(settings):
    """A finished game queues its reviews (issue 42): with eager tasks that would evaluate every
    decision in tests about something else. The review tests ask for them (``reviews_on``)."""
    settings.REVIEWS_ENABLED = False


@pytest.fixture
def reviews_on(settings):
    settings.REVIEWS_ENABLED = True
    settings.REVIEW_SAMPLES = 12


@pytest.fixture(autouse=True)
def _sign_ups_not_limited_per_address(settings) -> None:
    """RULING P53 counts sign-ups per address in the shared cache, where they outlast a test: every
    test's client signs up from 127.0.0.1, so the suite would run into it. The tests of the limit
    set it back (tests/accounts/test_abuse_accounts.py)."""
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "signup": ""}


@pytest.fixture(autouse=True)
def _socket_limits_start_full(settings) -> None:
    """The shared limits (core/limits.py: the table socket's, the hourly ones) are counted in Redis,
    under user ids and addresses that every test's database gives out again: each test starts with
    them full."""
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        keys = list(client.scan_iter(f"{settings.CHANNEL_LAYERS['default']['CONFIG']['prefix']}:limit:*", count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@pytest.fixture(autouse=True)
def lobby_fragments_start_empty() -> None:
    """The lobby's shared list fragment lives a few seconds in the process (tables/views.py): a
    test must not be shown the last test's tables."""
    from tables import views

    views.lobby_fragments.clear()
