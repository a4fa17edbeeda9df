"""Two players sign up for a tournament on its page; it starts and its first round is played
through the services; the page's standings update over the socket (issue 41). Screenshots of the
page on a laptop, a phone and in Arabic go to test-artifacts/ (and SHOTS_DIR when it is set)."""

from __future__ import annotations

import os
import shutil
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from accounts.models import User
from tests.browser.conftest import PASSWORD, in_thread, log_in, screenshot
from tests.tournaments.helpers import current_round, play_round, players, staff
from tournaments import selectors, services
from tournaments.models import Entry

# Transactional: the site under test (its Daphne and Celery worker processes) reads what the test writes.
pytestmark = pytest.mark.django_db(transaction=True)


def keep(path: Path) -> None:
    folder = os.environ.get("SHOTS_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(folder) / path.name)


def test_two_players_sign_up_and_watch_the_standings_update(new_page) -> None:
    tournament = in_thread(
        lambda: services.tournament_create(
            creator=staff(),
            name="Friday Estimation cup",
            game="estimation",
            options={"length": "micro"},
            starts_at=timezone.now() + timedelta(hours=2),
            rounds=2,
            table_size=4,
            min_players=4,
            max_players=16,
            entry_fee=20,
            prize_split="50/30/20",
        )
    )
    others = in_thread(lambda: players(4, "guest"))
    for user in others:
        in_thread(lambda user=user: services.entry_signup(tournament_id=tournament.pk, user=user))
    ana = User.objects.create_user(
        username="ana", email="ana@example.com", password=PASSWORD, time_zone="Europe/Tallinn"
    )
    ben = User.objects.create_user(username="ben", email="ben@example.com", password=PASSWORD, language="ar")
    pages = []
    for user, mobile in ((ana, False), (ben, True)):
        page = new_page(mobile=mobile)
        if not mobile:
            page.set_viewport_size({"width": 1366, "height": 800})
        log_in(page, user.username)
        page.goto(f"/tournaments/{tournament.pk}/")
        page.click("#sign-up")
        page.wait_for_selector("text=✓", state="detached")
        pages.append(page)
    assert set(Entry.objects.filter(state="active").values_list("user__username", flat=True)) >= {"ana", "ben"}
    laptop, phone = pages
    laptop.wait_for_selector("#t-standings >> text=ana")
    keep(screenshot(laptop, "tournament-signup-laptop"))

    # The start time comes; round 1 is seated and played (prepared through the services).
    in_thread(lambda: services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at))
    laptop.wait_for_selector("#t-rounds >> text=Round 1")
    phone.wait_for_selector("#t-rounds .t-round")
    round_ = in_thread(lambda: current_round(tournament))
    in_thread(lambda: play_round(round_, present=[*others, ana, ben]))
    # Round 1's points reach both pages over the socket, without a reload.
    laptop.wait_for_selector("#t-rounds >> text=Round 2")
    # The page's first row: the standings' own order (points, then wins and Buchholz, RULING P78),
    # not the points alone, which several players may share.
    leader = in_thread(lambda: selectors.standings(tournament)[0].entry)
    assert leader.half_points > 0
    laptop.wait_for_selector(f"#t-standings tbody tr:first-child >> text={leader.user.username}")
    phone.wait_for_selector("#t-rounds .t-round >> nth=1")
    keep(screenshot(laptop, "tournament-laptop"))
    keep(screenshot(phone, "tournament-phone-ar"))
    english_phone = new_page(mobile=True)
    log_in(english_phone, ana.username)
    english_phone.goto(f"/tournaments/{tournament.pk}/")
    keep(screenshot(english_phone, "tournament-phone"))
