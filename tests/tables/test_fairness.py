"""Fair deals at a table, through the services, the sockets and the pages (RULINGS P30-P34)."""

from __future__ import annotations

import hashlib
import random

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from games.engines import estimation
from games.models import Match
from games.records import fairness as protocol
from tables import tasks
from tables.errors import TableError
from tables.models import DealCommitment, Table
from tables.selectors import fairness
from tables.services import endings, votes
from tables.services import lobby as lobby_service
from tests.games.history_helpers import play_to_end
from tests.helpers import fair_value
from tests.tables.helpers import fill_with_bots, open_table
from tests.tables.socket_helpers import connect, drain

VALUE = "0123456789abcdef0123456789abcdef"
HOST_VALUE = "fedcba9876543210fedcba9876543210"
OTHER_VALUE = "00112233445566778899aabbccddeeff"


def page(client, user, name: str, pk: int) -> str:
    client.force_login(user)
    return client.get(reverse(name, args=[pk])).content.decode()


@pytest.mark.django_db
def test_the_commitment_is_on_the_page_before_anyone_is_ready_and_never_changes(client, host, player, outsider) -> None:
    table = open_table(host, "sita", seat_count=3, options={"matches": 1})
    commitment = DealCommitment.objects.get(table=table)
    seen = [page(client, outsider, "table", table.pk)]  # only the host sits: nobody else is ready
    lobby_service.seat_take(table_id=table.pk, user=player, position=1)
    seen.append(page(client, outsider, "table", table.pk))
    lobby_service.seat_ready(table_id=table.pk, user=player, ready=True, entropy=VALUE)
    fill_with_bots(table, host)
    seen.append(page(client, player, "table", table.pk))
    match = lobby_service.table_start(table_id=table.pk, host=host, entropy=HOST_VALUE)
    seen.append(page(client, outsider, "table", table.pk))
    for html in seen:
        assert commitment.commitment in html
        assert commitment.secret not in html  # RULING P33: not before the end

    match = play_to_end(match)
    assert match.status == Match.Status.FINISHED
    commitment.refresh_from_db()
    assert DealCommitment.objects.filter(table=table).count() == 1  # the same one, from opening to the end
    fair = match.record["fairness"]
    assert (fair["commitment"], fair["secret"]) == (commitment.commitment, commitment.secret)
    assert hashlib.sha256(bytes.fromhex(fair["secret"])).hexdigest() == fair["commitment"]
    bot_id = table.seats.get(position=2).user_id
    assert fair["version"] == "fair-v2" and fair["attempt"] == 1 and fair["table"] == table.pk
    assert fair["values"] == [
        {"seat": 0, "by": "player", "account": host.pk, "value": HOST_VALUE},
        {"seat": 1, "by": "player", "account": player.pk, "value": VALUE},
        {"seat": 2, "by": "bot", "account": bot_id, "value": None},
    ]
    seats = [
        protocol.SeatInput(0, "player", host.pk, HOST_VALUE),
        protocol.SeatInput(1, "player", player.pk, VALUE),
        protocol.SeatInput(2, "bot", bot_id),
    ]
    assert (
        match.seed
        == protocol.derive_seed_v2(commitment.secret, commitment.commitment, table.pk, 1, seats)[1]
        == fair["seed"]
        == match.record["seed"]
    )
    # Revealed on the table page and on the game page, and the engine's checks all pass.
    assert commitment.secret in page(client, outsider, "table", table.pk)
    game_page = page(client, outsider, "match", match.pk)
    assert commitment.secret in game_page and commitment.commitment in game_page and "Verify this deal" in game_page
    checks = client.get(reverse("match_fairness", args=[match.pk])).json()
    assert checks["verifiable"] and checks["ok"], checks
    assert [c["name"] for c in checks["checks"]][:5] == ["inputs", "commitment", "timing", "seed", "round 1"]
    # The exported record carries it too, for python -m games.records.verify.
    assert client.get(reverse("match_record", args=[match.pk])).json()["fairness"]["secret"] == commitment.secret


@pytest.mark.django_db
def test_values_are_private_in_the_lobby_and_public_once_the_game_starts(client, host, player, outsider) -> None:
    table = open_table(host, "sitaratas", seat_count=3)
    lobby_service.seat_take(table_id=table.pk, user=player, position=1)
    lobby_service.seat_ready(table_id=table.pk, user=player, ready=True, entropy=VALUE.upper())
    assert DealCommitment.objects.get(table=table).entropy["1"] == {"user": player.pk, "value": VALUE, "by": "player"}
    for viewer in (host, outsider):
        assert VALUE not in page(client, viewer, "table", table.pk)
    lobby_service.seat_ready(table_id=table.pk, user=player, ready=False)  # not ready: the value is dropped
    assert DealCommitment.objects.get(table=table).entropy == {}
    lobby_service.seat_ready(table_id=table.pk, user=player, ready=True, entropy=VALUE)
    fill_with_bots(table, host)
    lobby_service.table_start(table_id=table.pk, host=host, entropy=HOST_VALUE)
    html = page(client, outsider, "table", table.pk)
    assert VALUE in html and HOST_VALUE in html


@pytest.mark.django_db
def test_a_leaving_player_takes_their_value_and_a_newcomer_brings_their_own(host, player, outsider) -> None:
    table = open_table(host, "sitaratas", seat_count=3)
    lobby_service.seat_take(table_id=table.pk, user=player, position=1)
    lobby_service.seat_ready(table_id=table.pk, user=player, ready=True, entropy=VALUE)
    lobby_service.seat_leave(table_id=table.pk, user=player)
    lobby_service.seat_take(table_id=table.pk, user=outsider, position=1)
    lobby_service.seat_ready(table_id=table.pk, user=outsider, ready=True, entropy=OTHER_VALUE)
    fill_with_bots(table, host)
    match = lobby_service.table_start(table_id=table.pk, host=host, entropy=HOST_VALUE)
    values = DealCommitment.objects.get(match=match).contributions["values"]
    assert values[1] == {"seat": 1, "by": "player", "account": outsider.pk, "value": OTHER_VALUE}
    assert values[0] == {"seat": 0, "by": "player", "account": host.pk, "value": HOST_VALUE}


@pytest.mark.django_db
def test_ready_and_start_without_a_value_are_refused_from_any_caller_and_nothing_is_drawn(host, player) -> None:
    # RULING P31: the site never draws a value in a player's place, for a script as for a browser.
    table = open_table(host, "sitaratas", seat_count=3)
    lobby_service.seat_take(table_id=table.pk, user=player, position=1)
    with pytest.raises(TableError, match="random value"):
        lobby_service.seat_ready(table_id=table.pk, user=player, ready=True)
    assert not table.seats.get(user=player).is_ready
    assert DealCommitment.objects.get(table=table).entropy == {}
    lobby_service.seat_ready(table_id=table.pk, user=player, ready=True, entropy=VALUE)
    fill_with_bots(table, host)
    with pytest.raises(TableError, match="random value"):
        lobby_service.table_start(table_id=table.pk, host=host)
    assert not Match.objects.filter(table=table).exists()
    assert set(DealCommitment.objects.get(table=table).entropy) == {"1"}


@pytest.mark.django_db
def test_a_player_whose_value_the_site_drew_before_is_asked_to_send_their_own(host, player) -> None:
    table = open_table(host, "sitaratas", seat_count=3)
    lobby_service.seat_take(table_id=table.pk, user=player, position=1)
    lobby_service.seat_ready(table_id=table.pk, user=player, ready=True, entropy=VALUE)
    fill_with_bots(table, host)
    # A lobby from before: the site drew this player's value after the secret existed.
    DealCommitment.objects.filter(table=table).update(entropy={"1": {"user": player.pk, "value": VALUE, "by": "site"}})
    with pytest.raises(TableError, match=f"{player.name} must send a random value"):
        lobby_service.table_start(table_id=table.pk, host=host, entropy=HOST_VALUE)
    assert not Match.objects.filter(table=table).exists()


@pytest.mark.django_db
def test_a_table_without_its_commitment_is_not_given_one_late(host, player) -> None:
    # RULING P30: the commitment comes with the table (or the attempt), never when first needed.
    table = open_table(host, "sitaratas", seat_count=3)
    lobby_service.seat_take(table_id=table.pk, user=player, position=1)
    DealCommitment.objects.filter(table=table).delete()
    with pytest.raises(TableError, match="no commitment"):
        lobby_service.seat_ready(table_id=table.pk, user=player, ready=True, entropy=VALUE)
    assert not DealCommitment.objects.filter(table=table).exists()


@pytest.mark.django_db
def test_a_bots_stream_shares_no_prefix_with_any_deal_stream_of_its_game(host, monkeypatch) -> None:
    # Issue 38: a bot seeded from the match's seed replayed Estimation's round deals exactly.
    deals, bots = [], []
    real_deal, real_bot = estimation.seeded_rng, fairness.bot_rng

    def deal_rng(*parts):
        rng = real_deal(*parts)
        deals.append(prefix(rng))
        return rng

    def bot_rng(**kwargs):
        rng = real_bot(**kwargs)
        bots.append(prefix(rng))
        return rng

    monkeypatch.setattr(estimation, "seeded_rng", deal_rng)
    monkeypatch.setattr(fairness, "bot_rng", bot_rng)
    table = open_table(host, "estimation", options={"length": "micro"})
    fill_with_bots(table, host)
    match = play_to_end(lobby_service.table_start(table_id=table.pk, host=host, entropy=HOST_VALUE))
    assert match.status == Match.Status.FINISHED
    assert len(deals) >= 5 and len(bots) >= 100
    first_outputs = {stream[0] for stream in deals}
    assert not any(stream[0] in first_outputs for stream in bots)
    # And the same move draws the same stream: a retried task makes the same move.
    again = fairness.bot_rng(match=match, seat=1)
    assert prefix(again) == prefix(real_bot(match=match, seat=1)) != prefix(real_bot(match=match, seat=2))


def prefix(rng: random.Random) -> tuple[int, ...]:
    """The first outputs of a generator, without using it up."""
    copy = random.Random()
    copy.setstate(rng.getstate())
    return tuple(copy.getrandbits(64) for _ in range(4))


@pytest.mark.django_db
def test_a_malformed_value_is_refused_and_changes_nothing(host, player) -> None:
    table = open_table(host, "sitaratas", seat_count=3)
    lobby_service.seat_take(table_id=table.pk, user=player, position=1)
    with pytest.raises(TableError, match="32 hexadecimal digits"):
        lobby_service.seat_ready(table_id=table.pk, user=player, ready=True, entropy="not-hex")
    assert not table.seats.get(user=player).is_ready
    assert DealCommitment.objects.get(table=table).entropy == {}


# Transactional: the consumer works on Channels' threads, on connections of their own.
@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_socket_refuses_ready_and_start_without_a_players_value(host, player) -> None:
    # RULING P31: a browser's "ready" and "start" must carry the player's own value.
    table = await database_sync_to_async(open_table)(host, "sitaratas", seat_count=3)
    await database_sync_to_async(lobby_service.seat_take)(table_id=table.pk, user=player, position=1)
    await database_sync_to_async(fill_with_bots)(table, host)
    host_socket, _ = await connect(table.pk, host)
    player_socket, _ = await connect(table.pk, player)
    await drain(host_socket)
    await drain(player_socket)
    for message in ({"command": "ready"}, {"command": "ready", "entropy": "12ab"}):
        await player_socket.send_json_to(message)
        replies = "".join(await drain(player_socket))
        assert 'class="message error"' in replies and ("random value" in replies or "32 hexadecimal" in replies)
    seat = await database_sync_to_async(lambda: Table.objects.get(pk=table.pk).seats.get(user=player))()
    assert not seat.is_ready
    await player_socket.send_json_to({"command": "ready", "entropy": VALUE})
    await player_socket.receive_from(timeout=10)  # the push after the ready commits
    seat = await database_sync_to_async(lambda: Table.objects.get(pk=table.pk).seats.get(user=player))()
    assert seat.is_ready
    await drain(host_socket)
    await host_socket.send_json_to({"command": "start"})
    assert "random value" in "".join(await drain(host_socket))
    assert not await database_sync_to_async(Match.objects.filter(table=table).exists)()
    await host_socket.send_json_to({"command": "start", "entropy": HOST_VALUE})
    replies = ""
    while 'data-status="playing"' not in replies:  # the start's own push
        replies = await host_socket.receive_from(timeout=10)
        assert 'class="message error"' not in replies, replies
    match = await database_sync_to_async(Match.objects.get)(table=table)
    commitment = await database_sync_to_async(DealCommitment.objects.get)(match=match)
    assert [entry["value"] for entry in commitment.contributions["values"]] == [HOST_VALUE, VALUE, None]
    assert match.seed == commitment.contributions["seed"]
    for socket in (host_socket, player_socket):
        await socket.disconnect()


@pytest.mark.django_db
def test_a_dismissal_reveals_the_secret_and_the_next_attempt_gets_a_new_commitment(
    client, host, player, monkeypatch
) -> None:
    monkeypatch.setattr(tasks.vote_expire, "apply_async", lambda args, countdown: None)
    table = open_table(host, "sitaratas", seat_count=3)
    lobby_service.seat_take(table_id=table.pk, user=player, position=1)
    lobby_service.seat_ready(table_id=table.pk, user=player, ready=True, entropy=VALUE)
    fill_with_bots(table, host)
    match = play_to_end(lobby_service.table_start(table_id=table.pk, host=host, entropy=HOST_VALUE), stop_after=2)
    first = DealCommitment.objects.get(match=match)
    votes.vote_propose(match_id=match.pk, user=player)
    votes.vote_cast(match_id=match.pk, user=host, yes=True)
    match.refresh_from_db()
    assert match.status == Match.Status.DISMISSED and match.record["fairness"]["secret"] == first.secret
    second = DealCommitment.objects.get(table=table, attempt=2)
    assert second.commitment != first.commitment and second.match is None
    lobby = page(client, player, "table", table.pk)
    assert second.commitment in lobby and second.secret not in lobby
    # The game page reveals the secret and checks the deal, but shows no hand (RULING P2).
    game_page = page(client, player, "match", match.pk)
    assert first.secret in game_page and "hands stay private" in game_page
    checks = client.get(reverse("match_fairness", args=[match.pk])).json()
    assert checks["ok"] and "hands" not in str([c["name"] for c in checks["checks"]])
    card = match.record["rounds"][0]["hands"][0][0]
    assert f'"{card}"' not in client.get(reverse("match_fairness", args=[match.pk])).content.decode()
    lobby_service.seat_ready(table_id=table.pk, user=player, ready=True, entropy=VALUE)
    restarted = lobby_service.table_start(table_id=table.pk, host=host, entropy=HOST_VALUE)
    assert DealCommitment.objects.get(match=restarted).pk == second.pk
    assert restarted.seed != match.seed  # same values, same table: a new secret still deals anew


@pytest.mark.django_db
def test_an_aborted_game_reveals_its_secret(client, host, player, admin_user) -> None:
    table = open_table(host, "estimation", options={"length": "micro"})
    fill_with_bots(table, host)
    match = lobby_service.table_start(table_id=table.pk, host=host, entropy=HOST_VALUE)
    endings.match_abort(match_id=match.pk, by=admin_user, reason="testing")
    match.refresh_from_db()
    secret = DealCommitment.objects.get(match=match).secret
    assert match.record["fairness"]["secret"] == secret
    assert secret in page(client, player, "match", match.pk)
    assert client.get(reverse("match_fairness", args=[match.pk])).json()["ok"]


@pytest.mark.django_db
def test_a_tampered_stored_record_fails_the_server_check_naming_it(client, host, player) -> None:
    table = open_table(host, "sita", seat_count=3, options={"matches": 1})
    fill_with_bots(table, host)
    match = play_to_end(lobby_service.table_start(table_id=table.pk, host=host, entropy=HOST_VALUE))
    record = match.record
    record["rounds"][0]["hands"][0][0], record["rounds"][0]["hands"][1][0] = (
        record["rounds"][0]["hands"][1][0],
        record["rounds"][0]["hands"][0][0],
    )
    Match.objects.filter(pk=match.pk).update(record=record)
    client.force_login(player)
    checks = client.get(reverse("match_fairness", args=[match.pk])).json()
    assert not checks["ok"]
    assert [c["name"] for c in checks["checks"] if c["ok"] is False] == ["round 1", "play"]


@pytest.mark.django_db
def test_a_game_from_before_fair_deals_still_replays_and_is_not_verifiable(client, host, player) -> None:
    table = open_table(host, "sitaratas", seat_count=3)
    fill_with_bots(table, host)
    match = play_to_end(lobby_service.table_start(table_id=table.pk, host=host, entropy=fair_value()))
    # What a game finished before this change looks like: no commitment, no fairness key.
    DealCommitment.objects.filter(match=match).delete()
    Match.objects.filter(pk=match.pk).update(record={k: v for k, v in match.record.items() if k != "fairness"})
    game_page = page(client, player, "match", match.pk)
    assert "Not verifiable" in game_page and "Verify this deal" not in game_page
    assert client.get(reverse("match_replay", args=[match.pk]), {"step": 3}).status_code == 200
    checks = client.get(reverse("match_fairness", args=[match.pk])).json()
    assert checks == {"verifiable": False, "message": checks["message"], "checks": []}
    assert "not verifiable" in page(client, player, "table", table.pk)


@pytest.mark.django_db
def test_lobbies_open_before_fair_deals_get_their_commitment_from_the_migration(host, outsider) -> None:
    import importlib

    from django.apps import apps

    migration = importlib.import_module("tables.migrations.0003_deal_commitment")
    lobby, playing = open_table(host, "sitaratas", seat_count=3), open_table(outsider, "sita", seat_count=3)
    DealCommitment.objects.all().delete()  # as they were before the migration
    Table.objects.filter(pk=playing.pk).update(status=Table.Status.PLAYING)
    migration.commit_open_lobbies(apps, None)
    made = DealCommitment.objects.get()
    assert (made.table_id, made.attempt) == (lobby.pk, 1)
    assert made.commitment == hashlib.sha256(bytes.fromhex(made.secret)).hexdigest()


def test_a_tournament_table_with_every_human_absent_says_its_deal_is_the_sites_secret_alone(
    client, outsider, capsys, tmp_path
) -> None:
    """Issue 55: every seat the house's from the start (tables/services/scheduled.py), so no player
    sent a value. The record checks, and both the game page and the verifier say what that proves."""
    import json

    from games.catalog import ENGINES
    from games.records import verify
    from tests.tournaments.helpers import create, current_round, play_round, players, sign_up, staff, start

    tournament = create(staff(), rounds=1)
    sign_up(tournament, players(4))
    start(tournament)
    round_ = current_round(tournament)
    play_round(round_, present=[])  # nobody pressed ready: the house plays every seat
    match = Match.objects.get(table_id=round_.tables.get().table_id)
    fair = match.record["fairness"]
    assert {entry["by"] for entry in fair["values"]} == {"bot"}
    assert all(check.ok is not False for check in protocol.check_record(match.record, engines=ENGINES))
    path = tmp_path / "record.json"
    path.write_text(json.dumps(match.record))
    assert verify.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "no player sent a value: the deal comes from the site's secret alone" in out
    assert "Not proved: that the site did not choose the cards." in out
    game_page = page(client, outsider, "match", match.pk)
    assert "No player sent a value: every seat was played by the house from the start" in game_page
