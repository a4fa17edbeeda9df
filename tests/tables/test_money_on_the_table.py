"""Issue 53, "Money explained" at the table: the game-over panel and the game page say why a
staker took no share (RULING P50) and show every staker's coin change, the loser's too; the
lobby's coins are stakes held, not a pot yet (RULING P5); a staked rematch names its stake
before it is taken."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import MatchPlayer
from tables.render.fragment import load_snapshot, render_live
from tables.services import lobby
from tests.helpers import fair_value
from tests.payouts.test_walkaway import STAKE, mark_away, play, started
from tests.tables.helpers import fill_with_bots, open_table

pytestmark = pytest.mark.django_db


def _result(html: str) -> str:
    return html[html.index('id="result"') : html.index("</ol>", html.index('id="result"'))]


def test_the_game_over_panel_and_the_game_page_say_why_a_staker_got_nothing(client, host, player) -> None:
    match = started(host, player)
    mark_away(match, 1)
    match = play(match)
    payouts = dict(MatchPlayer.objects.filter(match=match).values_list("user_id", "payout"))
    assert payouts[player.pk] == 0 and payouts[host.pk] == 2 * STAKE
    panel = _result(render_live(load_snapshot(match.table_id), user_id=player.pk, connected=set()))
    assert "No share of the pot: you were away when the game ended." in panel
    # Every staker's change: the winner's +100 and the walker's −100, not the payout alone.
    assert re.search(r"coin-change good[^>]*>\+100 coins<", panel), panel
    assert re.search(r"coin-change bad[^>]*>−100 coins<", panel), panel
    client.force_login(player)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert "No share of the pot: you were away when the game ended." in page


def test_the_lobby_calls_held_stakes_stakes_held_not_a_pot(host, player) -> None:
    table = open_table(host, "estimation", stake=7, options={"length": "micro"})
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    html = render_live(load_snapshot(table.pk), user_id=player.pk, connected=set())
    tag = re.search(r'<span class="tag warn" id="pot-tag"[^>]*>([^<]*)<', html)
    assert tag and tag[1] == "stakes held 14", tag
    assert ">pot 14<" not in html


def test_a_staked_rematch_shows_its_stake_before_taking_it(host, player) -> None:
    table = open_table(host, "estimation", stake=25, options={"length": "micro"})
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    lobby.seat_ready(table_id=table.pk, user=player, ready=True, entropy=fair_value())
    fill_with_bots(table, host)
    from tests.payouts.helpers import play_to_end

    play_to_end(lobby.table_start(table_id=table.pk, host=host, entropy=fair_value()))
    html = render_live(load_snapshot(table.pk), user_id=player.pk, connected=set())
    rematch = html[html.index('id="rematch"') :]
    assert "Rematch (stake 25 coins)" in rematch
