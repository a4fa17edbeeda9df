"""Rematch (RULING P70): the same game, options and seats at a new table, stakes and passes asked again."""

from __future__ import annotations

import pytest

from games.models import Match
from payouts import selectors as payout_selectors
from payouts.services import coins_grant
from tables.errors import TableError
from tables.models import DealCommitment, Rematch, RematchAnswer, Table
from tables.services import lobby as services
from tables.services import rematch
from tests.conftest import make_user
from tests.games.history_helpers import finished_table
from tests.helpers import fair_value
from tests.tables.helpers import start_table

pytestmark = pytest.mark.django_db


def test_the_first_accept_opens_the_same_game_and_seats_with_a_new_commitment(host, player) -> None:
    source = finished_table(host, "sitaratas", [player])
    new = rematch.rematch_accept(table_id=source.pk, user=player)
    assert (new.game, new.options, new.seat_count, new.stake, new.clock) == (
        source.game,
        source.options,
        source.seat_count,
        source.stake,
        source.clock,
    )
    assert new.host == player and new.status == Table.Status.LOBBY
    old_seats = dict(source.matches.get().match_players.values_list("seat", "user_id"))
    new_seats = dict(new.seats.values_list("position", "user_id"))
    assert new_seats[1] == player.pk and new_seats[0] is None  # the host has not answered yet
    bot_seat = next(seat for seat, user_id in old_seats.items() if user_id not in (host.pk, player.pk))
    assert new_seats[bot_seat] == old_seats[bot_seat]  # the bot is back in its seat
    old_commitment = DealCommitment.objects.get(table=source).commitment
    assert DealCommitment.objects.get(table=new, attempt=1).commitment != old_commitment
    answers = dict(RematchAnswer.objects.filter(rematch__table=new).values_list("user_id", "answer"))
    assert answers == {host.pk: "pending", player.pk: "accepted"}


def test_a_second_accept_joins_the_same_rematch(host, player) -> None:
    source = finished_table(host, "sitaratas", [player])
    first = rematch.rematch_accept(table_id=source.pk, user=player)
    second = rematch.rematch_accept(table_id=source.pk, user=host)
    assert first == second and Rematch.objects.count() == 1
    assert set(second.seats.exclude(user=None).values_list("user_id", flat=True)) >= {host.pk, player.pk}


def test_accepting_reserves_a_pass_again(host, player) -> None:
    source = finished_table(host, "sitaratas", [player])
    before = payout_selectors.pass_counts(user=player)
    rematch.rematch_accept(table_id=source.pk, user=player)
    after = payout_selectors.pass_counts(user=player)
    assert (after["free"], after["reserved"]) == (before["free"] - 1, before["reserved"] + 1)  # RULING P6


def test_accepting_holds_the_stake_again_and_is_refused_without_the_coins(host, player, outsider) -> None:
    coins_grant(user=outsider, amount=500, memo="test")
    source = finished_table(host, "estimation", [player, outsider], stake=900)
    poor = min((host, player, outsider), key=lambda user: payout_selectors.coin_balance(user=user))
    rich = max((host, player, outsider), key=lambda user: payout_selectors.coin_balance(user=user))
    assert payout_selectors.coin_balance(user=poor) < 900 <= payout_selectors.coin_balance(user=rich)
    before = payout_selectors.coin_balance(user=rich)
    rematch.rematch_accept(table_id=source.pk, user=rich)
    assert payout_selectors.coin_balance(user=rich) == before - 900  # RULING P5: held again
    with pytest.raises(TableError, match="stake"):
        rematch.rematch_accept(table_id=source.pk, user=poor)
    answer = RematchAnswer.objects.get(user=poor)
    assert answer.answer == "pending"  # refused: nothing written
    assert not Table.objects.get(rematch_of__source=source).seats.filter(user=poor).exists()


def test_a_seat_waiting_for_its_player_cannot_be_taken_or_given_a_bot(host, player, outsider) -> None:
    source = finished_table(host, "sitaratas", [player])
    new = rematch.rematch_accept(table_id=source.pk, user=player)
    with pytest.raises(TableError, match="kept"):
        services.seat_take(table_id=new.pk, user=outsider, position=0)
    with pytest.raises(TableError, match="kept"):
        services.bot_add(table_id=new.pk, host=player, position=0)
    assert new.seats.get(position=0).user is None


def test_declining_frees_the_seat_for_the_host_to_fill(host, player, outsider) -> None:
    source = finished_table(host, "sitaratas", [player])
    new = rematch.rematch_accept(table_id=source.pk, user=player)
    rematch.rematch_decline(table_id=source.pk, user=host)
    assert RematchAnswer.objects.get(user=host).answer == "declined"
    services.seat_take(table_id=new.pk, user=outsider, position=0)
    assert new.seats.get(position=0).user == outsider
    with pytest.raises(TableError, match="declined"):
        rematch.rematch_accept(table_id=source.pk, user=host)


def test_declining_after_accepting_gives_the_pass_back(host, player) -> None:
    source = finished_table(host, "sitaratas", [player])
    rematch.rematch_accept(table_id=source.pk, user=player)
    rematch.rematch_accept(table_id=source.pk, user=host)
    before = payout_selectors.pass_counts(user=host)
    rematch.rematch_decline(table_id=source.pk, user=host)
    assert payout_selectors.pass_counts(user=host)["free"] == before["free"] + 1


def test_it_starts_when_every_human_who_accepted_is_ready(host, player) -> None:
    source = finished_table(host, "sitaratas", [player])
    new = rematch.rematch_accept(table_id=source.pk, user=player)
    rematch.rematch_accept(table_id=source.pk, user=host)
    services.seat_ready(table_id=new.pk, user=player, ready=True, entropy=fair_value())
    assert rematch.rematch_start_when_ready(table_id=new.pk) is None  # the host is not ready yet
    services.seat_ready(table_id=new.pk, user=host, ready=True, entropy=fair_value())
    match = rematch.rematch_start_when_ready(table_id=new.pk)
    assert match is not None and match.status == Match.Status.PLAYING
    new.refresh_from_db()
    assert new.status == Table.Status.PLAYING
    assert rematch.rematch_start_when_ready(table_id=new.pk) is None  # twice is once
    assert set(match.match_players.values_list("user_id", flat=True)) == set(
        source.matches.get().match_players.values_list("user_id", flat=True)
    )


def test_it_waits_for_players_who_have_not_answered(host, player) -> None:
    source = finished_table(host, "sitaratas", [player])
    new = rematch.rematch_accept(table_id=source.pk, user=player)
    services.seat_ready(table_id=new.pk, user=player, ready=True, entropy=fair_value())
    assert rematch.rematch_start_when_ready(table_id=new.pk) is None
    rematch.rematch_decline(table_id=source.pk, user=host)  # declined: the seat is empty now
    assert Table.objects.get(pk=new.pk).status == Table.Status.LOBBY
    services.bot_add(table_id=new.pk, host=player, position=0)
    assert rematch.rematch_start_when_ready(table_id=new.pk) is not None


def test_only_the_players_of_a_finished_game_can_rematch(host, player, outsider) -> None:
    table, _match = start_table(host, "sitaratas", guests=[player])
    with pytest.raises(TableError, match="over"):
        rematch.rematch_accept(table_id=table.pk, user=player)
    source = finished_table(make_user("hugo"), "sitaratas", [player])
    with pytest.raises(TableError, match="players"):
        rematch.rematch_accept(table_id=source.pk, user=outsider)
    assert not Rematch.objects.exists()


def test_a_rematch_counts_against_the_open_lobbies(host, player, settings) -> None:
    source = finished_table(host, "sitaratas", [player])
    settings.MAX_OPEN_LOBBIES = 1
    services.table_create(host=player, game="sita", seat_count=3)
    with pytest.raises(TableError, match="waiting for players"):
        rematch.rematch_accept(table_id=source.pk, user=player)  # RULING P52
    assert not Rematch.objects.exists()


def test_the_other_players_are_offered_the_rematch_in_their_notifications(host, player) -> None:
    from notifications.models import Notification
    from notifications.texts import link

    source = finished_table(host, "sitaratas", [player])
    rematch.rematch_accept(table_id=source.pk, user=player)
    offer = Notification.objects.get(recipient=host, kind="rematch_offer")
    assert offer.actor == player and link(offer) == f"/tables/{source.pk}/#rematch"
    assert not Notification.objects.filter(recipient=player).exists()
    rematch.rematch_accept(table_id=source.pk, user=host)
    assert Notification.objects.filter(kind="rematch_offer").count() == 1  # offered once, when it opened


def test_a_private_tables_rematch_is_private_and_its_players_invited(host, player, outsider) -> None:
    from tables.models import TableInvite
    from tables.selectors import privacy

    source = finished_table(host, "sitaratas", [player])
    Table.objects.filter(pk=source.pk).update(private=True, spectators="nobody")
    new = rematch.rematch_accept(table_id=source.pk, user=player)
    assert (new.private, new.spectators) == (True, "nobody")
    assert set(TableInvite.objects.filter(table=new).values_list("user_id", flat=True)) == {host.pk, player.pk}
    rematch.rematch_accept(table_id=source.pk, user=host)  # invited, though not the new host's friend
    assert not privacy.may_sit(table=new, user=outsider)


def test_the_game_over_panel_shows_each_answer_and_leads_who_accepted_to_the_new_table(host, player) -> None:
    from tables.render import fragment

    source = finished_table(host, "sitaratas", [player])
    new = rematch.rematch_accept(table_id=source.pk, user=player)
    snap = fragment.load_snapshot(source.pk)
    mine = str(fragment.render_live(snap, user_id=player.pk, connected=set()))
    theirs = str(fragment.render_live(snap, user_id=host.pk, connected=set()))
    assert f'href="/tables/{new.pk}/"' in mine and "Go to the rematch table" in mine
    assert 'class="rematch-accepted"' in theirs and 'class="rematch-pending"' in theirs
    assert 'value="rematch"' in theirs and 'value="rematch_decline"' in theirs
