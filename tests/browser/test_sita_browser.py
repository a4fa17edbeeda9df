"""A SITA game played by clicking, against two bots, to the end (issue 6).

The player always chooses their lowest card: it keeps the game short of surprises
and makes a too-low card (the "take a row" choice) likely. Midway the player looks
at the table from a phone too, and reloads the page and carries on.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import log_in, open_table, screenshot, sign_up

pytestmark = pytest.mark.browser

HAND_CARD = "#hand button.card-btn:not([disabled])"
TAKE_ROW = "#take-row button"


def wait_connected(page) -> None:
    page.wait_for_selector("#socket-status:has-text('Connected')")


# Whether this turn's choice has been taken: it shows locked, or the turn was revealed.
CHOICE_TAKEN = """t => !!document.querySelector('#hand .card-btn.locked, #take-row button, #result')
    || !document.getElementById('sita-status').textContent.includes(`Turn ${t} of`)"""
# Whether this turn is revealed: a row to take, the next turn, or the end.
REVEALED = """t => !!document.querySelector('#take-row button, #result')
    || !document.getElementById('sita-status').textContent.includes(`Turn ${t} of`)"""
MY_CHOICE_AWAITED = """t => document.getElementById('sita-status')?.textContent.includes(`Turn ${t} of`)
    && !!document.querySelector('#hand button.card-btn:not([disabled])')"""


def click_until(page, locator, done: str, arg: object) -> None:
    """Click a ws button until ``done`` holds: a push swapping the page mid-click can lose a click.
    A click that did land may show late on a busy machine: ``done`` is asked again before each
    new click, so a taken choice (its buttons disabled) is never clicked for again."""
    for attempt in range(3):
        if page.evaluate(done, arg):
            return
        try:
            locator.click(timeout=5_000)
            page.wait_for_function(done, arg=arg, timeout=5_000)
            return
        except PlaywrightError:
            if attempt == 2 and not page.evaluate(done, arg):
                screenshot(page, "sita-stuck")
                raise


def turn_number(page) -> int:
    label = page.text_content("#sita-status")
    return int(re.search(r"Turn (\d+) of", label).group(1))


def test_a_new_player_plays_a_sita_game_against_bots_by_clicking(new_page) -> None:
    page = new_page()
    sign_up(page, "sami")
    table_url = open_table(page, "sita", bots=2, start=True, players=3, match_count=1)
    assert page.locator("#rows .sita-row").count() == 4
    assert page.locator("#hand button.card-btn").count() == 10
    assert "Match 1 of 1" in page.text_content("#sita-status")

    took_rows = 0
    for turn in range(1, 11):
        page.wait_for_function(MY_CHOICE_AWAITED, arg=turn)
        if turn == 3:
            screenshot(page, "sita-desktop-mid")
            phone = new_page(mobile=True)
            log_in(phone, "sami")
            phone.goto(table_url)
            wait_connected(phone)
            assert phone.locator("#hand button.card-btn").count() == 8
            screenshot(phone, "sita-phone-mid")
            phone.close()
        if turn == 5:
            page.reload()
            wait_connected(page)
            page.wait_for_function(MY_CHOICE_AWAITED, arg=turn)
            assert page.locator("#hand button.card-btn").count() == 6
        click_until(page, page.locator(HAND_CARD).first, CHOICE_TAKEN, turn)
        if page.locator("#hand .card-btn.locked").count():
            # Locked: the choice stands out and no other card can be chosen; the bots are still choosing.
            assert page.locator(HAND_CARD).count() == 0
            if not took_rows and turn <= 3:
                screenshot(page, "sita-locked")
        page.wait_for_function(REVEALED, arg=turn)
        if page.locator(TAKE_ROW).count():
            labels = page.locator(TAKE_ROW).all_inner_texts()
            assert len(labels) == 4 and all(re.fullmatch(r"Take row \d \(\d+ points?\)", text) for text in labels)
            if not took_rows:
                screenshot(page, "sita-take-row")
            took_rows += 1
            click_until(page, page.locator(TAKE_ROW).first, "() => !document.querySelector('#take-row')", None)

    page.wait_for_selector("#result")
    placements = page.locator("#result .placements li")
    assert placements.count() == 3
    assert "sami" in page.inner_text("#result")
    assert "Turn 10 of 10" in page.text_content("#sita-status")
    # The sheets have the players as rows (issue 20): three players, ten turns, one match.
    assert page.locator("#turn-sheet tbody tr").count() == 3
    assert page.locator("#turn-sheet thead th").count() == 1 + 10
    assert page.locator("#score-sheet tbody tr").count() == 3
    assert page.locator("#score-sheet thead th").count() == 1 + 1 + 1
    screenshot(page, "sita-result")
