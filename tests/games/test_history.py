"""History: the lists and their filters, a game's page, its score sheet, chart and record, replays."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from accounts.models import User
from games.catalog import get_engine
from games.display.figures import formula
from games.display.scoresheets import score_sheet
from games.engines import estimation as E
from games.models import Match
from games.records import storage
from games.records.estimation import explain_points
from games.selectors.history import matches_ended, replay_steps
from games.templatetags.card_tags import number, signed
from tables.services import endings
from tests.conftest import make_user
from tests.games.history_helpers import finished_match, play_to_end, started_match
from tests.helpers import rolled_back_after

# One worker runs the module, so its games are built once a run (pytest-xdist's loadgroup).
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("history-games")]


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker) -> dict:
    """The personas and the games every test here reads, built once for the module (each game is
    seconds of play): a finished game of each kind, an aborted one, and one still being played."""
    with rolled_back_after(django_db_blocker):
        host, player, outsider = make_user("hana"), make_user("piet"), make_user("olga")
        admin = User.objects.create_superuser("admin", "admin@example.com", "a-long-pass-phrase")
        played = {game: finished_match(host, game, humans=(player,)) for game in ("sitaratas", "estimation", "sita")}
        aborted = play_to_end(started_match(outsider, "sita"), stop_after=0)
        endings.match_abort(match_id=aborted.pk, by=admin, reason="testing")
        played["aborted"] = Match.objects.get(pk=aborted.pk)
        played["live"] = play_to_end(started_match(outsider, "estimation"), stop_after=3)
        assert played["live"].status == Match.Status.PLAYING
        yield {"host": host, "player": player, "outsider": outsider, "games": played}


@pytest.fixture
def games(built) -> dict[str, Match]:
    return built["games"]


@pytest.fixture
def host(built) -> User:
    return built["host"]


@pytest.fixture
def outsider(built) -> User:
    return built["outsider"]


def test_the_list_shows_ended_games_newest_first_with_filters(client, games, host, outsider) -> None:
    ended = list(matches_ended())
    assert [m.pk for m in ended] == sorted(
        (games[k].pk for k in ("sitaratas", "estimation", "sita", "aborted")),
        key=lambda pk: Match.objects.get(pk=pk).ended_at,
        reverse=True,
    )
    assert games["live"].pk not in [m.pk for m in ended]
    assert [m.game for m in matches_ended(game="estimation")] == ["estimation"]
    assert {m.pk for m in matches_ended(player=outsider)} == {games["aborted"].pk}
    assert {m.pk for m in matches_ended(player=host, game="sita")} == {games["sita"].pk}

    page = client.get(reverse("history")).content.decode()
    for key in ("sitaratas", "estimation", "sita", "aborted"):
        assert reverse("match", args=[games[key].pk]) in page
    assert reverse("match", args=[games["live"].pk]) not in page
    filtered = client.get(reverse("history"), {"player": "olga", "game": "sita"}).content.decode()
    assert reverse("match", args=[games["aborted"].pk]) in filtered
    assert reverse("match", args=[games["sita"].pk]) not in filtered
    assert "There is no player" in client.get(reverse("history"), {"player": "nobody"}).content.decode()


def test_a_game_in_progress_shows_nothing_in_history(client, games) -> None:
    # RULING P2: no hands, no state, no record of a game being played, anywhere in history.
    live = games["live"]
    live.refresh_from_db()
    engine = get_engine(live.game)
    hands = engine.record(storage.full_state(live))["rounds"][-1]["deals"][-1]["hands"]
    for name in ("match", "match_record", "match_replay"):
        assert client.get(reverse(name, args=[live.pk])).status_code == 404
    pages = [
        client.get(reverse("history")).content.decode(),
        client.get(reverse("history"), {"player": "olga"}).content.decode(),
        client.get(reverse("profile", args=["olga"])).content.decode(),
    ]
    for page in pages:
        assert f"/games/{live.pk}/" not in page
        for card in hands[0]:
            assert f'title="{card[:-1]}' not in page or "card" not in page  # no card drawn at all
        assert 'class="card ' not in page


def test_an_aborted_game_page_shows_how_it_ended_but_no_hands(client, games) -> None:
    aborted = games["aborted"]
    page = client.get(reverse("match", args=[aborted.pk])).content.decode()
    assert "aborted by an admin" in page and "testing" in page
    assert 'class="card ' not in page and "Score sheet" not in page
    assert client.get(reverse("match_record", args=[aborted.pk])).status_code == 404
    assert client.get(reverse("match_replay", args=[aborted.pk])).status_code == 404


@pytest.mark.parametrize("game", ["sitaratas", "estimation", "sita"])
def test_a_finished_game_page_shows_the_score_sheet_whose_totals_equal_the_record(client, games, game) -> None:
    match = games[game]
    sheet = score_sheet(match.record)
    assert sheet["totals"] == match.record["totals"]
    assert len(sheet["rows"]) == len(match.record["rounds"])
    response = client.get(reverse("match", args=[match.pk]))
    page = response.content.decode()
    assert response.status_code == 200
    assert 'id="score-sheet"' in page and "<svg" in page and "<polyline" in page
    for mp in match.match_players.select_related("user"):
        assert mp.user.name in page
    footer = page.split("<tfoot>")[1].split("</tfoot>")[0]
    for total in match.record["totals"]:
        assert f">{number(total)}</th>" in footer  # a negative total with a true minus (issue 53)
    assert reverse("match_replay", args=[match.pk]) in page


def test_the_record_downloads_as_json(client, games) -> None:
    match = games["estimation"]
    response = client.get(reverse("match_record", args=[match.pk]))
    assert response["Content-Type"] == "application/json"
    assert "attachment" in response["Content-Disposition"]
    assert json.loads(response.content) == match.record


def test_estimation_lines_on_the_sheet_come_from_the_rule_book_scoring(games) -> None:
    record = games["estimation"].record
    for row, round_record in zip(score_sheet(record)["rows"], record["rounds"]):
        for seat, cell in enumerate(row["cells"]):
            # The rule book's line, its figures written as every figure is (issue 53: right to left too).
            assert cell["line"] == formula(explain_points(round_record, seat))
            assert cell["line"].startswith("0:" if round_record["saaydeh"] else f"{signed(cell['points'])}:")
            assert "-" not in cell["line"]


def _round(estimate, tricks, dash, caller, last, multiplier=1) -> dict:
    scored = E.score_round(estimate, tricks, dash, caller=caller, last_estimator=last, multiplier=multiplier)
    return {
        "number": 1,
        "kind": "call",
        "dealer": 3,
        "deals": [],
        "trump": "S",
        "caller": caller,
        "estimates": [],
        "estimate": estimate,
        "dash_call": dash,
        "tricks": [],
        "tricks_won": tricks,
        "multiplier": multiplier,
        **scored,
    }


NO = [False] * 4
# Every scoring case of the rule book (RULING E10, E11), with the line the sheet shows.
CASES = [
    # The worked round: Dash Call missed (Under), Caller made 7, 2 took 4, last on Risk made 1.
    (
        _round([0, 7, 2, 1], [1, 7, 4, 1], [True, False, False, False], 1, 3),
        [
            "-33: Dash Call missed in an Under round",
            "+27: made 7 (10 + 7) + 10 Caller",
            "-2: missed 2, took 4 (-2)",
            "+21: made 1 (10 + 1) + 10 Risk",
        ],
    ),
    # A Caller on 5 taking 3: -2 - 10 Caller.
    (_round([5, 3, 2, 1], [3, 3, 4, 3], NO, 0, 3), {0: "-12: missed 5, took 3 (-2) - 10 Caller"}),
    # The only player to make it: a Caller on 5 scores 35.
    (_round([5, 3, 2, 1], [5, 4, 1, 3], NO, 0, 3), {0: "+35: made 5 (10 + 5) + 10 Caller + 10 only winner"}),
    # A player on 3 taking 5: -2; With scores like the Caller; the only loser loses 10.
    (
        _round([5, 5, 2, 2], [5, 5, 2, 1], NO, 0, 3),
        {1: "+25: made 5 (10 + 5) + 10 With", 3: "-11: missed 2, took 1 (-1) - 10 only loser"},
    ),
    # The last estimator on 1 with a total of 15 (Risk): 21 made, -11 missed.
    (_round([6, 4, 4, 1], [6, 3, 3, 1], NO, 0, 3), {3: "+21: made 1 (10 + 1) + 10 Risk"}),
    (_round([6, 4, 4, 1], [6, 2, 3, 2], NO, 0, 3), {3: "-11: missed 1, took 2 (-1) - 10 Risk"}),
    # Dash Call made in an Under round: +33; in an Over round +25, and the only winner's +10.
    (
        _round([0, 5, 3, 2], [0, 5, 4, 4], [True, False, False, False], 1, 3),
        {0: "+33: Dash Call made in an Under round"},
    ),
    (
        _round([0, 7, 5, 4], [0, 6, 4, 3], [True, False, False, False], 1, 3),
        {0: "+35: Dash Call made in an Over round (+25) + 10 only winner"},
    ),
    # A plain Dash is an ordinary 0: 10 made, minus the tricks missed.
    (_round([6, 0, 3, 2], [6, 0, 4, 3], NO, 0, 3), {1: "+10: made 0 (10 + 0)"}),
    (_round([6, 0, 3, 2], [6, 1, 3, 3], NO, 0, 3), {1: "-1: missed 0, took 1 (-1)"}),
    # Sa'aydeh: all four miss, nobody scores; a multiplied round says so.
    (_round([5, 3, 2, 1], [4, 4, 3, 2], NO, 0, 3), ["0: Sa'aydeh, all four missed"] * 4),
    (
        _round([5, 3, 2, 1], [5, 4, 1, 3], NO, 0, 3, multiplier=2),
        {0: "+70: made 5 (10 + 5) + 10 Caller + 10 only winner, ×2"},
    ),
    # Double and Triple Risk (totals 9 and 7 away from 13).
    (_round([4, 2, 2, 1], [4, 2, 6, 1], NO, 0, 3), {3: "+31: made 1 (10 + 1) + 20 Double Risk"}),
    (_round([4, 1, 1, 1], [4, 1, 7, 1], NO, 0, 3), {3: "+41: made 1 (10 + 1) + 30 Triple Risk"}),
]


@pytest.mark.parametrize("round_record, expected", CASES)
def test_every_estimation_scoring_case_is_explained_as_the_rule_book_says(round_record, expected) -> None:
    record = {"game": "estimation", "totals": round_record["points"], "rounds": [round_record]}
    cells = score_sheet(record)["rows"][0]["cells"]
    expected = dict(enumerate(expected)) if isinstance(expected, list) else expected
    for seat, line in expected.items():
        assert cells[seat]["line"] == formula(line)  # its figures as every figure is written (issue 53)
        assert line.startswith(f"{cells[seat]['points']:+d}:" if cells[seat]["points"] else "0:")


@pytest.mark.parametrize("game", ["sitaratas", "estimation"])
def test_replay_steps_reproduce_every_trick_with_every_hand(games, game) -> None:
    record = games[game].record
    steps = replay_steps(record)
    for round_record in record["rounds"]:
        mine = [s for s in steps if s["round"] is round_record]
        deal = mine[0]
        dealt = round_record["hands"] if game == "sitaratas" else round_record["deals"][-1]["hands"]
        assert deal["kind"] == "deal" and [sorted(h) for h in deal["hands"]] == [sorted(h) for h in dealt]
        tricks = [s for s in mine if s["kind"] == "trick"]
        assert [s["trick"] for s in tricks] == round_record["tricks"]
        # Each step shows every hand as held when the trick began: the cards played leave it next.
        held = [sorted(h) for h in dealt]
        for step in tricks:
            assert [sorted(h) for h in step["hands"]] == held
            for play in step["trick"]["plays"]:
                held[play["seat"]].remove(play["card"])
        assert tricks[-1]["won"] == round_record["tricks_won"]
        assert tricks[-1]["points"] == round_record["points"]
    assert len(steps) == sum(1 + len(r["tricks"]) for r in record["rounds"])


def test_replay_steps_reproduce_every_sita_turn(games) -> None:
    record = games["sita"].record
    steps = replay_steps(record)
    for round_record in record["rounds"]:
        mine = [s for s in steps if s["round"] is round_record]
        assert mine[0]["rows"] == round_record["rows"]
        turns = [s for s in mine if s["kind"] == "turn"]
        assert [s["turn"] for s in turns] == round_record["turns"]
        held = [sorted(h) for h in round_record["hands"]]
        for step in turns:
            assert step["hands"] == held
            for seat, card in enumerate(step["turn"]["chosen"]):
                held[seat].remove(card)
        assert turns[-1]["taken"] == round_record["penalties"]
        assert held == [[] for _ in held]


@pytest.mark.parametrize("game", ["sitaratas", "estimation", "sita"])
def test_the_replay_page_steps_forwards_and_backwards(client, games, game) -> None:
    match = games[game]
    url = reverse("match_replay", args=[match.pk])
    count = len(replay_steps(match.record))
    first = client.get(url).content.decode()
    assert f"Step 1</strong> of {count}" in first and 'class="card' in first
    middle = client.get(url, {"step": 3}, HTTP_HX_REQUEST="true").content.decode()
    assert middle.lstrip().startswith('<section id="replay-frame"') and "<html" not in middle
    assert 'href="?step=2"' in middle and 'href="?step=4"' in middle
    last = client.get(url, {"step": 10_000}).content.decode()
    assert f"Step {count}</strong> of {count}" in last
    assert client.get(url, {"step": "x"}).status_code == 200


def test_profile_shows_stats_ratings_and_recent_games(client, games, host) -> None:
    page = client.get(reverse("profile", args=[host.username])).content.decode()
    for label in (
        "Sitaratas",
        "Estimation",
        "SITA",
        "Exact bids",
        "Times Sitaratas",
        "Caller success",
        "Dash Call success",
        "Average penalty per match",
        "Rating",
    ):
        assert label in page
    for game in ("sitaratas", "estimation", "sita"):
        assert reverse("match", args=[games[game].pk]) in page


def test_profile_figures_read_in_the_reader_s_language(client, games, host) -> None:
    # The figures' names come from the Django-free games.records and are translated on the page (issue 26).
    page = client.get(reverse("profile", args=[host.username]), HTTP_ACCEPT_LANGUAGE="et").content.decode()
    for label in ("Täpsed pakkumised", "Kordi Sitaratas", "Pakkujana täidetud", "Keskmine karistus partii kohta"):
        assert label in page
    assert "Exact bids" not in page


def test_the_leaderboard_lists_rated_players_per_game(client, games, host) -> None:
    page = client.get(reverse("ratings"), {"game": "estimation"}).content.decode()
    assert host.name in page and "bot" in page
    # An unknown game falls back to the default game's board, which the fixture's games filled.
    unknown = client.get(reverse("ratings"), {"game": "nope"}).content.decode()
    assert host.name in unknown and "Nobody has finished" not in unknown
