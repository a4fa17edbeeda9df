"""The host picks a bot's level per seat in the lobby and the seat shows it (issue 25, RULING P45)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import open_table, screenshot, sign_up

pytestmark = pytest.mark.browser


def test_the_host_adds_a_strong_and_an_easy_bot_from_the_lobby(new_page) -> None:
    page = new_page()
    sign_up(page, "lumi")
    open_table(page, "sita", players=3, match_count=1)
    assert page.locator("#live .seat.empty select[name=level]").count() == 2
    screenshot(page, "bot-levels-choose")
    for level in ("strong", "easy"):
        empty = page.locator("#live .seat.empty").count()
        form = page.locator("#live .seat.empty form.bot-add").first
        form.locator("select[name=level]").select_option(level)
        form.locator("button:has-text('Add bot')").click()
        page.wait_for_function("n => document.querySelectorAll('#live .seat.empty').length < n", arg=empty)
    names = page.locator("#live .seat .seat-name").all_text_contents()
    assert [name.split(" ", 1)[1] for name in names[1:]] == ["(strong bot)", "(easy bot)"], names
    assert page.locator("#live .seat .bot-level").count() == 0  # issue 53: said once, in the name
    screenshot(page, "bot-levels-lobby")
    page.click("#live button:has-text('Start the game')")
    page.wait_for_selector("#live #game")
    assert page.locator("#live .seat .seat-name").all_text_contents()[1:] == names[1:]
    # The bots choose at once; the test ends when only the host's choice is awaited, so the
    # database is quiet when it is emptied for the next test.
    page.wait_for_selector("#game .sita-hand button:not([disabled])")
    page.wait_for_timeout(1500)
