"""Pushes of only the regions that changed (tables/render/regions.py): a browser that applies them to
what it was last sent shows exactly the whole new view, move after move through whole games."""

from __future__ import annotations

import pytest
import time_machine

from games.catalog import get_engine
from tables.render import regions
from tables.render.fragment import render_live
from tests.tables.snapshots import playing_snapshot


def test_the_scanner_finds_nested_regions_and_refuses_what_it_cannot_follow() -> None:
    html = (
        '<div id="live" a="1"><br><p id="x">t<img src="s"/><span id="y">u</span></p>'
        '<i>v</i><svg><path d=""/></svg></div>'
    )
    found = regions.scan(html)
    assert found["live"].children == ("x",) and found["x"].children == ("y",)
    assert html[found["y"].start : found["y"].end] == '<span id="y">u</span>'
    assert regions.scan('<div id="a"><p id="a"></p></div>') is None  # an id twice
    assert regions.scan('<div id="a"><p></div>') is None  # not nested
    assert regions.scan('<div id="a">') is None  # not closed


def test_an_attribute_with_a_bracket_is_read_whole() -> None:
    found = regions.scan('<div id="live" title="a > b"><p id="x">1</p></div>')
    assert found["x"].children == ()


def _page(head: str, x: str, y: str) -> str:
    return (
        f'<div id="live" hx-swap-oob="true" data-version="{head}" class="live"><div id="live-meta" hidden></div>'
        f'<p id="x">{x}</p><p id="y">{y}</p></div>'
    )


def test_only_what_changed_is_sent_with_the_meta() -> None:
    old, new = _page("1", "a" * 500, "b"), _page("2", "a" * 500, "c")
    message = regions.changes(old, new)
    assert message == '<div id="live-meta" data-version="2" data-live-class="live" hidden></div><p id="y">c</p>'
    assert regions.apply(old, message) == new


def test_the_whole_view_when_its_outline_changes_or_versions_jump() -> None:
    old = _page("1", "a", "b")
    grown = old.replace('<p id="y">', '<p id="z">z</p><p id="y">')
    assert regions.changes(old, grown) is None
    assert regions.changes(old, _page("3", "a", "b")) is None  # a version gap
    everything = regions.changes(_page("1", "a" * 500, "b" * 500), _page("2", "q" * 500, "r" * 500))
    assert everything is None  # everything changed: as cheap whole


@pytest.mark.parametrize("game, seats", [("sitaratas", 3), ("estimation", 4), ("sita", 4)])
@time_machine.travel("2026-12-01 12:00Z", tick=False)
def test_applied_changes_rebuild_every_view_through_a_whole_game(game, seats) -> None:
    engine = get_engine(game)
    options = engine.validate_options(seats, {"length": "micro"} if game == "estimation" else {})
    state = engine.new_game(seats, options, 31)
    viewers = [*range(1, seats + 1), None]
    shown: dict[int | None, str] = {}
    sent = whole = partial = 0
    version = 0
    while True:
        snap = playing_snapshot(
            game,
            seat_count=seats,
            options=options,
            match_id=95,
            seed=31,
            match_status="finished" if engine.is_over(state) else "playing",
            version=version,
            state=engine.dumps(state),
        )
        for viewer in viewers:
            html = render_live(snap, user_id=viewer, connected=set(), oob=True)
            if viewer in shown:
                message = regions.changes(shown[viewer], html)
                if message is None:
                    shown[viewer] = html
                    sent += len(html)
                else:
                    assert 'id="live"' not in message
                    assert regions.apply(shown[viewer], message) == html, (version, viewer)
                    sent += len(message)
                    partial += 1
                    shown[viewer] = html
                whole += len(html)
            else:
                shown[viewer] = html
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        state = engine.apply(state, seat, engine.legal_actions(state, seat)[-1])
        version += 1
    assert partial > version  # most pushes are partial, for every viewer
    assert sent < whole / 2
