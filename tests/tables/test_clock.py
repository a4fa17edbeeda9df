"""The turn clock (issue 19, RULINGS P9–P14) on the real PostgreSQL and Redis, with a real Celery worker
where a task's delivery is what is tested. Time is controlled with time-machine and the services'
``now`` arguments."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from channels.db import database_sync_to_async
from django.urls import reverse

from games.catalog import get_engine
from games.engines import sita
from games.models import Match, MatchEvent, Rating
from games.selectors import history
from payouts import selectors
from tables import clock, tasks
from tables.errors import TableError
from tables.forms import NewTableForm
from tables.models import Table
from tables.services import lobby as lobby_service
from tables.services import play, timeouts, votes
from tests.games.replay import rebuild_state
from tests.helpers import fair_value, wait_for
from tests.tables.helpers import fill_with_bots, open_table, play_bots_until_human, start_table, state_of
from tests.tables.socket_helpers import connect, drain, receive

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def travel():
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


def start_estimation(host, *, seconds: int = 30) -> Match:
    """The host (seat 1) and three bots, played on until the host is awaited."""
    table = open_table(host, "estimation", options={"length": "micro"})
    lobby_service.table_clock_set(table_id=table.pk, host=host, seconds=seconds)
    fill_with_bots(table, host)
    return play_bots_until_human(lobby_service.table_start(table_id=table.pk, host=host, entropy=fair_value()))


def deadline_of(match: Match, seat: int) -> tuple[int, int] | None:
    match.refresh_from_db()
    entry = match.deadlines.get(str(seat))
    return tuple(entry) if entry else None


def at(ms: int) -> datetime:
    return clock.from_ms(ms)


def bots_until_awaited(match: Match, seat: int) -> Match:
    """Bot (and away-seat) moves until ``seat`` is awaited, without playing for it."""
    while True:
        engine, state = state_of(match)
        if seat in engine.to_act(state) or match.status != Match.Status.PLAYING:
            return match
        assert play.bots_act(match_id=match.pk, version=match.version)


def by_clock(match: Match) -> list[MatchEvent]:
    return list(match.events.filter(by_clock=True).order_by("version"))


# --- expiry on a real worker ---------------------------------------------------------------


def _deadline_passed(match: Match) -> tuple[int, int]:
    """Move the host's stored deadline and the armed timer 1 s into the past (as if the time ran out)."""
    match.refresh_from_db()
    deadline, version = match.deadlines["0"]
    assert match.clock_seats["timer"] == [deadline, version]
    past = clock.ms(datetime.now(UTC)) - 1000
    Match.objects.filter(pk=match.pk).update(
        deadlines={"0": [past, version]},
        clock_due=at(past),
        clock_seats={**match.clock_seats, "timer": [past, version]},
    )
    return version, past


def start_on_worker(host) -> Match:
    """As start_estimation, with the worker also playing the bots: wait until the host's clock runs."""
    match = start_estimation(host)
    assert wait_for(lambda: "0" in Match.objects.get(pk=match.pk).deadlines, 30)
    return match


# Transactional: a real Celery worker process reads what the test writes.
@pytest.mark.django_db(transaction=True)
def test_an_expiry_on_a_real_worker_plays_exactly_one_legal_move_for_exactly_that_seat(host, worker) -> None:
    match = start_on_worker(host)
    version, past = _deadline_passed(match)
    before = rebuild_state(match, upto=version)
    tasks.clock_expire.apply_async((match.pk, version, past), countdown=0.2)
    assert wait_for(lambda: match.events.filter(version=version + 1).exists(), 30)
    event = match.events.get(version=version + 1)
    engine = get_engine("estimation")
    assert event.seat == 0 and event.user_id == host.pk and event.by_clock
    assert event.action in engine.legal_actions(before, 0)
    assert [e.version for e in by_clock(match)] == [version + 1]
    match.refresh_from_db()
    assert match.clock_seats["expiries"] == {"0": 1} and not match.clock_seats["away"]


# Transactional: a real Celery worker process reads what the test writes.
@pytest.mark.django_db(transaction=True)
def test_a_task_delivered_twice_plays_once(host, worker) -> None:
    match = start_on_worker(host)
    version, past = _deadline_passed(match)
    tasks.clock_expire.apply_async((match.pk, version, past), countdown=0.2)
    tasks.clock_expire.apply_async((match.pk, version, past), countdown=0.2)
    assert wait_for(lambda: match.events.filter(version=version + 1).exists(), 30)
    time.sleep(2)  # both deliveries have run: the worker takes them one after the other
    assert len(by_clock(match)) == 1
    match.refresh_from_db()
    assert match.clock_seats["expiries"] == {"0": 1}


# --- deadlines and races --------------------------------------------------------------------


def test_the_move_that_makes_a_seat_awaited_stores_its_deadline_and_queues_its_task(
    host, travel, queued, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match = start_estimation(host, seconds=30)
    deadline, version = deadline_of(match, 0)
    assert deadline == clock.ms(T0) + 30_000 and version == match.version
    assert match.clock_due == at(deadline)
    assert (match.pk, version, deadline) in queued.args("clock_expire")
    assert all(str(seat) not in match.deadlines for seat in (1, 2, 3))  # bots have no clock


def test_a_move_made_1_ms_before_the_deadline_wins_and_the_late_task_does_nothing(host, travel, queued) -> None:
    match = start_estimation(host)
    deadline, version = deadline_of(match, 0)
    engine, state = state_of(match)
    action = engine.legal_actions(state, 0)[-1]
    play.match_act(match_id=match.pk, user=host, action=action, version=match.version, now=at(deadline - 1))
    assert timeouts.clock_expire(match_id=match.pk, version=version, at=deadline, now=at(deadline + 5000)) == 0
    event = match.events.get(version=version + 1)
    assert event.action == action and not event.by_clock
    assert not by_clock(match)
    match.refresh_from_db()
    assert match.version == version + 1 and not match.clock_seats.get("expiries")


def test_a_task_that_runs_early_does_nothing(host, travel, queued) -> None:
    match = start_estimation(host)
    deadline, version = deadline_of(match, 0)
    assert timeouts.clock_expire(match_id=match.pk, version=version, at=deadline, now=at(deadline - 1)) == 0
    match.refresh_from_db()
    assert match.version == version and deadline_of(match, 0) == (deadline, version)
    assert match.clock_seats["timer"] == [deadline, version]  # still armed: the sweep would catch it


def test_one_task_is_armed_per_match_and_a_superseded_one_does_nothing(
    host, travel, queued, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match = start_estimation(host)
    deadline, version = deadline_of(match, 0)
    assert queued.args("clock_expire") == [(match.pk, version, deadline)]
    # A task for any other timer (an older one, or a copy) plays nothing and disarms nothing.
    assert timeouts.clock_expire(match_id=match.pk, version=version - 1, at=deadline, now=at(deadline)) == 0
    assert timeouts.clock_expire(match_id=match.pk, version=version, at=deadline - 5, now=at(deadline)) == 0
    match.refresh_from_db()
    assert match.version == version and match.clock_seats["timer"] == [deadline, version]
    assert timeouts.clock_expire(match_id=match.pk, version=version, at=deadline, now=at(deadline)) == 1


def test_a_deadline_missed_while_no_worker_ran_is_enforced_by_the_sweep(host, travel, queued) -> None:
    match = start_estimation(host)
    deadline, version = deadline_of(match, 0)
    assert timeouts.clocks_sweep(now=at(deadline - 1))["expired"] == 0
    assert timeouts.clocks_sweep(now=at(deadline + 60_000))["expired"] == 1
    assert [(e.version, e.seat) for e in by_clock(match)] == [(version + 1, 0)]
    assert timeouts.clocks_sweep(now=at(deadline + 60_000))["expired"] == 0  # safe to run twice


def test_the_sweep_is_in_the_beat_schedule(settings) -> None:
    assert any(entry["task"] == "tables.tasks.clocks_sweep" for entry in settings.CELERY_BEAT_SCHEDULE.values())


def test_in_sita_every_seat_that_has_not_chosen_gets_a_bot_choice(
    started_table, host, player, outsider, travel, queued
) -> None:
    # RULING P11: the clock runs for every seat that has not chosen; the one that chose keeps its card.
    _, match = started_table("sita", seat_count=3, guests=[player, outsider])
    match.refresh_from_db()
    assert set(match.deadlines) == {"0", "1", "2"}
    deadline, _ = match.deadlines["0"]
    engine, state = state_of(match)
    mine = engine.legal_actions(state, 1)[0]
    play.match_act(match_id=match.pk, user=player, action=mine, version=match.version, now=at(deadline - 9000))
    match.refresh_from_db()
    assert set(match.deadlines) == {"0", "2"} and match.deadlines["0"][0] == deadline  # not restarted
    played = timeouts.clock_expire(match_id=match.pk, version=None, now=at(deadline))
    assert played == 2
    assert sorted(e.seat for e in by_clock(match)) == [0, 2]
    assert match.events.get(seat=1).action == mine


def test_in_sita_the_clock_takes_the_cheapest_row_for_a_card_that_was_too_low(
    started_table, host, player, travel, queued
) -> None:
    # RULING P11 (issue 53): the house plays as a sensible player; it once took a 3-point row
    # beside a 1-point one for the sake of the hand's later cards.
    _, match = started_table("sita", seat_count=2, guests=[player])
    engine = get_engine("sita")
    state = sita.scenario([[1, 38, 39, 41, 42], [90, 91, 92, 93, 94]], [[37], [12, 13, 14, 16], [60], [70]])
    Match.objects.filter(pk=match.pk).update(state=engine.dumps(state))
    match.refresh_from_db()
    play.match_act(match_id=match.pk, user=host, action={"type": "choose", "card": 1}, version=match.version)
    match.refresh_from_db()
    play.match_act(match_id=match.pk, user=player, action={"type": "choose", "card": 90}, version=match.version)
    match.refresh_from_db()
    assert engine.legal_actions(state_of(match)[1], 0)[0]["type"] == "take_row"
    deadline, _ = match.deadlines["0"]
    assert timeouts.clock_expire(match_id=match.pk, version=None, now=at(deadline)) == 1
    assert by_clock(match)[-1].action == {"type": "take_row", "row": 0}


# --- pause, away, back ----------------------------------------------------------------------


def test_a_dismissal_vote_stops_the_clock_and_play_resumes_with_the_time_that_was_left(
    host, player, travel, queued, django_capture_on_commit_callbacks
) -> None:
    # RULING P13 (and S12): paused 40 s before the deadline, resumed with 40 s.
    table = open_table(host, "sitaratas", seat_count=3)
    lobby_service.table_clock_set(table_id=table.pk, host=host, seconds=60)
    lobby_service.seat_take(table_id=table.pk, user=player, position=1)
    lobby_service.seat_ready(table_id=table.pk, user=player, ready=True, entropy=fair_value())
    fill_with_bots(table, host)
    match = play_bots_until_human(lobby_service.table_start(table_id=table.pk, host=host, entropy=fair_value()))
    engine, state = state_of(match)
    (seat,) = engine.to_act(state)
    deadline, version = match.deadlines[str(seat)]
    proposed = at(deadline - 40_000)
    votes.vote_propose(match_id=match.pk, user=host, now=proposed)
    match.refresh_from_db()
    assert match.deadlines == {} and match.clock_due is None
    assert match.clock_seats["paused"] == {str(seat): 40_000}
    # Long past the old deadline, nothing is played while the vote is open.
    assert timeouts.clocks_sweep(now=at(deadline + 600_000))["expired"] == 0
    assert timeouts.clock_expire(match_id=match.pk, version=None, now=at(deadline + 600_000)) == 0
    resumed = proposed + timedelta(seconds=25)
    with django_capture_on_commit_callbacks(execute=True):
        votes.vote_cast(match_id=match.pk, user=player, yes=False, now=resumed)  # rejected: play resumes
    match.refresh_from_db()
    resumed_deadline = clock.ms(resumed) + 40_000
    assert match.deadlines == {str(seat): [resumed_deadline, match.version]}
    assert match.clock_seats["paused"] == {}
    # The task armed for the old deadline runs first, plays nothing, and arms the next one.
    with django_capture_on_commit_callbacks(execute=True):
        assert timeouts.clock_expire(match_id=match.pk, version=version, at=deadline, now=at(deadline)) == 0
    assert queued.args("clock_expire")[-1] == (match.pk, match.version, resumed_deadline)
    assert (
        timeouts.clock_expire(match_id=match.pk, version=match.version, at=resumed_deadline, now=at(resumed_deadline))
        == 1
    )
    assert [e.seat for e in by_clock(match)] == [seat]


def test_the_away_state_starts_after_2_expiries_and_ends_on_the_players_next_action(host, travel, queued) -> None:
    # RULING P12
    match = start_estimation(host)
    for expiry in (1, 2):
        deadline, version = deadline_of(match, 0)
        assert timeouts.clock_expire(match_id=match.pk, version=version, at=deadline, now=at(deadline)) == 1
        match.refresh_from_db()
        assert match.clock_seats["expiries"]["0"] == expiry
        assert ("0" in match.clock_seats["away"]) == (expiry == 2)
        if expiry == 1:
            match = bots_until_awaited(match, 0)
    assert "0" not in match.deadlines  # away: no clock, the house plays after the bot pause
    match = bots_until_awaited(match, 0)
    assert play.bots_act(match_id=match.pk, version=match.version) >= 1  # played for the away host
    last = match.events.filter(seat=0).order_by("-version").first()
    assert last.by_clock and last.user_id == host.pk
    match = bots_until_awaited(match, 0)
    # The player acts again: no longer away, the count starts over, the clock runs for them again.
    engine, state = state_of(match)
    play.match_act(match_id=match.pk, user=host, action=engine.legal_actions(state, 0)[0], version=match.version)
    match.refresh_from_db()
    assert match.clock_seats["away"] == {} and match.clock_seats["expiries"] == {}
    match = bots_until_awaited(match, 0)
    assert deadline_of(match, 0) is not None


def test_im_back_clears_away_and_gives_a_full_decisions_time(host, travel, queued) -> None:
    match = start_estimation(host, seconds=60)
    Match.objects.filter(pk=match.pk).update(
        clock_seats={"away": {"0": clock.ms(T0)}, "expiries": {"0": 2}}, deadlines={}, clock_due=None
    )
    timeouts.seat_back(match_id=match.pk, user=host)
    match.refresh_from_db()
    assert match.clock_seats["away"] == {} and match.clock_seats["expiries"] == {}
    assert deadline_of(match, 0) == (clock.ms(T0) + 60_000, match.version)
    with pytest.raises(TableError, match="not marked away"):
        timeouts.seat_back(match_id=match.pk, user=host)


# --- lobby clean-up ---------------------------------------------------------------------------


def test_a_game_whose_humans_are_all_away_for_30_minutes_is_finished_by_the_bots(host, travel, queued) -> None:
    # RULING P13: the sweep plays it to its end (its own bot tasks would normally have done so).
    match = start_estimation(host)
    away_since = clock.ms(T0)
    Match.objects.filter(pk=match.pk).update(
        clock_seats={"away": {"0": away_since}, "expiries": {"0": 2}}, deadlines={}, clock_due=None
    )
    assert timeouts.clocks_sweep(now=T0 + timedelta(minutes=29))["played_on"] == 0
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    assert timeouts.clocks_sweep(now=T0 + timedelta(minutes=31))["played_on"] > 0
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.match_players.get(seat=0).place is not None  # the result counts as played (RULING P12)


def test_an_untimed_game_with_no_move_for_24_hours_is_abandoned_like_an_admin_abort(
    host, player, travel, queued, client
) -> None:
    # RULING P14: passes back, no rating change, the reason in history.
    table = open_table(host, "sitaratas", seat_count=3)
    assert table.clock == 0
    lobby_service.seat_take(table_id=table.pk, user=player, position=1)
    lobby_service.seat_ready(table_id=table.pk, user=player, ready=True, entropy=fair_value())
    fill_with_bots(table, host)
    match = play_bots_until_human(lobby_service.table_start(table_id=table.pk, host=host, entropy=fair_value()))
    assert match.deadlines == {}
    last = match.events.order_by("-version").values_list("created_at", flat=True).first() or match.started_at
    assert timeouts.clocks_sweep(now=last + timedelta(hours=23))["abandoned"] == 0
    assert timeouts.clocks_sweep(now=last + timedelta(hours=24, seconds=1))["abandoned"] == 1
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED
    assert match.end_reason == "Abandoned: no move for 24 hours."
    assert Table.objects.get(pk=table.pk).status == Table.Status.CLOSED
    for user in (host, player):
        assert selectors.pass_counts(user=user) == {"free": 5, "reserved": 0, "used": 0}
    assert not Rating.objects.filter(user__in=[host, player]).exists()
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert "abandoned" in page and "Abandoned: no move for 24 hours." in page
    assert "abandoned" in client.get(reverse("history")).content.decode()


def test_a_timed_game_is_never_abandoned_for_idleness(host, travel, queued) -> None:
    match = start_estimation(host)
    Match.objects.filter(pk=match.pk).update(deadlines={}, clock_due=None)  # as if its tasks were lost
    assert timeouts.clocks_sweep(now=T0 + timedelta(days=3))["abandoned"] == 0


# --- history ----------------------------------------------------------------------------------


def test_history_score_sheet_and_replay_show_what_the_clock_played(host, travel, queued, client) -> None:
    match = start_estimation(host)
    deadline, version = deadline_of(match, 0)
    timeouts.clock_expire(match_id=match.pk, version=version, at=deadline, now=at(deadline))
    Match.objects.filter(pk=match.pk).update(clock_seats={"away": {"0": clock.ms(T0)}})
    while play.bots_act(match_id=match.pk, version=Match.objects.get(pk=match.pk).version):
        pass  # the away host is played by the house to the end
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    moves = history.clock_moves(match)
    assert moves and {move["seat"] for move in moves} == {0}
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert "Played by the clock" in page and 'title="played by the clock"' in page
    record = history.public_record(match)
    steps = [
        n
        for n in range(len(history.replay_steps(record)))
        if history.replay_frame(match=match, step=n)["clocked_seats"] == [0]
    ]
    assert steps
    replay = client.get(reverse("match_replay", args=[match.pk]), {"step": steps[0]}).content.decode()
    assert "played by the clock" in replay


# --- the table option and bad input -------------------------------------------------------------


def test_each_game_has_its_default_clock_and_the_lobby_and_table_show_it(host, client) -> None:
    assert open_table(host, "estimation").clock == 60
    assert open_table(host, "sita").clock == 60
    sitaratas = open_table(host, "sitaratas")
    assert sitaratas.clock == 0
    lobby_service.table_clock_set(table_id=sitaratas.pk, host=host, seconds=30)
    lobby = client.get(reverse("lobby")).content.decode()
    assert "60 s clock" in lobby and "30 s clock" in lobby
    client.force_login(host)
    page = client.get(reverse("table", args=[sitaratas.pk])).content.decode()
    # RULING P9: the Sitaratas table says so before anyone sits.
    assert "30 s clock" in page and "the rule book says a lost connection never skips a turn" in page


def test_a_staked_table_without_a_clock_is_refused(host) -> None:
    with pytest.raises(TableError, match="A staked table needs a turn clock"):
        lobby_service.table_create(host=host, game="estimation", seat_count=4, stake=10, clock_seconds=0)
    form = NewTableForm({"game": "estimation", "length": "micro", "stake": "10", "clock": "0"})
    assert not form.is_valid()
    assert "A staked table needs a turn clock" in str(form.errors["clock"])
    table = open_table(host, "estimation", stake=10)
    with pytest.raises(TableError, match="A staked table needs a turn clock"):
        lobby_service.table_clock_set(table_id=table.pk, host=host, seconds=0)
    assert Table.objects.count() == 1 and Table.objects.get().clock == 60
    assert selectors.stakes_held(user=host) == 10  # only the one table that opened holds a stake


def test_a_clock_value_not_in_the_list_is_refused(host) -> None:
    table = open_table(host, "estimation")
    for bad in (45, -1, 0.5, True, "60"):
        with pytest.raises(TableError, match="Choose a turn clock of off, 30, 60 or 120 seconds"):
            lobby_service.table_clock_set(table_id=table.pk, host=host, seconds=bad)
    form = NewTableForm({"game": "estimation", "length": "micro", "clock": "45"})
    assert not form.is_valid() and "clock" in form.errors
    with pytest.raises(TableError, match="Choose a turn clock"):
        lobby_service.table_create(host=host, game="sita", seat_count=3, clock_seconds=90)
    assert Table.objects.count() == 1 and Table.objects.get().clock == 60


def test_the_clock_cannot_change_after_the_start(host, player, queued) -> None:
    table = open_table(host, "estimation")
    fill_with_bots(table, host)
    lobby_service.table_start(table_id=table.pk, host=host, entropy=fair_value())
    with pytest.raises(TableError, match="cannot be changed once the game has started"):
        lobby_service.table_clock_set(table_id=table.pk, host=host, seconds=120)
    with pytest.raises(TableError, match="Only the host"):
        lobby_service.table_clock_set(table_id=table.pk, host=player, seconds=120)
    assert Table.objects.get(pk=table.pk).clock == 60
    assert Match.objects.get(table=table).turn_clock == 60


@database_sync_to_async
def _started_with_the_host_away(host, player):
    """An Estimation game of the host, a player and bots, the host (seat 0) marked away after two expiries."""
    table, match = start_table(host, "estimation", guests=[player])
    Match.objects.filter(pk=match.pk).update(clock_seats={"away": {"0": clock.ms(T0)}, "expiries": {"0": 2}})
    return table, match


# Transactional: the consumer works on Channels' threads, on connections of their own.
@pytest.mark.django_db(transaction=True)
async def test_a_forged_im_back_for_another_seat_is_refused_and_changes_nothing(host, player, queued) -> None:
    table, match = await _started_with_the_host_away(host, player)
    socket, connected = await connect(table.pk, player)
    assert connected
    await drain(socket)
    await socket.send_json_to({"command": "back", "position": 0})
    replies = "".join(await drain(socket, quiet=1.0))
    assert "You can only say you are back for your own seat." in replies
    await socket.send_json_to({"command": "back"})
    replies = "".join(await drain(socket, quiet=1.0))
    assert "You are not marked away." in replies
    await socket.disconnect()
    stored = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    assert stored.clock_seats == {"away": {"0": clock.ms(T0)}, "expiries": {"0": 2}}


# Transactional: the consumer works on Channels' threads, on connections of their own.
@pytest.mark.django_db(transaction=True)
async def test_only_the_away_player_sees_im_back_and_everyone_sees_away(host, player, queued) -> None:
    table, _ = await _started_with_the_host_away(host, player)
    host_socket, _ = await connect(table.pk, host)
    player_socket, _ = await connect(table.pk, player)
    host_view = "".join(await drain(host_socket))
    player_view = "".join(await drain(player_socket))
    assert "I&#39;m back" in host_view or "I'm back" in host_view
    assert "I&#39;m back" not in player_view and "I'm back" not in player_view
    assert 'class="tag warn away"' in host_view and 'class="tag warn away"' in player_view
    await host_socket.send_json_to({"command": "back"})
    view = await receive(host_socket)  # the change's push, as the page shows it after
    assert 'id="live"' in view and 'class="tag warn away"' not in view
    for socket in (host_socket, player_socket):
        await socket.disconnect()


# Transactional: the consumer works on Channels' threads, on connections of their own.
@pytest.mark.django_db(transaction=True)
async def test_the_host_sets_the_clock_over_the_socket_and_a_bad_value_is_refused(host) -> None:
    table = await database_sync_to_async(open_table)(host, "sitaratas")
    socket, _ = await connect(table.pk, host)
    await drain(socket)
    await socket.send_json_to({"command": "clock_set", "seconds": "45"})
    assert "Choose a turn clock of off, 30, 60 or 120 seconds." in "".join(await drain(socket, quiet=1.0))
    assert (await database_sync_to_async(Table.objects.get)(pk=table.pk)).clock == 0
    await socket.send_json_to({"command": "clock_set", "seconds": "120"})
    html = "".join(await drain(socket, quiet=1.0))
    assert "120 s clock" in html and "120-second turn clock" in html
    assert (await database_sync_to_async(Table.objects.get)(pk=table.pk)).clock == 120
    await socket.disconnect()
