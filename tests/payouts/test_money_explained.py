"""Issue 53, "Money explained": the wallet tells a tournament's steps (RULING P83) and names the
tournament and the rank; its tiles count fees held or in a pot; an admin's cancellation carries
the reason and names the admin once (RULING P19); a payout explains the rounding of the split
(RULING P5); the pass list shows what is left after each movement."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from payouts.models import Transfer
from payouts.selectors import share_detail
from payouts.services import payout_memo
from tests.tournaments.helpers import create, current_round, play_round, players, sign_up, staff, start
from tournaments import services

pytestmark = pytest.mark.django_db


def _wallet(client, user) -> str:
    client.force_login(user)
    return client.get(reverse("wallet")).content.decode()


def _row(page: str, heading: str) -> str:
    start = page.index(heading)
    return page[page.rindex("<tr", 0, start) : page.index("</tr>", start)]


def test_the_wallet_shows_each_step_of_a_tournament_fee_with_the_tournament_and_the_rank(client) -> None:
    tournament = create(staff(), name="Winter cup", entry_fee=25, prize_split="100", rounds=1)
    entrants = players(4)
    sign_up(tournament, entrants)
    page = _wallet(client, entrants[0])
    assert re.search(r'id="coins-held">25<', page), "a fee held for a tournament is counted"
    start(tournament)
    page = _wallet(client, entrants[0])
    assert re.search(r'id="coins-in-play">25<', page), "a fee in a running tournament's pot is counted"
    collected = _row(page, "Entry fee into the pot")
    assert "25 held coins went into the tournament&#x27;s pot." in collected
    assert f'href="/tournaments/{tournament.pk}/"' in collected and "Winter cup" in collected
    held = _row(page, "Entry fee held")
    assert "Winter cup" in held and ">—<" not in held
    play_round(current_round(tournament), present=entrants)
    tournament.refresh_from_db()
    assert tournament.state == "finished"
    winner = tournament.entries.get(rank=1).user
    page = _wallet(client, winner)
    assert re.search(r'id="coins-in-play">0<', page)
    prize = _row(page, "Tournament prize")
    assert "Winter cup" in prize
    assert re.search(r"place 1 of 4 in the final standings\.", prize)
    with translation.override("et"):
        memo = Transfer.objects.get(user=winner, reason="prize_payout").memo
        from payouts.memos import memo_text

        assert memo_text(memo) != memo, "the rank's memo is translated"


def test_an_admin_s_cancel_refund_carries_the_reason_and_names_the_admin_once(client) -> None:
    admin = staff()
    admin.username = "boss"
    admin.save()
    before = create(admin, entry_fee=10, prize_split="100")
    running = create(admin, entry_fee=10, prize_split="100")
    entrants = players(4)
    sign_up(before, entrants)
    sign_up(running, entrants)
    start(running)
    services.tournament_cancel(tournament_id=before.pk, by=admin, reason="Wrong date")
    services.tournament_cancel(tournament_id=running.pk, by=admin, reason="Server move")
    memos = set(Transfer.objects.filter(user=entrants[0], reason="entry_release").values_list("memo", flat=True))
    assert memos == {
        f"Tournament cancelled by {admin.name}: Wrong date",
        f"Tournament cancelled by {admin.name}: Server move",
    }
    page = _wallet(client, entrants[0])
    for reason in ("Wrong date", "Server move"):
        row = _row(page, f"Tournament cancelled by {admin.name}: {reason}")
        assert row.count(admin.name) == 1, row
    with translation.override("et"):
        from payouts.memos import memo_text

        assert memo_text(f"Tournament cancelled by {admin.name}: Wrong date") != (
            f"Tournament cancelled by {admin.name}: Wrong date"
        )


def test_an_abort_memo_names_the_admin_once_in_the_wallet(client, host, player) -> None:
    from tables.services import endings, lobby
    from tests.conftest import make_user
    from tests.helpers import fair_value
    from tests.tables.helpers import fill_with_bots, open_table

    admin = make_user("boss")
    admin.is_staff = True
    admin.save()
    table = open_table(host, "estimation", stake=7, options={"length": "micro"})
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    lobby.seat_ready(table_id=table.pk, user=player, ready=True, entropy=fair_value())
    fill_with_bots(table, host)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    endings.match_abort(match_id=match.pk, by=admin, reason="A player fell ill")
    row = _row(_wallet(client, player), "A player fell ill")
    assert row.count("boss") == 1, row


@pytest.mark.parametrize(
    ("amount", "pot", "memo", "tied", "says"),
    [
        # Four stakers of 7: 60 % of 28 is 16.8, rounded down to 16, and the spare coin goes to the best.
        (17, 28, payout_memo(1, [1, 2, 3, 4]), 1, "60% of a pot of 28 coins is 16.8, rounded down to 16, plus 1 coin"),
        (8, 28, payout_memo(2, [1, 2, 3, 4]), 1, "30% of a pot of 28 coins is 8.4, rounded down to 8 (shares are"),
        (18, 30, payout_memo(1, [1, 2, 3, 4]), 1, "60% of a pot of 30 coins."),
        # Tied second and third of three share 30 % and 0 %: 15 % each, 4.5 coins, 4 paid.
        (4, 30, payout_memo(2, [1, 2, 2]), 2, "15% of a pot of 30 coins is 4.5, rounded down to 4 (shares"),
    ],
)
def test_a_payout_explains_its_share_as_the_lobby_promised_it(amount, pot, memo, tied, says) -> None:
    with translation.override("en"):
        detail = share_detail(amount, pot, memo, tied)
    assert detail.startswith(says), detail
    assert "61%" not in detail


def test_the_pass_list_shows_the_passes_after_each_movement(client, host) -> None:
    from tables.services import lobby
    from tests.helpers import fair_value
    from tests.tables.helpers import fill_with_bots, open_table

    table = open_table(host, "sitaratas", seat_count=3)
    fill_with_bots(table, host)
    lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    page = _wallet(client, host)
    passes = page[page.index('id="pass-movements"') :]
    used = _row(passes, "Pass used")
    free = int(re.search(r'id="passes-free">(\d+)<', page)[1])
    afters = re.findall(r'class="muted small pass-after"[^>]*>= (\d+)<', used)
    assert afters == [str(free), "0", "1"], used
