"""The lobby that invites (issue 39), from prepared data: friends online, an invitation and the next
tournaments beside the game cards on a laptop, below "Play now" on a phone. Screenshots of both."""

from __future__ import annotations

import pytest

from tests.browser.conftest import in_thread, screenshot
from tests.browser.conftest import log_in as site_log_in
from tests.conftest import USER_PASSWORD

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 800}


def prepared() -> dict:
    """Piet's friends: Sten at a table waiting for players, Olga in a game; Hana's invitation to her
    private table; two tournaments open for sign-up."""
    from datetime import timedelta

    from django.utils import timezone

    from tables.services import invites, lobby, privacy
    from tests.conftest import make_user
    from tests.social.helpers import befriend
    from tests.tables.helpers import open_table, start_table
    from tests.tournaments.helpers import create, staff

    hana, piet, olga, sten = (make_user(name) for name in ("hana", "piet", "olga", "sten"))
    for friend in (olga, sten):
        befriend(piet, friend)
    waiting = open_table(olga, "sitaratas", seat_count=4)
    lobby.seat_take(table_id=waiting.pk, user=sten, position=1)
    start_table(hana, "sita", seat_count=3, guests=[olga])
    private = open_table(hana, "estimation", seat_count=4)
    privacy.privacy_set(table_id=private.pk, host=hana, private=True, spectators="anyone")
    befriend(hana, piet)
    invites.invite_send(table_id=private.pk, by=hana, user_id=piet.pk)
    creator = staff()
    for hours, name in ((3, "Friday Estimation cup"), (26, "Weekend Estimation open")):
        create(creator, name=name, starts_at=timezone.now() + timedelta(hours=hours))
    return {"invite": private.pk}


def test_the_lobby_shows_friends_an_invitation_and_tournaments_beside_play_now(new_page, browser, site_url) -> None:
    in_thread(prepared)
    laptop = browser.new_context(base_url=site_url, viewport=LAPTOP).new_page()
    phone = new_page(mobile=True)
    for page, name in ((laptop, "laptop"), (phone, "phone")):
        site_log_in(page, "piet", USER_PASSWORD)
        page.goto("/")
        page.wait_for_selector("#friends-online .join-link")
        page.wait_for_selector("#friends-online .watch-link")
        page.wait_for_selector("#my-offers .invite")
        page.wait_for_selector("#next-tournaments li >> nth=1")
        screenshot(page, f"lobby-{name}")
    # The laptop puts the player's own part beside the cards; the phone, one column, after "Play now".
    cards, side = laptop.locator(".game-cards").bounding_box(), laptop.locator(".lobby-side").bounding_box()
    assert cards and side and side["x"] > cards["x"] + cards["width"] - 1 and side["y"] < cards["y"] + 50
    first_play = phone.locator(".play-now button").first.bounding_box()
    mine = phone.locator("#my-offers").bounding_box()
    assert first_play and mine and first_play["y"] < mine["y"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
