"""What players tripped on (issue 37), in the browser: a push keeps what a player chose but has not
sent yet; the chat's place and unread counts; and the rendering bugs as a player saw them (each
also checked on the render alone in tests/tables/test_player_trips.py).
"""

from __future__ import annotations

import pytest

from accounts.models import User
from games.models import Match
from tables import clock
from tables.models import Table
from tables.services import endings, lobby
from tests.browser.conftest import in_thread
from tests.browser.helpers import LAPTOP, PHONE, table_page
from tests.conftest import make_user
from tests.helpers import fair_value
from tests.payouts.helpers import play_to_end
from tests.tables.helpers import fill_with_bots, open_table, seat_guests, start_table

# transactional_db: the site under test (Daphne and a Celery worker, other processes) reads what the tests write.
pytestmark = pytest.mark.browser
SHORT = {"sita": {"matches": 1}, "estimation": {"length": "micro"}}


def test_a_bot_level_chosen_before_someone_sits_down_is_the_level_added(browser, site_url, transactional_db) -> None:
    table = in_thread(lambda: open_table(make_user("hostess"), "estimation"))
    guest = in_thread(lambda: make_user("sitter"))
    page = table_page(browser, site_url, "hostess", table.pk, LAPTOP)
    page.wait_for_selector("#socket-status:has-text('Connected')")
    page.select_option("#bot-level-2", "easy")
    page.click("#clock-more summary")  # the clock control is one click away (issue 37)
    page.select_option("#clock-seconds", "60")
    in_thread(lambda: lobby.seat_take(table_id=table.pk, user=guest, position=1))
    page.wait_for_selector("#live .seat:has-text('sitter')")  # the push has replaced the seats
    assert page.input_value("#bot-level-2") == "easy"
    assert page.input_value("#clock-seconds") == "60"
    assert page.locator("#clock-more").get_attribute("open") is not None  # still open after the push
    page.locator("#bot-level-2 + button").click()
    page.wait_for_selector("#live .seat .seat-name:has-text('(easy bot)')")
    level = in_thread(lambda: Table.objects.get(pk=table.pk).seats.get(position=2).user.bot_level)
    assert level == "easy"
    page.context.close()


def test_a_phone_counts_chat_messages_that_came_in_out_of_sight(browser, site_url, transactional_db) -> None:
    host = in_thread(lambda: make_user("chathost"))
    table = in_thread(lambda: open_table(host, "sita", seat_count=10))  # ten seats: the chat is below the fold
    guest = in_thread(lambda: make_user("chatguest"))
    in_thread(lambda: lobby.seat_take(table_id=table.pk, user=guest, position=1))
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
    in_thread(lambda: lobby.seat_take(table_id=table.pk, user=guest, position=1))
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


# --- the rendering bugs of issue 37 as a player saw them, in the browser ----------------------


def _seen(browser, site_url, username: str, table_id: int, options: dict = LAPTOP) -> str:
    """The table's live area as the player's browser shows it once the socket has connected."""
    page = table_page(browser, site_url, username, table_id, options)
    page.wait_for_selector("#socket-status:has-text('Connected')")
    text = page.inner_text("#live")
    page.context.close()
    return text


@pytest.mark.parametrize("game", ["sita", "estimation"])
def test_game_over_without_a_sitaratas_names_nobody_as_one(browser, site_url, transactional_db, game) -> None:
    # Bug 1: " is the Sitaratas." with no name at SITA's and Estimation's game over.
    def finished() -> int:
        table, match = start_table(make_user(f"over{game}"), game, options=SHORT[game])
        assert play_to_end(match).status == Match.Status.FINISHED
        return table.pk

    text = _seen(browser, site_url, f"over{game}", in_thread(finished), PHONE)
    assert "Game over" in text
    assert "is the Sitaratas" not in text


def test_a_lone_human_with_bots_is_not_offered_a_dismissal(browser, site_url, transactional_db) -> None:
    # Bug 5: the proposal cannot pass with bots voting no, and would spend the attempt's one proposal.
    table_id = in_thread(lambda: start_table(make_user("alone"), "sitaratas", seat_count=3)[0].pk)
    page = table_page(browser, site_url, "alone", table_id, LAPTOP)
    page.wait_for_selector("#socket-status:has-text('Connected')")
    page.wait_for_selector("#live .seat")
    assert page.locator("button[value='vote_propose']").count() == 0
    page.context.close()


def test_a_finished_table_shows_no_away_banner(browser, site_url, transactional_db) -> None:
    # Bug 6: "You are marked away… I'm back" on a table whose game had ended.
    def finished_while_away() -> int:
        table, match = start_table(make_user("wasaway"), "estimation", options=SHORT["estimation"])
        Match.objects.filter(pk=match.pk).update(clock_seats={"away": {"0": clock.ms(match.started_at)}})
        play_to_end(match)
        return table.pk

    text = _seen(browser, site_url, "wasaway", in_thread(finished_while_away))
    assert "You are marked" not in text and "I'm back" not in text


def test_the_players_of_an_aborted_staked_game_read_that_their_stake_came_back(
    browser, site_url, transactional_db
) -> None:
    # Bug 6: former players of an aborted table showed as WATCHING with no word of their refund.
    def aborted() -> int:
        host, guest = make_user("abhost"), make_user("abguest")
        admin = make_user("abadmin")
        User.objects.filter(pk=admin.pk).update(is_staff=True)
        table = open_table(host, "estimation", stake=7, options=SHORT["estimation"])
        seat_guests(table, [guest])
        fill_with_bots(table, host)
        match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
        endings.match_abort(match_id=match.pk, by=User.objects.get(pk=admin.pk), reason="A player fell ill")
        return table.pk

    text = _seen(browser, site_url, "abguest", in_thread(aborted), PHONE)
    assert "Your stake of 7 coins came back to your wallet." in text
    assert "you played here" in text.lower()  # a tag, drawn in capitals
