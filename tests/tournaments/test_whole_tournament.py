"""A whole tournament through the services and Celery (eager): ten players and two bots over three
rounds of four-seat Estimation (micro). The start, each round's tables, the bots' and the house's
moves and each round's end run as tasks; the players press "I'm ready" and play their moves."""

from __future__ import annotations

import pytest
import time_machine
from django.utils import timezone

from games.models import Match
from tables.clock import away_seats
from tables.services import lobby, play
from tests.helpers import fair_value
from tests.payouts.helpers import assert_coins_conserved, balance, state_of, wallet
from tests.tournaments.helpers import create, current_round, players, sign_up, staff
from tournaments import pot, tasks
from tournaments.models import Entry, RoundTable, Sitting, Tournament

# Transactional: each write commits and its tasks run after it; as savepoints of one transaction it ran slower.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def play_humans(round_) -> None:
    """Every human who is not away makes their first legal move until each table's game is over;
    the bots and the house move in their (eager) tasks after each commit."""
    while True:
        playing = Match.objects.filter(table__tournament_table__round=round_, status=Match.Status.PLAYING)
        if not playing.exists():
            return
        for match in playing:
            engine, state = state_of(match)
            away = away_seats(match)
            seats = [seat for seat in engine.to_act(state) if seat not in away]
            users = dict(match.match_players.values_list("seat", "user"))
            for seat in seats:
                user = match.match_players.get(seat=seat).user
                if user.is_bot:
                    continue
                action = engine.legal_actions(state, seat)[0]
                play.match_act(match_id=match.pk, user=user, action=action, version=match.version)
                break
            else:
                assert users  # only bots or the house are awaited: their task is running
                play.bots_act(match_id=match.pk, version=match.version)


def test_twelve_seats_three_rounds_of_estimation_micro(eager_bots, settings) -> None:
    settings.TOURNAMENT_READY_SECONDS = 30
    now = timezone.now()
    tournament = create(staff(), entry_fee=20, prize_split="50/30/20", rounds=3, min_players=8, now=now)
    humans = players(10)
    sign_up(tournament, humans)
    late = humans[9]
    with time_machine.travel(tournament.starts_at, tick=False):
        tasks.tournaments_sweep.delay()
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.RUNNING and tournament.pot == 200
    for number in (1, 2, 3):
        round_ = current_round(tournament)
        assert round_.number == number
        tables = list(round_.tables.order_by("number"))
        assert len(tables) == 3 and all(rt.table.seat_count == 4 for rt in tables)
        assert sum(rt.table.seats.filter(user__is_bot=True).count() for rt in tables) == 2
        # Everyone presses "I'm ready", except the late player in round 2.
        for rt in tables:
            for seat in rt.table.seats.filter(user__is_bot=False).select_related("user"):
                if not (number == 2 and seat.user == late):
                    lobby.seat_ready(table_id=rt.table_id, user=seat.user, ready=True, entropy=fair_value())
        with time_machine.travel(round_.tables_start_at, tick=False):
            tasks.tournaments_sweep.delay()
        assert Match.objects.filter(table__tournament_table__round=round_).count() == 3
        play_humans(round_)
        round_.refresh_from_db()
        assert round_.state == round_.State.FINISHED
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.FINISHED

    late_sitting = Sitting.objects.get(round_table__round__number=2, entry__user=late)
    assert late_sitting.absent and late_sitting.half_points == 0
    # Each table hands out 3 + 2 + 1 + 0 points (12 half-points; tied places share them exactly).
    # A table of four players, all present, gives all 12 to them; bots and the absent keep theirs.
    full = 0
    for rt in RoundTable.objects.filter(round__tournament=tournament):
        sittings = list(rt.sittings.all())
        assert all(s.place is not None for s in sittings)
        total = sum(s.half_points for s in sittings)
        assert total <= 12
        if len(sittings) == 4 and not any(s.absent for s in sittings):
            assert total == 12
            full += 1
    assert full >= 2  # one table a round has no bot (the two bots sit at two tables)
    entries = list(Entry.objects.filter(tournament=tournament).order_by("rank", "signed_up_at"))
    assert len(entries) == 10 and all(e.state == Entry.State.ACTIVE for e in entries)
    for entry in entries:
        assert entry.half_points == sum(s.half_points for s in entry.sittings.all())
    points = [e.half_points for e in entries]
    assert points == sorted(points, reverse=True)
    assert sum(e.prize for e in entries) == 200
    assert entries[0].prize >= entries[1].prize >= entries[2].prize > 0
    assert all(e.prize == 0 for e in entries if e.rank > 3)
    assert balance("tournament_pot", pot.owner(tournament)) == 0
    assert sum(wallet(user) for user in humans) == 10_000
    assert_coins_conserved()
