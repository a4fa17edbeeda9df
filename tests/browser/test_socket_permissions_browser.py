"""What a player sees when the site stops a table's live view (RULINGS P66, P16): a watcher shut
out by the host is told so at once, without reloading; a window refused at its handshake says
why and waits. Screenshots of both."""

from __future__ import annotations

import pytest

from tests.browser.conftest import in_thread, screenshot, sign_up

pytestmark = pytest.mark.browser


def watched_table(watcher_name: str) -> tuple[int, int]:
    from tests.conftest import make_user
    from tests.tables.helpers import open_table

    host = make_user("hana")
    return open_table(host, "sita").pk, host.pk


def make_private(table_id: int, host_id: int) -> None:
    from accounts.models import User
    from tables.models import Spectators
    from tables.services import privacy

    host = User.objects.get(pk=host_id)
    privacy.privacy_set(table_id=table_id, host=host, private=True, spectators=Spectators.NOBODY)


def test_a_watcher_shut_out_is_told_at_once(new_page) -> None:
    page = new_page()
    sign_up(page, "olga")
    table_id, host_id = in_thread(lambda: watched_table("olga"))
    page.goto(f"/tables/{table_id}/")
    page.wait_for_selector("#socket-status[data-state='open']")
    in_thread(lambda: make_private(table_id, host_id))
    page.wait_for_selector("#flash:has-text('cannot watch')")
    page.wait_for_selector("#socket-status[data-state='closed']")
    screenshot(page, "socket-shut-out-laptop")


def test_a_refused_window_says_why_and_waits(new_page) -> None:
    from asgiref.sync import async_to_sync

    from core import limits
    from tables.live import guard

    page = new_page(mobile=True)
    sign_up(page, "piet")
    table_id, _host_id = in_thread(lambda: watched_table("piet"))
    session = next(cookie["value"] for cookie in page.context.cookies() if cookie["name"] == "sessionid")
    # As if this login had been refused three times for too many windows on the table (RULING
    # P16): a wait of 4 s, longer than the page takes to load.
    for _ in range(3):
        in_thread(
            lambda: async_to_sync(limits.backoff_earn)(guard.login_backoff(session), "here", guard.OPENING_BACKOFF)
        )
    page.goto(f"/tables/{table_id}/")
    page.wait_for_selector("#socket-status[data-state='refused']:has-text('windows open on this table')")
    screenshot(page, "socket-refused-phone")
    page.wait_for_selector("#socket-status[data-state='open']", timeout=20_000)  # let in once the wait is over
