"""A player opens a finished game from history, reads the score sheet and chart, and steps the replay."""

from __future__ import annotations

import pytest

from games.templatetags.card_tags import number
from tests.browser.conftest import in_thread, screenshot, sign_up
from tests.conftest import make_user
from tests.games.history_helpers import finished_match

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game", ["sitaratas", "estimation", "sita"])
def test_a_player_opens_a_finished_game_and_steps_the_replay(new_page, game) -> None:
    match = in_thread(lambda: finished_match(make_user("hana"), game))
    page = new_page()
    sign_up(page, "rita")
    page.click("nav.site-nav >> text=History")
    page.wait_for_url("**/history/")
    page.click(f"a[href='/games/{match.pk}/']")
    page.wait_for_selector("#score-sheet")
    assert page.locator("svg.chart polyline").count() == match.players
    footer = page.locator("#score-sheet tfoot").inner_text()
    for total in match.record["totals"]:
        assert number(total) in footer  # a negative one isolated, with a true minus (issue 53)
    screenshot(page, f"history-{game}-game")

    page.click("text=▶ Replay")
    page.wait_for_selector("#replay-frame[data-step='0']")
    for step in (1, 2, 3):
        page.click("#replay-next")
        page.wait_for_selector(f"#replay-frame[data-step='{step}']")
    assert "?step=3" in page.url
    page.click("#replay-prev")
    page.wait_for_selector("#replay-frame[data-step='2']")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#replay-frame[data-step='3']")
    screenshot(page, f"history-{game}-replay")

    phone = new_page(mobile=True)
    phone.goto(f"/games/{match.pk}/")
    phone.wait_for_selector("#score-sheet")
    screenshot(phone, f"history-{game}-game-phone")
    phone.goto(f"/games/{match.pk}/replay/?step=4")
    phone.wait_for_selector("#replay-frame[data-step='4']")
    screenshot(phone, f"history-{game}-replay-phone")
