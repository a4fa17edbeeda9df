"""Browser test helpers for the play screen: the two screen sizes, a table at the player's turn,
a logged-in page of a table, and the checks that a thing is in view and not covered."""

from __future__ import annotations

import time

from tables.services import lobby
from tests.browser.conftest import log_in
from tests.conftest import USER_PASSWORD, make_user
from tests.helpers import fair_value
from tests.tables.helpers import fill_with_bots, open_table, play_bots_until_human

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 3}
# Every button the player may press, per game, and the hand.
ACTIONS = "#game button:not([disabled])"
HAND = {"sitaratas": "#game .st-hand .card", "estimation": "#game .est-hand .card", "sita": "#game .sita-hand .card"}
# Seen at the same time as the hand: whose turn it is, and the trick (the rows in SITA) with the trump.
CONTEXT = {
    "sitaratas": ["#game .st-status", "#game .st-trick", "#game .st-trump"],
    "estimation": ["#game .est-headline", "#game .est-trick"],
    "sita": ["#game .sita-status", "#game .sita-row[data-row='1']", "#game .sita-row[data-row='4'] .sita-slot.takes"],
}
OPTIONS = {"sitaratas": ({"deck": "jokers"}, 4), "estimation": ({"length": "mini"}, 4), "sita": ({"matches": 1}, 6)}


def started_at_my_turn(game: str, username: str):
    """A table of ``game`` with the player (the host) and bots, played on to the player's turn."""
    host = make_user(username)
    options, seats = OPTIONS[game]
    table = open_table(host, game, seat_count=seats, options=options)
    fill_with_bots(table, host)
    match = play_bots_until_human(lobby.table_start(table_id=table.pk, host=host, entropy=fair_value()))
    return table, match


BOXES = """els => els.map((el) => el.getBoundingClientRect()).filter((r) => r.width || r.height)
    .map((r) => ({x: r.x, y: r.y, width: r.width, height: r.height}))"""


def laid_out_boxes(page, selector: str, seconds: float = 5.0) -> list[dict]:
    """The boxes of the selector's laid-out elements, waiting a few seconds for there to be one.

    The socket's first push replaces the server-rendered view just after the page loads, so the
    element may be missing for a moment. Each try measures every element in one turn of the
    page's script: a push that replaces the region between finding and measuring cannot leave
    nothing measured. Playwright's own selectors (`:has-text`) work here, unlike in
    `querySelectorAll`.
    """
    deadline = time.monotonic() + seconds
    while True:
        boxes = page.locator(selector).evaluate_all(BOXES)
        if boxes or time.monotonic() > deadline:
            return boxes
        page.wait_for_timeout(100)


def assert_in_viewport(page, selector: str, what: str) -> int:
    size = page.viewport_size
    boxes = laid_out_boxes(page, selector)
    assert boxes, f"no {what} on the page ({selector})"
    for box in boxes:
        assert box["x"] >= -0.5 and box["y"] >= -0.5, f"{what} above or left of the viewport: {box}"
        assert box["x"] + box["width"] <= size["width"] + 0.5, f"{what} right of the viewport: {box}"
        assert box["y"] + box["height"] <= size["height"] + 0.5, f"{what} below the viewport: {box}"
    return len(boxes)


def assert_not_covered(page, selector: str) -> None:
    """The element is what the player sees at its centre (the docked hand does not lie over it)."""
    covered = page.evaluate(
        """sel => {
        const el = document.querySelector(sel); const r = el.getBoundingClientRect();
        for (const y of [r.top + Math.min(r.height / 2, 20), r.bottom - 3]) {  // its top and its bottom edge
            const top = document.elementFromPoint(r.left + r.width / 2, y);
            if (top && !el.contains(top) && !top.contains(el)) return top.className || top.tagName;
        }
        return "";
    }""",
        selector,
    )
    assert not covered, f"{selector} is covered by {covered}"


def table_page(browser, site_url, username: str, table_id: int, options: dict, timeout: int = 15_000):
    """A fresh browser of the given size, logged in as ``username``, on the table's page."""
    context = browser.new_context(base_url=site_url, **options)
    context.set_default_timeout(timeout)
    page = context.new_page()
    log_in(page, username, USER_PASSWORD)
    page.goto(f"/tables/{table_id}/")
    return page
