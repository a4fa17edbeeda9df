"""Private tables as their players meet them (issue 53): a seat is offered only to whom it seats,
the host sees who is invited and who answered, copies the link with one button, and a friend is
challenged from their row on the friends page and from their profile. Screenshots go to
test-artifacts/ (and SHOTS_DIR, if set)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import in_thread
from tests.browser.helpers import player_page, saved_shot

pytestmark = pytest.mark.browser


def _private_table(spectators: str = "anyone") -> dict:
    from tables.services import privacy
    from tests.conftest import make_user
    from tests.social.helpers import befriend
    from tests.tables.helpers import open_table

    hana, piet, olga = make_user("hana"), make_user("piet"), make_user("olga")
    befriend(hana, piet)
    table = open_table(hana, "sita", seat_count=3)
    privacy.privacy_set(table_id=table.pk, host=hana, private=True, spectators=spectators)
    return {"table": table.pk, "hana": hana.pk, "piet": piet.pk, "olga": olga.pk}


def test_a_private_table_offers_a_seat_only_to_whom_it_seats(browser, site_url, transactional_db) -> None:
    ids = in_thread(_private_table)
    url = f"/tables/{ids['table']}/"
    olga = player_page(browser, site_url, "olga", phone=True)  # may watch (anyone may), may not sit
    piet = player_page(browser, site_url, "piet")  # the host's friend
    try:
        olga.goto(url)
        olga.wait_for_selector("#socket-status[data-state='open']")
        olga.wait_for_selector("#live #watch-only")
        assert olga.locator("#live button:has-text('Sit here')").count() == 0
        saved_shot(olga, "private-watch-only-phone")
        piet.goto(url)
        piet.wait_for_selector("#socket-status[data-state='open']")
        assert piet.locator("#live button:has-text('Sit here')").count() == 2
        assert piet.locator("#live #watch-only").count() == 0
        # The live push after a change keeps each one's offer: piet sits, olga still is offered nothing.
        piet.locator("#live button:has-text('Sit here')").first.click()
        piet.wait_for_selector('#live button:has-text("I\'m ready")')
        olga.wait_for_selector("#live .seat .seat-name:has-text('piet')")
        assert olga.locator("#live button:has-text('Sit here')").count() == 0

        # Once the host and olga are friends, her open view offers her the free seat.
        def befriend() -> None:
            from accounts.models import User
            from tests.social.helpers import befriend

            befriend(User.objects.get(pk=ids["hana"]), User.objects.get(pk=ids["olga"]))

        in_thread(befriend)
        olga.wait_for_selector("#live button:has-text('Sit here')")
        assert olga.locator("#live #watch-only").count() == 0
    finally:
        olga.context.close()
        piet.context.close()


def _friends() -> dict:
    from tests.conftest import make_user
    from tests.social.helpers import befriend

    hana, piet = make_user("hana"), make_user("piet")
    befriend(hana, piet)
    return {"hana": hana.pk, "piet": piet.pk}


def test_a_friend_is_challenged_and_the_host_sees_who_is_invited_and_copies_the_link(
    browser, site_url, transactional_db
) -> None:
    ids = in_thread(_friends)
    hana = player_page(browser, site_url, "hana")
    hana.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url)
    piet = player_page(browser, site_url, "piet", phone=True)
    try:
        # "Challenge" on piet's row of the friends page: a table of the chosen game, piet invited.
        hana.goto("/friends/")
        row = hana.locator(f"#friend-{ids['piet']}")
        row.locator("select[name=game]").select_option("estimation")
        saved_shot(hana, "friends-challenge-laptop")
        row.locator("button:has-text('Challenge')").click()
        hana.wait_for_url("**/tables/*/")
        hana.wait_for_selector("#socket-status[data-state='open']")
        assert "Estimation" in hana.inner_text("#live h1")
        hana.wait_for_selector(f"#live #invited-{ids['piet']}:has-text('not answered yet')")
        # The link, copied with one button.
        hana.click("#invite-copy")
        hana.wait_for_selector("#invite-copied:has-text('Link copied')")
        assert hana.evaluate("navigator.clipboard.readText()") == hana.input_value("#invite-link")
        hana.locator("#invite-panel").scroll_into_view_if_needed()
        saved_shot(hana, "challenge-table-invited-laptop")
        # piet answers by taking a seat: the host's view says so, live.
        piet.goto(hana.url)
        piet.wait_for_selector("#socket-status[data-state='open']")
        piet.locator("#live button:has-text('Sit here')").first.click()
        hana.wait_for_selector(f"#live #invited-{ids['piet']}:has-text('took a seat')")
        piet.wait_for_selector(f"#live #invited-{ids['piet']}:has-text('took a seat')")
        saved_shot(piet, "challenge-table-invited-phone")
        # And from a profile: piet challenges hana at SITA.
        piet.goto("/players/hana/")
        piet.locator(f"#challenge-{ids['hana']} select[name=game]").select_option("sita")
        saved_shot(piet, "profile-challenge-phone")
        piet.locator(f"#challenge-{ids['hana']} button:has-text('Challenge')").click()
        piet.wait_for_url("**/tables/*/")
        piet.wait_for_selector(f"#live #invited-{ids['hana']}:has-text('not answered yet')")
        assert "SITA" in piet.inner_text("#live h1")
    finally:
        hana.context.close()
        piet.context.close()


def _friends_after_a_private_game() -> int:
    from tables.models import Table
    from tests.games.history_helpers import finished_table

    ids = _friends()
    from accounts.models import User

    table = finished_table(User.objects.get(pk=ids["hana"]), "sitaratas", [User.objects.get(pk=ids["piet"])])
    Table.objects.filter(pk=table.pk).update(private=True)
    return table.pk


def test_a_private_rematch_says_who_is_invited_and_who_answered(browser, site_url, transactional_db) -> None:
    source = in_thread(_friends_after_a_private_game)
    hana = player_page(browser, site_url, "hana")
    piet = player_page(browser, site_url, "piet", phone=True)
    try:
        for page in (hana, piet):
            page.goto(f"/tables/{source}/")
            page.wait_for_selector("#socket-status[data-state='open']")
            page.wait_for_selector("#rematch #rematch-invited")
        hana.locator("#rematch button:has-text('Rematch')").click()
        piet.wait_for_selector("#rematch .rematch-accepted:has-text('hana')")
        piet.wait_for_selector("#rematch .rematch-pending:has-text('piet')")
        piet.locator("#rematch").scroll_into_view_if_needed()
        saved_shot(piet, "private-rematch-panel-phone", full=False)
        hana.locator("#rematch a:has-text('Go to the rematch table')").click()
        hana.wait_for_selector("#socket-status[data-state='open']")
        hana.wait_for_selector("#live #invited-list .invited-pending:has-text('piet')")
        piet.locator("#rematch button:has-text('Decline')").click()
        hana.wait_for_selector("#live #invited-list .invited-declined:has-text('piet')")
        saved_shot(hana, "private-rematch-table-laptop")
    finally:
        hana.context.close()
        piet.context.close()
