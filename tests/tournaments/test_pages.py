"""The tournament pages and the live standings socket (issue 41)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.helpers import create, players, sign_up, staff
from tournaments import services
from tournaments.models import Entry, Tournament
from tournaments.routing import websocket_urlpatterns


@pytest.mark.django_db
def test_the_list_shows_upcoming_tournaments(client, host) -> None:
    create(host, name="Sunday open")
    page = client.get(reverse("tournaments"))
    assert page.status_code == 200
    assert "Sunday open" in page.content.decode()


@pytest.mark.django_db
def test_a_title_in_another_direction_is_isolated_on_every_page(client, host) -> None:
    # RULING P54: a title is isolated as a name is.
    tournament = create(host, name="كأس الجمعة")
    sign_up(tournament, [host])
    client.force_login(host)
    for url in (
        reverse("tournaments"),
        reverse("tournament", args=[tournament.pk]),
        reverse("profile", args=[host.username]),
    ):
        body = client.get(url).content.decode().split("</title>", 1)[1]  # a <title> holds text only
        assert body.count("كأس الجمعة") == body.count("<bdi>كأس الجمعة</bdi>") > 0, url


@pytest.mark.django_db
def test_a_player_signs_up_and_withdraws_from_the_page(client, host, player) -> None:
    tournament = create(host)
    client.force_login(player)
    client.post(reverse("tournament_signup", args=[tournament.pk]))
    assert Entry.objects.get(user=player).state == Entry.State.ACTIVE
    page = client.get(reverse("tournament", args=[tournament.pk]))
    assert "You are signed up" in page.content.decode()
    client.post(reverse("tournament_signup", args=[tournament.pk]), {"withdraw": "1"})
    assert Entry.objects.get(user=player).state == Entry.State.WITHDRAWN


@pytest.mark.django_db
def test_start_times_show_in_the_players_own_time_zone(client, player) -> None:
    tournament = create(staff())
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now().replace(hour=10, minute=0) + timedelta(days=1)
    )
    player.time_zone = "Asia/Dubai"
    player.save()
    client.force_login(player)
    text = client.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert "14:00" in text and "+04" in text


@pytest.mark.django_db
def test_the_browser_guesses_the_time_zone_once(client, player) -> None:
    client.force_login(player)
    assert client.post(reverse("time_zone_guess"), {"time_zone": "Mars/Olympus"}).status_code == 400
    client.post(reverse("time_zone_guess"), {"time_zone": "Europe/Tallinn"})
    client.post(reverse("time_zone_guess"), {"time_zone": "Asia/Dubai"})
    player.refresh_from_db()
    assert player.time_zone == "Europe/Tallinn"


@pytest.mark.django_db
def test_any_player_creates_a_free_tournament_from_the_form(client, player) -> None:
    client.force_login(player)
    start = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    form = {"name": "Club night", "game": "sita", "starts_at": start, "rounds": 2, "table_size": 5}
    response = client.post(reverse("tournament_new"), {**form, "min_players": 4, "max_players": 20})
    tournament = Tournament.objects.get()
    assert response.url == reverse("tournament", args=[tournament.pk])
    assert tournament.entry_fee == 0 and tournament.creator == player


@pytest.mark.django_db
def test_the_form_offers_the_options_the_catalogue_lets_a_tournament_choose(client, player) -> None:
    client.force_login(player)
    page = client.get(reverse("tournament_new")).content.decode()
    assert 'name="length"' in page and "Estimation length" in page  # Estimation's length (catalog.Option)
    assert 'name="deck"' not in page and 'name="match_count"' not in page  # the other games: their defaults
    start = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    form = {"starts_at": start, "rounds": 2, "min_players": 4, "max_players": 20, "length": "mini"}
    client.post(reverse("tournament_new"), {**form, "name": "Long night", "game": "estimation", "table_size": 4})
    client.post(reverse("tournament_new"), {**form, "name": "Card night", "game": "sita", "table_size": 5})
    assert Tournament.objects.get(name="Long night").options == {"length": "mini"}
    assert Tournament.objects.get(name="Card night").options == {"matches": 1}  # Estimation's length is not SITA's


# Transactional: the consumer works on Channels' threads, on connections of their own.
@pytest.mark.django_db(transaction=True)
async def test_the_standings_are_pushed_when_someone_signs_up() -> None:
    tournament = await sync_to_async(create)(await sync_to_async(staff)())
    socket = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/tournaments/{tournament.pk}/")
    connected, _ = await socket.connect()
    assert connected
    (newcomer,) = await sync_to_async(players)(1, "newcomer")
    await sync_to_async(sign_up)(tournament, [newcomer])
    pushed = await socket.receive_from(timeout=5)
    assert 'id="t-standings"' in pushed and newcomer.username in pushed
    await sync_to_async(services.entry_withdraw)(tournament_id=tournament.pk, user=newcomer)
    pushed = await socket.receive_from(timeout=5)
    assert "withdrawn" in pushed
    await socket.disconnect()


# Transactional: the consumer works on Channels' threads, on connections of their own.
@pytest.mark.django_db(transaction=True)
async def test_the_start_pushes_the_new_state_and_closes_the_sign_up() -> None:
    tournament = await sync_to_async(create)(await sync_to_async(staff)())
    await sync_to_async(sign_up)(tournament, await sync_to_async(players)(4, "starter"))
    socket = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/tournaments/{tournament.pk}/")
    connected, _ = await socket.connect()
    assert connected
    await sync_to_async(services.tournament_start)(tournament_id=tournament.pk, now=tournament.starts_at)
    pushed = await socket.receive_from(timeout=5)
    # The hero follows: the state is "running", the players counted, and no sign-up form is left.
    assert 'id="t-facts"' in pushed and "Running" in pushed and "4 / 40" in pushed
    assert 'id="t-actions"' in pushed and "<form" not in pushed
    await socket.disconnect()


def _as(user) -> object:
    """The tournament routes with ``user`` in the scope, as the site's authentication puts them."""
    router = URLRouter(websocket_urlpatterns)

    async def app(scope, receive, send):
        return await router({**scope, "user": user}, receive, send)

    return app


# Transactional: the consumer works on Channels' threads, on connections of their own.
@pytest.mark.django_db(transaction=True)
async def test_a_change_is_read_once_per_process_and_rendered_once_per_kind_of_viewer(monkeypatch) -> None:
    # tournaments/consumer.py: the sockets of a process share the read (core/fanout.py), and a render
    # wherever their viewers see the same: language, time zone, and whether a row is theirs; no
    # message first waits its turn on Channels' one database thread (core/sockets.py).
    import channels.consumer

    from tournaments import consumer

    hops = []
    monkeypatch.setattr(channels.consumer, "aclose_old_connections", lambda: hops.append(1) or asyncio.sleep(0))

    tournament = await sync_to_async(create)(await sync_to_async(staff)())
    entrant, abroad, onlooker, newcomer = await sync_to_async(players)(4, "viewer")
    await sync_to_async(sign_up)(tournament, [entrant])
    abroad.time_zone = "Asia/Dubai"
    await sync_to_async(abroad.save)()
    viewers = [None, None, onlooker, entrant, abroad]  # two visitors and an onlooker see the same
    sockets = [WebsocketCommunicator(_as(user), f"/ws/tournaments/{tournament.pk}/") for user in viewers]
    for socket in sockets:
        assert (await socket.connect())[0]
    reads, renders = [], []
    read, render = consumer.standings_read, consumer.standings_render
    monkeypatch.setattr(consumer, "standings_read", lambda tournament_id: reads.append(1) or read(tournament_id))
    monkeypatch.setattr(
        consumer, "standings_render", lambda standings, **k: renders.append(1) or render(standings, **k)
    )
    await sync_to_async(sign_up)(tournament, [newcomer])
    pushed = [await socket.receive_from(timeout=5) for socket in sockets]
    assert len(reads) == 1 and len(renders) == 3
    assert pushed[0] == pushed[1] == pushed[2] and newcomer.username in pushed[0]
    assert 'class="me"' in pushed[3] and 'class="me"' not in pushed[0]
    assert "+04" in pushed[4] and "+04" not in pushed[0]
    assert hops == []
    for socket in sockets:
        await socket.disconnect()
