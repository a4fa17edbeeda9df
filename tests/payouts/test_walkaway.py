"""RULING P50: at a staked table a seat away at the end, or played mostly by the clock, takes no
share of the pot; its stake stays in the pot and the others share it by place (RULING P5)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.models import Match, MatchEvent, MatchPlayer
from payouts import selectors
from payouts.models import Transfer
from payouts.owners import table_owner
from payouts.split import split_pot
from tables.services import lobby, timeouts
from tables.services import play as play_service
from tests.helpers import fair_value
from tests.payouts.helpers import assert_coins_conserved, balance, wallet
from tests.tables.helpers import fill_with_bots, open_table, state_of

pytestmark = pytest.mark.django_db

STAKE = 100


def started(host, player) -> Match:
    table = open_table(host, "estimation", stake=STAKE)
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    lobby.seat_ready(table_id=table.pk, user=player, ready=True, entropy=fair_value())
    fill_with_bots(table, host)
    return lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())


def mark_away(match: Match, seat: int) -> None:
    """RULING P12's mark, as two expiries in a row leave it."""
    Match.objects.filter(pk=match.pk).update(clock_seats={"away": {str(seat): 0}, "expiries": {str(seat): 2}})


def clocked(match: Match, seat: int) -> int:
    return MatchEvent.objects.filter(match=match, seat=seat, by_clock=True).count()


def play(match: Match, *, back_after: int | None = None, away_seat: int = 1) -> Match:
    """Play to the end: the house plays for the away seat (and the bots), humans play their first
    legal action; ``back_after``: the away player says "I'm back" after that many house moves."""
    while True:
        match = Match.objects.get(pk=match.pk)
        if match.status != Match.Status.PLAYING:
            return match
        if back_after is not None and clocked(match, away_seat) >= back_after:
            user = match.match_players.get(seat=away_seat).user
            timeouts.seat_back(match_id=match.pk, user=user)
            back_after = None
            continue
        if play_service.bots_act(match_id=match.pk, version=match.version):
            continue
        engine, state = state_of(match)
        seat = engine.to_act(state)[0]
        user = match.match_players.get(seat=seat).user
        play_service.match_act(
            match_id=match.pk, user=user, action=engine.legal_actions(state, seat)[0], version=match.version
        )


def test_a_staker_away_when_the_game_ends_takes_no_share_and_the_wallet_says_why(host, player) -> None:
    match = started(host, player)
    mark_away(match, 1)
    match = play(match)
    players = {mp.user_id: mp for mp in MatchPlayer.objects.filter(match=match)}
    # The host is the only staker left to share: the whole pot, the walker's stake too (RULING P5).
    assert players[player.pk].payout == 0 and players[host.pk].payout == 2 * STAKE
    assert wallet(player) == 1000 - STAKE and wallet(host) == 1000 + STAKE
    assert balance("pot", table_owner(match.table)) == 0
    forfeit = Transfer.objects.get(match=match, reason=Transfer.Reason.POT_FORFEIT)
    assert forfeit.user_id == player.pk and not forfeit.entries.exists()
    story = next(move.story for move in selectors.coin_movements(user=player) if move.lost)
    assert "Stake lost" in story and "you were away when the game ended" in story
    # Ratings count the game as played (RULING P11): only the pot changes.
    assert players[player.pk].rating_after is not None and players[player.pk].place is not None
    assert_coins_conserved()
    # The nightly check agrees: the forfeit row moves nothing, and the split left the walker out.
    out, err = StringIO(), StringIO()
    call_command("verify_matches", stdout=out, stderr=err)
    assert out.getvalue().strip().endswith("OK") and err.getvalue() == "", err.getvalue()


def test_a_staker_whose_decisions_were_mostly_played_by_the_clock_takes_no_share(host, player) -> None:
    match = started(host, player)
    mark_away(match, 1)
    match = play(match, back_after=55)  # back for the last few tricks only
    decisions = MatchEvent.objects.filter(match=match, seat=1).count()
    assert 2 * clocked(match, 1) > decisions and "1" not in (match.clock_seats or {}).get("away", {})
    players = {mp.user_id: mp for mp in MatchPlayer.objects.filter(match=match)}
    assert players[player.pk].payout == 0 and players[host.pk].payout == 2 * STAKE
    story = next(move.story for move in selectors.coin_movements(user=player) if move.lost)
    assert "more than half of your decisions were played by the clock" in story
    assert_coins_conserved()


def test_a_staker_back_in_time_shares_the_pot_by_place(host, player) -> None:
    match = started(host, player)
    mark_away(match, 1)
    match = play(match, back_after=5)
    decisions = MatchEvent.objects.filter(match=match, seat=1).count()
    assert clocked(match, 1) > 0 and 2 * clocked(match, 1) <= decisions
    players = {mp.user_id: mp for mp in MatchPlayer.objects.filter(match=match)}
    expected = split_pot(2 * STAKE, [(players[host.pk].place, 0), (players[player.pk].place, 1)])
    assert (players[host.pk].payout, players[player.pk].payout) == (expected[0], expected[1])
    assert not Transfer.objects.filter(match=match, reason=Transfer.Reason.POT_FORFEIT).exists()
    assert_coins_conserved()


def test_when_every_staker_forfeits_every_stake_goes_back(host, player) -> None:
    match = started(host, player)
    Match.objects.filter(pk=match.pk).update(clock_seats={"away": {"0": 0, "1": 0}})
    match = play(match)
    assert wallet(host) == wallet(player) == 1000
    refunds = Transfer.objects.filter(match=match, reason=Transfer.Reason.POT_REFUND)
    assert refunds.count() == 2 and all("every staker was away" in t.memo for t in refunds)
    assert Transfer.objects.filter(match=match, reason=Transfer.Reason.POT_FORFEIT).count() == 2
    assert_coins_conserved()
    out, err = StringIO(), StringIO()
    call_command("verify_matches", stdout=out, stderr=err)
    assert out.getvalue().strip().endswith("OK") and err.getvalue() == "", err.getvalue()


def test_the_lobby_says_so_before_the_stake_is_taken(client, host, player) -> None:
    table = open_table(host, "estimation", stake=STAKE)
    client.force_login(player)  # not seated: nothing of theirs is held yet
    html = client.get(reverse("table", args=[table.pk])).content.decode()
    assert "gets no share of the pot" in html
    assert wallet(player) == 1000
