"""What players tripped on (issue 37) that only a browser shows: a push keeps what a player chose
but has not sent yet. The rendering bugs of the same issue are in tests/tables/test_player_trips.py.
"""

from __future__ import annotations

import pytest

from tables import services
from tables.models import Table
from tests.browser.conftest import in_thread
from tests.browser.test_play_screen import LAPTOP, table_page
from tests.conftest import make_user
from tests.tables.helpers import open_table

pytestmark = pytest.mark.browser


def test_a_bot_level_chosen_before_someone_sits_down_is_the_level_added(browser, site_url, transactional_db) -> None:
    table = in_thread(lambda: open_table(make_user("hostess"), "estimation"))
    guest = in_thread(lambda: make_user("sitter"))
    page = table_page(browser, site_url, "hostess", table.pk, LAPTOP)
    page.wait_for_selector("#socket-status:has-text('Connected')")
    page.select_option("#bot-level-2", "easy")
    page.click("#clock-more summary")  # the clock control is one click away (issue 37)
    page.select_option("#clock-seconds", "60")
    in_thread(lambda: services.seat_take(table_id=table.pk, user=guest, position=1))
    page.wait_for_selector("#live .seat:has-text('sitter')")  # the push has replaced the seats
    assert page.input_value("#bot-level-2") == "easy"
    assert page.input_value("#clock-seconds") == "60"
    assert page.locator("#clock-more").get_attribute("open") is not None  # still open after the push
    page.locator("#bot-level-2 + button").click()
    page.wait_for_selector("#live .seat .bot-level")
    level = in_thread(lambda: Table.objects.get(pk=table.pk).seats.get(position=2).user.bot_level)
    assert level == "easy"
    page.context.close()
