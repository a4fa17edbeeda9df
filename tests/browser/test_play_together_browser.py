"""Play now and rematch in the browser (issue 39): two players pressing "Play now" land at one table;
two friends at a finished game both accept the rematch, see each other's answer live, and the new
table starts by itself once both are ready. Screenshots of the lobby and the rematch panel go to
test-artifacts/ (and SHOTS_DIR, if set)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tables.models import Table
from tests.browser.conftest import ARTIFACTS, in_thread, log_in
from tests.conftest import USER_PASSWORD, make_user

# transactional_db: the site under test (Daphne and a Celery worker, other processes) reads what the tests write.
pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 800}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "device_scale_factor": 2}


def _shot(page, name: str, *, full: bool = True) -> None:
    for folder in filter(None, [ARTIFACTS, os.environ.get("SHOTS_DIR")]):
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=full)


def _context(browser, site_url: str, *, phone: bool = False, language: str = "en"):
    options = PHONE if phone else {"viewport": LAPTOP}
    context = browser.new_context(base_url=site_url, extra_http_headers={"Accept-Language": language}, **options)
    context.set_default_timeout(15_000)
    return context


def test_play_now_seats_two_players_at_one_table(browser, site_url, transactional_db) -> None:
    ann, ben = in_thread(lambda: (make_user("ann"), make_user("ben")))
    first, second = _context(browser, site_url), _context(browser, site_url, phone=True)
    try:
        one, two = first.new_page(), second.new_page()
        log_in(one, ann.username, USER_PASSWORD)
        log_in(two, ben.username, USER_PASSWORD)
        one.goto("/")
        one.locator("#game-sita button:has-text('Play now')").click()
        one.wait_for_url("**/tables/*/")
        one.wait_for_selector("#socket-status:has-text('Connected')")
        two.goto("/")
        two.wait_for_selector("#game-sita .card-tables li")  # ann's table waits for players
        _shot(two, "lobby-phone")
        two.locator("#game-sita button:has-text('Play now')").click()
        two.wait_for_url("**/tables/*/")
        assert one.url == two.url
        one.wait_for_selector(".seat .seat-name:has-text('ben')")  # pushed to ann's page live
        assert in_thread(lambda: Table.objects.filter(status=Table.Status.LOBBY).count()) == 1
        one.goto("/")
        _shot(one, "lobby-laptop")
    finally:
        first.close()
        second.close()
    arabic = _context(browser, site_url, language="ar")
    try:
        page = arabic.new_page()
        log_in(page, ann.username, USER_PASSWORD)
        page.goto("/")
        assert page.locator("html").get_attribute("dir") == "rtl"
        _shot(page, "lobby-laptop-ar")
    finally:
        arabic.close()


def _friends_after_a_game():
    from social import services as social
    from tests.games.history_helpers import finished_table

    hana, piet = make_user("hana"), make_user("piet")
    request = social.friend_request_send(sender=hana, recipient_id=piet.pk)
    social.friend_request_accept(user=piet, request_id=request.pk)
    return finished_table(hana, "sitaratas", [piet]).pk


def test_two_friends_rematch_and_the_new_table_starts_when_both_are_ready(browser, site_url, transactional_db) -> None:
    source = in_thread(_friends_after_a_game)
    first, second = _context(browser, site_url), _context(browser, site_url, phone=True)
    try:
        host, guest = first.new_page(), second.new_page()
        log_in(host, "hana", USER_PASSWORD)
        log_in(guest, "piet", USER_PASSWORD)
        for page in (host, guest):
            page.goto(f"/tables/{source}/")
            page.wait_for_selector("#socket-status:has-text('Connected')")
            page.wait_for_selector("#rematch")
        guest.locator("#rematch button:has-text('Rematch')").click()
        # Live on the other page: piet accepted, hana not yet.
        host.wait_for_selector("#rematch .rematch-accepted:has-text('piet')")
        host.wait_for_selector("#rematch .rematch-pending:has-text('hana')")
        host.locator("#rematch").scroll_into_view_if_needed()
        _shot(host, "rematch-panel-laptop", full=False)
        guest.locator("#rematch").scroll_into_view_if_needed()
        _shot(guest, "rematch-panel-phone", full=False)
        host.locator("#rematch button:has-text('Rematch')").click()
        host.locator("#rematch a:has-text('Go to the rematch table')").click()
        guest.locator("#rematch a:has-text('Go to the rematch table')").click()
        for page in (host, guest):
            page.wait_for_url(lambda url: f"/tables/{source}/" not in url)
            page.wait_for_selector("#socket-status:has-text('Connected')")
        assert host.url == guest.url
        for page in (guest, host):
            page.locator('button:has-text("I\'m ready")').click()
        host.wait_for_selector("#live[data-status='playing']")
        guest.wait_for_selector("#live[data-status='playing']")
    finally:
        first.close()
        second.close()
