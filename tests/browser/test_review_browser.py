"""A player finishes a short practice game, asks for a hint on the way, waits for the strong bot's
review and opens it in the replay (issue 42), on a laptop and on a phone.

The game is prepared through the services to the player's last two cards (clicking through a
whole game is what tests/browser/test_sita_browser.py does); the rest is clicked. The site's
own worker reads only the site's queue, so this test starts the review worker, as ``make run``
does, on the reviews' queue.
"""

from __future__ import annotations

import contextlib
import os
import random
from urllib.parse import urlparse

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from config import processes
from tests.browser.conftest import in_thread, screenshot, sign_up
from tests.helpers import database_url, fair_value

# transactional_db: the site under test (Daphne and a Celery worker, other processes) reads what the tests write.
pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
HAND_CARD = "#hand button.card-btn:not([disabled])"


@pytest.fixture
def review_worker(site_url, transactional_db):
    port = urlparse(site_url).port
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_QUEUE": f"browser-{port}",
        "DJANGO_SETTINGS_MODULE": "tests.site_settings",
        "REVIEW_SAMPLES": "40",
    }
    command = ["nice", "-n", "19", *processes.celery_worker_command("--pool", "solo", "-Q", f"browser-{port}.review")]
    worker = processes.start(command, env=env)
    yield
    processes.stop([worker], seconds=20)


def prepared_practice_game(username: str):
    """A practice SITA table (the player and two bots) played through the services until the
    player holds two cards and is to choose."""
    from accounts.models import User
    from games.catalog import get_bot
    from tables.services import lobby, play
    from tests.tables.helpers import fill_with_bots, play_bots_until_human, state_of

    user = User.objects.get(username=username)
    table = lobby.table_create(host=user, game="sita", seat_count=3, options={"matches": 1}, practice=True)
    fill_with_bots(table, user)
    match = play_bots_until_human(lobby.table_start(table_id=table.pk, host=user, entropy=fair_value()))
    while True:
        engine, state = state_of(match)
        legal = engine.legal_actions(state, 0)
        if len(state.hands[0]) == 2 and legal and legal[0]["type"] == "choose":
            return table, match
        action = get_bot("sita")(engine.view(state, 0), random.Random(match.version))
        play.match_act(match_id=match.pk, user=user, action=action, version=match.version)
        match = play_bots_until_human(match)


def test_a_player_finishes_a_game_and_reads_its_review_in_the_replay(new_page, review_worker) -> None:
    page = new_page()
    page.set_viewport_size(LAPTOP)
    sign_up(page, "rosa")
    table, match = in_thread(lambda: prepared_practice_game("rosa"))
    page.goto(f"/tables/{table.pk}/")
    page.wait_for_selector("#socket-status:has-text('Connected')")
    assert page.locator("#hand button.card-btn").count() == 2

    page.click("#practice button:has-text('Hint')")
    page.wait_for_selector("#hint .hint")
    assert "The bot would play card" in page.text_content("#hint")
    screenshot(page, "review-hint-laptop")

    # The last two cards (a too-low card asks for a row first). A click on a view that a push is
    # replacing is refused as stale and shown the new one, so the loop just looks again.
    for _ in range(60):
        if page.locator("#result").count():
            break
        with contextlib.suppress(PlaywrightTimeout):  # the button was replaced under the click
            if page.locator("#take-row button").count():
                page.locator("#take-row button").first.click(timeout=2_000)
            elif page.locator(HAND_CARD).count() and not page.locator("#hand .card-btn.locked").count():
                page.locator(HAND_CARD).first.click(timeout=2_000)
        page.wait_for_timeout(500)
    page.wait_for_selector("#result")
    screenshot(page, "review-finished-laptop")

    # Issue 55: the game-over panel links to the review as soon as the worker (at the lowest
    # priority: a few seconds here) has stored it, pushed over the socket: nobody reloads.
    page.wait_for_selector("#result #review-link a", timeout=90_000)
    screenshot(page, "review-link-laptop")
    page.click("#result #review-link a")
    page.wait_for_selector("#review .review-accuracy")
    assert page.url.endswith(f"/games/{match.pk}/#review")
    assert page.locator("#review .review-accuracy").count() == 1
    assert "%" in page.text_content("#review .review-accuracy")
    screenshot(page, "review-game-laptop")

    page.click("text=▶ Replay")
    page.wait_for_selector("#review-replay")
    page.click("#replay-next")
    page.wait_for_selector("#replay-frame[data-step='1'] .review-decision")
    page.locator(".review-values summary").first.click()
    assert page.locator(".review-values table tbody tr").count() >= 2
    legend = page.text_content(".review-values .review-legend")
    assert "averaged over 40 deals like this one" in legend and "Chance of leading: in how many" in legend
    screenshot(page, "review-replay-laptop")

    phone = new_page(mobile=True)
    phone.context.add_cookies(page.context.cookies())
    phone.goto(f"/games/{match.pk}/")
    phone.wait_for_selector("#review .review-accuracy")
    screenshot(phone, "review-game-phone")
    phone.goto(f"/games/{match.pk}/replay/?step=1")
    phone.wait_for_selector(".review-decision")
    phone.locator(".review-values summary").first.click()
    screenshot(phone, "review-replay-phone")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the phone page scrolls sideways ({width}px)"
