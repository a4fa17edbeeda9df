"""Bot levels (issue 25, RULINGS P45–P49): the host picks one per seat; the seat shows it; the
level plays, stays with the match's players, its replay and its ratings."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from accounts.models import User
from games.models import MatchPlayer, Rating
from tables.errors import TableError
from tables.live.messages import parse_message
from tables.render.fragment import load_snapshot, render_live
from tables.services import lobby, play
from tests.games.history_helpers import play_to_end
from tests.helpers import fair_value
from tests.tables.helpers import open_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_budget(settings):
    settings.BOT_STRONG_SAMPLES = 5


def sita_table_with_levels(host: User):
    table = open_table(host, "sita", seat_count=4)
    for position, level in ((1, "strong"), (2, "easy"), (3, "normal")):
        lobby.bot_add(table_id=table.pk, host=host, position=position, level=level)
    return table


def test_the_migrations_give_every_level_its_own_bot_accounts() -> None:
    for level in ("easy", "normal", "strong"):
        bots = User.objects.filter(is_bot=True, bot_level=level)
        assert bots.count() == 9
        assert not any(bot.has_usable_password() for bot in bots)
    # The bots from before levels are the normal ones, under their old names (RULING P45).
    assert User.objects.get(username="bot-ada").bot_level == "normal"
    assert User.objects.get(username="bot-ada-strong").name == "Ada (strong bot)"


def test_the_host_adds_a_bot_of_each_level_and_each_seat_shows_its_level(host) -> None:
    table = sita_table_with_levels(host)
    seats = {seat.position: seat.user for seat in table.seats.select_related("user")}
    assert [seats[position].bot_level for position in (1, 2, 3)] == ["strong", "easy", "normal"]
    # Each level is a bot account of its own, so it is rated as its own bot (RULING P45).
    assert len({seats[position].pk for position in (1, 2, 3)}) == 3
    html = str(render_live(load_snapshot(table.pk), user_id=host.pk, connected=set()))
    # The level is said once, in the seat's name (issue 53); the normal bots keep their old names (P45).
    names = re.findall(r'<span class="seat-name" title="([^"]*)">', html)
    assert [name.split(" ", 1)[1] for name in names[1:]] == ["(strong bot)", "(easy bot)", "(bot)"], names
    assert all(html.count(name) >= 2 for name in names), "a seat shows its name as its title says"
    assert "bot-level" not in html and html.count("easy bot") == html.count("(easy bot)")


def test_the_lobby_offers_the_three_levels_to_the_host_only(host, player) -> None:
    table = open_table(host, "sita", seat_count=3)
    as_host = str(render_live(load_snapshot(table.pk), user_id=host.pk, connected=set()))
    assert 'name="level"' in as_host
    for level in ("easy", "normal", "strong"):
        assert f'<option value="{level}"' in as_host
    assert '<option value="normal" selected>' in as_host
    as_player = str(render_live(load_snapshot(table.pk), user_id=player.pk, connected=set()))
    assert 'name="level"' not in as_player


def test_the_level_comes_from_the_message_and_a_bad_one_changes_nothing(host) -> None:
    message = parse_message({"command": "bot_add", "position": "1", "level": "strong"}, game="sita")
    assert message.extra == {"level": "strong"}
    assert parse_message({"command": "bot_add", "position": "1"}, game="sita").extra == {}
    table = open_table(host, "sita", seat_count=3)
    with pytest.raises(TableError, match="bot level"):
        lobby.bot_add(table_id=table.pk, host=host, position=1, level="grandmaster")
    assert table.seats.get(position=1).user is None


def test_a_level_plays_and_survives_in_the_record_the_replay_and_the_ratings(client, host) -> None:
    table = sita_table_with_levels(host)
    match = play_to_end(lobby.table_start(table_id=table.pk, host=host, entropy=fair_value()))
    assert match.status == "finished"
    levels = {
        player.seat: player.user.bot_level for player in MatchPlayer.objects.filter(match=match).select_related("user")
    }
    assert levels == {0: "", 1: "strong", 2: "easy", 3: "normal"}
    strong = MatchPlayer.objects.get(match=match, seat=1).user
    assert strong.name.endswith("(strong bot)")
    # The engine's record is as it was; the level sits with the match's players beside it.
    assert set(match.record) >= {"game", "players", "rounds", "totals", "placements"}
    page = client.get(reverse("match_replay", args=[match.pk])).content.decode()
    assert "(strong bot)" in page and "(easy bot)" in page
    rated = set(Rating.objects.filter(game="sita", games=1).values_list("user__bot_level", flat=True))
    assert rated == {"", "easy", "normal", "strong"}


def test_the_bot_task_plays_the_seats_level_and_the_strong_bots_samples_go_to_the_metrics(host, monkeypatch) -> None:
    from core import metrics
    from games import catalog

    table = sita_table_with_levels(host)
    asked, sampled = [], []
    real = catalog.get_bot

    def spy(game, level="normal"):
        asked.append(level)
        return real(game, level)

    monkeypatch.setattr(catalog, "get_bot", spy)
    monkeypatch.setattr(metrics, "bot_sampled", lambda game, samples, capped: sampled.append((game, samples, capped)))
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    play.bots_act(match_id=match.pk, version=match.version)
    assert sorted(asked) == ["easy", "normal", "strong"]
    # RULING P49: the strong bot weighed exactly BOT_STRONG_SAMPLES deals, and the metrics say so.
    assert sampled == [("sita", 5, False)]


def test_an_admin_sees_a_bots_level_but_cannot_edit_it(admin_client) -> None:
    bot = User.objects.get(username="bot-cleo-strong")
    page = admin_client.get(reverse("admin:accounts_user_change", args=[bot.pk])).content.decode()
    assert "strong" in page
    assert 'name="bot_level"' not in page
