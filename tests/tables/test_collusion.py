"""Collusion in the open (RULING P72): badges at staked tables, addresses kept as digests, the admin's report."""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async

from games.catalog import get_bot
from games.models import MatchPlayer
from payouts import flows
from tables.models import SeatAddress
from tables.render import fragment
from tables.selectors import collusion
from tables.services import lobby as services
from tables.services.collusion import seat_address_record
from tests.conftest import make_user
from tests.games.history_helpers import SHORT, play_out
from tests.tables.helpers import open_table, start_table
from tests.tables.socket_helpers import connect, drain, receive_all_until

SHARED = "203.0.113.7"


def test_an_address_is_kept_as_a_digest_of_what_the_limits_count() -> None:
    digest = collusion.address_digest(SHARED)
    assert digest and SHARED not in digest
    assert collusion.address_digest("2001:db8:1:2::5") == collusion.address_digest("2001:db8:1:2:ffff::9")  # one /64
    assert collusion.address_digest("2001:db8:1:3::5") != collusion.address_digest("2001:db8:1:2::5")
    assert collusion.address_digest("198.51.100.1") != digest
    assert collusion.address_digest("unknown") is None  # no address: nothing to compare


@pytest.mark.django_db
def test_seats_from_one_address_are_marked_at_a_staked_table_only(host, player, outsider) -> None:
    staked = open_table(host, "estimation", stake=10)
    plain = open_table(host, "sita", seat_count=3)
    for table in (staked, plain):
        for position, user in ((1, player), (2, outsider)):
            services.seat_take(table_id=table.pk, user=user, position=position)
            seat_address_record(table_id=table.pk, user=user, address=SHARED)
    marks = collusion.badges(table=staked, seated={0: host.pk, 1: player.pk, 2: outsider.pk})
    assert marks == {1: {"address": [2]}, 2: {"address": [1]}}
    assert collusion.badges(table=plain, seated={0: host.pk, 1: player.pk, 2: outsider.pk}) == {}


def befriend(one, other) -> None:
    from social import services as social

    request = social.friend_request_send(sender=one, recipient_id=other.pk)
    social.friend_request_accept(user=other, request_id=request.pk)


@pytest.mark.django_db
def test_friends_at_a_staked_table_are_marked_for_everyone_to_see(host, player, outsider) -> None:
    befriend(host, player)
    table = open_table(host, "estimation", stake=10)
    services.seat_take(table_id=table.pk, user=player, position=1)
    services.seat_take(table_id=table.pk, user=outsider, position=2)
    assert collusion.badges(table=table, seated={0: host.pk, 1: player.pk, 2: outsider.pk}) == {
        0: {"friends": [1]},
        1: {"friends": [0]},
    }
    watcher = make_user("wanda")
    fragment = _fragment(table.pk, watcher.pk)
    assert fragment.count("friends with") == 2


@pytest.mark.django_db
def test_the_latest_address_of_a_seat_counts(host, player) -> None:
    table = open_table(host, "estimation", stake=10)
    seat_address_record(table_id=table.pk, user=player, address=SHARED)
    seat_address_record(table_id=table.pk, user=player, address="198.51.100.1")
    assert SeatAddress.objects.get(table=table, user=player).digest == collusion.address_digest("198.51.100.1")


# Transactional: the consumer works on Channels' threads, on connections of their own.
@pytest.mark.django_db(transaction=True)
async def test_every_viewer_sees_the_badge_and_nobody_the_address(host, player, outsider) -> None:
    table = await database_sync_to_async(open_table)(host, "estimation", stake=10)
    watcher = await database_sync_to_async(make_user)("wanda")
    spectator, _ = await connect(table.pk, watcher)
    sockets = []
    for position, user in ((1, player), (2, outsider)):
        socket, connected = await connect(table.pk, user, address=SHARED)
        assert connected
        await drain(socket)
        await socket.send_json_to({"command": "seat_take", "position": position})
        sockets.append(socket)
    seen = await receive_all_until(spectator, "same address as")  # pushed live when the second seat is taken
    digest = await database_sync_to_async(collusion.address_digest)(SHARED)
    assert SHARED not in seen and digest not in seen
    for socket in [spectator, *sockets]:
        text = "".join(await drain(socket))
        assert SHARED not in text and digest not in text
        await socket.disconnect()


def _fragment(table_id: int, user_id: int) -> str:
    return str(fragment.render_live(fragment.load_snapshot(table_id), user_id=user_id, connected=set()))


def _staked_game(host, player) -> None:
    table, match = start_table(host, "estimation", guests=[player], options=SHORT["estimation"], stake=50)
    bot = get_bot("estimation")
    play_out(match, lambda engine, state, seat: bot(engine.view(state, seat), random.Random(f"{match.pk}:{seat}")))


@pytest.mark.django_db
def test_the_report_lists_who_fed_whom_from_the_ledger(host, player, admin_client) -> None:
    for _ in range(3):
        _staked_game(host, player)
    won = {
        user.pk: MatchPlayer.objects.filter(user=user, payout__gt=50).count() for user in (host, player)
    }  # with two stakers the better takes the pot: each game is 50 coins from one to the other
    listed = {(flow.giver.pk, flow.taker.pk): flow for flow in flows.one_sided_flows(min_games=1, share=0.0)}
    for giver, taker in ((host, player), (player, host)):
        if won[taker.pk]:
            assert listed[giver.pk, taker.pk].games == won[taker.pk]
            assert listed[giver.pk, taker.pk].coins == 50 * won[taker.pk]
    one_sided = {(flow.giver.pk, flow.taker.pk) for flow in flows.one_sided_flows()}
    expected = {(player.pk, host.pk)} if won[host.pk] == 3 else {(host.pk, player.pk)} if won[player.pk] == 3 else set()
    assert one_sided == expected
    page = admin_client.get("/admin/payouts/transfer/coin-flows/")
    assert page.status_code == 200 and b"One-sided coin flows" in page.content
