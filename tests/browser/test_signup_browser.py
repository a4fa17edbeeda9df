"""A new user signs up and logs in on the running site (issue 2)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import screenshot, sign_up

pytestmark = pytest.mark.browser


def test_a_new_user_signs_up_and_sees_the_lobby(new_page) -> None:
    page = new_page()
    sign_up(page, "liis")
    assert page.locator("h1").first.inner_text() == "Lobby"
    page.click("text=Profile")
    assert "liis" in page.inner_text("main")
    screenshot(page, "profile")
    page.click("text=Log out")
    page.wait_for_selector("text=Log in")
