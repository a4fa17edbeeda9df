"""The installable app (issue 40): Chromium installs the site's worker, finds the manifest valid and
the site installable, and shows the player's own offline page when the site's server is gone."""

from __future__ import annotations

import os
import struct

import pytest

from config import processes, serve
from tests.browser.conftest import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, CHROMIUM_SESSION, in_thread, log_in
from tests.conftest import USER_PASSWORD, make_user
from tests.games.history_helpers import finished_match
from tests.helpers import database_url

# transactional_db: the site under test (Daphne and a Celery worker, other processes) reads what the tests write.
pytestmark = pytest.mark.browser

REQUIRED = ("name", "short_name", "start_url", "display", "icons", "theme_color", "background_color")


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


@pytest.fixture
def own_server(transactional_db):
    """A Daphne of this test's own, so that the test can stop it (the shared one serves the others)."""
    port = processes.free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_QUEUE": f"browser-{port}",
        "DJANGO_DEBUG": "true",
        "DJANGO_SETTINGS_MODULE": "tests.site_settings",
    }
    daphne = processes.start(serve.command("127.0.0.1", port), env=env, log=ARTIFACTS / "logs" / "daphne-pwa.log")
    processes.wait_for_port(port, seconds=120, process=daphne)  # a busy machine starts Django slowly
    yield f"http://127.0.0.1:{port}", daphne
    processes.stop([daphne])


def test_the_site_installs_and_shows_the_players_games_when_its_server_is_gone(own_server, tmp_path) -> None:
    url, daphne = own_server
    CHROMIUM_SESSION.get()
    # A profile on disk: Chromium reports any off-the-record context (a plain new_context) as not installable.
    context = CHROMIUM_SESSION.playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True, base_url=url
    )
    try:
        context.set_default_timeout(15_000)
        page = context.new_page()
        match = in_thread(lambda: finished_match(make_user("kodus"), "sitaratas"))
        log_in(page, "kodus", USER_PASSWORD)

        # The manifest: every member installation needs, and icons that load at the sizes they claim.
        href = page.get_attribute("link[rel=manifest]", "href")
        manifest = page.request.get(href).json()
        assert all(manifest.get(key) for key in REQUIRED)
        assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
        sizes = set()
        for icon in manifest["icons"]:
            response = page.request.get(icon["src"])
            assert response.ok and response.headers["content-type"] == "image/png"
            width, height = png_size(response.body())
            assert icon["sizes"] == f"{width}x{height}"
            sizes.add(width)
        assert {192, 512} <= sizes

        # The worker controls the page and has stored this player's offline page.
        script = page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)")
        assert script == f"{url}/sw.js"
        page.reload()
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        page.wait_for_function("() => caches.open('private').then((c) => c.match('/offline/')).then(Boolean)")

        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getAppManifest")["errors"] == []
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []

        processes.stop([daphne])
        page.goto("/history/")
        page.wait_for_selector("text=You are offline")
        games = page.inner_text("#main")
        assert "Your last games" in games and "Sitaratas" in games
        assert page.locator(".offline-games > li").count() == 1
        assert match.ended_at is not None
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "pwa-offline.png"), full_page=True)
    finally:
        context.close()
