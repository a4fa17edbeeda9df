"""Fair deals in the browser (RULINGS P30-P34): the commitment in the lobby, a typed value sent with
"I'm ready", the host's drawn one with "Start", a SITA game played on through the services to its
last turn, whose cards the players click, and the "Verify this deal" panel recomputing the
commitment and the seed with Web Crypto. Every move is made through the services, as the pages
make them (each a MatchEvent): the site's engine replays them all to verify the deal."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from accounts.models import User
from games.engines import sita
from games.models import Match
from tables.models import DealCommitment
from tests.browser.conftest import in_thread, open_table, screenshot, sign_up
from tests.games.history_helpers import played_on

pytestmark = pytest.mark.browser

TYPED = "c0ffee00c0ffee00c0ffee00c0ffee00"
ACTION = "#game #take-row button:not([disabled]), #game #hand button.card-btn:not([disabled])"
LAST_TURN = f"Turn {sita.HAND_SIZE} of {sita.HAND_SIZE}"


def at_the_last_turn(host: str) -> None:
    """The game played on through the services until the players are to choose their last card."""
    played_on(
        Match.objects.get(table__host__username=host),
        until=lambda engine, state: state.turn == sita.HAND_SIZE and state.pending is None,
    )


def frozen_values(commitment: str) -> dict[str, str | None]:
    """The value each seat's account was frozen with at the start (RULING P32), by username."""
    seats = DealCommitment.objects.get(commitment=commitment).contributions["values"]
    names = dict(User.objects.filter(pk__in=[seat["account"] for seat in seats]).values_list("pk", "username"))
    return {names[seat["account"]]: seat["value"] for seat in seats}


def play_until_over(pages: list) -> None:
    """Each player clicks whatever the page offers them (a card, a row to take) until the game ends."""
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if pages[0].locator("#result").count():
            return
        for page in pages:
            button = page.locator(ACTION).first
            if not button.count():
                continue
            try:
                button.click(timeout=2_000)
            except PlaywrightTimeout:
                continue  # the page was swapped under the click: look again
        pages[0].wait_for_timeout(150)
    pytest.fail("The game did not finish in time.")


def test_players_play_a_fair_deal_and_verify_it(new_page) -> None:
    host, guest = new_page(), new_page()
    sign_up(host, "fairhost")
    sign_up(guest, "fairguest")
    table_url = open_table(host, "sita", bots=1, players=3, match_count=1)
    commitment = host.get_attribute("#fair-deal", "data-commitment")
    assert len(commitment) == 64 and commitment in host.inner_text("#fair-deal")
    # The host's browser drew it (static/js/fairness.js): 16 bytes in hex, kept for this commitment.
    drawn = host.input_value("#fair-value")
    assert re.fullmatch(r"[0-9a-f]{32}", drawn), drawn
    assert host.evaluate("key => sessionStorage.getItem(key)", "fair-value:" + commitment) == drawn

    guest.goto(table_url)
    guest.wait_for_selector("#socket-status:has-text('Connected')")
    assert guest.get_attribute("#fair-deal", "data-commitment") == commitment
    guest.locator("#live button:has-text('Sit here')").first.click()
    guest.click("#fair-value-more summary")  # one click away (issue 37)
    guest.wait_for_selector("#fair-value")
    guest.fill("#fair-value", TYPED)  # a player may type their own value
    guest.locator('#live button:has-text("I\'m ready")').click()
    guest.wait_for_selector("#live button:has-text('Not ready')")
    screenshot(guest, "fairness-lobby")
    assert TYPED not in host.content()  # values stay private until the start

    host.click("#live button:has-text('Start the game')")
    host.wait_for_selector("#live #game")
    guest.wait_for_selector("#live #game")
    values = host.inner_text("#fair-deal .fair-values")
    assert drawn in values and TYPED in values and "bot, no value" in values
    # "Start" sent the value the page drew, and the deal's record froze it at the host's seat.
    frozen = in_thread(lambda: frozen_values(commitment))
    assert (frozen["fairhost"], frozen["fairguest"]) == (drawn, TYPED)
    assert host.get_attribute("#fair-deal", "data-commitment") == commitment  # it never changed
    assert "revealed when the game is over" in host.inner_text("#fair-deal")

    in_thread(lambda: at_the_last_turn("fairhost"))
    for page in (host, guest):  # pushed while the moves were made
        page.wait_for_selector(f"#sita-status:has-text('{LAST_TURN}')")
        page.wait_for_selector("#hand button.card-btn:not([disabled])")
        assert page.locator("#hand button.card-btn").count() == 1
    play_until_over([host, guest])
    host.wait_for_selector("#fair-deal .fair-secret")
    host.click("#fair-deal a:has-text('Verify this deal')")
    host.wait_for_url("**/games/*/#fair-verify")
    host.click("#fair-verify-button")
    host.wait_for_selector("#fair-verdict.ok, #fair-verdict.fail")
    checks = {
        item.get_attribute("data-check"): item.get_attribute("class") for item in host.locator("#fair-checks li").all()
    }
    screenshot(host, "fairness-verified")
    assert host.inner_text("#fair-verdict") == "✓ Every check passed.", host.inner_text("#fair-checks")
    assert checks["commitment"] == checks["seed"] == checks["your value"] == "ok"
    assert checks["round 1 (site's engine)"] == checks["play (site's engine)"] == "ok"
    # Issue 38: the host's own value must be at the host's own seat. The guest's value, which the
    # game used at the guest's seat, does not pass for the host's.
    host.evaluate("([key, value]) => localStorage.setItem(key, value)", ["fair-sent:" + commitment, TYPED])
    host.click("#fair-verify-button")
    host.wait_for_selector("#fair-verdict.fail")
    assert host.get_attribute("#fair-checks li[data-check='your value']", "class") == "fail"


def every_human_absent_at_a_tournament_table() -> int:
    """A one-round tournament whose four players all stay away: the house plays every seat from
    the start (tables/services/scheduled.py), so no player's value goes into the seed."""
    from tests.tournaments.helpers import create, current_round, play_round, players, sign_up, staff, start

    tournament = create(staff(), rounds=1)
    sign_up(tournament, players(4, prefix="away"))
    start(tournament)
    round_ = current_round(tournament)
    play_round(round_, present=[])
    return Match.objects.get(table_id=round_.tables.get().table_id).pk


def test_a_deal_no_player_sent_a_value_to_says_so_when_verified(new_page) -> None:
    """Issue 55: the checks pass, but the page must not read as if players had taken part."""
    match_id = in_thread(every_human_absent_at_a_tournament_table)
    page = new_page()
    page.goto(f"/games/{match_id}/#fair-verify")
    assert "No player sent a value: every seat was played by the house" in page.inner_text("#fair-verify")
    page.click("#fair-verify-button")
    page.wait_for_selector("#fair-verdict.ok, #fair-verdict.fail")
    screenshot(page, "fairness-site-alone")
    assert page.inner_text("#fair-verdict") == (
        "✓ Every check passed, but no player sent a value: the deal is the site's secret alone."
    ), page.inner_text("#fair-checks")
