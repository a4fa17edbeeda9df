"""Game states parsed once per version per process, shared by moves and live views (issue 9)."""

from __future__ import annotations

import pytest

from games.engines import get_engine
from games.models import Match
from tables import matchstore
from tables.services import play
from tests.tables.helpers import start_sitaratas_with_a_bot, state_of


def refuse_parsing(monkeypatch, game: str) -> None:
    def parse(text):
        raise AssertionError("parsed again")

    monkeypatch.setattr(get_engine(game), "loads", parse)


def test_a_state_is_parsed_once_and_only_for_the_same_text() -> None:
    engine = get_engine("sita")
    text = engine.dumps(engine.new_game(2, engine.validate_options(2, {}), 1))
    other = engine.dumps(engine.new_game(2, engine.validate_options(2, {}), 2))
    first = matchstore.loaded("sita", 9001, 3, text)
    half = len(text) // 2
    assert matchstore.loaded("sita", 9001, 3, text[:half] + text[half:]) is first  # equal text, read anew
    # A reused id and version with another text (a flushed test database, a rolled-back move).
    assert matchstore.loaded("sita", 9001, 3, other) is not first
    assert matchstore.loaded("sita", 9001, 3, other) == engine.loads(other)


@pytest.mark.django_db
def test_a_move_leaves_its_state_for_the_views_of_its_process(host, player, monkeypatch) -> None:
    match = start_sitaratas_with_a_bot(host, player)  # a human is awaited
    engine, state = state_of(match)
    seat = engine.to_act(state)[0]
    user = {0: host, 1: player}[seat]
    play.match_act(match_id=match.pk, user=user, action=engine.legal_actions(state, seat)[0], version=match.version)
    saved = Match.objects.get(pk=match.pk)
    expected = engine.loads(saved.state)
    refuse_parsing(monkeypatch, "sitaratas")  # the socket's render must find it already parsed
    assert matchstore.loaded("sitaratas", saved.pk, saved.version, saved.state) == expected


def test_only_a_matchs_latest_state_is_kept(monkeypatch) -> None:
    # Older versions are never asked for again: the cache holds one state per match.
    engine = get_engine("sita")
    first, second = (engine.dumps(engine.new_game(2, engine.validate_options(2, {}), seed)) for seed in (3, 4))
    parses = []
    real_loads = engine.loads
    monkeypatch.setattr(engine, "loads", lambda text: parses.append(text) or real_loads(text))
    matchstore.loaded("sita", 9002, 1, first)
    matchstore.loaded("sita", 9002, 2, second)
    matchstore.loaded("sita", 9002, 2, second)
    assert parses == [first, second]  # the latest is kept
    matchstore.loaded("sita", 9002, 1, first)
    assert parses == [first, second, first]  # the older one was not
