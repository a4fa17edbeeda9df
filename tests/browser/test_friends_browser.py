"""Two players become friends; the host invites one by the bell and a newcomer by the link to a
private table; a third player can neither see nor join it (RULINGS P66, P69). Screenshots of the
friends page, the bell and the invitation panel, laptop and phone, one in Arabic."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import PASSWORD, in_thread, screenshot
from tests.browser.conftest import log_in as site_log_in
from tests.conftest import USER_PASSWORD

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 800}


def prepared() -> dict:
    """Three players, and the host's private table waiting for players (spectators: friends of the seated)."""
    from tables.models import Spectators
    from tables.services import privacy
    from tests.conftest import make_user
    from tests.tables.helpers import open_table

    hana, piet = make_user("hana"), make_user("piet")
    make_user("olga")
    table = open_table(hana, "sita", seat_count=4)
    privacy.privacy_set(table_id=table.pk, host=hana, private=True, spectators=Spectators.FRIENDS)
    return {"table": table.pk, "hana": hana.pk, "piet": piet.pk}


def log_in(page, username: str) -> None:
    site_log_in(page, username, USER_PASSWORD)


def bell_shows(page, count: int) -> None:
    page.wait_for_selector(f"#bell-count[data-unread='{count}']:not([hidden])")


def open_bell(page) -> None:
    page.click("#bell-menu summary")
    page.wait_for_selector("#bell-list .notification")


def shot(page, name: str) -> None:
    screenshot(page, f"friends-{name}")  # kept with the run's artifacts, to be looked at


def test_friends_invite_by_the_bell_and_by_the_link_and_a_stranger_is_kept_out(new_page, browser, site_url) -> None:
    ids = in_thread(prepared)
    table_url = f"/tables/{ids['table']}/"
    hana = browser.new_context(base_url=site_url, viewport=LAPTOP).new_page()
    piet = new_page(mobile=True)
    olga = new_page()
    for page, name in ((hana, "hana"), (piet, "piet"), (olga, "olga")):
        log_in(page, name)

    # Friends: hana asks from piet's profile; piet's bell counts it live, on the lobby page.
    piet.goto("/")
    piet.wait_for_function("() => document.body.dataset.bell === 'open'")
    hana.goto("/players/piet/")
    hana.click("#add-friend")
    hana.wait_for_selector(".message:has-text('Friend request sent.')")
    bell_shows(piet, 1)
    open_bell(piet)
    shot(piet, "bell-phone")
    piet.click("#bell-list .notification-open")
    piet.wait_for_url("**/friends/")
    piet.click("#requests-received button:has-text('Accept')")
    piet.wait_for_selector(f"#friend-{ids['hana']}")

    # The bell on a table page rides on the table's socket: hana invites piet from the panel.
    hana.goto(table_url)
    hana.wait_for_selector("#socket-status:has-text('Connected')")
    bell_shows(hana, 1)  # piet accepted
    piet.goto("/friends/")
    piet.wait_for_function("() => document.body.dataset.bell === 'open'")
    hana.click(f"#invite-{ids['piet']} button:has-text('Invite')")
    hana.wait_for_selector(f"#invite-{ids['piet']} .tag")
    bell_shows(piet, 1)
    piet.wait_for_selector("#bell-toast:not([hidden])")
    open_bell(piet)
    piet.click("#bell-list .notification-open")
    piet.wait_for_url(f"**{table_url}")
    piet.click("#live button:has-text('Sit here')")
    piet.wait_for_selector('#live button:has-text("I\'m ready")')
    shot(piet, "friends-table-phone")
    hana.wait_for_function("() => document.querySelectorAll('#live .seat.empty').length === 2")
    open_bell(hana)
    shot(hana, "bell-laptop")
    hana.click("#bell-menu summary")  # closed again
    hana.locator("#invite-panel").scroll_into_view_if_needed()
    shot(hana, "invite-panel-laptop")

    # The stranger: not in the lobby, and the table page sends them back.
    olga.goto("/")
    assert olga.locator(f"a[href='{table_url}']").count() == 0
    olga.goto(table_url)
    olga.wait_for_url(re.compile(r"/$"))
    olga.wait_for_selector(".message:has-text('This table is private')")

    # By the link: a newcomer signs up from it and lands at the table, where they may sit.
    link = hana.input_value("#invite-link")
    lea = new_page()
    lea.goto(link)
    lea.wait_for_url("**/accounts/signup/")
    lea.fill("input[name=username]", "lea")
    lea.fill("input[name=email]", "lea@example.com")
    lea.fill("input[name=password1]", PASSWORD)
    lea.fill("input[name=password2]", PASSWORD)
    lea.click("form button[type=submit]")
    lea.wait_for_url(f"**{table_url}")
    lea.click("#live button:has-text('Sit here')")
    lea.wait_for_selector('#live button:has-text("I\'m ready")')
    # The stranger still is not let in, to sit or to watch.
    olga.goto(table_url)
    olga.wait_for_selector(".message:has-text('This table is private')")
    assert "/tables/" not in olga.url

    # The friends page, laptop and phone; hana's is in Arabic on the phone.
    hana.goto("/friends/")
    hana.wait_for_selector(f"#friend-{ids['piet']}[data-state='lobby'] .join-link")
    shot(hana, "friends-laptop")
    arabic = new_page(mobile=True)
    log_in(arabic, "hana")
    arabic.context.add_cookies([{"name": "django_language", "value": "ar", "url": site_url}])
    arabic.goto("/friends/")
    arabic.wait_for_selector("html[dir=rtl]")
    shot(arabic, "friends-phone-ar")
    arabic.goto(table_url)
    arabic.wait_for_selector("#socket-status[data-state='open']")
    arabic.locator("#invite-panel").scroll_into_view_if_needed()
    shot(arabic, "invite-panel-phone-ar")
