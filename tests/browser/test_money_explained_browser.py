"""Issue 53, "Money explained", as a player sees it: the wallet's tournament rows, the seasons page
and the game-over panel with every staker's coin change and why a staker got nothing (RULING
P50). Screenshots go to test-artifacts/ and /tmp/shots/h4/ (SHOTS_DIR when set)."""

from __future__ import annotations

import os
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from accounts.models import User
from tests.browser.conftest import PASSWORD, in_thread, log_in, screenshot
from tests.payouts.test_walkaway import mark_away, play, started
from tests.tournaments.helpers import create, current_round, play_round, players, sign_up, staff, start
from tests.tournaments.test_seasons import finished_game
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)


def keep(path: Path) -> None:
    folder = Path(os.environ.get("SHOTS_DIR", "/tmp/shots/h4"))
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, folder / path.name)


def test_the_wallet_the_seasons_page_and_the_game_over_panel_explain_the_coins(new_page, settings) -> None:
    ana = User.objects.create_user(username="ana", email="ana@example.com", password=PASSWORD)
    host = User.objects.create_user(username="hal", email="hal@example.com", password=PASSWORD)
    # A tournament Ana plays to its end, and another that is running.
    done = in_thread(lambda: create(staff(), name="Winter cup", entry_fee=25, prize_split="100", rounds=1))
    going = in_thread(lambda: create(staff(), name="Spring cup", entry_fee=15, prize_split="100", rounds=1))
    others = in_thread(lambda: players(3, "cup"))
    in_thread(lambda: sign_up(done, [ana, *others]))
    in_thread(lambda: sign_up(going, [ana, *others]))
    in_thread(lambda: start(done))
    in_thread(lambda: play_round(current_round(done), present=[ana, *others]))
    in_thread(lambda: start(going))
    # A staked game Ana walks away from (RULING P50).
    match = in_thread(lambda: started(host, ana))
    in_thread(lambda: mark_away(match, 1))
    match = in_thread(lambda: play(match))

    page = new_page()
    page.set_viewport_size({"width": 1366, "height": 768})
    log_in(page, "ana")
    page.goto("/wallet/")
    fee = page.locator("#coin-movements tr", has_text="Entry fee into the pot").first
    assert "tournament's pot" in fee.inner_text() and fee.locator("a", has_text="Spring cup").count() == 1
    assert page.inner_text("#coins-in-play") == "15"
    prize_or_fee = page.locator("#coin-movements tr", has_text="Winter cup").first
    assert prize_or_fee.is_visible()
    assert page.locator(".pass-after").count() > 0
    keep(screenshot(page, "wallet-tournament"))

    page.goto(f"/tables/{match.table_id}/")
    panel = page.wait_for_selector("#result")
    words = panel.inner_text()
    assert "No share of the pot: you were away when the game ended." in words
    assert "−100 coins" in words.lower() and "+100 coins" in words.lower()  # tags print in capitals
    keep(screenshot(page, "game-over-panel"))
    page.goto(f"/games/{match.pk}/")
    assert "No share of the pot: you were away when the game ended." in page.inner_text("main")
    keep(screenshot(page, "game-page-forfeit"))

    settings.SEASON_MIN_GAMES = 1  # this process freezes the archive; the site reads it

    def seasons() -> None:
        ada, bo = players(2, "ladder")
        finished_game([ada, bo], [10.0, 5.0], datetime(2026, 11, 10, tzinfo=UTC))
        services.seasons_freeze(now=datetime(2026, 12, 1, 1, tzinfo=UTC))
        finished_game([bo, ada], [20.0, 3.0], datetime.now(UTC))

    in_thread(seasons)
    page.goto("/ratings/?game=sita")
    page.click("#seasons-link")
    page.wait_for_selector("#season-archives")
    assert "November 2026" in page.inner_text("#season-archives")
    keep(screenshot(page, "seasons-page"))
