""" "Play now" plays now (issue 53, RULING P73): the table counts down to the bots, and once they
sit and everyone is ready the game starts by itself; a practice table opens with its bots seated.
Screenshots go to test-artifacts/ (and SHOTS_DIR, if set)."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import in_thread
from tests.browser.helpers import player_page, saved_shot
from tests.conftest import make_user

pytestmark = pytest.mark.browser


def _seconds(page) -> int:
    return int(re.sub(r"\D", "", page.inner_text("#quick-fill .quick-countdown")))


def test_play_now_counts_down_to_the_bots_and_starts_by_itself(browser, site_url, transactional_db) -> None:
    in_thread(lambda: (make_user("ann"), make_user("rami")))
    ann = player_page(browser, site_url, "ann", phone=True)
    try:
        ann.goto("/")
        ann.locator("#game-sita select[name=wait]").select_option("15")
        ann.locator("#game-sita button:has-text('Play now')").click()
        ann.wait_for_url("**/tables/*/")
        ann.wait_for_selector("#socket-status[data-state='open']")
        ann.wait_for_selector("#quick-fill:has-text('Bots take the empty seats in')")
        first = _seconds(ann)
        assert 0 < first <= 15
        ann.wait_for_function(  # the page counts down by itself, no push needed
            "n => Number(document.querySelector('#quick-fill .quick-countdown').textContent.replace(/\\D/g, '')) < n",
            arg=first,
            timeout=5_000,
        )
        # No "Start the game" to wait on: the host says ready, like everyone else.
        assert ann.locator("#live button:has-text('Start the game')").count() == 0
        assert ann.locator("#live .lobby-controls:has-text('starts by itself')").count() == 1
        saved_shot(ann, "play-now-countdown-phone")
        # A watcher reading Arabic sees the same countdown, in their words.
        arabic = player_page(browser, site_url, "rami")
        try:
            arabic.context.add_cookies([{"name": "django_language", "value": "ar", "url": site_url}])
            arabic.goto(ann.url)
            arabic.wait_for_selector("html[dir=rtl]")
            arabic.wait_for_selector("#quick-fill .quick-countdown")
            assert "Bots" not in arabic.inner_text("#quick-fill")
            saved_shot(arabic, "play-now-countdown-laptop-ar", full=False)
        finally:
            arabic.context.close()
        ann.click('#live button:has-text("I\'m ready")')
        ann.wait_for_selector('#live button:has-text("Not ready")')
        # The bots sit when the wait is over, and the game starts without anyone pressing Start.
        ann.wait_for_selector("#live #game", timeout=40_000)
        assert ann.locator("#live .seat.empty").count() == 0
        saved_shot(ann, "play-now-started-phone")
    finally:
        ann.context.close()


def test_a_practice_table_opens_with_its_bots_seated(browser, site_url, transactional_db) -> None:
    in_thread(lambda: make_user("ben"))
    ben = player_page(browser, site_url, "ben")
    try:
        ben.goto("/tables/new/?game=sita")
        ben.locator("input[name=game][value=sita]").check()
        ben.locator("input[name=practice]").check()
        ben.click("text=Open the table")
        ben.wait_for_url("**/tables/*/")
        ben.wait_for_selector("#socket-status[data-state='open']")
        assert ben.locator("#live .seat.empty").count() == 0
        # A bot's level is in its name ("Ada (bot)"), every seat but the host's.
        bots = ben.locator("#live .seat .seat-name", has_text=re.compile(r"\(.*bot\)$"))
        assert bots.count() == ben.locator("#live .seat").count() - 1
        saved_shot(ben, "practice-opened-laptop")
        ben.click("#live button:has-text('Start the game')")
        ben.wait_for_selector("#live #game")
    finally:
        ben.context.close()
