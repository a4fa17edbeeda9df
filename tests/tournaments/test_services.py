"""Tournament services against PostgreSQL: creation, sign-up and the pot, rounds, points, absences,
the payout, cancellation, disqualification and re-seating (RULINGS P77–P83)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from payouts.models import Transfer
from tables.models import Table
from tests.conftest import make_user
from tests.payouts.helpers import assert_coins_conserved, assert_passes_conserved, balance, wallet
from tests.tournaments.helpers import create, current_round, play_round, players, sign_up, staff, start
from tournaments import pot, services
from tournaments.models import Entry, Round, Sitting, Tournament
from tournaments.services import TournamentError

pytestmark = pytest.mark.django_db


def test_any_player_may_create_a_free_tournament_but_not_a_coin_one(host) -> None:
    tournament = create(host)
    assert tournament.state == Tournament.State.SIGNUP
    assert tournament.clock > 0  # RULING P80: the clock is mandatory
    with pytest.raises(TournamentError, match="staff"):
        create(host, entry_fee=10, prize_split="50/30/20")
    with pytest.raises(TournamentError, match="staff"):
        create(host, official=True)
    assert Tournament.objects.count() == 1


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"table_size": 5}, "seats 4 to 4"),
        ({"rounds": 0}, "1 to 10 rounds"),
        ({"min_players": 1}, "at least 2"),
        ({"min_players": 9, "max_players": 8}, "at least 2"),
        ({"name": "x"}, "3 to 80"),
        ({"name": "Cup \u202epots"}, "change the text’s direction"),  # RULING P54: right-to-left override
        ({"name": "Cup \u2067x"}, "change the text’s direction"),  # an isolate left open
        ({"name": "Cup\u034f night"}, "invisible"),
        ({"name": "Cup \u0301night"}, "invisible"),  # an accent on a space
        ({"game": "chess"}, "one of the site's games"),
        ({"options": {"length": "endless"}}, "micro, mini, full"),
    ],
)
def test_a_bad_tournament_is_refused_and_nothing_is_written(host, fields, message) -> None:
    with pytest.raises(TournamentError, match=message):
        create(host, **fields)
    assert not Tournament.objects.exists()


def test_a_start_in_the_past_is_refused(host) -> None:
    with pytest.raises(TournamentError, match="future"):
        create(host, starts_at=timezone.now() - timedelta(minutes=1))


def test_the_fee_is_held_at_sign_up_and_released_on_withdrawal() -> None:
    tournament = create(staff(), entry_fee=100, prize_split="50/30/20")
    (alice,) = players(1)
    sign_up(tournament, [alice])
    assert wallet(alice) == 900
    assert balance("entry_held", user=alice) == 100
    services.entry_withdraw(tournament_id=tournament.pk, user=alice)
    assert wallet(alice) == 1000
    assert Entry.objects.get(user=alice).state == Entry.State.WITHDRAWN
    # Signing up again holds the fee again.
    sign_up(tournament, [alice])
    assert wallet(alice) == 900
    assert_coins_conserved()


def test_a_sign_up_short_of_coins_is_refused_and_nothing_is_held() -> None:
    tournament = create(staff(), entry_fee=5000, prize_split="100")
    (alice,) = players(1)
    with pytest.raises(TournamentError, match="5,000 coins"):
        sign_up(tournament, [alice])
    assert wallet(alice) == 1000
    assert not Entry.objects.exists()


def test_sign_up_closes_at_the_start_and_when_full() -> None:
    tournament = create(staff(), max_players=4)
    sign_up(tournament, players(4))
    with pytest.raises(TournamentError, match="full"):
        sign_up(tournament, players(1))
    late = players(1)[0]
    with pytest.raises(TournamentError, match="closed"):
        services.entry_signup(tournament_id=tournament.pk, user=late, now=tournament.starts_at)


def test_sitaratas_reserves_every_rounds_pass_at_sign_up_and_refuses_without_enough() -> None:
    tournament = create(staff(), game="sitaratas", options={}, table_size=3, min_players=3, rounds=3)
    alice, bob = players(2)
    sign_up(tournament, [alice])
    assert balance("passes_free", user=alice) == 2
    assert balance("tournament_passes", user=alice) == 3
    short = create(staff(), game="sitaratas", options={}, table_size=3, min_players=3, rounds=6)
    with pytest.raises(TournamentError, match="6 game passes"):
        sign_up(short, [bob])
    assert balance("passes_free", user=bob) == 5
    services.entry_withdraw(tournament_id=tournament.pk, user=alice)
    assert balance("passes_free", user=alice) == 5
    assert_passes_conserved()


def test_too_few_players_at_the_start_cancels_and_gives_every_fee_back() -> None:
    tournament = create(staff(), entry_fee=50, prize_split="100", min_players=4)
    entrants = players(3)
    sign_up(tournament, entrants)
    assert (
        services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at - timedelta(seconds=1)) is False
    )
    start(tournament)
    assert tournament.state == Tournament.State.CANCELLED
    assert all(wallet(user) == 1000 for user in entrants)
    assert not Round.objects.exists()
    # A repeated start does nothing.
    assert services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at) is False
    assert_coins_conserved()


def test_the_start_collects_the_fees_and_seats_round_one_by_rating() -> None:
    tournament = create(staff(), entry_fee=10, prize_split="50/30/20", min_players=4)
    entrants = players(8)
    sign_up(tournament, entrants)
    start(tournament)
    assert tournament.state == Tournament.State.RUNNING
    assert tournament.pot == 80
    assert balance("tournament_pot", pot.owner(tournament)) == 80
    round_ = current_round(tournament)
    tables = list(round_.tables.order_by("number"))
    assert len(tables) == 2
    seated = [s.entry.user_id for rt in tables for s in rt.sittings.all()]
    assert sorted(seated) == sorted(u.pk for u in entrants)
    assert all(rt.table.status == Table.Status.LOBBY and rt.table.clock for rt in tables)
    # Twice is once.
    assert services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at) is False
    assert Round.objects.count() == 1
    assert_coins_conserved()


def test_bots_fill_a_short_table_and_score_nothing_in_the_standings() -> None:
    tournament = create(staff(), rounds=1)
    entrants = players(6)  # Estimation seats 4: two tables of four, two bots
    sign_up(tournament, entrants)
    start(tournament)
    round_ = current_round(tournament)
    bots = sum(rt.table.seats.filter(user__is_bot=True).count() for rt in round_.tables.all())
    assert bots == 2
    play_round(round_, present=entrants)
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.FINISHED
    entries = Entry.objects.filter(tournament=tournament)
    assert entries.count() == 6  # no bot has a line
    # Points by place (RULING P77): each table gives out 3 + 2 + 1 + 0 points, bots' included.
    assert sum(e.half_points for e in entries) <= 2 * 2 * 6


def test_an_absent_player_is_played_by_the_house_and_scores_nothing_then_is_withdrawn_after_two() -> None:
    tournament = create(staff(), rounds=3)
    entrants = players(8)
    sign_up(tournament, entrants)
    start(tournament)
    absent = entrants[0]
    for number in (1, 2):
        round_ = current_round(tournament)
        assert round_.number == number
        play_round(round_, present=entrants[1:])
        sitting = Sitting.objects.get(round_table__round=round_, entry__user=absent)
        assert sitting.absent and sitting.half_points == 0
    entry = Entry.objects.get(user=absent)
    assert entry.absences == 2 and entry.state == Entry.State.WITHDRAWN
    assert entry.half_points == 0
    round_ = current_round(tournament)
    assert round_.number == 3
    assert not Sitting.objects.filter(round_table__round=round_, entry=entry).exists()


def test_later_rounds_regroup_by_standings_without_repeats_where_possible() -> None:
    tournament = create(staff(), rounds=2)
    entrants = players(16)
    sign_up(tournament, entrants)
    start(tournament)
    first = current_round(tournament)
    play_round(first, present=entrants)
    second = current_round(tournament)
    assert second.number == 2
    met = {}
    for rt in first.tables.all():
        members = [s.entry.user_id for s in rt.sittings.all()]
        for m in members:
            met[m] = set(members) - {m}
    for rt in second.tables.all():
        members = [s.entry.user_id for s in rt.sittings.all()]
        assert len(members) == 4
        assert all(not (met[a] & set(members)) for a in members)


def test_the_pot_is_paid_by_the_split_at_the_end_and_the_ledger_sums_to_zero() -> None:
    tournament = create(staff(), entry_fee=25, prize_split="50/30/20", rounds=1)
    entrants = players(4)
    sign_up(tournament, entrants)
    start(tournament)
    play_round(current_round(tournament), present=entrants)
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.FINISHED
    entries = list(Entry.objects.filter(tournament=tournament).order_by("rank"))
    assert sum(e.prize for e in entries) == 100
    assert balance("tournament_pot", pot.owner(tournament)) == 0
    assert sum(wallet(e.user) for e in entries) == 4000
    assert entries[0].prize >= entries[-1].prize
    prizes = Transfer.objects.filter(owner_id=tournament.pk, reason="prize_payout")
    assert prizes.count() == sum(1 for e in entries if e.prize)
    assert_coins_conserved()


def test_tied_players_share_the_prizes_of_the_places_they_span() -> None:
    tournament = create(staff(), entry_fee=10, prize_split="50/30/20", rounds=1)
    entrants = players(4)
    sign_up(tournament, entrants)
    start(tournament)
    # Everyone absent: nobody scores, all four tie for first and share the whole pot evenly.
    play_round(current_round(tournament), present=[])
    assert sorted(Entry.objects.values_list("rank", "prize")) == [(1, 10)] * 4


def test_an_admin_cancels_a_running_tournament_and_every_fee_comes_back() -> None:
    admin = staff()
    tournament = create(admin, entry_fee=30, prize_split="100")
    entrants = players(4)
    sign_up(tournament, entrants)
    start(tournament)
    with pytest.raises(TournamentError, match="reason"):
        services.tournament_cancel(tournament_id=tournament.pk, by=admin, reason=" ")
    services.tournament_cancel(tournament_id=tournament.pk, by=admin, reason="Server move")
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.CANCELLED
    assert all(wallet(u) == 1000 for u in entrants)
    assert all(rt.table.status == Table.Status.CLOSED for rt in current_round(tournament).tables.all())
    assert_coins_conserved()


def test_a_disqualified_player_is_not_seated_again_and_takes_no_prize() -> None:
    admin = staff()
    tournament = create(admin, entry_fee=10, prize_split="100", rounds=2)
    entrants = players(5)
    sign_up(tournament, entrants)
    start(tournament)
    cheat = Entry.objects.get(user=entrants[0])
    services.entry_disqualify(entry_id=cheat.pk, by=admin, reason="Shared cards")
    play_round(current_round(tournament), present=entrants)
    second = current_round(tournament)
    assert not Sitting.objects.filter(round_table__round=second, entry=cheat).exists()
    play_round(second, present=entrants)
    cheat.refresh_from_db()
    assert cheat.state == Entry.State.DISQUALIFIED and cheat.prize is None
    assert sum(Entry.objects.exclude(pk=cheat.pk).values_list("prize", flat=True)) == 50
    assert_coins_conserved()


def test_an_admin_reseats_a_round_that_has_not_started() -> None:
    admin = staff()
    tournament = create(admin, game="sitaratas", options={}, table_size=3, min_players=3, rounds=2)
    entrants = players(6)
    sign_up(tournament, entrants)
    start(tournament)
    services.entry_disqualify(entry_id=Entry.objects.get(user=entrants[0]).pk, by=admin, reason="No show")
    old = current_round(tournament)
    old_tables = [rt.table_id for rt in old.tables.all()]
    new = services.round_reseat(round_id=old.pk, by=admin, reason="After a disqualification")
    assert Table.objects.filter(pk__in=old_tables, status=Table.Status.CLOSED).count() == len(old_tables)
    seated = [s.entry.user_id for rt in new.tables.all() for s in rt.sittings.all()]
    assert sorted(seated) == sorted(u.pk for u in entrants[1:])
    # Each seated player's round pass is at the new table, the other round's still reserved.
    for user in entrants[1:]:
        assert balance("tournament_passes", user=user) == 1
        assert balance("passes_held", user=user) == 1
    assert_passes_conserved()


def test_sitaratas_rounds_use_one_reserved_pass_each() -> None:
    tournament = create(staff(), game="sitaratas", options={}, table_size=3, min_players=3, rounds=2)
    entrants = players(3)
    sign_up(tournament, entrants)
    start(tournament)
    play_round(current_round(tournament), present=entrants)
    play_round(current_round(tournament), present=entrants)
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.FINISHED
    for user in entrants:
        assert balance("passes_used", user=user) == 2
        assert balance("passes_free", user=user) == 3
        assert balance("tournament_passes", user=user) == 0
    assert_passes_conserved()


def test_a_bot_cannot_sign_up() -> None:
    from accounts.services import ensure_bot_accounts

    tournament = create(make_user("maker"))
    with pytest.raises(TournamentError, match="Bots"):
        sign_up(tournament, [ensure_bot_accounts()[0]])
