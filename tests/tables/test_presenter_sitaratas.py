"""The Sitaratas presenter and template: only the viewer's view, legal actions as buttons."""

from __future__ import annotations

from django.template.loader import render_to_string

from games.engines import sitaratas
from games.engines.sitaratas import scenario
from tables.render.presenters.sitaratas import present

NAMES = ["Ann", "Bot Bert", "Cat"]


def _context(state, seat):
    view = sitaratas.view(state, seat)
    return {"view": view, "names": NAMES, "g": present(view, NAMES, seat), "snap": {"version": 7}}


def test_the_viewer_sits_first_and_the_others_follow_in_play_order() -> None:
    state = scenario([["6H", "7H"], ["8H", "9H"], ["10H", "JH"]], dealer=0)
    g = present(sitaratas.view(state, 1), NAMES, 1)
    assert g["me"]["seat"] == 1
    assert [box["seat"] for box in g["others"]] == [2, 0]
    assert g["others"][1]["is_dealer"]


def test_a_spectator_has_no_hand_and_sees_every_seat() -> None:
    state = scenario([["6H", "7H"], ["8H", "9H"], ["10H", "JH"]], dealer=0)
    g = present(sitaratas.view(state, None), NAMES, None)
    assert g["me"] is None
    assert g["hand"] == []
    assert [box["seat"] for box in g["others"]] == [0, 1, 2]
    html = render_to_string("tables/games/sitaratas.html", _context(state, None))
    assert "st-hand" not in html
    for card in ("6H", "7H", "8H", "9H", "10H", "JH"):
        assert f'title="{card}' not in html


def test_the_dealers_forbidden_bid_is_shown_but_disabled() -> None:
    # RULING S4: two cards, the others bid 1 + 0, so the dealer may not bid 1.
    state = scenario([["6H", "7H"], ["8H", "9H"], ["10H", "JH"]], dealer=0, bids=[None, 1, 0])
    g = present(sitaratas.view(state, 0), NAMES, 0)
    assert [(b["value"], b["locked"], b["forbidden"]) for b in g["bid_buttons"]] == [
        (0, False, False),
        (1, True, True),
        (2, False, False),
    ]
    html = render_to_string("tables/games/sitaratas.html", _context(state, 0))
    assert html.count("bid-btn") == 3
    assert 'class="bid-btn forbidden" disabled' in html


def test_only_legal_cards_are_enabled_and_a_joker_offers_high_and_low() -> None:
    state = scenario(
        [["6H", "7C", "RJ"], ["8H", "9H", "AS"], ["10H", "JH"]],
        dealer=1,
        bids=[1, 1, 0],
        leader=2,
        plays=[(2, "QH", None)],
        trump="S",
        indicator="6S",
    )
    g = present(sitaratas.view(state, 0), NAMES, 0)
    assert {h["card"]: h["locked"] for h in g["hand"]} == {"RJ": False, "6H": False, "7C": True}
    html = render_to_string("tables/games/sitaratas.html", _context(state, 0))
    assert 'name="joker" value="high"' in html and 'name="joker" value="low"' in html
    assert html.count('class="card-btn" disabled') == 1
    # The version is the page's, added as the button is pressed (static/js/table.js): a hand that
    # did not change is not sent again with every move (tables/render/regions.py).
    assert 'name="version"' not in html and 'name="command" value="act"' in html


def test_the_trump_line_says_how_trump_was_set() -> None:
    hands = [["6H"], ["8H"], ["10H"]]
    assert (
        present(sitaratas.view(scenario(hands, trump=None, indicator="BJ"), 0), NAMES, 0)["trump"]["name"] == "No trump"
    )
    drawn = present(sitaratas.view(scenario(hands, trump="H", indicator=None), 0), NAMES, 0)["trump"]
    assert drawn["indicator"] is None and "drawn" in drawn["note"]
    shown = present(sitaratas.view(scenario(hands, trump="S", indicator="KS"), 0), NAMES, 0)["trump"]
    assert shown["indicator"] == "KS" and shown["name"] == "Spades"


def test_the_trick_shows_each_seat_from_the_leader_with_joker_calls() -> None:
    state = scenario(
        [["6H", "7C"], ["8H", "9H"], ["10H", "JH"]],
        dealer=2,
        bids=[1, 1, 0],
        leader=1,
        plays=[(1, "BJ", "low"), (2, "QH", None)],
    )
    g = present(sitaratas.view(state, 0), NAMES, 0)
    assert [(s["seat"], s["card"], s["joker"]) for s in g["trick"]] == [
        (1, "BJ", "low"),
        (2, "QH", None),
        (0, None, None),
    ]
    assert g["trick"][2]["to_act"]
    html = render_to_string("tables/games/sitaratas.html", _context(state, 0))
    assert "st-call low" in html


def test_the_score_sheet_lists_finished_rounds_with_running_totals() -> None:
    state = scenario([["6H"], ["AS"], ["KH"]], dealer=0, trump="S", bids=[0, 1, 1], leader=1)
    for seat, card in ((1, "AS"), (2, "KH"), (0, "6H")):
        state = sitaratas.apply(state, seat, {"type": "play", "card": card})
    g = present(sitaratas.view(state, 0), NAMES, 0)
    row = g["score_rows"]()[0]
    assert row["cards"] == "1" and row["trump"] in ("♠", "♥", "♦", "♣", "NT")
    assert [(c["bid_won"], c["points"], c["exact"]) for c in row["cells"]] == [
        ("0/0", "\u2066+5\u2069", True),  # a signed figure reads the same right to left (issue 53)
        ("1/1", "\u2066+6\u2069", True),
        ("1/0", "0", False),
    ]
    assert g["score_totals"] == ["5", "6", "0"]
    assert g["last_trick"] == []  # a new round is dealt: the old trick is not shown


def test_the_dealers_note_counts_one_trick_and_several_in_good_words() -> None:
    # Issue 53: with one card each the note read "the bids would add up to the 1 trick".
    one = scenario([["6H"], ["8H"], ["10H"]], dealer=0, bids=[None, 1, 0])
    note = render_to_string("tables/games/sitaratas.html", _context(one, 0)).split('class="st-forbidden-note', 1)[1]
    assert "the bids would total 1 trick, as many as the round has." in note.split("</p>", 1)[0]
    two = scenario([["6H", "7H"], ["8H", "9H"], ["10H", "JH"]], dealer=0, bids=[None, 1, 0])
    note = render_to_string("tables/games/sitaratas.html", _context(two, 0)).split('class="st-forbidden-note', 1)[1]
    assert "the bids would total 2 tricks, as many as the round has." in note.split("</p>", 1)[0]
