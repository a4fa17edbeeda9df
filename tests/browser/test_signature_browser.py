"""The Sitaratas signs the result in the page, and a spectator sees it arrive (RULINGS S9, S13, S14)."""

from __future__ import annotations

import pytest

from accounts.models import User
from games.models import MatchPlayer
from tests.browser.conftest import in_thread, screenshot, sign_up
from tests.conftest import make_user
from tests.games.history_helpers import finished_match

pytestmark = pytest.mark.browser

SIGNATURE = "<b>Viimane</b> & proud of it"


def _finished_with_sitaratas(username: str):
    """A finished Sitaratas game at which ``username`` sits in the Sitaratas' seat.

    The game is played by the bots' policy, so who ends lowest is not known in advance; the
    user then changes places with whoever did, which leaves the record and the totals as played.
    """
    user = User.objects.get(username=username)
    match = finished_match(user, "sitaratas", humans=(make_user("kaisa"),))
    lowest = match.record["sitaratas"]
    mine = MatchPlayer.objects.get(match=match, user=user)
    theirs = MatchPlayer.objects.get(match=match, seat=lowest)
    if mine.pk != theirs.pk:
        mine.user, theirs.user = theirs.user, user
        MatchPlayer.objects.bulk_update([mine, theirs], ["user"])
    return match


def test_the_sitaratas_signs_the_result_and_everyone_sees_it(new_page) -> None:
    page, watcher = new_page(), new_page(mobile=True)
    sign_up(page, "viimane")
    sign_up(watcher, "vaatleja")
    match = in_thread(lambda: _finished_with_sitaratas("viimane"))

    watcher.goto(f"/tables/{match.table_id}/")
    watcher.wait_for_selector("#socket-status:has-text('Connected')")
    assert "viimane is the Sitaratas." in watcher.inner_text("#signature")
    assert watcher.locator("#signature form").count() == 0  # offered to the Sitaratas alone

    page.goto(f"/tables/{match.table_id}/")
    page.wait_for_selector("#socket-status:has-text('Connected')")
    page.wait_for_selector("#signature form input[name=signature]")
    assert page.get_attribute("#signature input[name=signature]", "maxlength") == "80"
    page.fill("#signature input[name=signature]", SIGNATURE)
    page.click("#signature button:has-text('Sign')")

    for viewer in (page, watcher):
        viewer.wait_for_selector("#signature q.signature")
        assert viewer.inner_text("#signature q.signature") == SIGNATURE  # shown as text, never as HTML
        assert viewer.locator("#signature q.signature b").count() == 0
        assert viewer.locator("#signature form").count() == 0  # once only
    page.locator("#result").scroll_into_view_if_needed()
    screenshot(page, "sitaratas-signature-result")
    screenshot(watcher, "sitaratas-signature-result-phone")

    page.goto(f"/games/{match.pk}/")
    assert page.inner_text(".sitaratas-signature q.signature") == SIGNATURE
    page.goto("/history/?game=sitaratas")
    assert SIGNATURE in page.inner_text(".history-list")
    screenshot(page, "sitaratas-signature-history")
