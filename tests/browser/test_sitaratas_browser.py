"""Sitaratas in the browser (issue 6): a player bids and plays a whole game against bots by clicking.

Every action is a click on an enabled button of the page (a bid, a card, or HIGH / LOW under
a joker); each click waits for the next ``#live`` version. A spectator sees no hand; the
player reloads mid-game and carries on; the same player on a phone sees the table too.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import log_in, open_table, screenshot, sign_up

pytestmark = pytest.mark.browser

ACTION = (
    "#live button.bid-btn:not([disabled]), #live button.card-btn:not([disabled]),"
    " #live button.joker-btn:not([disabled])"
)
READY = f"() => !!(document.querySelector('#result') || document.querySelector({ACTION!r}))"


def act_once(page, stop: str | None = None) -> bool:
    """Click one enabled action and wait for the next version; False once the result shows or ``stop`` holds."""
    page.wait_for_function(READY, timeout=20_000)
    if page.locator("#result").count() or (stop and page.evaluate(stop)):
        return False
    version = page.get_attribute("#live", "data-version")
    try:
        # force: skip the hover/stability checks; the button is enabled and the fragment may be swapped any moment.
        page.locator(ACTION).first.click(timeout=2_000, force=True)
        page.wait_for_function("v => document.getElementById('live').dataset.version !== v", arg=version, timeout=5_000)
    except PlaywrightError:
        pass  # The page moved on under the click (a stale version is refused harmlessly): look again.
    return True


def act_until(page, condition: str, limit: int = 400) -> None:
    for _ in range(limit):
        if not act_once(page, condition):
            return
    raise AssertionError(f"never reached: {condition}")


def test_a_player_plays_a_whole_sitaratas_game_by_clicking(new_page) -> None:
    page = new_page()
    sign_up(page, "mari")
    table_url = open_table(page, "sitaratas", bots=2, start=True, players=3, deck="jokers")

    # Everything public is on view from the first deal.
    shown = page.inner_text("#game").lower()
    for text in ("round", "trump", "dealer", "trick", "last trick", "score sheet"):
        assert text in shown
    assert page.locator("#game .st-hand .card").count() >= 1

    # Play five rounds, then stop on one of our own turns to play a card.
    act_until(
        page,
        "() => document.querySelectorAll('.st-score tbody tr td.st-cell').length >= 15"
        " && !!document.querySelector('#live button.card-btn:not([disabled]), #live button.joker-btn')",
    )
    assert page.locator("#game .st-status.mine").count() == 1
    screenshot(page, "sitaratas-desktop")

    # A second user watching sees the table but no hand and no buttons to act.
    watcher = new_page(mobile=True)
    sign_up(watcher, "jaan")
    watcher.goto(table_url)
    watcher.wait_for_selector("#live #game")
    watcher.wait_for_selector("#socket-status:has-text('Connected')")
    assert watcher.locator("#live .tag", has_text="watching").count() == 1
    assert watcher.locator("#game .st-hand").count() == 0
    assert watcher.locator(ACTION).count() == 0
    assert "score sheet" in watcher.inner_text("#game").lower()
    screenshot(watcher, "sitaratas-spectator-phone")
    watcher.context.close()

    # The same player on a phone: their hand, and they can act from there.
    phone = new_page(mobile=True)
    log_in(phone, "mari")
    phone.goto(table_url)
    phone.wait_for_selector("#live #game .st-hand")
    screenshot(phone, "sitaratas-phone")
    act_until(phone, "() => !!document.querySelector('#live .bid-btn')")
    screenshot(phone, "sitaratas-phone-bidding")
    for _ in range(3):
        act_once(phone)
    phone.context.close()

    # Reload mid-game and carry on to the end.
    page.reload()
    page.wait_for_selector("#live #game .st-hand")
    act_until(page, "() => !!document.querySelector('#result')", limit=600)
    result = page.locator("#result")
    assert result.locator(".placements li").count() == 3
    assert "mari" in result.inner_text()
    assert page.locator(".st-score tbody tr").count() == 29
    screenshot(page, "sitaratas-result")
