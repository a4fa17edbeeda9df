"""SITA's presenter and template: rows with penalties, the hand, the reveal, the too-low choice."""

from __future__ import annotations

from django.template.loader import render_to_string

from games.engines import sita
from games.engines.sita import scenario
from tables.render.presenters import present

NAMES = ["Ann", "Bob", "Cy"]


def three_seats() -> sita.State:
    return scenario([[43, 60, 7], [95, 96, 2], [55, 70, 3]], [[12], [38, 39, 40, 41, 42], [90], [100]])


def shaped(state: sita.State, seat: int | None) -> tuple[dict, dict]:
    view = sita.view(state, seat)
    return view, present("sita", view, NAMES, seat)


def render(state: sita.State, seat: int | None) -> str:
    view, g = shaped(state, seat)
    return render_to_string(
        "tables/games/sita.html",
        {
            "view": view,
            "g": g,
            "names": NAMES,
            "viewer_seat": seat,
            "snap": {"version": 7},
        },
    )


def test_rows_carry_their_cards_penalties_and_totals() -> None:
    _, g = shaped(three_seats(), 0)
    assert [row["number"] for row in g["rows"]] == [1, 2, 3, 4]
    assert g["rows"][1]["cards"][2] == {"n": 40, "p": 3, "new": False}
    assert g["rows"][1]["points"] == 1 + 1 + 3 + 1 + 1
    assert g["rows"][1]["full"] and not g["rows"][0]["full"]
    assert g["rows"][0]["slots"] == [0, 1, 2, 3]
    assert g["rows"][3]["points_label"] == "3 points"


def test_the_hand_is_clickable_until_a_choice_locks_it() -> None:
    state = three_seats()
    _, g = shaped(state, 0)
    assert g["my_turn"] and all(card["legal"] for card in g["hand"])
    assert g["status"] == "Choose a card."
    state = sita.apply(state, 0, {"type": "choose", "card": 43})
    _, g = shaped(state, 0)
    assert not g["my_turn"] and g["locked"] == 43
    assert [card["n"] for card in g["hand"] if card["locked"]] == [43]
    assert not any(card["legal"] for card in g["hand"])
    # RULING P54: each name isolated in <bdi>.
    assert g["status"] == "Your 43 is locked. Waiting for <bdi>Bob</bdi> and <bdi>Cy</bdi>."


def test_others_see_who_is_still_choosing_but_never_what() -> None:
    state = sita.apply(three_seats(), 0, {"type": "choose", "card": 43})
    _, g = shaped(state, 1)
    assert [(p["name"], p["chosen"], p["choosing"]) for p in g["players"]] == [
        ("Ann", True, False),
        ("Bob", False, True),
        ("Cy", False, True),
    ]
    html = render(state, 1)
    assert "chosen ✓" in html and "choosing…" in html
    assert ">43<" not in html  # Ann's locked card never reaches Bob's page (RULING T2).


def test_a_locked_choice_renders_highlighted_and_the_rest_disabled() -> None:
    html = render(sita.apply(three_seats(), 0, {"type": "choose", "card": 43}), 0)
    assert 'class="card-btn locked"' in html
    assert html.count("disabled") == 2  # 60 and 7.


def test_the_reveal_says_where_each_card_went_and_what_it_took() -> None:
    state = three_seats()
    for seat, card in enumerate((43, 95, 70)):
        state = sita.apply(state, seat, {"type": "choose", "card": card})
    _, g = shaped(state, 0)
    cards = {card["n"]: card for card in g["revealed"]["cards"]}
    assert [card["n"] for card in g["revealed"]["cards"]] == [43, 70, 95]
    assert cards[43]["row_number"] == 2 and cards[43]["took"] == [
        {"n": n, "p": sita.penalty(n)} for n in (38, 39, 40, 41, 42)
    ]
    assert cards[43]["took_points"] == 7 and cards[43]["name"] == "Ann"
    assert cards[70]["row_number"] == 2 and not cards[70]["took"]  # 43 now ends row 2.
    assert g["turn_sheet"] == [{"turn": 8, "points": [7, 0, 0]}]
    assert g["players"][0]["penalty"] == 7 and g["players"][0]["total"] == 7
    assert [c["n"] for row in g["rows"] for c in row["cards"] if c["new"]] == [43, 70, 95]
    html = render(state, 0)
    assert "Turn 8 revealed" in html and "took it" in html


def test_a_too_low_card_offers_its_owner_four_rows_and_tells_the_others() -> None:
    state = three_seats()
    for seat, card in enumerate((60, 2, 70)):
        state = sita.apply(state, seat, {"type": "choose", "card": card})
    _, g = shaped(state, 1)
    assert g["pending"]["mine"] and g["pending"]["card"] == {"n": 2, "p": 1}
    assert [o["label"] for o in g["pending"]["options"]] == [
        "Take row 1 (1 point)",
        "Take row 2 (7 points)",
        "Take row 3 (3 points)",
        "Take row 4 (3 points)",
    ]
    assert g["revealed"]["waiting"]
    html = render(state, 1)
    assert html.count('name="type" value="take_row"') == 4 and "Take row 2 (7 points)" in html
    _, other = shaped(state, 0)
    assert other["pending"]["options"] == [] and other["status"] == "<bdi>Bob</bdi> is choosing a row to take."
    assert "Take row" not in render(state, 0)


def test_a_spectator_sees_no_hand() -> None:
    _, g = shaped(three_seats(), None)
    assert g["hand"] == [] and not g["my_turn"]
    assert 'id="hand"' not in render(three_seats(), None)


def test_labels_and_the_score_sheet_after_a_match() -> None:
    state = scenario([[43], [95], [70]], [[12], [38], [90], [100]], matches=2)
    _, g = shaped(state, 0)
    assert g["match_label"] == "Match 1 of 2" and g["turn_label"] == "Turn 10 of 10"
    for seat, card in enumerate((43, 95, 70)):
        state = sita.apply(state, seat, {"type": "choose", "card": card})
    _, g = shaped(state, 0)
    assert g["match_label"] == "Match 2 of 2" and g["turn_label"] == "Turn 1 of 10"
    assert g["match_sheet"] == [{"number": 1, "penalties": [0, 0, 0], "totals": [0, 0, 0]}]
    assert 'id="score-sheet"' in render(state, 0)
