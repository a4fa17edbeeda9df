"""The dismissal vote as two players see it in the page (issue 7, RULING S12)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import open_table, screenshot, sign_up

pytestmark = pytest.mark.browser


def test_two_players_dismiss_a_sitaratas_game_and_return_to_the_lobby(new_page) -> None:
    host, guest = new_page(), new_page(mobile=True)
    sign_up(host, "voter")
    sign_up(guest, "seconder")
    table_url = open_table(host, "sitaratas", players=3)
    guest.goto(table_url)
    guest.locator("#live button:has-text('Sit here')").first.click()
    guest.locator('#live button:has-text("I\'m ready")').click()
    host.locator("#live button:has-text('Add bot')").first.click()
    host.wait_for_selector("#live .seat:has-text('seconder') .tag.good:text-is('ready')")
    host.wait_for_selector("#live .seat:has-text('bot')")
    host.click("#live button:has-text('Start the game')")
    host.wait_for_selector("#live #game")

    host.click("#live button:has-text('Propose dismissal')")
    for page in (host, guest):
        page.wait_for_selector("#vote.vote-panel")
        text = page.inner_text("#vote")
        # RULING S12: the proposer's YES counts at once; 2 of all 3 players needed, the bot never votes.
        assert "1 yes" in text and "2 of 3 needed" in text and "Bots do not vote" in text
        assert page.inner_text(".vote-countdown").endswith(" s")
    assert guest.locator("#vote button:has-text('Yes, dismiss')").count() == 1
    screenshot(host, "vote-open-desktop")
    screenshot(guest, "vote-open-phone")

    guest.click("#vote button:has-text('Yes, dismiss')")
    for page in (host, guest):
        page.wait_for_selector("#live[data-status='lobby']")
    # The same seats, back in the lobby with ready flags cleared.
    assert host.locator("#live .seat:has-text('voter')").count() == 1
    assert host.locator("#live .seat:has-text('seconder')").count() == 1
    assert guest.locator('#live button:has-text("I\'m ready")').count() == 1
