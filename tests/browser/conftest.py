"""Browser tests: the real site (Daphne and a Celery worker, as subprocesses) driven by Chromium.

The servers run against the test database pytest-django created; tests use
``transactional_db`` so what they write is committed and visible to them.
Screenshots land in ``test-artifacts/`` for a person to look at.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from config import processes, serve
from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.helpers import database_url, in_ci, is_browser_test

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


def pytest_collection_modifyitems(items) -> None:
    if Path(CHROMIUM).exists() or not any(is_browser_test(item) for item in items):
        return
    missing = "Chromium is not installed (apt-get install chromium-headless-shell)"
    if in_ci():
        # CI installs the browser (.ci/run): a run without it must not pass with the browser tests unrun.
        raise pytest.UsageError(f"{missing}, and CI=true")
    for item in items:
        if is_browser_test(item):
            item.add_marker(pytest.mark.skip(reason=missing))


def in_thread(work):
    """Run ``work`` (set-up through the services) off this thread: Playwright's sync API runs an
    event loop here, and the broadcasts after commit need their own."""
    from django.db import connection

    def run():
        try:
            return work()
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


@pytest.fixture(scope="session")
def site_url(django_db_setup, django_db_blocker) -> str:
    """Daphne and a Celery worker on the test database, for the whole session."""
    with django_db_blocker.unblock():
        url = database_url()
    port = processes.free_port()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "BOT_DELAY_SECONDS": "0.05",
        "CELERY_QUEUE": f"browser-{port}",
        "DJANGO_DEBUG": "true",  # static files from the finders, no collectstatic
        "DJANGO_SETTINGS_MODULE": "tests.site_settings",
    }
    logs = ARTIFACTS / "logs"
    daphne = processes.start(serve.command("127.0.0.1", port), env=env, log=logs / "daphne.log")
    worker = processes.start(
        processes.celery_worker_command("--pool", "solo", "--loglevel", "INFO"), env=env, log=logs / "celery.log"
    )
    try:
        # A loaded machine (CI, or several runs sharing two cores) can take over 20 s to import the site.
        processes.wait_for_port(port, seconds=120, process=daphne)
        yield f"http://127.0.0.1:{port}"
    finally:
        processes.stop([daphne, worker])


class Chromium:
    """One headless Chromium under Playwright's sync API, started for the first browser test and
    stopped after the last of a run of them: the sync API runs an event loop in this thread while
    it is open, and the tests that come after (on this xdist worker) use async_to_sync, which
    refuses to run beside one."""

    def __init__(self) -> None:
        self.playwright = self.browser = None

    def get(self):
        if self.browser is None:
            from playwright.sync_api import sync_playwright

            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # the ORM, from this thread's loop
            self.playwright = sync_playwright().start()
            self.browser = self.playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        return self.browser

    def close(self) -> None:
        if self.browser is not None:
            self.browser.close()
            self.playwright.stop()
            self.playwright = self.browser = None
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


CHROMIUM_SESSION = Chromium()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After the test's own fixtures (its browser contexts) are torn down."""
    try:
        return (yield)
    finally:
        if nextitem is None or not is_browser_test(nextitem):
            CHROMIUM_SESSION.close()


@pytest.fixture
def browser():
    return CHROMIUM_SESSION.get()


@pytest.fixture
def new_page(browser, site_url, transactional_db):
    """``new_page(mobile=False)`` opens a fresh browser context (its own cookies) on the site."""
    contexts = []

    def make(mobile: bool = False):
        options = (
            {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "device_scale_factor": 2}
            if mobile
            else {"viewport": {"width": 1280, "height": 860}}
        )
        context = browser.new_context(base_url=site_url, **options)
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def left_accounts(page) -> None:
    """Wait until the form's POST has sent the browser on: the account pages' own URLs end in "/"
    too, so waiting for "**/" could return before the POST was answered."""
    page.wait_for_url(lambda url: "/accounts/" not in url)


def sign_up(page, username: str, password: str = "Kolm-Kaardi-Trikk-9") -> None:
    page.goto("/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.com")
    page.fill("input[name=password1]", password)
    page.fill("input[name=password2]", password)
    page.click("form button[type=submit]")
    left_accounts(page)


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


PASSWORD = "Kolm-Kaardi-Trikk-9"


def log_in(page, username: str, password: str = PASSWORD) -> None:
    page.goto("/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", password)
    page.click("form button[type=submit]")
    left_accounts(page)


def open_table(page, game: str, *, bots: int = 0, start: bool = False, **fields: str) -> str:
    """Open a table through the New table page (``fields`` by input name), add bots, maybe start."""
    page.goto(f"/tables/new/?game={game}")
    page.locator(f"input[name=game][value={game}]").check()
    for name, value in fields.items():
        field = page.locator(f"[name={name}]")
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    page.click("text=Open the table")
    page.wait_for_url("**/tables/*/")
    page.wait_for_selector("#socket-status:has-text('Connected')")
    for _ in range(bots):
        empty = page.locator("#live .seat.empty").count()
        page.locator("#live button:has-text('Add bot')").first.click()
        page.wait_for_function("n => document.querySelectorAll('#live .seat.empty').length < n", arg=empty)
    if start:
        page.click("#live button:has-text('Start the game')")
        page.wait_for_selector("#live #game")
    return page.url
