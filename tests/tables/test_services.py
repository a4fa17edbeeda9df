"""The lobby and move services against the real PostgreSQL (issue 6)."""

from __future__ import annotations

import pytest

from games.models import Match, MatchEvent
from tables import matchstore
from tables.errors import TableError
from tables.models import Table
from tables.services import lobby, play
from tests.helpers import fair_value
from tests.tables.helpers import fill_with_bots, open_table, play_bots_until_human, start_sitaratas_with_a_bot, state_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_host_opens_a_table_and_takes_the_first_seat(host) -> None:
    table = open_table(host, "sitaratas", seat_count=4, options={"deck": "jokers"})
    assert table.options == {"deck": "jokers", "order": "up_down"}
    assert [seat.user_id for seat in table.seats.order_by("position")] == [host.pk, None, None, None]


def test_bad_settings_are_refused_through_the_engine(host) -> None:
    with pytest.raises(TableError):
        open_table(host, "sitaratas", seat_count=7)
    with pytest.raises(TableError):
        open_table(host, "sita", seat_count=4, options={"matches": 11})
    assert not Table.objects.exists()


def test_a_taken_seat_is_refused(host, player, outsider) -> None:
    table = open_table(host, "sita")
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    with pytest.raises(TableError, match="taken"):
        lobby.seat_take(table_id=table.pk, user=outsider, position=1)
    with pytest.raises(TableError, match="already"):
        lobby.seat_take(table_id=table.pk, user=player, position=2)


def test_start_needs_every_seat_filled_and_every_guest_ready(host, player) -> None:
    # RULING S10
    table = open_table(host, "sita", seat_count=3)
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    with pytest.raises(TableError, match="filled"):
        lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    lobby.bot_add(table_id=table.pk, host=host, position=2)
    with pytest.raises(TableError, match="ready"):
        lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    with pytest.raises(TableError, match="host"):
        lobby.table_start(table_id=table.pk, host=player, entropy=fair_value())
    lobby.seat_ready(table_id=table.pk, user=player, ready=True, entropy=fair_value())
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    assert match.version == 0 and match.status == Match.Status.PLAYING
    with pytest.raises(TableError, match="no longer open"):
        lobby.seat_leave(table_id=table.pk, user=player)  # settings and seats are locked once started


@pytest.mark.parametrize("game", ["sitaratas", "estimation", "sita"])
def test_a_bot_only_table_plays_to_the_end_and_the_state_rebuilds_from_the_log(host, game) -> None:
    table = open_table(host, game)
    fill_with_bots(table, host)
    # The host's own seat goes to a bot too: the host leaves only by closing, so swap via the DB.
    table.seats.filter(position=0).update(user=None)
    lobby.bot_add(table_id=table.pk, host=host, position=0)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    match = play_bots_until_human(match)
    assert match.status == Match.Status.FINISHED
    assert match.record["over"] is True
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    places = sorted(mp.place for mp in match.match_players.all())
    assert places[0] == 1

    from tests.games.replay import rebuild_state

    engine, state = state_of(match)
    assert engine.dumps(rebuild_state(match)) == engine.dumps(state)
    assert MatchEvent.objects.filter(match=match).count() == match.version


def test_an_out_of_turn_or_stale_move_changes_nothing(host, player) -> None:
    table = open_table(host, "sitaratas", seat_count=3)
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    lobby.seat_ready(table_id=table.pk, user=player, ready=True, entropy=fair_value())
    lobby.bot_add(table_id=table.pk, host=host, position=2)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    match = play_bots_until_human(match)
    engine, state = state_of(match)
    awaited = engine.to_act(state)[0]
    human = {0: host, 1: player}[awaited]
    other = {0: player, 1: host}[awaited]
    action = engine.legal_actions(state, awaited)[0]
    before = (match.version, match.state)
    with pytest.raises(TableError, match="not your turn"):
        play.match_act(match_id=match.pk, user=other, action=action, version=match.version)
    with pytest.raises(TableError, match="moved on"):
        play.match_act(match_id=match.pk, user=human, action=action, version=match.version - 1)
    with pytest.raises(TableError):
        play.match_act(match_id=match.pk, user=human, action={"type": "bid", "bid": 99}, version=match.version)
    match.refresh_from_db()
    assert (match.version, match.state) == before
    play.match_act(match_id=match.pk, user=human, action=action, version=match.version)
    with pytest.raises(TableError, match="moved on"):  # the same message again: a duplicate
        play.match_act(match_id=match.pk, user=human, action=action, version=before[0])
    match.refresh_from_db()
    assert match.version == before[0] + 1


def test_idle_lobbies_close_and_the_task_is_harmless_twice(host) -> None:
    from datetime import timedelta

    from django.utils import timezone

    table = open_table(host, "sita")
    later = timezone.now() + timedelta(hours=25)
    assert lobby.lobbies_close_idle(now=later) == 1
    assert lobby.lobbies_close_idle(now=later) == 0
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED
    assert not table.seats.exclude(user=None).exists()


def _started_sita(host, player, outsider) -> Match:
    table = open_table(host, "sita", seat_count=3)
    for position, user in ((1, player), (2, outsider)):
        lobby.seat_take(table_id=table.pk, user=user, position=position)
        lobby.seat_ready(table_id=table.pk, user=user, ready=True, entropy=fair_value())
    return lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())


def test_after_the_first_move_the_seating_is_not_read_again(host, player, outsider) -> None:
    # Issue 9: who sits where never changes once a match starts; a move does not query it.
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    match = _started_sita(host, player, outsider)
    engine, state = state_of(match)
    play.match_act(match_id=match.pk, user=host, action=engine.legal_actions(state, 0)[0], version=match.version)
    with CaptureQueriesContext(connection) as queries:
        play.match_act(match_id=match.pk, user=player, action=engine.legal_actions(state, 1)[0], version=match.version)
    assert not [query for query in queries if "games_matchplayer" in query["sql"]]
    assert Match.objects.get(pk=match.pk).version == 2


def test_a_move_by_someone_not_playing_is_refused_with_the_seating_known(host, player, outsider) -> None:
    match = start_sitaratas_with_a_bot(host, player)
    engine, state = state_of(match)
    awaited = engine.to_act(state)[0]
    action = engine.legal_actions(state, awaited)[0]
    with pytest.raises(TableError, match="not playing"):
        play.match_act(match_id=match.pk, user=outsider, action=action, version=match.version)
    assert (match.pk, match.seed) in matchstore.SEATINGS  # the refusal was judged on the known seating
    with pytest.raises(TableError, match="not playing"):
        play.match_act(match_id=match.pk, user=outsider, action=action, version=match.version)
    assert Match.objects.get(pk=match.pk).version == match.version
    assert MatchEvent.objects.filter(match=match).count() == match.version


def test_a_seating_remembered_from_a_flushed_database_is_not_reused(host, player, outsider) -> None:
    # A test database flushed and filled again can give a new match the id of one this process
    # has seen; its seed tells them apart.
    match = _started_sita(host, player, outsider)
    # This process has seen only the old match with this id (table_start remembered the new one).
    matchstore.SEATINGS.discard((match.pk, match.seed))
    stale = ((0, outsider.pk, False), (1, host.pk, False), (2, player.pk, False))
    matchstore.SEATINGS.put((match.pk, match.seed ^ 1), stale)
    engine, state = state_of(match)
    card = engine.legal_actions(state, 0)[0]  # a card from the host's hand (seat 0)
    with pytest.raises(TableError):  # the outsider sits at 2 here: seat 0's card is not hers to play
        play.match_act(match_id=match.pk, user=outsider, action=card, version=match.version)
    assert not MatchEvent.objects.filter(match=match).exists()
    play.match_act(match_id=match.pk, user=host, action=card, version=match.version)
    event = MatchEvent.objects.get(match=match)
    assert (event.seat, event.user_id) == (0, host.pk)
