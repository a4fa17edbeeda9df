"""A player opens a timed Estimation table with three bots and never acts: the clock runs out, the
house plays for them, they are marked away, and the game still ends (issue 19, RULINGS P9–P12)."""

from __future__ import annotations

import re

import pytest

from games.models import Match, MatchEvent
from tables import clock
from tests.browser.conftest import in_thread, open_table, screenshot, sign_up
from tests.games.history_helpers import played_on
from tests.helpers import wait_for

pytestmark = pytest.mark.browser


def played_on_by_the_house(username: str) -> None:
    """Once the site's worker has played the away seat (queued as for a bot, RULING P12), the rest
    of the game through the service its task calls, without the bots' pause between moves. A
    human's turn that neither a bot nor the house takes fails it."""
    match = Match.objects.get(table__host__username=username)
    seat = match.match_players.get(user__username=username).seat
    by_the_house = MatchEvent.objects.filter(match=match, seat=seat, by_clock=True)  # the expiries' too
    assert wait_for(lambda: by_the_house.count() > clock.AWAY_AFTER, 60), "nobody played for the away seat"
    played_on(match, humans=False)


def test_a_player_who_never_acts_still_sees_the_estimation_game_end(new_page) -> None:
    page = new_page()
    sign_up(page, "absentee")
    open_table(page, "estimation", bots=3, start=True, length="micro", clock="30")
    assert "30 s clock" in page.inner_text("#live .table-head").lower()

    # The countdown runs on the player's own seat, from the deadline the server pushed.
    countdown = page.locator("#live .seat.me .turn-clock")
    countdown.wait_for(timeout=30_000)
    seconds = int(re.match(r"(\d+) s", countdown.inner_text()).group(1))
    assert 15 <= seconds <= 30
    assert page.title().startswith("Your turn")
    screenshot(page, "clock-countdown")
    page.wait_for_selector("#live .seat.me .turn-clock.warning", timeout=35_000)  # the last 10 seconds
    screenshot(page, "clock-warning")

    # Two expiries in a row: away, for everyone to see; only this player is offered "I'm back".
    page.wait_for_selector("#live .seat.me .tag.away", timeout=100_000)
    assert page.locator('#live .away-panel button:has-text("I\'m back")').is_visible()
    screenshot(page, "clock-away")

    in_thread(lambda: played_on_by_the_house("absentee"))
    page.wait_for_selector("#result")
    assert page.locator("#result .placements li").count() == 4
    assert not page.title().startswith("Your turn")
    screenshot(page, "clock-game-over")

    # History says which moves the clock played.
    page.goto("/history/")
    page.locator("a[href^='/games/']").first.click()
    page.wait_for_selector("#clock-moves")
    assert "played by the clock" in page.inner_text("#clock-moves").lower()
