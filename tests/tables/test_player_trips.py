"""What players tripped on (issue 37), one test each; every one failed on the code before.

What only a browser shows (a push keeping a chosen control, the layout on a phone) is in
tests/browser/test_player_trips_browser.py.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.bots import bot_base_name
from accounts.models import User
from games.models import Match
from games.selectors.history import action_label
from payouts import services as payouts
from payouts.models import Transfer
from tables import clock, tasks
from tables.errors import TableError
from tables.render.fragment import load_snapshot, render_live
from tables.services import endings, lobby, votes
from tests.conftest import make_user
from tests.games.history_helpers import finished_match
from tests.helpers import fair_value
from tests.payouts.helpers import play_to_end
from tests.tables.helpers import fill_with_bots, open_table, play_bots_until_human, seat_guests, start_table

pytestmark = pytest.mark.django_db


def _html(table_id: int, user) -> str:
    return render_live(load_snapshot(table_id), user_id=user.pk if user else None, connected=set())


@pytest.mark.parametrize("game", ["estimation", "sita"])
def test_game_over_in_a_game_without_a_sitaratas_names_none(host, game) -> None:
    table, match = start_table(host, game)
    match = play_to_end(match)
    assert match.status == Match.Status.FINISHED
    html = _html(table.pk, host)
    assert 'id="result"' in html
    assert "is the Sitaratas" not in html and 'id="signature"' not in html


def test_game_over_in_sitaratas_still_names_the_sitaratas(host) -> None:
    table, match = start_table(host, "sitaratas")
    play_to_end(match)
    assert "</strong> is the Sitaratas" in _html(table.pk, host)


@pytest.fixture
def no_vote_timer(monkeypatch) -> None:
    monkeypatch.setattr(tasks.vote_expire, "apply_async", lambda args, countdown: None)


def _dismiss(match, proposer, other) -> None:
    votes.vote_propose(match_id=match.pk, user=proposer)
    votes.vote_cast(match_id=match.pk, user=other, yes=True)
    match.refresh_from_db()
    assert match.status == Match.Status.DISMISSED


def test_after_a_dismissed_restart_the_lobby_says_the_passes_stay_used_and_the_next_pass_says_why(
    host, player, no_vote_timer
) -> None:
    table, first = start_table(host, "sitaratas", guests=[player])
    _dismiss(first, player, host)
    assert "game pass came back" in _html(table.pk, player)
    lobby.seat_ready(table_id=table.pk, user=player, ready=True, entropy=fair_value())
    restart = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    _dismiss(restart, player, host)
    html = _html(table.pk, player)
    assert "game pass came back" not in html
    assert "its game passes stay used" in html and "the next start takes one free pass" in html
    lobby.seat_ready(table_id=table.pk, user=player, ready=True, entropy=fair_value())
    third = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    fresh = Transfer.objects.filter(user=player, reason="pass_reserve").order_by("pk").last()
    assert fresh.memo == "New attempt after a dismissed restart: a fresh pass."
    seated = Transfer.objects.filter(user=player, reason="pass_reserve", memo="Seat taken at a Sitaratas table.")
    assert seated.count() == 1  # only when the player sat down
    assert Transfer.objects.filter(user=player, reason="pass_use", match=third).count() == 1


def test_a_lone_human_with_bots_is_not_offered_a_dismissal_that_cannot_pass(host, player) -> None:
    table, _ = start_table(host, "sitaratas", seat_count=3)
    html = _html(table.pk, host)
    assert 'value="vote_propose"' not in html
    table, _ = start_table(host, "sitaratas", seat_count=3, guests=[player])
    assert 'value="vote_propose"' in _html(table.pk, host)  # two of three can dismiss


def test_a_finished_table_does_not_tell_the_away_player_to_come_back(host) -> None:
    table, match = start_table(host, "estimation", options={"length": "micro"})
    Match.objects.filter(pk=match.pk).update(clock_seats={"away": {"0": clock.ms(match.started_at)}})
    assert "I&#39;m back" in _html(table.pk, host) or "I'm back" in _html(table.pk, host)
    play_to_end(match)
    html = _html(table.pk, host)
    assert 'id="result"' in html
    assert "You are marked" not in html and 'value="back"' not in html


def _admin():
    admin = make_user("root")
    admin.is_staff = True
    admin.save()
    return admin


def test_the_players_of_an_aborted_game_are_told_their_stake_came_back(host, player) -> None:
    table = open_table(host, "estimation", stake=7, options={"length": "micro"})
    seat_guests(table, [player])
    fill_with_bots(table, host)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    endings.match_abort(match_id=match.pk, by=_admin(), reason="A player fell ill")
    html = _html(table.pk, player)
    assert "Your stake of 7 coins came back to your wallet." in html
    assert ">watching<" not in html and "you played here" in html
    assert ">watching<" in _html(table.pk, make_user("olga"))


def test_the_players_of_a_closed_sitaratas_lobby_are_told_their_pass_came_back(host, player) -> None:
    table = open_table(host, "sitaratas", seat_count=3)
    seat_guests(table, [player])
    lobby.table_close(table_id=table.pk, by=host)
    html = _html(table.pk, player)
    assert "Your game pass came back to your free passes." in html and ">watching<" not in html


# --- wording (issue 37, items 7-10) --------------------------------------------------------


def test_a_move_the_clock_played_reads_as_a_move_with_its_card_not_as_codes() -> None:
    assert action_label({"type": "bid", "bid": 1}) == "bid 1"
    assert action_label({"type": "play", "card": "9C"}) == "played 9♣"
    assert action_label({"type": "play", "card": "RJ", "joker": "high"}) == "played Red joker HIGH"
    assert action_label({"type": "call", "tricks": 5, "trump": "S"}) == "called 5 ♠"
    assert action_label({"type": "take_row", "row": 2}) == "took row 3"
    with translation.override("et"):
        assert action_label({"type": "play", "card": "10H"}) == "käis 10♥"


def test_three_bots_of_three_levels_at_one_table_have_three_names(host) -> None:
    table = open_table(host, "estimation")
    for position, level in ((1, "easy"), (2, "normal"), (3, "strong")):
        lobby.bot_add(table_id=table.pk, host=host, position=position, level=level)
    bots = [seat.user for seat in table.seats.exclude(position=0).select_related("user")]
    assert len({bot_base_name(bot.username) for bot in bots}) == 3
    assert {bot.bot_level for bot in bots} == {"easy", "normal", "strong"}


def test_a_bot_is_named_in_the_reader_s_language(host) -> None:
    table = open_table(host, "estimation")
    lobby.bot_add(table_id=table.pk, host=host, position=1, level="strong")
    bot = table.seats.get(position=1).user
    assert bot.name == "Ada (strong bot)" and bot.display_name == "Ada (strong bot)"
    with translation.override("et"):
        assert bot.name == "Ada (tugev robot)"
        assert "Ada (tugev robot)" in _html(table.pk, host)
    with translation.override("ar"):
        assert "آدا (روبوت قوي)" in _html(table.pk, host)
    User.objects.filter(pk=bot.pk).update(display_name="Renamed by an admin")
    bot.refresh_from_db()
    with translation.override("et"):
        assert bot.name == "Renamed by an admin"


def _staked_game_over(host, player):
    table = open_table(host, "estimation", stake=10, options={"length": "micro"})
    seat_guests(table, [player])
    fill_with_bots(table, host)
    return table, play_to_end(lobby.table_start(table_id=table.pk, host=host, entropy=fair_value()))


def test_a_payout_row_gives_the_pot_and_the_share_and_a_grant_says_who_granted(client, host, player) -> None:
    _, match = _staked_game_over(host, player)
    winner = next(mp.user for mp in match.match_players.filter(user__is_bot=False) if mp.payout)
    payouts.coins_grant(user=winner, amount=5, by=_admin(), memo="Tournament prize")
    client.force_login(winner)
    page = client.get(reverse("wallet")).content.decode()
    assert "100% of a pot of 20 coins." in page
    assert "Tournament prize (by root)" in page


def test_an_aborted_game_s_stake_reads_refunded_and_its_memo_says_it_once(client, host, player) -> None:
    table = open_table(host, "estimation", stake=7, options={"length": "micro"})
    seat_guests(table, [player])
    fill_with_bots(table, host)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    endings.match_abort(match_id=match.pk, by=_admin(), reason="server trouble, refunding")
    client.force_login(player)
    page = client.get(reverse("wallet")).content.decode()
    story = page[page.index("7 held coins went into the pot.") :]
    assert ">refunded</span>" in story[: story.index("</tr>")]
    assert "Aborted by root: server trouble, refunding." in page and "refunding Stake refunded" not in page


def test_the_staked_lobby_states_the_split(host) -> None:
    table = open_table(host, "estimation", stake=10)
    html = _html(table.pk, host)
    assert "100 %" in html and "70 % · 30 %" in html and "60 % · 30 % · 10 %" in html


def test_a_joiner_short_of_coins_is_not_told_to_choose_a_smaller_stake(host, player) -> None:
    first = open_table(make_user("otto"), "estimation", stake=600)
    lobby.seat_take(table_id=first.pk, user=player, position=1)  # 600 of the player's 1,000 held
    table = open_table(host, "estimation", stake=600)
    with pytest.raises(TableError) as refused:
        lobby.seat_take(table_id=table.pk, user=player, position=1)
    assert "Join a table with a smaller stake" in str(refused.value)
    assert "Choose a smaller stake" not in str(refused.value)


def test_the_profile_counts_places_in_words_and_the_ratings_title_names_the_game_once(client, host) -> None:
    finished_match(host, "sitaratas")
    client.force_login(host)
    page = client.get(reverse("profile", args=[host.username])).content.decode()
    assert re.search(r"place \d: 1 game", page) and ". place ×" not in page
    ratings = client.get(reverse("ratings"), {"game": "sitaratas"}).content.decode()
    title = re.search(r"<title>(.*?)</title>", ratings, re.S)[1]
    assert title.count("Sitaratas") == 2 and "Ratings · Sitaratas · Sitaratas" not in title


def test_the_game_page_marks_the_viewer_s_own_value_for_the_verify_check(client, host) -> None:
    match = finished_match(host, "estimation")
    client.force_login(host)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert page.count('data-mine="yes"') == 1


# --- the play screen (issue 37, items 4 and 11) ------------------------------------------------


def test_the_player_s_own_countdown_is_in_their_dock_and_every_countdown_knows_its_full_time(host) -> None:
    table, match = start_table(host, "estimation", options={"length": "micro"})
    match = play_bots_until_human(match)
    html = _html(table.pk, host)
    dock = html[html.index('class="play-dock"') :]
    assert 'class="turn-clock dock-clock' in dock[:600]
    assert 'data-clock-total="60000"' in dock[:600]
    watcher = _html(table.pk, make_user("olga"))
    assert "dock-clock" not in watcher


def test_a_countdown_s_unit_is_the_reader_s_language(host) -> None:
    table, match = start_table(host, "estimation", options={"length": "micro"})
    play_bots_until_human(match)
    units = {}
    for language in ("en", "et", "ar"):
        with translation.override(language):
            html = _html(table.pk, host)
        dock = html[html.index('class="turn-clock dock-clock') :]
        units[language] = re.search(r">(\d+ \S+)</span>", dock)[1].split()[1]
    assert units == {"en": "s", "et": "s", "ar": "ث"}


# Transactional: set up on database_sync_to_async's thread, on a connection of its own.
@pytest.mark.django_db(transaction=True)
async def test_a_closed_table_s_shared_render_tells_each_viewer_only_what_came_back_to_them(host, player) -> None:
    # One snapshot is rendered once per kind of viewer (tables/live/fanout.py): what came back to a
    # former player is theirs alone, so a spectator rendered after them must not be shown it.
    from channels.db import database_sync_to_async

    from tables.live import fanout

    def closed_staked_lobby() -> int:
        table = open_table(host, "estimation", stake=7, options={"length": "micro"})
        seat_guests(table, [player])
        lobby.table_close(table_id=table.pk, by=host)
        return table.pk

    table_id = await database_sync_to_async(closed_staked_lobby)()
    watcher = await database_sync_to_async(make_user)("olga")
    shared = await fanout.table_snapshot(table_id, "closed-1")
    seen_by_player = fanout.render(shared, user_id=player.pk, connected=frozenset())
    seen_by_watcher = fanout.render(shared, user_id=watcher.pk, connected=frozenset())
    assert "Your stake of 7 coins came back to your wallet." in seen_by_player
    assert "came back" not in seen_by_watcher and "you played here" not in seen_by_watcher
