"""The Estimation presenter and template: seats around the table, only legal choices, nothing hidden leaks."""

from __future__ import annotations

import re

from django.conf import settings
from django.template.loader import render_to_string

from games.engines import estimation as E
from tables.render.fragment import Snapshot
from tables.render.presenters.estimation import present

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def act(state: E.State, action: dict) -> E.State:
    return E.apply(state, E.to_act(state)[0], action)


def call_round() -> E.State:
    return E.scenario(dealer=0, length="mini")  # Round 1 of 10: a call round, seat 1 acts first.


def auction_after_4_spades() -> E.State:
    state = call_round()
    for _ in range(4):
        state = act(state, {"type": "decline"})
    return act(state, {"type": "call", "tricks": 4, "trump": "S"})


def fixed_round_estimates() -> E.State:
    return E.scenario(dealer=0, length="micro")  # Every micro round is fixed: estimates first.


def playing() -> E.State:
    state = fixed_round_estimates()
    for value in (3, 3, 3, 3):
        state = act(state, {"type": "estimate", "value": value})
    return state


def render(state: E.State, seat: int | None) -> str:
    view = E.view(state, seat)
    snap = Snapshot(
        table_id=1,
        game="estimation",
        status="playing",
        options={"length": "mini"},
        seat_count=4,
        stake=0,
        host_id=1,
        host_name="Ann",
        closed_reason="",
        seats=(),
        version=7,
    )
    context = {"view": view, "g": present(view, NAMES, seat), "snap": snap, "names": NAMES, "viewer_seat": seat}
    return render_to_string("tables/games/estimation.html", context)


def test_the_viewer_sits_at_the_bottom_and_play_goes_clockwise() -> None:
    # The seats are written in seat order, the same for every viewer (so they can be shared); the
    # stylesheet turns the table from the viewer's seat: bottom, left, top, right.
    g = present(E.view(call_round(), 2), NAMES, 2)
    assert g["bottom"] == 2
    assert [s["name"] for s in g["seats"]()] == NAMES and g["seats"]()[0]["is_dealer"]
    assert 'class="est-table from-2 me-2"' in render(call_round(), 2)
    css = (settings.BASE_DIR / "static" / "css" / "games" / "estimation.css").read_text()
    areas = r'{{ grid-template-areas: "\. {0}(\d) \." "{0}(\d) {1} {0}(\d)" "\. {0}(\d) \."; }}'
    for bottom in range(4):
        clockwise = tuple((bottom + step) % 4 for step in range(4))  # bottom, left, top, right
        for rule in (
            rf"\.est-table\.from-{bottom} " + areas.format("s", "trick"),
            rf"\.from-{bottom} \.est-trick " + areas.format("t", "m"),
        ):
            top, left, right, low = map(int, re.search(rule, css).groups())
            assert (low, left, top, right) == clockwise


def test_a_spectator_sees_seat_one_at_the_bottom_and_has_no_choices() -> None:
    g = present(E.view(call_round(), None), NAMES, None)
    assert g["bottom"] == 0
    assert not g["my_turn"] and g["hand"] == [] and g["dash"] == []
    assert g["waiting"] == "Waiting for <bdi>Bob</bdi> to Dash Call or decline."  # RULING P54
    assert "me-" not in render(call_round(), None)


def test_the_dash_call_buttons_come_from_the_legal_actions() -> None:
    g = present(E.view(call_round(), 1), NAMES, 1)
    assert [a["type"] for a in g["dash"]] == ["dash_call", "decline"]
    assert g["waiting"] == "Your turn to Dash Call or decline."


def test_the_call_grid_enables_only_calls_above_the_standing_call() -> None:
    state = auction_after_4_spades()
    seat = E.to_act(state)[0]
    g = present(E.view(state, seat), NAMES, seat)
    grid = {
        (row["tricks"], cell["trump"]["code"]): not cell["disabled"] for row in g["call_grid"] for cell in row["cells"]
    }
    assert len(grid) == 50
    assert not grid[(4, "C")] and not grid[(4, "S")]
    assert grid[(4, "NT")] and grid[(5, "C")] and grid[(13, "NT")]
    assert g["can_pass"]
    side = g["side"]()
    assert side["standing"]["name"] == "Bob" and side["standing"]["tricks"] == 4
    assert side["auction"][-1]["name"] == "Bob" and side["auction"][-1]["call"]["tricks"] == 4


def test_fixed_round_estimates_offer_super_calls_from_8() -> None:
    state = fixed_round_estimates()
    seat = E.to_act(state)[0]
    estimates = present(E.view(state, seat), NAMES, seat)["estimates"]
    assert estimates["plain"] == list(range(14))
    assert [row["value"] for row in estimates["supers"]] == [8, 9, 10, 11, 12, 13]
    assert [o["trump"]["code"] for o in estimates["supers"][1]["options"]] == ["NT", "S", "H", "D", "C"]
    assert str(estimates["supers"][1]["options"][2]["label"]).startswith('9 + <span class="suit red suit-H"')


def test_the_hand_disables_cards_that_do_not_follow_suit() -> None:
    state = playing()
    leader = E.to_act(state)[0]
    state = E.apply(state, leader, E.legal_actions(state, leader)[0])
    seat = E.to_act(state)[0]
    view = E.view(state, seat)
    g = present(view, NAMES, seat)
    legal = {a["card"] for a in view["legal_actions"]}
    assert g["hand_playable"]
    assert {h["card"] for h in g["hand"] if not h["disabled"]} == legal
    assert len(g["hand"]) == 13
    leader_seat = g["seats"]()[leader]
    assert leader_seat["card"] and leader_seat["leads"]


def test_the_score_sheet_explains_each_seats_points() -> None:
    state = playing()
    number = state.round_number
    while state.round_number == number:
        seat = E.to_act(state)[0]
        state = E.apply(state, seat, E.legal_actions(state, seat)[0])
    g = present(E.view(state, 0), NAMES, 0)
    (row,) = g["sheet"]()
    assert row["number"] == 1 and row["trump"]["code"] == "NT"
    entry = E.view(state, 0)["score_sheet"][0]
    assert [c["points"] for c in row["cells"]] == entry["points"]
    assert all(c["explain"].startswith(("+", "-", "0")) for c in row["cells"])
    assert g["side"]()["last_trick"] is None  # A new round has started.


def test_the_page_shows_only_the_viewers_cards() -> None:
    state = playing()
    html = render(state, 0)
    mine = E.view(state, 0)["hand"]
    for seat in range(1, 4):
        for card in state.hands[seat]:
            if card not in mine:
                assert f'value="{card}"' not in html
    assert html.count('name="type" value="play"') == (13 if E.to_act(state) == [0] else 0)


def test_the_page_renders_every_phase_for_players_and_spectators() -> None:
    for state in (call_round(), auction_after_4_spades(), fixed_round_estimates(), playing()):
        for seat in (None, 0, 1, 2, 3):
            html = render(state, seat)
            assert 'id="game"' in html and "Score sheet" in html
    html = render(auction_after_4_spades(), E.to_act(auction_after_4_spades())[0])
    assert html.count('value="call"') == 50 and 'value="pass"' in html
