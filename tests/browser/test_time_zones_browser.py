"""Issue 53: a player types a tournament's start in their own zone and reads it back as typed; an
Estonian and an Arabic table offer "Add bot" in their own words."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import in_thread, log_in, screenshot
from tests.conftest import USER_PASSWORD, make_user

pytestmark = pytest.mark.browser
SHOTS = Path("/tmp/shots/h2")
NOTE = {
    "en": "In your time zone, Europe/Tallinn",
    "et": "Sinu ajavööndis, Europe/Tallinn",
    "ar": "بمنطقتك الزمنية، Europe/Tallinn",
}
ADD_BOT = {"en": "Add bot", "et": "Lisa robot", "ar": "أضف روبوتًا"}


def _player(language: str):
    player = make_user(f"tiina{language}")
    player.time_zone, player.language = "Europe/Tallinn", language
    player.save()
    return player


@pytest.mark.parametrize("language", ["en", "et", "ar"])
def test_a_tournament_start_is_typed_and_read_in_the_players_own_zone(new_page, language) -> None:
    from tournaments.models import Tournament

    player = in_thread(lambda: _player(language))
    page = new_page()
    log_in(page, player.username, USER_PASSWORD)
    page.goto("/tournaments/new/")
    assert NOTE[language] in page.locator("form.t-form").inner_text()
    page.fill("input[name=name]", "Night cup")
    page.locator("select[name=game]").select_option("sita")
    page.fill("input[name=starts_at]", "2027-03-28T00:51")  # the night DST begins: +2 until 03:00
    page.fill("input[name=table_size]", "5")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"tournament-new-{language}.png"), full_page=True)
    page.locator("form.t-form button[type=submit]").click()
    page.wait_for_url("**/tournaments/*/")
    assert "00:51" in page.locator("main").inner_text() or "12:51" in page.locator("main").inner_text()
    stored = in_thread(lambda: Tournament.objects.get().starts_at)
    assert stored.isoformat() == "2027-03-27T22:51:00+00:00"
    page.screenshot(path=str(SHOTS / f"tournament-page-{language}.png"), full_page=True)


@pytest.mark.parametrize("language", ["et", "ar"])
def test_an_empty_seat_offers_add_bot_in_the_readers_language(new_page, language) -> None:
    from tests.tables.helpers import open_table

    player = in_thread(lambda: _player(language))
    table = in_thread(lambda: open_table(player, "sitaratas", seat_count=3))
    page = new_page()
    log_in(page, player.username, USER_PASSWORD)
    page.goto(f"/tables/{table.pk}/")
    button = page.locator("#live form.bot-add button").first
    assert button.inner_text() == ADD_BOT[language]
    page.screenshot(path=str(SHOTS / f"table-add-bot-{language}.png"), full_page=True)
    screenshot(page, f"add-bot-{language}")
