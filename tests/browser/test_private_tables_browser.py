"""Private tables as their players meet them (issue 53): a seat is offered only to whom it seats,
the host sees who is invited and who answered, copies the link with one button, and a friend is
challenged from their row on the friends page and from their profile. Screenshots go to
test-artifacts/ (and SHOTS_DIR, if set)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser.conftest import ARTIFACTS, in_thread, log_in
from tests.conftest import USER_PASSWORD

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "device_scale_factor": 2}


def _shot(page, name: str, *, full: bool = True) -> None:
    for folder in filter(None, [ARTIFACTS, os.environ.get("SHOTS_DIR")]):
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=full)


def _page(browser, site_url: str, username: str, *, phone: bool = False):
    options = PHONE if phone else {"viewport": LAPTOP}
    context = browser.new_context(base_url=site_url, **options)
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, username, USER_PASSWORD)
    return page


def _private_table(spectators: str = "anyone") -> dict:
    from tables.services import privacy
    from tests.conftest import make_user
    from tests.social.helpers import befriend
    from tests.tables.helpers import open_table

    hana, piet, olga = make_user("hana"), make_user("piet"), make_user("olga")
    befriend(hana, piet)
    table = open_table(hana, "sita", seat_count=3)
    privacy.privacy_set(table_id=table.pk, host=hana, private=True, spectators=spectators)
    return {"table": table.pk, "hana": hana.pk, "piet": piet.pk, "olga": olga.pk}


def test_a_private_table_offers_a_seat_only_to_whom_it_seats(browser, site_url, transactional_db) -> None:
    ids = in_thread(_private_table)
    url = f"/tables/{ids['table']}/"
    olga = _page(browser, site_url, "olga", phone=True)  # may watch (anyone may), may not sit
    piet = _page(browser, site_url, "piet")  # the host's friend
    try:
        olga.goto(url)
        olga.wait_for_selector("#socket-status[data-state='open']")
        olga.wait_for_selector("#live #watch-only")
        assert olga.locator("#live button:has-text('Sit here')").count() == 0
        _shot(olga, "private-watch-only-phone")
        piet.goto(url)
        piet.wait_for_selector("#socket-status[data-state='open']")
        assert piet.locator("#live button:has-text('Sit here')").count() == 2
        assert piet.locator("#live #watch-only").count() == 0
        # The live push after a change keeps each one's offer: piet sits, olga still is offered nothing.
        piet.locator("#live button:has-text('Sit here')").first.click()
        piet.wait_for_selector('#live button:has-text("I\'m ready")')
        olga.wait_for_selector("#live .seat .seat-name:has-text('piet')")
        assert olga.locator("#live button:has-text('Sit here')").count() == 0

        # Once the host and olga are friends, her open view offers her the free seat.
        def befriend() -> None:
            from accounts.models import User
            from tests.social.helpers import befriend

            befriend(User.objects.get(pk=ids["hana"]), User.objects.get(pk=ids["olga"]))

        in_thread(befriend)
        olga.wait_for_selector("#live button:has-text('Sit here')")
        assert olga.locator("#live #watch-only").count() == 0
    finally:
        olga.context.close()
        piet.context.close()
