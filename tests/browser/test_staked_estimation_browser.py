"""Two players at a staked Estimation table with two bots play to the end and see the payout (RULING P5)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from accounts.models import User
from games.models import Match
from payouts.split import split_pot
from tests.browser.conftest import log_in, open_table, screenshot, sign_up
from tests.payouts.helpers import wallet

pytestmark = pytest.mark.browser

STAKE = 125
ENABLED_ACTION = "#game .est-prompt button:not([disabled]), #game .est-hand button:not([disabled])"


def _play_a_turn(page) -> bool:
    action = page.locator(ENABLED_ACTION)
    if not action.count():
        return False
    before = int(page.get_attribute("#live", "data-version") or 0)
    try:
        action.first.click(timeout=2_000)
        page.wait_for_function("v => +document.getElementById('live').dataset.version > v", arg=before, timeout=10_000)
    except PlaywrightTimeout:
        pass  # swapped under the click: look again
    return True


def test_two_players_play_a_staked_table_to_the_end_and_their_wallets_change_by_the_split(new_page) -> None:
    host_page, guest_page = new_page(), new_page()
    sign_up(host_page, "stakehost")
    sign_up(guest_page, "stakeguest")
    table_url = open_table(host_page, "estimation", length="micro", stake=STAKE)
    assert f"stake {STAKE}" in host_page.inner_text("#live")

    guest_page.goto(table_url)
    guest_page.wait_for_selector("#socket-status:has-text('Connected')")
    guest_page.locator("button:has-text('Sit here')").first.click()
    guest_page.wait_for_selector('button:has-text("I\'m ready")')
    guest_page.click('button:has-text("I\'m ready")')
    guest_page.wait_for_selector("button:has-text('Not ready')")
    host_page.wait_for_selector(f".tag:has-text('pot {2 * STAKE}')")
    for filled in (2, 3):
        host_page.locator("button:has-text('Add bot')").first.click()
        host_page.wait_for_function(
            "n => document.querySelectorAll('.seats .seat:not(.empty)').length >= n", arg=filled + 1
        )
    screenshot(host_page, "staked-estimation-lobby")
    host_page.click("button:has-text('Start the game')")
    host_page.wait_for_selector("#game")

    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if host_page.locator("#result").count() and guest_page.locator("#result").count():
            break
        if not (_play_a_turn(host_page) or _play_a_turn(guest_page)):
            time.sleep(0.1)
    else:
        pytest.fail("The game did not finish in time.")

    match = Match.objects.get(table__host__username="stakehost")
    assert match.status == Match.Status.FINISHED
    players = {mp.user.username: mp for mp in match.match_players.select_related("user")}
    host, guest = players["stakehost"], players["stakeguest"]
    expected = split_pot(2 * STAKE, [(host.place, host.seat), (guest.place, guest.seat)])
    assert (host.payout, guest.payout) == (expected[host.seat], expected[guest.seat])
    assert wallet(User.objects.get(username="stakehost")) == 1000 - STAKE + expected[host.seat]
    assert wallet(User.objects.get(username="stakeguest")) == 1000 - STAKE + expected[guest.seat]
    winner_page = host_page if expected[host.seat] >= expected[guest.seat] else guest_page
    assert f"+{max(expected.values())} coins" in winner_page.inner_text("#result").lower()  # the result panel
    screenshot(winner_page, "staked-estimation-result")

    winner_page.goto("/wallet/")
    assert "Payout from the pot" in winner_page.inner_text("#coin-movements")
    screenshot(winner_page, "wallet-desktop")
    phone = new_page(mobile=True)
    log_in(phone, "stakeguest", "Kolm-Kaardi-Trikk-9")
    phone.goto("/wallet/")
    assert "Stake held" in phone.inner_text("#coin-movements")
    screenshot(phone, "wallet-phone")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
