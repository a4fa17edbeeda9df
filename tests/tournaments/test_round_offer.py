"""Issue 53, item 12, the server's part: a seated round's notice carries when its table starts, and
the bell's frame hands it to the page with the server's time, so an open page can offer the
table at once with the countdown (static/js/bell.js; the browser test sees it); when a tournament
ends each player still in is told their place in the final standings and their prize."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.urls import reverse
from django.utils import translation

from notifications import kinds, texts
from notifications.live import bell_frame
from tests.tournaments.helpers import create, current_round, play_round, players, sign_up, staff, start
from tests.tournaments.test_notices import told
from tournaments import services
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def test_a_round_s_notice_carries_when_its_table_starts_to_the_open_page() -> None:
    tournament = create(staff(), name="Offer cup")
    entrants = players(4)
    sign_up(tournament, entrants)
    start(tournament)
    round_ = current_round(tournament)
    notice = told(kinds.ROUND_READY)[0]
    assert datetime.fromisoformat(notice.data["until"]) == round_.tables_start_at
    new = bell_frame(notice.recipient_id, notice.pk)["bell"]["new"]
    assert new["until"] == round_.tables_start_at.isoformat() and datetime.fromisoformat(new["now"])
    assert new["url"] == reverse("table", args=[notice.table_id])


def test_the_end_tells_each_player_still_in_their_place_and_prize() -> None:
    tournament = create(staff(), name="Prize cup", entry_fee=10, prize_split="100", rounds=1)
    entrants = players(5)
    sign_up(tournament, entrants)
    services.entry_withdraw(tournament_id=tournament.pk, user=entrants[4], now=tournament.starts_at)
    start(tournament)
    play_round(current_round(tournament), present=entrants[:4])
    notices = told(kinds.TOURNAMENT_FINISHED)
    assert [n.recipient for n in notices] == entrants[:4]  # the one who withdrew is not told
    for notice in notices:
        entry = Entry.objects.get(tournament=tournament, user=notice.recipient)
        words = texts.text(notice)
        assert words.startswith(f"Prize cup is over: you placed {entry.rank} of 4.")
        assert (f"Your prize: {entry.prize} coins." in words) == bool(entry.prize)
        assert texts.link(notice) == reverse("tournament", args=[tournament.pk])
    winner = next(n for n in notices if Entry.objects.get(tournament=tournament, user=n.recipient).prize)
    prize = Entry.objects.get(tournament=tournament, user=winner.recipient).prize
    with translation.override("et"):
        assert f"Sinu auhind: {prize} münti." in texts.text(winner)
