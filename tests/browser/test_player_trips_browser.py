"""What players tripped on (issue 37) that only a browser shows: a push keeps what a player chose
but has not sent yet. The rendering bugs of the same issue are in tests/tables/test_player_trips.py.
"""

from __future__ import annotations

import pytest

from tables import services
from tables.models import Table
from tests.browser.conftest import in_thread
from tests.browser.test_play_screen import LAPTOP, PHONE, table_page
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


def test_a_phone_counts_chat_messages_that_came_in_out_of_sight(browser, site_url, transactional_db) -> None:
    host = in_thread(lambda: make_user("chathost"))
    table = in_thread(lambda: open_table(host, "sita", seat_count=10))  # ten seats: the chat is below the fold
    guest = in_thread(lambda: make_user("chatguest"))
    in_thread(lambda: services.seat_take(table_id=table.pk, user=guest, position=1))
    phone = table_page(browser, site_url, "chathost", table.pk, PHONE)
    laptop = table_page(browser, site_url, "chatguest", table.pk, LAPTOP)
    for page in (phone, laptop):
        page.wait_for_selector("#chat-text:not([disabled])")
    assert phone.locator("#chat-unread").is_hidden()
    laptop.fill("#chat-text", "Ready when you are")
    laptop.press("#chat-text", "Enter")
    phone.wait_for_selector("#chat-unread:not([hidden])")
    assert phone.inner_text("#chat-unread") == "1"
    phone.click("#chat-jump")
    phone.wait_for_selector("#chat-unread[hidden]", state="attached")
    assert "Ready when you are" in phone.inner_text("#chat-log")
    phone.context.close()
    laptop.context.close()


def test_on_a_laptop_the_chat_sits_beside_the_table_and_folds_to_a_tab_that_counts(
    browser, site_url, transactional_db
) -> None:
    host = in_thread(lambda: make_user("foldhost"))
    table = in_thread(lambda: open_table(host, "estimation"))
    guest = in_thread(lambda: make_user("foldguest"))
    in_thread(lambda: services.seat_take(table_id=table.pk, user=guest, position=1))
    laptop = table_page(browser, site_url, "foldhost", table.pk, LAPTOP)
    other = table_page(browser, site_url, "foldguest", table.pk, PHONE)
    for page in (laptop, other):
        page.wait_for_selector("#chat-text:not([disabled])")
    beside = laptop.evaluate("""() => {
      const chat = document.getElementById("chat").getBoundingClientRect();
      const table = document.querySelector(".table-main").getBoundingClientRect();
      return chat.left >= table.right && chat.top < table.bottom && chat.right <= innerWidth;
    }""")
    assert beside
    assert laptop.locator("#chat-jump").is_hidden()  # no jump button where the chat is in view
    laptop.click("#chat-collapse")
    assert laptop.locator("#chat-log").is_hidden() and laptop.locator("#chat-tab").is_visible()
    other.fill("#chat-text", "Folded away")
    other.press("#chat-text", "Enter")
    laptop.wait_for_selector("#chat-tab .chat-unread:not([hidden])")
    assert laptop.inner_text("#chat-tab .chat-unread") == "1"
    laptop.reload()  # the browser keeps the choice
    laptop.wait_for_selector("#chat-text:not([disabled])", state="attached")
    assert laptop.locator("#chat-tab").is_visible() and laptop.locator("#chat-log").is_hidden()
    laptop.click("#chat-tab")
    assert laptop.locator("#chat-log").is_visible()
    assert "Folded away" in laptop.inner_text("#chat-log")
    laptop.wait_for_selector("#chat-tab .chat-unread[hidden]", state="attached")
    laptop.context.close()
    other.context.close()
