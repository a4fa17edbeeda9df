"""Issue 53: every request reads and prints times in the signed-in player's own zone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.helpers import staff
from tournaments.models import Tournament

TALLINN = "Europe/Tallinn"
# Tallinn leaves EET (+2) for EEST (+3) at 03:00 on 28 March 2027 and comes back at 04:00 on 31 October.
ACROSS_DST = [
    ("2027-03-27T12:00", datetime(2027, 3, 27, 10, 0, tzinfo=UTC)),  # the day before: +2
    ("2027-03-28T12:00", datetime(2027, 3, 28, 9, 0, tzinfo=UTC)),  # the day of the change: +3
    ("2027-10-30T00:51", datetime(2027, 10, 29, 21, 51, tzinfo=UTC)),  # the day before going back: +3
    ("2027-10-31T12:00", datetime(2027, 10, 31, 10, 0, tzinfo=UTC)),  # after it: +2
]
# 03:30 on 28 March never happens in Tallinn; 03:30 on 31 October happens twice.
NO_SUCH_TIME = ["2027-03-28T03:30", "2027-10-31T03:30"]


def tournament_form(start: str, name: str) -> dict:
    return {
        "name": name,
        "game": "sita",
        "starts_at": start,
        "rounds": 2,
        "table_size": 5,
        "min_players": 4,
        "max_players": 20,
    }


@pytest.mark.django_db
@pytest.mark.parametrize(("typed", "stored"), ACROSS_DST)
def test_the_tournament_form_reads_a_start_in_the_players_own_zone(client, player, typed, stored) -> None:
    player.time_zone = TALLINN
    player.save()
    client.force_login(player)
    assert "In your time zone, Europe/Tallinn" in client.get(reverse("tournament_new")).content.decode()
    response = client.post(reverse("tournament_new"), tournament_form(typed, "Night cup"))
    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert tournament.starts_at == stored
    # The page shows the time as it was typed, in the same zone.
    page = client.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert typed[-5:] in page


@pytest.mark.django_db
@pytest.mark.parametrize("typed", NO_SUCH_TIME)
def test_the_tournament_form_refuses_a_start_the_clock_change_skips_or_repeats(client, player, typed) -> None:
    player.time_zone = TALLINN
    player.save()
    client.force_login(player)
    response = client.post(reverse("tournament_new"), tournament_form(typed, "Night cup"))
    assert response.status_code == 200 and "Europe/Tallinn" in response.content.decode()
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_a_player_with_no_zone_types_and_reads_the_sites_zone(client, player) -> None:
    client.force_login(player)
    assert "In your time zone, UTC" in client.get(reverse("tournament_new")).content.decode()
    client.post(reverse("tournament_new"), tournament_form("2027-03-28T12:00", "Night cup"))
    assert Tournament.objects.get().starts_at == datetime(2027, 3, 28, 12, 0, tzinfo=UTC)


@pytest.mark.django_db
@pytest.mark.parametrize(("typed", "stored"), ACROSS_DST)
def test_the_admins_tournament_form_reads_a_start_in_the_admins_own_zone(client, typed, stored) -> None:
    admin = staff()
    admin.is_superuser = True
    admin.time_zone = TALLINN
    admin.save()
    client.force_login(admin)
    add = reverse("admin:tournaments_tournament_add")
    assert "In your time zone, Europe/Tallinn" in client.get(add).content.decode()
    day, time = typed.split("T")
    form = {
        **tournament_form("", "Staff cup"),
        "starts_at_0": day,
        "starts_at_1": time,
        "prize_split": "[100]",
        "entry_fee": 0,
        "options": "{}",
        "reason": "The staff's own cup",  # RULING P19: the admin says why
        "entries-TOTAL_FORMS": 0,
        "entries-INITIAL_FORMS": 0,
        "entries-MIN_NUM_FORMS": 0,
        "entries-MAX_NUM_FORMS": 1000,
    }
    response = client.post(add, form)
    errors = [line for line in response.content.decode().splitlines() if "aria-invalid" in line]
    assert response.status_code == 302, errors
    assert Tournament.objects.get().starts_at == stored


@pytest.mark.django_db
def test_the_zone_is_the_requests_own_and_goes_with_it(client, player, outsider) -> None:
    player.time_zone = "Asia/Tokyo"
    player.save()
    client.force_login(player)
    client.get(reverse("tournament_new"))
    assert timezone.get_current_timezone_name() == "UTC"  # not left behind for the next request
    client.force_login(outsider)
    assert "In your time zone, UTC" in client.get(reverse("tournament_new")).content.decode()


# Issue 53, item 6: 22:35 UTC on 30 November is 07:35 on 1 December in Tokyo.
ENDED_UTC = datetime(2026, 11, 30, 22, 36, tzinfo=UTC)


def _tokyo_game(player):
    """A finished game of the player's, started 22:35 UTC and ended 22:36, with a word said after it at 22:40."""
    from chat import services as chat_services
    from games.models import Match
    from tests.games.history_helpers import finished_table

    table = finished_table(player, "sita")
    match = table.matches.get()
    chat_services.message_post(
        table_id=table.pk, user=player, channel="players", text="gg", now=datetime(2026, 11, 30, 22, 40, tzinfo=UTC)
    )
    Match.objects.filter(pk=match.pk).update(started_at=datetime(2026, 11, 30, 22, 35, tzinfo=UTC), ended_at=ENDED_UTC)
    return table, match


@pytest.mark.django_db
def test_every_page_prints_a_players_times_in_their_own_zone(client, player) -> None:
    table, match = _tokyo_game(player)
    player.time_zone = "Asia/Tokyo"
    player.save()
    client.force_login(player)
    pages = {
        "game": reverse("match", args=[match.pk]),
        "history": reverse("history") + f"?player={player.username}",
        "offline": reverse("offline"),
        "table": reverse("table", args=[table.pk]),
    }
    for name, url in pages.items():
        text = client.get(url).content.decode()
        for utc in ("22:35", "22:36", "22:40", "30 Nov", "Nov. 30", "November 30"):
            assert utc not in text, (name, utc)
    game_page = client.get(pages["game"]).content.decode()
    assert "07:35" in game_page and "07:36" in game_page  # the game's own times
    assert "07:40" in game_page  # the finished game's chat
    assert "07:36" in client.get(pages["history"]).content.decode()
    assert "07:36" in client.get(pages["offline"]).content.decode()


@pytest.mark.django_db
def test_what_the_table_socket_sends_many_viewers_carries_instants_not_clock_times(player) -> None:
    # The live fragment and its chat are made once for every viewer, in no one's zone: a message
    # carries the moment it was said, which the browser writes in its own zone (static/js/chat.js).
    from chat.models import ChatMessage
    from chat.selectors import message_payload

    _tokyo_game(player)
    payload = message_payload(ChatMessage.objects.get(), author_name="piet")
    assert payload["at"] == "2026-11-30T22:40:00+00:00"
    assert "22:40" not in [value for key, value in payload.items() if key != "at"]
