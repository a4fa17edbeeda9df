"""Views that hid or repeated what a player needs (issue 53, items 3 and 4): the six-player
Sitaratas score sheet fits a laptop, one line per round; every quick phrase of the chat is in
view; the Estonian notification settings fit a phone; the invitation panel goes when the game
starts; a bot's level is said once; during a dismissal vote the moves are disabled.
"""

from __future__ import annotations

import pytest

from accounts.models import User
from tables.services import lobby, votes
from tests.browser.conftest import ARTIFACTS, in_thread
from tests.browser.helpers import LAPTOP, PHONE, started_at_my_turn, table_page
from tests.conftest import make_user
from tests.games.history_helpers import bot_choice, play_out
from tests.helpers import fair_value
from tests.tables.helpers import fill_with_bots, open_table, play_bots_until_human, start_table, state_of

pytestmark = pytest.mark.browser

# Each element's centre is the element itself (not clipped by a scroll box, nothing over it).
CENTRES_ARE_THEMSELVES = """sel => Array.from(document.querySelectorAll(sel)).filter((el) => {
  const r = el.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !top || !el.contains(top);
}).map((el) => el.textContent.trim())"""


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"views-{name}.png"))


# Each body row of the sheet whose cells take more than one line: [row's number, its height, one line's].
WRAPPED_ROWS = """() => Array.from(document.querySelectorAll("#score-sheet tbody tr")).map((tr) => {
  const line = Math.max(...Array.from(tr.cells).map((td) => parseFloat(getComputedStyle(td).lineHeight)));
  const tallest = Math.max(...Array.from(tr.cells).map((td) => {
    const style = getComputedStyle(td);
    return td.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  }));
  return [tr.cells[0].textContent.trim(), Math.round(tallest), Math.round(line)];
}).filter(([, tallest, line]) => tallest > line * 1.5)"""


def test_the_six_player_sitaratas_sheet_fits_a_laptop(browser, site_url, transactional_db) -> None:
    def six_players():
        guests = [make_user(name) for name in ("Aleksandra", "Konstantin")]
        _, match = start_table(make_user("Maximilian"), "sitaratas", guests=guests, seat_count=6, options={})
        return play_out(match, bot_choice(match))

    match = in_thread(six_players)
    assert match.players == 6
    for language in ("en", "et", "ar"):
        in_thread(lambda language=language: User.objects.filter(username="Maximilian").update(language=language))
        page = table_page(browser, site_url, "Maximilian", 0, LAPTOP)
        page.goto(f"/games/{match.pk}/")
        page.wait_for_selector("#score-sheet .sheet-sitaratas")
        page.locator("#score-sheet").scroll_into_view_if_needed()
        shot(page, f"sheet-sitaratas-six-{language}-laptop")
        box = page.locator("#score-sheet .table-scroll").evaluate("s => [s.scrollWidth, s.clientWidth]")
        assert box[0] <= box[1], f"{language}: the sheet is wider than its box, its last player off screen: {box}"
        page_width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert page_width[0] <= page_width[1], f"{language}: the page scrolls sideways: {page_width}"
        wrapped = page.evaluate(WRAPPED_ROWS)
        assert not wrapped, f"{language}: rounds on several lines ([round, height, one line]): {wrapped}"
        names = page.locator("#score-sheet th.seat-head").all_inner_texts()
        assert any("ALEKSANDRA" in name.upper() for name in names), names
        page.context.close()


def test_every_quick_phrase_of_the_chat_is_in_view_beside_the_table(browser, site_url, transactional_db) -> None:
    table, _ = in_thread(lambda: started_at_my_turn("sita", "talker"))
    page = table_page(browser, site_url, "talker", table.pk, LAPTOP)
    page.wait_for_selector("#socket-status[data-state=open]")
    page.wait_for_selector("#chat-phrases button")
    shot(page, "chat-phrases-laptop")
    assert page.locator("#chat-phrases button").count() >= 5
    hidden = page.evaluate(CENTRES_ARE_THEMSELVES, "#chat-phrases button")
    assert not hidden, f"quick phrases out of reach: {hidden}"
    page.context.close()


def test_the_estonian_notification_settings_fit_a_phone(browser, site_url, transactional_db) -> None:
    in_thread(lambda: User.objects.filter(pk=make_user("teavitus").pk).update(language="et"))
    page = table_page(browser, site_url, "teavitus", 0, PHONE)
    page.goto("/notifications/settings/")
    shot(page, "notification-settings-et-phone")
    box = page.locator("#notification-settings .table-scroll").evaluate("s => [s.scrollWidth, s.clientWidth]")
    assert box[0] <= box[1] + 1, f"the settings are cut at the right: {box}"
    hidden = page.evaluate(CENTRES_ARE_THEMSELVES, "#notification-settings input[type=checkbox]")
    assert not hidden
    page.context.close()


def test_invitations_go_when_the_game_starts_and_a_bot_is_named_once(browser, site_url, transactional_db) -> None:
    def lobby_with_an_easy_bot():
        host = make_user("inviter")
        table = open_table(host, "sitaratas", seat_count=3)
        lobby.bot_add(table_id=table.pk, host=host, position=1, level="easy")
        return host, table

    host, table = in_thread(lobby_with_an_easy_bot)
    page = table_page(browser, site_url, "inviter", table.pk, LAPTOP)
    page.wait_for_selector("#socket-status[data-state=open]")
    assert page.locator("#invite-panel").is_visible()
    seat = page.locator("#live #seat-1")
    assert "(easy bot)" in seat.inner_text()
    assert "easy bot" not in seat.inner_text().replace("(easy bot)", "", 1).lower(), seat.inner_text()

    def start() -> None:
        fill_with_bots(table, host)
        lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())

    in_thread(start)
    page.wait_for_selector("#live[data-status=playing]")
    shot(page, "invite-panel-gone-playing")
    assert not page.locator("#invite-panel").is_visible(), "Invite players is offered during the game"
    page.context.close()


def _two_players_at_a_turn():
    """Two players and a bot at Sitaratas, played on to a player's turn: (table, match, the one to act, the other)."""
    host, guest = make_user("pauser"), make_user("proposer")
    table, match = start_table(host, "sitaratas", seat_count=3, guests=[guest], options={"deck": "jokers"})
    match = play_bots_until_human(match)
    engine, state = state_of(match)
    acting = table.seats.get(position=engine.to_act(state)[0]).user
    return table, match, acting


def test_during_a_dismissal_vote_the_moves_are_disabled(browser, site_url, transactional_db) -> None:
    table, match, acting = in_thread(_two_players_at_a_turn)
    other = "proposer" if acting.username == "pauser" else "pauser"
    page = table_page(browser, site_url, acting.username, table.pk, PHONE)
    page.wait_for_selector("#socket-status[data-state=open]")
    moves = page.locator("#game form:has(input[name=command][value=act]) button")
    page.wait_for_selector("#game form:has(input[name=command][value=act]) button:not([disabled])")
    in_thread(lambda: votes.vote_propose(match_id=match.pk, user=User.objects.get(username=other)))
    page.wait_for_selector("#vote.vote-panel")
    shot(page, "vote-open-moves-disabled-phone")
    assert moves.count()
    enabled = moves.evaluate_all("buttons => buttons.filter((b) => !b.disabled).map((b) => b.textContent.trim())")
    assert not enabled, f"moves offered while play is paused: {enabled}"
    assert page.locator("#vote button:has-text('No, play on')").count() == 1
    page.context.close()
