"""The live fragment: its per-process sharing (right for every viewer, never across versions) and its escaping."""

from __future__ import annotations

import pytest
import time_machine
from django.template import engines
from markupsafe import Markup, escape

from games.catalog import get_engine
from games.templatetags.card_tags import card, cards, escape_text
from tables.render.fragment import SeatInfo, Snapshot, live_context, render_live
from tables.render.templates import SHARED_BLOCKS
from tests.tables.snapshots import playing_snapshot

SHEET = engines["jinja2"].from_string('{% call shared_by_version(snap, "sheet") %}{{ rows }}{% endcall %}')


def snapshot(version: int, state: str = "s", extra: dict | None = None, game: str = "sita") -> Snapshot:
    return playing_snapshot(game, seat_count=2, match_id=99, version=version, state=state, extra=extra or {})


def test_a_shared_block_renders_once_per_version_and_again_for_the_next() -> None:
    first = SHEET.render({"snap": snapshot(1), "rows": "A"})
    again = SHEET.render({"snap": snapshot(1), "rows": "B"})  # same version: the block is reused
    later = SHEET.render({"snap": snapshot(2), "rows": "B"})
    other_game = SHEET.render({"snap": snapshot(1, state="another"), "rows": "C"})  # reused ids
    assert (first, again, later, other_game) == ("A", "A", "B", "C")


@pytest.mark.parametrize("game, seats", [("sitaratas", 3), ("estimation", 4), ("sita", 3)])
@time_machine.travel("2026-12-01 12:00Z", tick=False)  # the fragment carries the server's time (the turn clock)
def test_sharing_never_changes_what_a_viewer_sees(game, seats) -> None:
    # Every seat and a spectator, version after version through a whole game: the fragment with
    # the process's shared blocks is byte for byte the fragment rendered with nothing shared.
    engine = get_engine(game)
    options = engine.validate_options(seats, {"length": "micro"} if game == "estimation" else {})
    state = engine.new_game(seats, options, 23)
    version = 0
    while True:
        snap = playing_snapshot(
            game, seat_count=seats, options=options, match_id=96, seed=23, version=version, state=engine.dumps(state)
        )
        viewers = [*range(1, seats + 1), None]
        shared = [render_live(snap, user_id=viewer, connected=set()) for viewer in viewers]
        for viewer, html in zip(viewers, shared):
            SHARED_BLOCKS.clear()
            assert render_live(snap, user_id=viewer, connected=set()) == html, (version, viewer)
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        state = engine.apply(state, seat, engine.legal_actions(state, seat)[-1])
        version += 1


ROUND_SHEET = engines["jinja2"].from_string('{% call shared_by_round(snap, "sheet", rounds) %}{{ rows }}{% endcall %}')


def test_a_round_block_renders_once_per_round_and_match() -> None:
    from dataclasses import replace

    first = replace(snapshot(1, "s1"), seed=5)
    assert ROUND_SHEET.render({"snap": first, "rows": "A", "rounds": 3}) == "A"
    later = replace(first, version=2, state="s2")  # a later move of the same round: reused
    assert ROUND_SHEET.render({"snap": later, "rows": "B", "rounds": 3}) == "A"
    assert ROUND_SHEET.render({"snap": replace(first, version=9), "rows": "C", "rounds": 4}) == "C"
    assert ROUND_SHEET.render({"snap": replace(first, seed=6), "rows": "D", "rounds": 3}) == "D"  # a reused id
    renamed = replace(first, seats=(SeatInfo(0, 1, "Zoe", "p0", False, True), *first.seats[1:]))
    assert ROUND_SHEET.render({"snap": renamed, "rows": "E", "rounds": 3}) == "E"


def test_the_dismissal_offer_follows_the_round_not_the_snapshot() -> None:
    # RULING S12: proposals only in rounds 1..N, though the snapshot was read in round 1.
    engine = get_engine("sitaratas")
    state = engine.new_game(3, {}, 5)
    vote = {"can_propose": True, "rounds": 3, "round_number": 1, "open": False}
    snap = playing_snapshot(
        "sitaratas",
        seat_count=3,
        options=engine.validate_options(3, {}),
        match_id=98,
        version=0,
        state=engine.dumps(state),
        extra={"vote": vote},
    )
    assert live_context(snap, user_id=1, connected=set())["vote"]["can_propose"] is True
    while engine.view(state, None)["round_number"] <= 3:
        seat = engine.to_act(state)[0]
        state = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    later = snap.with_state(version=50, state=engine.dumps(state))
    assert live_context(later, user_id=1, connected=set())["vote"]["can_propose"] is False


NASTY = "<script>alert(\"Ann\" & 'Bo')</script>"


@pytest.mark.parametrize("game, seats", [("sitaratas", 3), ("estimation", 4), ("sita", 2)])
def test_a_players_name_is_escaped_wherever_the_fragment_shows_it(game, seats) -> None:
    # Display names are the players' own text: the live fragment must never write them as HTML.
    engine = get_engine(game)
    options = engine.validate_options(seats, {})
    state = engine.new_game(seats, options, 11)
    for _ in range(6):  # into play, so names show in the status, the board and the score sheet
        seat = engine.to_act(state)[0]
        state = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    named = tuple(SeatInfo(i, i + 1, NASTY if i == 1 else f"P{i}", f"p{i}", False, True) for i in range(seats))
    snap = playing_snapshot(
        game,
        seat_count=seats,
        options=options,
        host_id=2,
        host_name=NASTY,
        seats=named,
        match_id=97,
        version=6,
        state=engine.dumps(state),
    )
    for viewer in (1, 2, None):
        html = render_live(snap, user_id=viewer, connected={1, 2}, oob=True)
        assert NASTY not in html and "<script" not in html
        assert escape(NASTY) in html
        assert 'class="card' in html  # the cards, safe HTML, are written as they are


@pytest.mark.parametrize("value", ["plain", NASTY, 7, None, 2.5, Markup("<i>safe</i>"), ["<x>"]])
def test_the_live_templates_escape_exactly_as_markupsafe_does(value) -> None:
    assert escape_text(value) == str(escape(value))


def test_a_shown_hand_is_the_cards_drawn_one_by_one() -> None:
    hand = ["AS", "10H", "RJ", "2C"]
    assert cards(hand) == "".join(card(code) for code in hand)
    assert cards(hand, size="small") == "".join(card(code, size="small") for code in hand)
    assert isinstance(cards(hand), Markup) and cards([]) == ""
