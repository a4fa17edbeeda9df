"""Practice tables and hints (issue 42, RULING P65): unrated, the host alone among bots, and a hint
on request for the asking seat alone; refused with the reason anywhere else."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.catalog import get_engine
from games.models import Match, Rating
from tables import hints
from tables.errors import TableError
from tables.forms import NewTableForm
from tables.models import Table
from tables.render import fragment
from tables.services import lobby, play
from tests.games.history_helpers import play_to_end
from tests.helpers import fair_value
from tests.tables.helpers import fill_with_bots, play_bots_until_human, state_of
from tests.tables.socket_helpers import connect, drain, nothing_before, receive_with, version_of


def practice_match(host, game: str = "sita", seat_count: int = 3, options: dict | None = None) -> Match:
    table = lobby.table_create(
        host=host,
        game=game,
        seat_count=seat_count,
        options={"matches": 1} if options is None else options,
        practice=True,
    )
    fill_with_bots(table, host)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    return play_bots_until_human(match)


def test_a_practice_hint_is_the_bots_preferred_legal_action_with_a_reason(db, host) -> None:
    match = practice_match(host)
    engine, state = state_of(match)
    hint = hints.hint_for(match_id=match.pk, user=host)
    assert hint.action in engine.legal_actions(state, 0)
    assert hint.text.startswith("The bot would play card ")
    assert "penalty points expected in all, against" in hint.text and "the next best" in hint.text
    assert hints.hint_for(match_id=match.pk, user=host) == hint  # the same position, the same hint


def test_a_trick_game_hint_speaks_of_points(db, host) -> None:
    match = practice_match(host, "sitaratas", 3, {})
    _, state = state_of(match)
    while len(get_engine("sitaratas").legal_actions(state, 0)) < 2:
        play.match_act(
            match_id=match.pk,
            user=host,
            action=get_engine("sitaratas").legal_actions(state, 0)[0],
            version=match.version,
        )
        match = play_bots_until_human(match)
        _, state = state_of(match)
    assert "points expected in all" in hints.hint_for(match_id=match.pk, user=host).text


def test_a_hint_is_refused_at_a_rated_table(db, started_table, host) -> None:
    _, match = started_table("sita", options={"matches": 1})
    match = play_bots_until_human(match)
    with pytest.raises(TableError, match="only at practice tables"):
        hints.hint_for(match_id=match.pk, user=host)


def test_a_hint_is_refused_out_of_turn(db, host) -> None:
    match = practice_match(host, "sitaratas", 3, {})
    engine, state = state_of(match)
    play.match_act(match_id=match.pk, user=host, action=engine.legal_actions(state, 0)[0], version=match.version)
    _, state = state_of(match)
    assert 0 not in engine.to_act(state)  # a bot is awaited now (the bots are not run here)
    with pytest.raises(TableError, match="only on your turn"):
        hints.hint_for(match_id=match.pk, user=host)


def test_a_hint_is_refused_with_another_human_at_the_table(db, started_table, host, player) -> None:
    table, match = started_table("sita", guests=[player], options={"matches": 1})
    Table.objects.filter(pk=table.pk).update(practice=True)  # as if the rule had been got round
    with pytest.raises(TableError, match="every other seat is a bot"):
        hints.hint_for(match_id=match.pk, user=host)


def test_a_hint_is_refused_to_a_spectator(db, host, outsider) -> None:
    match = practice_match(host)
    with pytest.raises(TableError, match="not playing"):
        hints.hint_for(match_id=match.pk, user=outsider)


def test_a_practice_table_takes_no_other_player_and_no_stake(db, host, player) -> None:
    table = lobby.table_create(host=host, game="sita", seat_count=3, options={"matches": 1}, practice=True)
    with pytest.raises(TableError, match="plays alone against bots"):
        lobby.seat_take(table_id=table.pk, user=player, position=1)
    assert not table.seats.filter(user=player).exists()
    with pytest.raises(TableError, match="no stake"):
        lobby.table_create(host=host, game="estimation", seat_count=4, stake=10, practice=True)
    form = NewTableForm({"game": "estimation", "stake": "10", "practice": "on", "length": "micro"})
    assert not form.is_valid() and "no stake" in str(form.errors)


def test_nobody_else_is_offered_a_seat_at_a_practice_table(db, host, outsider) -> None:
    table = lobby.table_create(host=host, game="sita", seat_count=3, options={"matches": 1}, practice=True)
    live = fragment.render_live(fragment.load_snapshot(table.pk), user_id=outsider.pk, connected=set())
    assert 'value="seat_take"' not in live
    rated = lobby.table_create(host=host, game="sita", seat_count=3, options={"matches": 1})
    live = fragment.render_live(fragment.load_snapshot(rated.pk), user_id=outsider.pk, connected=set())
    assert 'value="seat_take"' in live


def test_the_new_table_form_opens_a_practice_table(client, host) -> None:
    client.force_login(host)
    client.post("/tables/new/", {"game": "sita", "players": "3", "match_count": "1", "practice": "on"})
    assert Table.objects.get(host=host).practice


def test_a_practice_game_is_not_rated(db, host) -> None:
    match = play_to_end(practice_match(host))
    assert match.status == Match.Status.FINISHED
    assert not Rating.objects.filter(user=host).exists()
    assert match.match_players.get(seat=0).rating_after is None


def test_the_hint_button_shows_at_a_practice_table_on_your_turn_only(db, host, started_table) -> None:
    match = practice_match(host)
    live = fragment.render_live(fragment.load_snapshot(match.table_id), user_id=host.pk, connected=set())
    assert 'value="hint"' in live and 'id="hint"' in live
    _, rated = started_table("sita", options={"matches": 1})
    rated = play_bots_until_human(rated)
    live = fragment.render_live(fragment.load_snapshot(rated.table_id), user_id=host.pk, connected=set())
    assert 'value="hint"' not in live


# Transactional: the consumer works on Channels' threads, on connections of their own.
@pytest.mark.django_db(transaction=True)
async def test_a_hint_goes_to_the_asking_socket_only(host, outsider) -> None:
    match = await database_sync_to_async(practice_match)(host)
    mine, _ = await connect(match.table_id, host)
    watcher, _ = await connect(match.table_id, outsider)
    await drain(mine)
    await drain(watcher)
    await mine.send_json_to({"command": "hint"})
    reply = await mine.receive_from(timeout=10)
    assert 'id="hint"' in reply and "The bot would play" in reply
    # The move after the hint is pushed to the watcher with nothing before it: the hint never reached it.
    engine, state = await database_sync_to_async(state_of)(match)
    move = {"command": "act", "action": engine.legal_actions(state, 0)[0], "version": match.version}
    await nothing_before(watcher, lambda text: (version_of(text) or 0) > match.version, cause=mine.send_json_to(move))
    await watcher.send_json_to({"command": "hint"})
    await receive_with(watcher, "You are not playing at this table.")  # its own refusal, or a time-out
    for socket in (mine, watcher):
        await socket.disconnect()


# Transactional: the consumer works on Channels' threads, on connections of their own.
@pytest.mark.django_db(transaction=True)
async def test_a_hint_at_a_rated_table_is_refused_over_the_socket(host, started_table) -> None:
    _, match = await database_sync_to_async(started_table)("sita", options={"matches": 1})
    await database_sync_to_async(play_bots_until_human)(match)
    mine, _ = await connect(match.table_id, host)
    await drain(mine)
    await mine.send_json_to({"command": "hint"})
    assert "Hints are given only at practice tables" in await mine.receive_from(timeout=5)
    await mine.disconnect()


def test_asking_again_for_the_same_position_does_not_sample_again(db, host, monkeypatch) -> None:
    match = practice_match(host)
    first = hints.hint_for(match_id=match.pk, user=host)
    monkeypatch.setattr(hints, "evaluate", lambda *args, **kwargs: pytest.fail("sampled again"))
    assert hints.hint_for(match_id=match.pk, user=host) == first


def test_every_moment_of_a_sita_turn_gets_one_hint_however_many_bots_lock_in(db, host) -> None:
    """RULING P65: the hint depends on what the seat's decision depends on, so the bots locking in
    their choices one by one (each a new version of the match) changes it not, asked afresh."""
    table = lobby.table_create(host=host, game="sita", seat_count=4, options={"matches": 1}, practice=True)
    fill_with_bots(table, host)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    bots = {player.seat: player.user for player in match.match_players.filter(user__is_bot=True)}
    engine, state = state_of(match)
    assert engine.to_act(state) == [0, 1, 2, 3]  # the first turn: nobody has locked in yet
    asked = []
    for seat in (1, 2, 3):
        hints._EVALUATIONS._entries.clear()  # sampled afresh each time: the generator, not the cache
        asked.append(hints.hint_for(match_id=match.pk, user=host))
        action = engine.legal_actions(state, seat)[-1]
        play.match_act(match_id=match.pk, user=bots[seat], action=action, version=match.version)
        match.refresh_from_db()
    hints._EVALUATIONS._entries.clear()
    asked.append(hints.hint_for(match_id=match.pk, user=host))  # every bot locked in, only the host awaited
    assert match.version == 3 and all(hint == asked[0] for hint in asked), asked
    assert hints.hint_for(match_id=match.pk, user=host) == asked[0]  # and from the cache, the same
