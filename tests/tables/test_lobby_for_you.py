"""The lobby's own part for a signed-in player (RULING P86, issue 39): friends online with where they are, the
invitations waiting for them beside their rematch offers ("For you"), the next tournaments."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from social import services as social
from tables.models import Table
from tables.services import invites, lobby, privacy
from tests.conftest import make_user
from tests.helpers import fair_value
from tests.social.helpers import befriend
from tests.tables.helpers import fill_with_bots, open_table, start_table
from tests.tournaments.helpers import create, staff
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def lobby_page(client, user) -> str:
    client.force_login(user)
    return client.get(reverse("lobby")).content.decode()


def part(page: str, element_id: str) -> str:
    """The section with that id, or "" when the page has none."""
    start = page.find(f'id="{element_id}"')
    return page[start : page.index("</section>", start)] if start >= 0 else ""


def waiting_at(user, *, host) -> Table:
    """``user`` seated at ``host``'s table, which waits for players."""
    table = open_table(host, "sita", seat_count=4)
    lobby.seat_take(table_id=table.pk, user=user, position=1)
    return table


def invited(host, friend) -> Table:
    """``host``'s private table, with ``friend`` invited to it."""
    table = open_table(host, "sita", seat_count=3)
    privacy.privacy_set(table_id=table.pk, host=host, private=True, spectators="anyone")
    befriend(host, friend)
    invites.invite_send(table_id=table.pk, by=host, user_id=friend.pk)
    return table


def test_a_friend_at_a_waiting_table_comes_with_a_join_link_and_one_playing_with_a_watch_link(
    client, host, player, outsider
) -> None:
    stranger = make_user("sten")
    befriend(host, player)
    befriend(host, outsider)
    waiting = waiting_at(player, host=stranger)
    playing, _match = start_table(stranger, "sitaratas", seat_count=3, guests=[outsider])
    friends = part(lobby_page(client, host), "friends-online")
    assert f'id="online-{player.pk}" data-state="lobby"' in friends
    assert f'href="{reverse("table", args=[waiting.pk])}" class="join-link"' in friends
    assert f'id="online-{outsider.pk}" data-state="playing"' in friends
    assert f'href="{reverse("table", args=[playing.pk])}" class="watch-link"' in friends
    assert f'href="{reverse("friends")}"' in friends  # "All friends"
    assert friends.index(f"online-{outsider.pk}") < friends.index(f"online-{player.pk}")  # as the friends page orders


def test_an_offline_friend_is_not_shown_and_no_friend_online_shows_no_box(client, host, player) -> None:
    befriend(host, player)
    page = lobby_page(client, host)
    assert 'id="friends-online"' not in page and f"online-{player.pk}" not in page


def test_a_blocked_friend_is_not_shown(client, host, player) -> None:
    befriend(host, player)
    waiting_at(player, host=make_user("sten"))
    assert f"online-{player.pk}" in lobby_page(client, host)
    social.block(user=host, blocked_id=player.pk)
    assert f"online-{player.pk}" not in lobby_page(client, host)


def test_a_friend_at_a_private_table_the_viewer_may_not_join_has_no_link(client, host, player) -> None:
    stranger = make_user("sten")
    table = open_table(stranger, "sita", seat_count=4)
    privacy.privacy_set(table_id=table.pk, host=stranger, private=True, spectators="nobody")
    befriend(stranger, player)
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    befriend(host, player)
    friends = part(lobby_page(client, host), "friends-online")
    assert 'data-state="lobby"' in friends and reverse("table", args=[table.pk]) not in friends


def test_a_friend_muted_site_wide_is_named_as_public_lists_name_them(client, host, player) -> None:
    from chat.models import ChatMute

    player.display_name = "Loud name"
    player.save()
    befriend(host, player)
    waiting_at(player, host=make_user("sten"))
    assert "Loud name" in part(lobby_page(client, host), "friends-online")
    now = timezone.now()
    ChatMute.objects.create(user=player, until=now + timedelta(hours=1), reason="spam", created_by=host, created_at=now)
    friends = part(lobby_page(client, host), "friends-online")
    assert "Loud name" not in friends and f"online-{player.pk}" in friends


def test_an_invitation_is_for_you_with_its_host_game_and_table(client, host, player) -> None:
    table = invited(host, player)
    mine = part(lobby_page(client, player), "my-offers")
    assert "For you" in mine
    assert "<bdi>hana</bdi> invites you to SITA" in mine
    assert f'href="{reverse("table", args=[table.pk])}"' in mine
    assert 'id="my-offers"' not in lobby_page(client, host)  # the host is not invited


def test_an_invitation_goes_when_the_table_starts(client, host, player) -> None:
    table = invited(host, player)
    assert "invite-" in part(lobby_page(client, player), "my-offers")
    fill_with_bots(table, host)
    lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    assert 'id="my-offers"' not in lobby_page(client, player)


def test_an_invitation_goes_when_the_table_closes_or_the_player_sits(client, host, player) -> None:
    table = invited(host, player)
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    assert 'id="my-offers"' not in lobby_page(client, player)  # accepted: nothing left to answer
    lobby.seat_leave(table_id=table.pk, user=player)
    assert "invite-" in part(lobby_page(client, player), "my-offers")
    lobby.table_close(table_id=table.pk, by=host)
    assert 'id="my-offers"' not in lobby_page(client, player)


def test_an_invitation_withdrawn_by_a_block_or_a_mute_is_not_shown(client, host, player, outsider) -> None:
    from chat.models import PersonalMute

    invited(host, player)
    social.block(user=player, blocked_id=host.pk)
    assert 'id="my-offers"' not in lobby_page(client, player)
    invited(outsider, player)
    assert "olga" in part(lobby_page(client, player), "my-offers")
    PersonalMute.objects.create(owner=player, muted=outsider)
    assert 'id="my-offers"' not in lobby_page(client, player)


def test_the_next_three_tournaments_open_for_sign_up_soonest_first(client, host) -> None:
    creator = staff()
    now = timezone.now()
    later = [create(creator, name=f"Cup {hours}", starts_at=now + timedelta(hours=hours)) for hours in (4, 2, 3, 5)]
    cancelled = create(creator, name="Cancelled cup", starts_at=now + timedelta(minutes=30))
    tournament_services.tournament_cancel(tournament_id=cancelled.pk, by=creator, reason="No room")
    create(creator, name="Started cup", starts_at=now + timedelta(minutes=1), now=now - timedelta(hours=1))
    host.time_zone = "Asia/Tokyo"
    host.save()
    shown = part(lobby_page(client, host), "next-tournaments")
    assert "Cancelled cup" not in shown and "Started cup" in shown
    assert shown.index("Started cup") < shown.index("Cup 2") < shown.index("Cup 3")
    assert "Cup 4" not in shown and "Cup 5" not in shown
    assert f'href="{reverse("tournament", args=[later[1].pk])}"' in shown
    assert "(JST)" in shown  # the viewer's own zone, as the tournament pages show times


def test_a_tournament_past_its_start_is_no_longer_open(client, host) -> None:
    creator = staff()
    now = timezone.now()
    create(creator, name="Late cup", starts_at=now - timedelta(minutes=1), now=now - timedelta(hours=1))
    assert 'id="next-tournaments"' not in lobby_page(client, host)


def test_a_visitor_sees_none_of_it_and_the_polled_list_has_nobodys_own(client, host, player, outsider) -> None:
    befriend(host, outsider)
    waiting_at(outsider, host=make_user("sten"))
    invited(host, player)
    create(staff(), name="Visible cup", starts_at=timezone.now() + timedelta(hours=1))
    mine = lobby_page(client, player)
    assert all(f'id="{part_id}"' in mine for part_id in ("friends-online", "my-offers", "next-tournaments"))
    client.logout()
    visitor = client.get(reverse("lobby")).content.decode()
    assert not any(f'id="{part_id}"' in visitor for part_id in ("friends-online", "my-offers", "next-tournaments"))
    client.force_login(player)
    polled = client.get(reverse("lobby"), headers={"HX-Request": "true"}).content.decode()
    for own in ("friends-online", "my-offers", "next-tournaments", "invite-", "Visible cup", "For you"):
        assert own not in polled


def test_the_lobby_with_every_part_stays_a_few_queries(client, host, player, django_assert_max_num_queries) -> None:
    stranger = make_user("sten")
    for number in range(3):
        friend = make_user(f"friend{number}")
        befriend(player, friend)
        waiting_at(friend, host=stranger)
    invited(host, player)
    invited(make_user("inviter"), player)
    creator = staff()
    for hours in (1, 2, 3):
        create(creator, name=f"Cup {hours}", starts_at=timezone.now() + timedelta(hours=hours))
    client.force_login(player)
    # The lobby alone is some 24 (a card's reads per game, the bell, the session); friends add 3 and
    # 2 for each friend at a private table (two here: the inviters), invitations 2 and 2 per inviter,
    # tournaments 1. Not one per friend, per invitation or per tournament otherwise.
    with django_assert_max_num_queries(40):
        page = client.get(reverse("lobby")).content.decode()
    assert page.count('class="join-link"') == 5 and page.count('class="invite"') == 2 and "Cup 3" in page
