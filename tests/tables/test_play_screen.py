"""The play screen's bugs and wording (issue 20), one test each; every one failed on the code before.

Browser-only behaviour (layout, the flash timer, the New table form's script, the phone menu,
keyboard, sounds, axe-core) is in tests/browser/test_play_screen.py and test_accessibility.py.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.catalog import get_engine
from games.models import Match
from games.templatetags.card_tags import card, options_label
from payouts.models import Transfer
from tables import tasks
from tables.render.fragment import Snapshot, load_snapshot, render_live
from tables.render.presenters import present
from tables.services import endings, lobby, votes
from tests.conftest import make_user
from tests.helpers import fair_value
from tests.payouts.helpers import play_to_end
from tests.tables.helpers import fill_with_bots, open_table
from tests.tables.snapshots import playing_snapshot

pytestmark = pytest.mark.django_db


def _snapshot(game: str, state, engine, *, seats: int, options: dict, version: int = 1) -> Snapshot:
    return playing_snapshot(game, seat_count=seats, options=options, version=version, state=engine.dumps(state))


# --- cards and choices ------------------------------------------------------------------


def test_a_joker_is_drawn_as_a_joker_not_as_a_jack() -> None:
    for code in ("RJ", "BJ"):
        html = str(card(code))
        assert "JOKER" in html and "joker" in html.lower()
        assert 'class="corner">J' not in html  # "J★" read as a jack
    assert 'aria-label="Queen of hearts"' in str(card("QH"))


def test_high_and_low_are_two_large_labelled_buttons_beside_the_joker() -> None:
    engine = get_engine("sitaratas")
    options = engine.validate_options(3, {"deck": "jokers"})
    for seed in range(200):
        state = engine.new_game(3, options, seed)
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            legal = engine.legal_actions(state, seat)
            if any(a.get("joker") for a in legal):
                html = render_live(
                    _snapshot("sitaratas", state, engine, seats=3, options=options), user_id=seat + 1, connected=set()
                )
                joker = html[html.index('class="st-joker"') :]
                assert ">HIGH</button>" in joker and ">LOW</button>" in joker
                return
            state = engine.apply(state, seat, legal[0])
    pytest.fail("no seed dealt a joker to play")


def _estimation_at_last_estimate():
    engine = get_engine("estimation")
    options = engine.validate_options(4, {"length": "micro"})
    state = engine.new_game(4, options, 5)
    while True:
        seat = engine.to_act(state)[0]
        view = engine.view(state, seat)
        if view["phase"] == "estimating" and view["estimate_order"][-1] == seat:
            return engine, state, options, seat
        legal = engine.legal_actions(state, seat)
        state = engine.apply(state, seat, next((a for a in legal if a.get("value") == 3), legal[0]))


def test_a_forbidden_estimate_stays_on_screen_disabled_with_the_reason() -> None:
    engine, state, options, seat = _estimation_at_last_estimate()
    estimates = present("estimation", engine.view(state, seat), ["a", "b", "c", "d"], seat)["estimates"]
    forbidden = [o for o in estimates["shown"] if o["disabled"]]
    assert forbidden and "total exactly 13" in forbidden[0]["reason"]
    html = render_live(
        _snapshot("estimation", state, engine, seats=4, options=options), user_id=seat + 1, connected=set()
    )
    value = forbidden[0]["value"]
    assert re.search(rf'<button type="submit" class="value-btn" disabled title="You estimate last: {value} would', html)
    assert "would make the estimates total exactly 13" in html


def test_micro_estimation_shows_no_dash_call_or_auction_panel() -> None:
    engine = get_engine("estimation")
    options = engine.validate_options(4, {"length": "micro"})
    state = engine.new_game(4, options, 8)
    html = render_live(_snapshot("estimation", state, engine, seats=4, options=options), user_id=1, connected=set())
    assert "<h3>Dash Calls</h3>" not in html and "<h3>Auction</h3>" not in html
    assert "Last trick" in html


# --- the moments between tricks and rounds ----------------------------------------------


@pytest.mark.parametrize("game, seats, options", [("sitaratas", 3, {}), ("estimation", 4, {"length": "micro"})])
def test_a_finished_trick_waits_with_its_winner_marked_and_the_round_result_shows_before_the_next_deal(
    game, seats, options
) -> None:
    engine = get_engine(game)
    options = engine.validate_options(seats, options)
    state = engine.new_game(seats, options, 3)
    seen_trick = seen_summary = False
    while not engine.is_over(state) and not (seen_trick and seen_summary):
        seat = engine.to_act(state)[0]
        view = engine.view(state, seat)
        if view["last_trick"] and view["trick"] and not view["trick"]["plays"] and not seen_trick:
            html = render_live(
                _snapshot(game, state, engine, seats=seats, options=options), user_id=seat + 1, connected=set()
            )
            winner = view["last_trick"]["winner"]
            assert re.search(r'class="(st-slot filled won|slot( leads)? won)"', html), "the winner is not marked"
            assert html.count(' won"') >= 1 and f"P{winner}" in html
            assert f'data-announce="Trick to P{winner}. ' in html  # the announcer says who took it
            seen_trick = True
        if (
            view["score_sheet"]
            and not view["last_trick"]
            and not seen_summary
            and not (view["trick"] or {}).get("plays")
        ):
            html = render_live(
                _snapshot(game, state, engine, seats=seats, options=options), user_id=seat + 1, connected=set()
            )
            assert f"Round {view['score_sheet'][-1]['number']} result" in html
            seen_summary = True
        state = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    assert seen_trick and seen_summary


@pytest.mark.parametrize(
    "game, seats, options", [("sitaratas", 3, {"deck": "jokers"}), ("estimation", 4, {"length": "micro"})]
)
def test_the_announcer_says_each_card_played_to_the_trick(game, seats, options) -> None:
    engine = get_engine(game)
    options = engine.validate_options(seats, options)
    state = engine.new_game(seats, options, 5)
    while engine.view(state, None)["phase"] != "playing":
        seat = engine.to_act(state)[0]
        state = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    seat = engine.to_act(state)[0]
    state = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    play = engine.view(state, None)["trick"]["plays"][-1]
    watcher = render_live(_snapshot(game, state, engine, seats=seats, options=options), user_id=99, connected=set())
    announce = re.search(r'data-announce="([^"]*)"', watcher).group(1)
    assert announce.startswith(f"P{play['seat']} played ") and " of " in announce or "joker" in announce


def test_game_over_comes_before_the_table_in_the_fragment() -> None:
    engine = get_engine("sita")
    options = engine.validate_options(2, {"matches": 1})
    state = engine.new_game(2, options, 4)
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        state = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    html = render_live(_snapshot("sita", state, engine, seats=2, options=options), user_id=1, connected=set())
    assert 0 < html.index('id="result"') < html.index('id="game"')


# --- lobby, numbering, the New table form -----------------------------------------------


def test_a_full_table_waiting_to_start_is_offered_to_watch_not_to_join(client, host, outsider) -> None:
    table = open_table(host, "sitaratas", seat_count=3)
    fill_with_bots(table, host)
    client.force_login(outsider)
    row = client.get(reverse("lobby")).content.decode()
    row = row[row.index(f"table {table.pk}") :]
    row = row[: row.index("</tr>")]
    assert "Join" not in row and "Watch" in row and "open" not in row and "full" in row
    html = render_live(load_snapshot(table.pk), user_id=outsider.pk, connected=set())
    assert "Pick a free seat" not in html and "Every seat is taken" in html


def test_the_table_and_history_call_a_game_by_the_same_number(client, host, player) -> None:
    table = open_table(host, "sita", seat_count=2, options={"matches": 1})
    fill_with_bots(table, host)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    client.force_login(host)
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert f"game #{match.pk}" in page and f"table {table.pk}" in page
    match = play_to_end(match)
    history = client.get(reverse("history")).content.decode()
    assert f"game #{match.pk} · table {table.pk}" in history


def test_the_new_table_form_has_no_control_named_matches(client, host) -> None:
    # A control named "matches" shadows the form element's matches() method: htmx then throws
    # "TypeError: e.matches is not a function" on every click of a Game radio.
    client.force_login(host)
    page = client.get(reverse("table_new")).content.decode()
    assert 'name="matches"' not in page and 'name="match_count"' in page
    assert "<script>" not in page  # its script is a file now (the coming CSP forbids inline scripts)
    client.post(reverse("table_new"), {"game": "sita", "players": 3, "match_count": 2})
    assert host.hosted_tables.get().options == {"matches": 2}


def test_the_phone_menu_button_is_in_every_page(client) -> None:
    page = client.get(reverse("lobby")).content.decode()
    assert 'class="nav-toggle' in page and 'aria-controls="site-nav"' in page and 'id="site-nav"' in page


# --- dismissal, wallet wording ----------------------------------------------------------


def test_after_an_approved_dismissal_the_lobby_says_what_happened_and_that_the_passes_came_back(
    host, player, monkeypatch
) -> None:
    monkeypatch.setattr(tasks.vote_expire, "apply_async", lambda args, countdown: None)
    table = open_table(host, "sitaratas", seat_count=3)
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    lobby.seat_ready(table_id=table.pk, user=player, ready=True, entropy=fair_value())
    fill_with_bots(table, host)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    votes.vote_propose(match_id=match.pk, user=player)
    votes.vote_cast(match_id=match.pk, user=host, yes=True)
    for user in (host, player):
        html = render_live(load_snapshot(table.pk), user_id=user.pk, connected=set())
        assert f"Game #{match.pk} was dismissed by a vote of the players (2 yes, 0 no)" in html
        assert "game pass came back" in html


def _staked(host, player, stake: int):
    table = open_table(host, "estimation", stake=stake, options={"length": "micro"})
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    lobby.seat_ready(table_id=table.pk, user=player, ready=True, entropy=fair_value())
    fill_with_bots(table, host)
    return table


def test_closing_a_table_says_who_closed_it_not_that_the_player_left(host, player) -> None:
    table = _staked(host, player, 7)
    lobby.table_close(table_id=table.pk, by=host)
    memo = Transfer.objects.get(user=player, reason="stake_release").memo
    assert "Left the table" not in memo and "closed" in memo and host.name in memo


def test_an_abort_refund_names_the_admin_and_the_reason(host, player) -> None:
    admin = make_user("root")
    admin.is_staff = True
    admin.save()
    table = _staked(host, player, 7)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    endings.match_abort(match_id=match.pk, by=admin, reason="A player fell ill")
    memo = Transfer.objects.get(user=player, reason="pot_refund").memo
    assert "root" in memo and "A player fell ill" in memo


def test_a_payout_names_the_share_among_the_stakers_not_a_bare_place() -> None:
    from payouts.services import payout_memo

    assert payout_memo(2, [2, 4]) == "Pot share: best of the 2 stakers, place 2 in the game."
    assert payout_memo(4, [4]).startswith("Your stake back: you were the only player who staked")
    assert payout_memo(3, [1, 3, 3]) == "Pot share: tied second of the 3 stakers, place 3 in the game."


def test_the_wallet_tells_a_stake_from_hold_to_pot_to_payout_or_loss(client, host, player) -> None:
    table = _staked(host, player, 7)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    client.force_login(player)
    page = client.get(reverse("wallet")).content.decode()
    assert re.search(r'id="coins-in-play">7<', page), "a stake in a game in play is not 0 coins"
    assert "7 held coins went into the pot." in page
    match = play_to_end(match)
    assert match.status == Match.Status.FINISHED
    memos = list(Transfer.objects.filter(reason="pot_payout").values_list("memo", flat=True))
    assert memos and all("Payout for place" not in memo for memo in memos)
    # The deal comes from the players' own values (fair-v2), so the two stakers may tie and share
    # the pot: another game at a fresh table until one of them loses.
    for _ in range(8):
        losers = [mp.user for mp in match.match_players.filter(user__is_bot=False) if not mp.payout]
        if losers:
            break
        table = _staked(host, player, 7)
        match = play_to_end(lobby.table_start(table_id=table.pk, host=host, entropy=fair_value()))
    loser = losers[0]
    client.force_login(loser)
    page = client.get(reverse("wallet")).content.decode()
    assert "Stake lost" in page and "stayed in the pot" in page
    html = render_live(load_snapshot(table.pk), user_id=loser.pk, connected=set())
    assert ">pot " not in html  # a finished table has no pot left to show


def test_the_pass_list_shows_free_reserved_and_used(client, host) -> None:
    table = open_table(host, "sitaratas", seat_count=3)
    fill_with_bots(table, host)
    lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    client.force_login(host)
    page = client.get(reverse("wallet")).content.decode()
    passes = page[page.index('id="pass-movements"') :]
    assert '<th class="num">Reserved</th>' in passes and '<th class="num">Used</th>' in passes
    used_row = passes[passes.index("Pass used") :]
    used_row = used_row[: used_row.index("</tr>")]
    assert (
        ">\u2066+1\u2069<" in used_row
        and ">\u2066\u22121\u2069<" in used_row
        and '<span class="muted">·</span>' not in used_row
    )


def test_one_coin_is_not_1_coins(client, host) -> None:
    assert options_label("estimation", {"length": "micro"}, 1) == "Micro · stake 1 coin"
    client.force_login(host)
    assert "1 coins" not in client.get(reverse("wallet")).content.decode()


def test_a_four_colour_deck_is_a_profile_setting(client, host) -> None:
    # RULING P44: clubs and diamonds get their own colours, so no suit is told by colour alone.
    client.force_login(host)
    client.post(reverse("profile", args=[host.username]), {"display_name": "", "four_colour_suits": "on"})
    host.refresh_from_db()
    assert host.four_colour_suits
    assert 'class="four-colour"' in client.get(reverse("lobby")).content.decode()
    assert "suit-C" in str(card("7C")) and "suit-D" in str(card("7D"))
