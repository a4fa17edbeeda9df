"""Issue 53: negative totals read right in Arabic (the minus left of the digits, as in "−12"), the
μ ± σ heading keeps its small letters, and the rating reads on the players' scale."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import in_thread, log_in, screenshot
from tests.conftest import USER_PASSWORD, make_user
from tests.games.history_helpers import finished_table

pytestmark = pytest.mark.browser
SHOTS = Path("/tmp/shots/h2")

# Each true minus on the page, seen: is it drawn left of the digit that follows it?
MINUS_PLACES = """() => {
  const found = [];
  const walker = document.createTreeWalker(document.querySelector("main") || document.body, NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walker.nextNode())) {
    for (let i = 0; i + 1 < node.data.length; i++) {
      if (node.data[i] !== "\\u2212" || !/[0-9]/.test(node.data[i + 1])) continue;
      const range = document.createRange();
      range.setStart(node, i); range.setEnd(node, i + 1);
      const minus = range.getBoundingClientRect();
      range.setStart(node, i + 1); range.setEnd(node, i + 2);
      const digit = range.getBoundingClientRect();
      if (minus.width && digit.width) found.push({text: node.data.trim(), left: minus.left < digit.left});
    }
  }
  return found;
}"""


def _hyphen_numbers(page) -> list[str]:
    """Visible texts holding a hyphen right before a digit ("-12", shown "12-" right to left)."""
    return page.evaluate(
        """() => [...document.querySelectorAll("main *")]
            .filter((el) => el.children.length === 0 && el.offsetParent !== null)
            .filter((el) => /(^|[\\s(])-[0-9]/.test(el.textContent)).map((el) => el.textContent.trim())"""
    )


def _game(language: str):
    from games.models import MatchPlayer

    player = make_user(f"rita{language}")
    player.language = language
    player.save()
    table = finished_table(make_user(f"hana{language}"), "estimation", guests=[player])
    MatchPlayer.objects.filter(match__table=table, user=player).update(total=-12)
    return player, table, table.matches.get()


@pytest.mark.parametrize("language", ["ar", "en", "et"])
def test_negative_totals_read_with_the_minus_before_the_digits_in_every_direction(new_page, language) -> None:
    player, table, match = in_thread(lambda: _game(language))
    page = new_page()
    log_in(page, player.username, USER_PASSWORD)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name, url in (
        ("game", f"/games/{match.pk}/"),
        ("history", f"/history/?player={player.username}"),
        ("game-over", f"/tables/{table.pk}/"),
        ("profile", f"/players/{player.username}/"),
        ("offline", "/offline/"),
    ):
        page.goto(url)
        if name == "game-over":
            page.wait_for_selector("#live")
        places = page.evaluate(MINUS_PLACES)
        assert places, (name, "no negative figure shown")
        assert all(place["left"] for place in places), (name, [p for p in places if not p["left"]])
        assert _hyphen_numbers(page) == [], name
        page.screenshot(path=str(SHOTS / f"{name}-{language}.png"), full_page=True)
        if name == "game":  # a worked line up close: its figures as read
            line = page.locator("#score-sheet .line").first
            line.evaluate("el => { el.style.fontSize = '28px'; }")
            line.screenshot(path=str(SHOTS / f"game-line-{language}.png"))
    screenshot(page, f"figures-{language}")


@pytest.mark.parametrize("language", ["ar", "en", "et"])
def test_the_ratings_page_shows_the_players_scale_and_the_greek_letters_as_written(new_page, language) -> None:
    player, _table, _match = in_thread(lambda: _game(language))
    page = new_page()
    log_in(page, player.username, USER_PASSWORD)
    page.goto("/ratings/?game=estimation")
    heading = page.locator("table.leaderboard thead th").last
    assert heading.inner_text() == "μ ± σ"  # innerText as drawn: capitals read "Μ ± Σ"
    ratings = page.locator("table.leaderboard tbody td.num strong").all_inner_texts()
    assert ratings and all(1000 < int("".join(ch for ch in text if ch.isdigit())) < 2000 for text in ratings)
    assert page.locator("table.leaderboard .tag").first.is_visible()  # provisional, after one game
    assert page.locator("#about-ratings").is_visible()
    page.screenshot(path=str(SHOTS / f"ratings-{language}.png"), full_page=True)
