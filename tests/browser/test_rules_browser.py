"""A player finds the rules from the lobby and reads them with cards drawn as at the table (RULING P20)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import screenshot

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game, title", [("sitaratas", "Sitaratas"), ("estimation", "Estimation"), ("sita", "SITA")])
def test_the_rules_open_from_the_lobby_with_their_worked_example(new_page, game, title) -> None:
    page = new_page()
    page.goto("/")
    page.click(f".how-to-play a[href='/rules/{game}/']")
    page.wait_for_url(f"**/rules/{game}/")
    assert page.inner_text("#doc h1") == title
    assert page.locator("#doc h2:has-text('Worked example')").count() >= 1
    assert page.locator("#doc .card").count() >= 3  # the cards of the text and its example, drawn
    screenshot(page, f"rules-{game}")
    phone = new_page(mobile=True)
    phone.goto(f"/rules/{game}/#{'s12' if game == 'sitaratas' else 'e10' if game == 'estimation' else 't4'}")
    phone.wait_for_selector("#doc h3:target")
    screenshot(phone, f"rules-{game}-phone")
