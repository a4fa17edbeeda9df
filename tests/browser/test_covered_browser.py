"""Nothing a decision depends on is covered (issue 53, items 1 and 2): in every game and phase
(Sitaratas bidding after a round and mid-trick; Estimation bidding, estimating after a round and
mid-trick; SITA choosing and taking a row), at 1366×768 and on phones 390×844 and 360×800, in
English, Estonian and Arabic, with the player's turn clock running:

* each control the player may press is what lies under its own centre (``elementFromPoint``):
  no clock chip, dock or panel over it;
* each thing the player reads to decide (their own seat and every seat, the trick, every row in
  SITA, every line of the last round's result, the dock's own words) is in the viewport and
  nothing lies over any of nine points spread over its box.

One table per phase, set up through the services; the viewer's language changes between
passes. The viewport of each is saved in test-artifacts/covered-<game>-<phase>-<language>-<size>.png.
"""

from __future__ import annotations

import itertools
import time

import pytest

from accounts.models import User
from games import catalog
from games.models import Match
from games.records import fairness as protocol
from tables.services import lobby, play
from tests.browser.conftest import ARTIFACTS, in_thread, log_in
from tests.browser.helpers import LAPTOP, PHONE, decision_problems, hold_clock
from tests.conftest import make_user
from tests.helpers import fair_value
from tests.tables.helpers import fill_with_bots, play_bots_until_human, state_of

pytestmark = pytest.mark.browser

NARROW = {**PHONE, "viewport": {"width": 360, "height": 800}}
SIZES = {"laptop": LAPTOP, "phone": PHONE, "narrow": NARROW}
SHORT = {"sitaratas": {"deck": "jokers"}, "estimation": {"length": "mini"}, "sita": {"matches": 1}}

# What the player reads to decide, per game (every match of each selector; those absent in a phase are skipped).
READ = {
    "estimation": ["#game .est-headline", "#game .est-seat", "#game .est-trick", "#game .est-round-summary h3",
                   "#game .est-round-summary li", "#dock p"],
    "sitaratas": ["#game .st-info", "#game #st-others .st-seat", "#game .st-trick h3", "#game .st-slot",
                  "#game .round-summary h3", "#game .round-summary li", "#game #st-me .st-seat", "#dock p"],
    "sita": ["#game .sita-status", "#game .sita-row", "#take-row h2", "#take-row p", "#dock .sita-hand-head"],
}  # fmt: skip


# Issue 53: a finished trick on the table is not shown a second time as the last trick.
SHOWN_ONCE = {
    "estimation": ("#game .est-trick .slot.won", "#game .est-last"),
    "sitaratas": ("#game .st-slot.won", "#st-last"),
}
# Issue 53: names under the trick are whole on a phone, not cut ("Boris (s…").
WHOLE = {"sitaratas": "#game .st-slot-name"}
CUT = """sel => Array.from(document.querySelectorAll(sel)).filter((el) => el.scrollWidth > el.clientWidth + 1)
    .map((el) => `${el.textContent.trim()} cut (${el.scrollWidth} > ${el.clientWidth})`)"""


def _prefer(legal: list[dict]) -> dict:
    """The viewer's move while the game is walked on: decline, pass, else the first legal one."""
    return next((a for a in legal if a.get("type") in ("decline", "pass")), legal[0])


def _walk(viewer: User, game: str, until, seats: int | None = None) -> int:
    """A table of ``game`` (the viewer and bots, a turn clock) played on until ``until(engine, state)``
    holds at the viewer's turn; its clock then held for the viewer. Returns the match id."""
    seats = seats or catalog.get(game).max_players
    for _ in range(6):
        table = lobby.table_create(host=viewer, game=game, seat_count=seats, options=SHORT[game], clock_seconds=120)
        fill_with_bots(table, viewer)
        match = lobby.table_start(table_id=table.pk, host=viewer, entropy=fair_value())
        while (match := play_bots_until_human(match)).status == Match.Status.PLAYING:
            engine, state = state_of(match)
            legal = engine.legal_actions(state, 0)
            if until(engine, state, legal):
                return match.pk
            playing = game == "sita" and legal[0]["type"] == "choose"
            action = min(legal, key=lambda a: a["card"]) if playing else _prefer(legal)
            play.match_act(match_id=match.pk, user=viewer, action=action, version=match.version)
    raise AssertionError(f"no {game} game reached the phase")


def _est(phase: str, later: bool = False):
    def until(engine, state, legal) -> bool:
        return (
            state.phase in phase.split()
            and (not later or bool(state.history))
            and (phase != "playing" or bool(state.trick))
        )

    return until


def _refused_in_range(state, legal: list[dict]) -> bool:
    """In a call round the viewer estimates last and the value making the estimates total 13 lies
    among the shown ones."""
    values = [a["value"] for a in legal if a.get("type") == "estimate" and "trump" not in a]
    refused = 13 - sum(value for value in state.estimates if value is not None)
    # A call round: its values stop at the call. (A fixed round's fourteen values and the Super
    # Call do not fit a phone with the seats and the result: not yet laid out, see issue 53's notes.)
    last = state.kind == "call" and list(state.estimates).count(None) == 1
    return last and bool(values) and refused not in values and 0 <= refused < max(values)


PHASES = {
    "estimation": {
        "bidding": _est("dash_call auction"),
        "estimating-after-a-round": _est("estimating", later=True),
        # The viewer estimates last and a value among the offered is refused: the dock says why.
        "estimating-last": lambda engine, state, legal: (
            state.phase == "estimating" and bool(state.history) and _refused_in_range(state, legal)
        ),
        "mid-trick": _est("playing"),
        "trick-just-won": lambda engine, state, legal: (
            state.phase == "playing" and not state.trick and bool(state.tricks)
        ),
    },
    "sitaratas": {
        "bidding-after-a-round": lambda engine, state, legal: None in state.round.bids and bool(state.past),
        "mid-trick": lambda engine, state, legal: None not in state.round.bids and bool(state.plays),
        "trick-just-won": lambda engine, state, legal: (
            None not in state.round.bids and not state.plays and bool(state.round.tricks)
        ),
    },
    "sita": {
        "choosing": lambda engine, state, legal: state.turn > 1 and legal[0]["type"] == "choose",
        "take-row": lambda engine, state, legal: legal[0]["type"] == "take_row",
    },
}


def _prepared(game: str) -> dict[str, int]:
    viewer = make_user(f"cover{game[:4]}")
    return {phase: _walk(viewer, game, until) for phase, until in PHASES[game].items()}


@pytest.fixture
def fixed_deals(monkeypatch) -> None:
    """The same deals and bot moves on every run, whatever the database's ids: a layout that fails
    on one deal (a longer result, more buttons) fails every time, not now and then."""
    numbers = itertools.count(1)
    derive, bot_seed = protocol.derive_seed_v2, protocol.bot_seed
    monkeypatch.setattr(protocol, "new_secret", lambda: f"{next(numbers):064x}")
    monkeypatch.setattr(protocol, "derive_seed_v2", lambda *args: (derive(*args)[0], int(args[0], 16) * 7919))
    monkeypatch.setattr(
        protocol, "bot_seed", lambda secret, match_id, *rest, **named: bot_seed(secret, 0, *rest, **named)
    )


@pytest.mark.parametrize("game", ["estimation", "sitaratas", "sita"])
def test_nothing_a_decision_needs_is_covered(browser, site_url, transactional_db, settings, game, fixed_deals) -> None:
    settings.MAX_GAMES_IN_PLAY = 10
    matches = in_thread(lambda: _prepared(game))
    tables = dict(in_thread(lambda: list(Match.objects.filter(pk__in=matches.values()).values_list("pk", "table_id"))))
    problems: dict[str, list[str]] = {}
    for language in ("en", "et", "ar"):
        in_thread(lambda language=language: User.objects.filter(username=f"cover{game[:4]}").update(language=language))
        in_thread(lambda: [hold_clock(match_id) for match_id in matches.values()])
        started = time.monotonic()
        for size, options in SIZES.items():
            context = browser.new_context(base_url=site_url, **options)
            context.set_default_timeout(15_000)
            page = context.new_page()
            log_in(page, f"cover{game[:4]}", "a-long-pass-phrase")
            for phase, match_id in matches.items():
                page.goto(f"/tables/{tables[match_id]}/")
                page.wait_for_selector("#socket-status[data-state=open]")
                page.wait_for_selector("#game button:not([disabled])")
                page.wait_for_selector("#own-clock:not([hidden])")
                page.evaluate("document.fonts.ready")
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / f"covered-{game}-{phase}-{language}-{size}.png"))
                found = decision_problems(page, READ[game])
                if game in WHOLE:
                    found += page.evaluate(CUT, WHOLE[game])
                if phase == "trick-just-won":
                    won, last = SHOWN_ONCE[game]
                    assert page.locator(won).count(), f"{phase}: no won trick on the table"
                    if page.locator(last).is_visible():
                        found.append("the finished trick is shown twice (on the table and as the last trick)")
                if found:
                    problems[f"{language} {size} {phase}"] = found
            context.close()
        assert time.monotonic() - started < 100, "a pass took longer than the held clock"
    report = "\n".join(f"{where}: {found}" for where, found in problems.items())
    (ARTIFACTS / f"covered-problems-{game}.txt").write_text(report or "none\n")
    assert not problems, report
