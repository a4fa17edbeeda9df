"""Two players at a staked Estimation table with two bots play to the end and see the payout (RULING P5).

The lobby is the pages': sign-ups, the stake, the guest's seat and "ready", the pot, the bots and
the start. The game is then played on through the services to its last trick (whole games are
clicked through in tests/browser/test_estimation_browser.py), and each player clicks their last
card: the move that ends the game, and settles the pot, comes from a page.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from accounts.models import User
from games.models import Match
from payouts.split import split_pot
from tests.browser.conftest import in_thread, log_in, open_table, screenshot, sign_up
from tests.games.history_helpers import bot_choice, played_on, prepared
from tests.payouts.helpers import wallet
from tests.tables.helpers import state_of

pytestmark = pytest.mark.browser

STAKE = 125
LAST_CARD = "#game .est-hand button:not([disabled])"
PLAYED = "v => +document.getElementById('live').dataset.version > v || !!document.querySelector('#result')"


def at_the_last_trick(host: str) -> list[str]:
    """The started game played on to the first human's turn in its last trick: the players'
    names, in the order they play their last card."""
    # First to where only a human is awaited: then no bot's task can move the game meanwhile.
    match = played_on(Match.objects.get(table__host__username=host), until=lambda engine, state: True)
    humans = {mp.seat: mp.user.username for mp in match.match_players.select_related("user") if not mp.user.is_bot}

    def last_trick(engine, state) -> bool:
        view = engine.view(state, None)
        last = view["round_number"] == view["rounds_total"] and view["phase"] == "playing"
        return last and max(view["hand_counts"]) == 1 and engine.to_act(state)[0] in humans

    engine, state = state_of(prepared(match, bot_choice(match), until=last_trick))
    first = engine.to_act(state)[0]  # the trick goes round the table from here
    return [humans[seat] for seat in sorted(humans, key=lambda seat: (seat - first) % len(state.hands))]


def play_the_last_card(page) -> None:
    """A push that swaps the hand under the click loses it: the card is clicked again."""
    page.wait_for_selector(LAST_CARD)
    assert page.locator("#game .est-hand .card").count() == 1
    for attempt in range(3):
        before = int(page.get_attribute("#live", "data-version") or 0)
        try:
            page.locator(LAST_CARD).first.click(timeout=3_000)
            page.wait_for_function(PLAYED, arg=before, timeout=5_000)
            return
        except PlaywrightTimeout:
            if attempt == 2:
                raise


def test_two_players_play_a_staked_table_to_the_end_and_their_wallets_change_by_the_split(new_page) -> None:
    host_page, guest_page = new_page(), new_page()
    sign_up(host_page, "stakehost")
    sign_up(guest_page, "stakeguest")
    table_url = open_table(host_page, "estimation", length="micro", stake=STAKE)
    assert f"stake {STAKE}" in host_page.inner_text("#live")

    guest_page.goto(table_url)
    guest_page.wait_for_selector("#socket-status:has-text('Connected')")
    guest_page.locator("button:has-text('Sit here')").first.click()
    guest_page.wait_for_selector('button:has-text("I\'m ready")')
    guest_page.click('button:has-text("I\'m ready")')
    guest_page.wait_for_selector("button:has-text('Not ready')")
    host_page.wait_for_selector(f".tag:has-text('stakes held {2 * STAKE}')")  # not a pot until the start (issue 53)
    for filled in (2, 3):
        host_page.locator("button:has-text('Add bot')").first.click()
        host_page.wait_for_function(
            "n => document.querySelectorAll('.seats .seat:not(.empty)').length >= n", arg=filled + 1
        )
    screenshot(host_page, "staked-estimation-lobby")
    host_page.click("button:has-text('Start the game')")
    host_page.wait_for_selector("#game")

    # The position was written without a push: the pages load it.
    order = in_thread(lambda: at_the_last_trick("stakehost"))
    pages = {"stakehost": host_page, "stakeguest": guest_page}
    for page in pages.values():
        page.reload()
        page.wait_for_selector("#socket-status:has-text('Connected')")
    for username in order:
        play_the_last_card(pages[username])
    for page in pages.values():
        page.wait_for_selector("#result")

    match = Match.objects.get(table__host__username="stakehost")
    assert match.status == Match.Status.FINISHED
    players = {mp.user.username: mp for mp in match.match_players.select_related("user")}
    host, guest = players["stakehost"], players["stakeguest"]
    expected = split_pot(2 * STAKE, [(host.place, host.seat), (guest.place, guest.seat)])
    assert (host.payout, guest.payout) == (expected[host.seat], expected[guest.seat])
    assert wallet(User.objects.get(username="stakehost")) == 1000 - STAKE + expected[host.seat]
    assert wallet(User.objects.get(username="stakeguest")) == 1000 - STAKE + expected[guest.seat]
    winner_page = host_page if expected[host.seat] >= expected[guest.seat] else guest_page
    # The result panel shows each staker's change: the payout less the stake (issue 53).
    gain = max(expected.values()) - STAKE
    assert (f"+{gain} coins" if gain else "stake back") in winner_page.inner_text("#result").lower()
    screenshot(winner_page, "staked-estimation-result")

    winner_page.goto("/wallet/")
    assert "Payout from the pot" in winner_page.inner_text("#coin-movements")
    screenshot(winner_page, "wallet-desktop")
    phone = new_page(mobile=True)
    log_in(phone, "stakeguest", "Kolm-Kaardi-Trikk-9")
    phone.goto("/wallet/")
    assert "Stake held" in phone.inner_text("#coin-movements")
    screenshot(phone, "wallet-phone")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
