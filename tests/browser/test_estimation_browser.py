"""A new player opens an Estimation table, fills it with bots and plays a micro game to the end by clicking."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import PASSWORD, log_in, open_table, screenshot, sign_up

pytestmark = pytest.mark.browser

# Whatever the page offers the viewer: Dash Call / decline, calls and Pass, estimates, playable cards.
ENABLED_ACTION = "#game .est-prompt button:not([disabled]), #game .est-hand button:not([disabled])"


def _phone_screenshot(phone, table_url: str) -> None:
    """The same player on a phone sees their hand and the whole table."""
    log_in(phone, "estimator")
    phone.goto(table_url)
    phone.wait_for_selector("#live #game .est-hand .card")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "estimation-phone")
    phone.context.close()


def _version(page) -> int:
    return int(page.get_attribute("#live", "data-version") or 0)


def test_a_new_player_plays_a_micro_estimation_game_to_the_end(new_page) -> None:
    page = new_page()
    sign_up(page, "estimator", PASSWORD)
    table_url = open_table(page, "estimation", bots=3, start=True, length="micro")

    clicks, shots, deadline = 0, set(), time.monotonic() + 240
    while time.monotonic() < deadline:
        page.wait_for_selector(f"#result, {ENABLED_ACTION}", timeout=20_000)
        if page.locator("#result").count():
            break
        phase = page.get_attribute("#game", "data-phase")
        if (
            phase == "playing"
            and "mid" not in shots
            and page.locator(".est-sheet tbody tr.played").count() >= 1
            and page.locator("#game .est-trick .card").count() >= 2
        ):
            shots.add("mid")
            assert page.locator("#game .est-hand .card").count() >= 1
            screenshot(page, "estimation-desktop")
            _phone_screenshot(new_page(mobile=True), table_url)
        if phase == "estimating" and "estimate" not in shots:
            shots.add("estimate")
            screenshot(page, "estimation-estimating")
        before = _version(page)
        try:
            page.locator(ENABLED_ACTION).first.click(timeout=3_000)
            page.wait_for_function(
                "v => +document.getElementById('live').dataset.version > v", arg=before, timeout=10_000
            )
        except PlaywrightTimeout:
            continue  # The page was swapped under the click: look again.
        clicks += 1
    else:
        pytest.fail("The game did not finish in time.")

    result = page.locator("#result")
    assert result.is_visible()
    assert "estimator" in result.inner_text().lower()
    assert result.locator(".placements li").count() == 4
    assert page.locator(".est-sheet tbody tr.played").count() == 5
    assert clicks >= 5 * (1 + 13)
    assert {"mid", "estimate"} <= shots
    screenshot(page, "estimation-over")
