"""Two players and a spectator chat at a SITA table, in the lobby and during the game (issue 23)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import open_table, screenshot, sign_up

pytestmark = pytest.mark.browser

LOG = "#chat-log"


def chat_says(page, text: str) -> None:
    page.locator(LOG).get_by_text(text, exact=True).wait_for()


def type_and_send(page, text: str) -> None:
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")


def chat_ready(page) -> None:
    page.wait_for_selector("#chat-text:not([disabled])")


def test_two_players_and_a_spectator_chat(new_page) -> None:
    host, player, watcher = new_page(), new_page(), new_page(mobile=True)
    sign_up(host, "hanna")
    sign_up(player, "pieter")
    sign_up(watcher, "olgita")
    url = open_table(host, "sita", players=2, match_count=1)
    # Watched from the table page on (the New table page's own script errors are not chat's).
    problems: list[str] = []
    for page in (host, player, watcher):
        page.on("pageerror", lambda error: problems.append(f"{error} {error.stack}"))
        page.on("dialog", lambda dialog: problems.append(f"unexpected dialog: {dialog.message}"))
    for page in (player, watcher):
        page.goto(url)
        page.wait_for_selector("#socket-status:has-text('Connected')")
    chat_ready(host)
    player.click("#live button:has-text('Sit here')")
    player.click('#live button:has-text("I\'m ready")')
    player.wait_for_selector("#live button:has-text('Not ready')")

    # In the lobby everyone sees both rooms (RULING P25); the spectator writes in theirs.
    chat_ready(watcher)
    type_and_send(watcher, "<img src=x> see https://example.com")
    for page in (host, player, watcher):
        chat_says(page, "<img src=x> see https://example.com")
        # Text, not markup: no image and no link came out of it.
        assert page.locator(f"{LOG} img, {LOG} a").count() == 0
        # Isolated as names are (RULING P54): a message in another direction keeps its own.
        assert page.locator(f"{LOG} bdi.chat-text").count() == 1

    host.click("#live button:has-text('Start the game')")
    for page in (host, player, watcher):
        page.wait_for_selector("#live #game")
    player.wait_for_selector('#chat-room:has-text("players\' chat")')
    # The players' chat after the start shows only the players' room.
    host.wait_for_function("() => !document.querySelector('#chat-log li.spectators')")

    player.locator("#chat-phrases button", has_text="Good luck").click()  # one tap
    for page in (host, player, watcher):
        chat_says(page, "Good luck")
    type_and_send(host, "Thanks, you too")
    for page in (host, player, watcher):
        chat_says(page, "Thanks, you too")
    type_and_send(watcher, "Go Pieter!")
    chat_says(watcher, "Go Pieter!")
    type_and_send(player, "Here goes")
    chat_says(host, "Here goes")
    assert host.locator(LOG).get_by_text("Go Pieter!").count() == 0  # spectators' chat stays with them
    assert player.locator(LOG).get_by_text("Go Pieter!").count() == 0

    # Too long is refused with a clear message, and what was typed is kept.
    # Every text the notice line shows is recorded, so a slow machine that looks only after the
    # notice's six seconds still sees that it came.
    player.evaluate("""() => {
        const notice = document.getElementById('chat-notice');
        window.noticesSeen = [];
        new MutationObserver(() => window.noticesSeen.push(notice.textContent))
            .observe(notice, {childList: true, characterData: true, subtree: true});
        document.getElementById('chat-text').removeAttribute('maxlength');
    }""")
    type_and_send(player, "x" * 301)
    player.wait_for_function("() => window.noticesSeen.some((text) => text.includes('at most 300 characters'))")
    assert player.input_value("#chat-text") == "x" * 301

    assert host.locator("#chat-spectators").is_visible()  # the host's switch (RULING P26), theirs alone
    assert not watcher.locator("#chat-spectators").is_visible()
    for page, name in ((host, "chat-host"), (player, "chat-player"), (watcher, "chat-spectator-phone")):
        page.locator("#chat").scroll_into_view_if_needed()
        screenshot(page, name)
    assert problems == []
