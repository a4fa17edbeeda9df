"""Browser test helpers for the play screen: the two screen sizes, a table at the player's turn,
a logged-in page of a table, and the checks that a thing is in view and not covered."""

from __future__ import annotations

import os
import time
from pathlib import Path

from tables.services import lobby
from tests.browser.conftest import ARTIFACTS, log_in
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


def player_page(browser, site_url: str, username: str, *, phone: bool = False):
    """A new context at a laptop's or a phone's size, signed in as ``username`` (``make_user``'s password)."""
    context = browser.new_context(base_url=site_url, **(PHONE if phone else LAPTOP))
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, username, USER_PASSWORD)
    return page


def saved_shot(page, name: str, *, full: bool = True) -> None:
    """The page's screenshot in test-artifacts/ (and SHOTS_DIR, if set)."""
    for folder in filter(None, [ARTIFACTS, os.environ.get("SHOTS_DIR")]):
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=full)


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


def hold_clock(match_id: int, seconds: int = 120) -> None:
    """The awaited seats' turn clocks start again at ``seconds`` from now, and the countdown task
    armed before does nothing when it runs (it is no longer the armed one, tables/clock.py): a
    page measured for a few minutes keeps its clock chip and its turn."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Match

    match = Match.objects.get(pk=match_id)
    at = timezone.now() + timedelta(seconds=seconds)
    ms = int(at.timestamp() * 1000)
    deadlines = {seat: [ms, version] for seat, (_, version) in match.deadlines.items()}
    clock_seats = {**match.clock_seats, "timer": [ms, match.version]}
    Match.objects.filter(pk=match_id).update(deadlines=deadlines, clock_due=at, clock_seats=clock_seats)


# Issue 53: what a decision depends on is not covered. Each enabled control (a button, a summary,
# a select, a link in the game) is what lies under its own centre, scrolled into view if it is
# not; each element of ``read`` lies inside the viewport as the page opens, and nothing lies over
# any of nine points spread over its box.
DECISION_PROBLEMS = """read => {
  const found = [];
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\\s+/).join(".") : "") +
    ` "${(el.innerText || "").trim().slice(0, 24)}"`;
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 &&
    getComputedStyle(el).visibility !== "hidden"; };
  const over = (el, x, y) => { const top = document.elementFromPoint(x, y);
    return top && !el.contains(top) && !top.contains(el) ? top : (top ? null : "off"); };
  const width = document.documentElement.clientWidth, height = document.documentElement.clientHeight;
  for (const sel of read) {
    for (const el of document.querySelectorAll(sel)) {
      if (!shown(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.top < -1 || r.left < -1 || r.bottom > height + 1 || r.right > width + 1) {
        const at = `${Math.round(r.left)}..${Math.round(r.right)} × ${Math.round(r.top)}..${Math.round(r.bottom)}`;
        found.push(`${name(el)} not in view (${at} of ${width} × ${height})`);
        continue;
      }
      let hit = null;
      for (const fx of [0.08, 0.5, 0.92]) for (const fy of [0.1, 0.5, 0.9]) {
        hit = hit || over(el, r.left + r.width * fx, r.top + r.height * fy);
      }
      if (hit) found.push(`${name(el)} covered by ${hit === "off" ? "nothing (off screen)" : name(hit)}`);
    }
  }
  const start = window.scrollY;
  const controls = "#live button:not([disabled]), #live summary, #live select:not([disabled]), #game a[href], " +
    "#dock input";
  for (const el of document.querySelectorAll(controls)) {
    if (!shown(el) || el.closest("[hidden], details:not([open]) > :not(summary)")) continue;
    let r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > height) { el.scrollIntoView({block: "center"}); r = el.getBoundingClientRect(); }
    const hit = over(el, r.left + r.width / 2, r.top + r.height / 2);
    if (hit) found.push(`control ${name(el)} covered by ${hit === "off" ? "nothing (off screen)" : name(hit)}`);
  }
  window.scrollTo(0, start);
  return found;
}"""


def decision_problems(page, read: list[str]) -> list[str]:
    """What the player cannot see or press of what a decision needs (``DECISION_PROBLEMS``)."""
    return page.evaluate(DECISION_PROBLEMS, read)
