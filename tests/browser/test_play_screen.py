"""The play screen (issue 20): when it is your turn, your hand and every button you may press are
inside the viewport without scrolling, at 1366×768 and on an iPhone 13 (390×844); the game over
panel shows in view. Tables are set up through tables.services and played on by the bots to the
player's first turn, then the page is checked with Playwright's bounding boxes at both sizes.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError

from tables.services import lobby, play
from tests.browser.conftest import ARTIFACTS, in_thread, log_in
from tests.browser.helpers import (
    ACTIONS,
    CONTEXT,
    HAND,
    LAPTOP,
    PHONE,
    assert_in_viewport,
    assert_not_covered,
    started_at_my_turn,
    table_page,
)
from tests.conftest import USER_PASSWORD, make_user
from tests.games.history_helpers import finished_match, play_out
from tests.helpers import fair_value
from tests.tables.helpers import fill_with_bots, open_table, play_bots_until_human

# transactional_db: the site under test (Daphne and a Celery worker, other processes) reads what the tests write.
pytestmark = pytest.mark.browser

SIZES = {"laptop": LAPTOP, "phone": PHONE}


def shot(page, name: str) -> None:
    """The viewport as the player sees it (not the full page): that is what this issue is about."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"play-{name}.png"))


@pytest.mark.parametrize("game", ["sitaratas", "estimation", "sita"])
def test_the_hand_and_every_action_are_in_view_on_a_laptop_and_a_phone(
    browser, site_url, transactional_db, game
) -> None:
    table, match = in_thread(lambda: started_at_my_turn(game, f"p{game[:4]}"))
    for size, options in SIZES.items():
        page = table_page(browser, site_url, f"p{game[:4]}", table.pk, options)
        page.wait_for_selector("#socket-status:has-text('Connected')")
        page.wait_for_selector(ACTIONS)
        shot(page, f"{game}-{size}-my-turn")
        assert_in_viewport(page, HAND[game], "a card of the hand")
        assert_in_viewport(page, ACTIONS, "an action button")
        for selector in CONTEXT[game]:
            assert_in_viewport(page, selector, "the turn, trick or trump")
            assert_not_covered(page, selector)
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
        page.context.close()


@pytest.mark.parametrize("game", ["sitaratas", "estimation", "sita"])
def test_game_over_shows_in_view(browser, site_url, transactional_db, game) -> None:
    match = in_thread(lambda: finished_match(make_user(f"o{game[:4]}"), game))
    for size, options in SIZES.items():
        page = table_page(browser, site_url, f"o{game[:4]}", match.table_id, options)
        page.wait_for_selector("#result")
        shot(page, f"{game}-{size}-game-over")
        assert_in_viewport(page, "#result h2", "the game over heading")
        assert_in_viewport(page, "#result .placements li:first-child", "the winner's line")
        assert f"game #{match.pk}" in page.inner_text(".table-head h1")
        page.context.close()


def _my_turn_page(browser, site_url, game: str, username: str, options: dict = LAPTOP):
    table, match = in_thread(lambda: started_at_my_turn(game, username))
    page = table_page(browser, site_url, username, table.pk, options)
    page.wait_for_selector("#socket-status:has-text('Connected')")
    page.wait_for_selector(ACTIONS)
    return page, table


def test_a_flash_clears_after_five_seconds_even_while_moves_keep_arriving(browser, site_url, transactional_db) -> None:
    page, _ = _my_turn_page(browser, site_url, "sita", "flashy")
    # A click on a stale view: the server answers "The game has moved on; your view is refreshed."
    # (a move carries the page's own version, #live's data-version: static/js/table.js)
    # Both in one turn of the page's script, so no push of another seat's choice can bring the
    # version up to date between them.
    page.evaluate(
        """() => {
            document.getElementById('live').dataset.version = '999999';
            document.querySelector('#game .sita-hand button:not([disabled])').click();
        }"""
    )
    page.wait_for_selector("#flash .message")
    # Other players' moves keep arriving, one a second (old code restarted the clock on each).
    for _ in range(7):
        page.evaluate("document.getElementById('table-socket').dispatchEvent(new CustomEvent('htmx:wsAfterMessage'))")
        page.wait_for_timeout(1000)
    # Cleared by now; a little grace for a busy machine, far less than the five seconds that a
    # clock restarted by the last message would still need.
    page.wait_for_function("() => document.getElementById('flash').innerText.trim() === ''", timeout=2500)


def test_clicking_a_game_on_new_table_raises_no_script_error(browser, site_url, transactional_db) -> None:
    in_thread(lambda: make_user("newbie"))
    context = browser.new_context(base_url=site_url, **LAPTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    log_in(page, "newbie", USER_PASSWORD)
    page.goto("/tables/new/")
    for game in ("sita", "estimation", "sitaratas", "sita"):
        page.locator(f"input[name=game][value={game}]").click()
    assert page.locator("[name=match_count]").is_visible()
    assert not errors, errors
    context.close()


def test_the_phone_navigation_folds_behind_a_menu_button(browser, site_url, transactional_db) -> None:
    context = browser.new_context(base_url=site_url, **PHONE)
    page = context.new_page()
    page.goto("/")
    header = page.locator(".site-header").bounding_box()
    assert header["height"] < 70  # one line, not two
    assert not page.locator("#site-nav a:has-text('Ratings')").is_visible()
    page.click(".nav-toggle")
    assert page.get_attribute(".nav-toggle", "aria-expanded") == "true"
    assert page.locator("#site-nav a:has-text('Ratings')").is_visible()
    shot(page, "phone-menu-open")
    context.close()


def test_cards_are_played_by_keyboard_and_the_turn_is_announced(browser, site_url, transactional_db) -> None:
    page, _ = _my_turn_page(browser, site_url, "sita", "keyboard")
    moved = "v => document.getElementById('live').dataset.version !== v"
    for _ in range(3):
        # A push that lands between the focus and the key press replaces the hand and its focus:
        # then the key press did nothing, and the card is focused again on the new hand.
        version = page.get_attribute("#live", "data-version")
        page.focus("#game .sita-hand button:not([disabled])")
        page.keyboard.press("Enter")
        try:
            page.wait_for_function(moved, arg=version, timeout=5_000)
            break
        except PlaywrightError:
            continue
    else:
        raise AssertionError("the card chosen by keyboard was never played")
    page.wait_for_function("() => document.getElementById('announcer').textContent.trim() !== ''")
    assert page.get_attribute("#announcer", "aria-live") == "polite"


def test_sounds_are_off_by_default_and_the_choice_is_remembered(browser, site_url, transactional_db) -> None:
    page, table = _my_turn_page(browser, site_url, "sita", "listener")
    toggle = page.locator("#sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "false" and "off" in toggle.inner_text()
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    page.reload()
    page.wait_for_selector("#socket-status:has-text('Connected')")
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "true"


# Each kind of Estimation decision, as the page shows it: its own buttons, and the hand.
EST_PHASES = {
    "dash": "#game .est-prompt button:has-text('Dash Call')",
    "call": "#game .call-grid",
    "estimate": "#game .est-values",
    "play": "#game .est-hand.playable",
}


def test_every_estimation_decision_is_in_view_on_a_laptop_and_a_phone(browser, site_url, transactional_db) -> None:
    """Dash Call, the auction, the estimate and the play: each with the hand in view, at both sizes."""
    table, _ = in_thread(lambda: started_at_my_turn("estimation", "decider"))
    pages = {}
    for size, options in SIZES.items():
        pages[size] = page = table_page(browser, site_url, "decider", table.pk, options, timeout=20_000)
        page.wait_for_selector("#socket-status:has-text('Connected')")
    laptop = pages["laptop"]
    seen = set()
    for _ in range(60):
        if seen == set(EST_PHASES):
            break
        laptop.wait_for_selector(ACTIONS)
        version = laptop.get_attribute("#live", "data-version")
        phase = next((name for name, sel in EST_PHASES.items() if laptop.locator(sel).count()), None)
        if phase and phase not in seen:
            seen.add(phase)
            for size, page in pages.items():
                page.wait_for_function("v => document.getElementById('live').dataset.version === v", arg=version)
                page.wait_for_selector(ACTIONS)
                shot(page, f"estimation-{size}-{phase}")
                assert_in_viewport(page, HAND["estimation"], f"a card of the hand ({phase}, {size})")
                assert_in_viewport(page, ACTIONS, f"an action button ({phase}, {size})")
                assert_not_covered(page, "#game .est-headline")
        # Move on: decline, pass, the first estimate allowed, the first playable card.
        button = laptop.locator(
            "#game button:has-text('Decline'), #game button.pass-btn,"
            " #game .est-values button.value-btn:not([disabled]), #game .est-hand button:not([disabled])"
        ).first
        try:
            button.click(timeout=3_000)
            laptop.wait_for_function("v => document.getElementById('live').dataset.version !== v", arg=version)
        except Exception:  # the page was swapped under the click: look again
            continue
    assert seen == set(EST_PHASES), seen


def _sitaratas_at_a_joker(username: str):
    """A jokers table played on (the player taking their first legal choice) until the player may lead or
    follow with a joker."""
    from games.models import Match
    from tests.tables.helpers import state_of

    host = make_user(username)
    table = open_table(host, "sitaratas", seat_count=3, options={"deck": "jokers"})
    fill_with_bots(table, host)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    for _ in range(2000):
        match = play_bots_until_human(match)
        assert match.status == Match.Status.PLAYING, "the game ended before the player could play a joker"
        engine, state = state_of(match)
        legal = engine.legal_actions(state, 0)
        if any(action.get("joker") for action in legal):
            return table
        plain = [action for action in legal if not action.get("joker")]
        play.match_act(match_id=match.pk, user=host, action=plain[0], version=match.version)
    raise AssertionError("no joker came")


def test_a_joker_shows_as_a_joker_with_high_and_low_as_large_buttons_beside_it(
    browser, site_url, transactional_db
) -> None:
    table = in_thread(lambda: _sitaratas_at_a_joker("jester"))
    for size, options in SIZES.items():
        page = table_page(browser, site_url, "jester", table.pk, options)
        page.wait_for_selector("#game .st-joker button.joker-btn")
        shot(page, f"sitaratas-{size}-joker")
        joker = page.locator("#game .st-joker .card.joker").first
        assert "JOKER" in joker.inner_text() and "J★" not in joker.inner_text()
        card_box = joker.bounding_box()
        for label in ("HIGH", "LOW"):
            button = page.locator(f"#game .st-joker button.joker-btn:has-text('{label}')").first
            box = button.bounding_box()
            assert box["height"] >= 36 and box["width"] >= 60, f"{label} is small: {box}"
            assert box["x"] >= card_box["x"] + card_box["width"] - 1, f"{label} is not beside the joker"
            assert_in_viewport(page, f"#game .st-joker button.joker-btn:has-text('{label}')", f"the {label} button")
        page.context.close()


def _six_player_sitaratas_over(username: str):
    """A six-seat Sitaratas played to its end (in memory, as the history tests do), a long name at seat 0."""
    import random

    from accounts.models import User
    from games.catalog import get_bot

    host = User.objects.create_user(username=username, email=f"{username}@example.com", password=USER_PASSWORD)
    table = open_table(host, "sitaratas", seat_count=6, options={"deck": "classic"})
    fill_with_bots(table, host)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    play_out(match, lambda engine, state, seat: get_bot("sitaratas")(engine.view(state, seat), random.Random(seat)))
    return table


def test_a_six_player_score_sheet_fits_a_laptop_and_is_one_line_per_player_on_a_phone(
    browser, site_url, transactional_db
) -> None:
    name = "anastasia_plays_cards"
    table = in_thread(lambda: _six_player_sitaratas_over(name))
    for size, options in SIZES.items():
        page = table_page(browser, site_url, name, table.pk, options)
        page.wait_for_selector("#socket-status:has-text('Connected')")
        page.wait_for_selector("#result")
        page.evaluate("document.querySelector('.st-sheet').scrollIntoView()")
        shot(page, f"sitaratas-{size}-six-player-sheet")
        if size == "laptop":
            scroll = page.evaluate(
                "() => { const s = document.querySelector('.st-sheet .table-scroll');"
                " return [s.scrollWidth, s.clientWidth]; }"
            )
            assert scroll[0] <= scroll[1] + 1, f"the sheet scrolls sideways: {scroll}"
            assert page.locator(".st-sheet th.st-player").count() == 6
        else:
            lines = page.locator(".st-sheet .sheet-standings li")
            assert lines.count() == 6
            for index in range(6):
                assert lines.nth(index).bounding_box()["height"] < 40, "a player takes more than one line"
            assert not page.locator(".st-sheet .table-scroll").is_visible()  # all rounds open on request
            page.click(".st-sheet .sheet-all summary")
            assert page.locator(".st-sheet .table-scroll").is_visible()
        assert page.locator(f".st-sheet [title='{name}']").count() >= 1  # the full name on hover / tap
        page.context.close()
