"""Two moves for the same turn at the same instant: exactly one is applied (issue 6)."""

from __future__ import annotations

import pytest

from games.models import Match, MatchEvent
from tables.errors import TableError
from tables.services import play
from tests.helpers import race
from tests.tables.helpers import start_sitaratas_with_a_bot, state_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_moves_for_one_turn_apply_exactly_once(host, player) -> None:
    match = start_sitaratas_with_a_bot(host, player)
    engine, state = state_of(match)
    seat = engine.to_act(state)[0]
    user = host if seat == 0 else player
    first, second = engine.legal_actions(state, seat)[:2]  # two tabs of the same player, two different moves
    version = match.version
    results = race(
        lambda: play.match_act(match_id=match.pk, user=user, action=first, version=version),
        lambda: play.match_act(match_id=match.pk, user=user, action=second, version=version),
    )
    errors = [result for result in results if isinstance(result, TableError)]
    assert len(errors) == 1, results
    match.refresh_from_db()
    assert match.version == version + 1
    assert MatchEvent.objects.filter(match=match, version__gt=version).count() == 1


def test_simultaneous_sita_choices_are_all_applied(started_table, host, player, outsider) -> None:
    # RULING T2: every player chooses at the same time; no choice is refused as stale.
    _, match = started_table("sita", seat_count=3, guests=[player, outsider])
    engine, state = state_of(match)
    users = [host, player, outsider]
    results = race(
        *[
            (
                lambda seat=seat: play.match_act(
                    match_id=match.pk,
                    user=users[seat],
                    action=engine.legal_actions(state, seat)[0],
                    version=match.version,
                )
            )
            for seat in range(3)
        ]
    )
    assert not [result for result in results if isinstance(result, Exception)], results
    match.refresh_from_db()
    assert match.version == 3
    # A choice is locked: the same seat cannot choose again in that turn.
    engine, state = state_of(match)
    if 0 not in engine.to_act(state):
        with pytest.raises(TableError):
            play.match_act(match_id=match.pk, user=host, action={"type": "choose", "card": 1}, version=match.version)
    assert Match.objects.get(pk=match.pk).version == 3
