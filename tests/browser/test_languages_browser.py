"""The site in Arabic (right to left) and Estonian (issue 26): the lobby, each game in play and a
game's page, chosen with the footer's switcher; screenshots in test-artifacts/ (lang-*.png)."""

from __future__ import annotations

import re
import threading

import pytest

from accounts.models import User
from tables.services import endings
from tests.browser.conftest import open_table, screenshot, sign_up

GAMES = {
    "sitaratas": {"bots": 2, "players": 3, "deck": "jokers"},
    "estimation": {"bots": 3, "length": "micro"},
    "sita": {"bots": 2, "players": 3, "match_count": 1},
}
# A word of each language the table shows in every game.
WORDS = {"ar": "المجموع", "et": "Kokku"}


def switch_language(page, language: str) -> None:
    page.select_option("#language-select", language)
    page.click(".language-switch button[type=submit]")
    page.wait_for_selector(f"html[lang={language}]")


@pytest.mark.parametrize("language", ["ar", "et"])
def test_the_lobby_and_every_game_in_arabic_and_estonian(new_page, language: str) -> None:
    direction = "rtl" if language == "ar" else "ltr"
    for game, fields in GAMES.items():
        page = new_page()
        sign_up(page, f"{language}{game}")
        url = open_table(page, game, start=True, **fields)  # set up in English, the default
        switch_language(page, language)
        page.goto(url)
        assert page.get_attribute("html", "dir") == direction
        page.wait_for_selector("#live #game")
        page.wait_for_selector("#live[data-my-turn=yes]")
        text = page.inner_html("#live")
        assert WORDS[language] in text and "Score sheet" not in text
        screenshot(page, f"lang-{language}-{game}")
        match_id = re.findall(r"\d+", page.inner_text("#live h1"))[-1]  # "… · game #12", in any language
        if game == "sitaratas":
            page.goto("/")
            assert page.get_attribute("html", "dir") == direction
            screenshot(page, f"lang-{language}-lobby")
        if game != "sita":
            # The game's own page shows once it has ended (RULING P2): an admin ends this one.
            admin = User.objects.create_user(f"admin{language}{game}", is_staff=True)
            # On a thread of its own: Playwright's loop holds this one, and the abort broadcasts.
            worker = threading.Thread(
                target=endings.match_abort,
                kwargs={"match_id": int(match_id), "by": admin, "reason": "Screenshot of the game page."},
            )
            worker.start()
            worker.join()
            page.goto(f"/games/{match_id}/")
            assert page.get_attribute("html", "lang") == language
            screenshot(page, f"lang-{language}-{game}-page")
