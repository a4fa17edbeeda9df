"""The live fragment's per-process sharing: right for every viewer, never across versions."""

from __future__ import annotations

from django.template import engines

from games.engines import get_engine
from tables.live import SeatInfo, Snapshot, live_context

SHEET = engines["jinja2"].from_string('{% call shared_by_version(snap, "sheet") %}{{ rows }}{% endcall %}')


def snapshot(version: int, state: str = "s", extra: dict | None = None, game: str = "sita") -> Snapshot:
    seats = tuple(SeatInfo(i, i + 1, f"P{i}", f"p{i}", False, True) for i in range(2))
    return Snapshot(table_id=1, game=game, status="playing", options={}, seat_count=2, stake=0, host_id=1,
                    host_name="P0", closed_reason="", seats=seats, match_id=99, match_status="playing",
                    version=version, state=state, extra=extra or {})


def test_a_shared_block_renders_once_per_version_and_again_for_the_next() -> None:
    first = SHEET.render({"snap": snapshot(1), "rows": "A"})
    again = SHEET.render({"snap": snapshot(1), "rows": "B"})  # same version: the block is reused
    later = SHEET.render({"snap": snapshot(2), "rows": "B"})
    other_game = SHEET.render({"snap": snapshot(1, state="another"), "rows": "C"})  # reused ids
    assert (first, again, later, other_game) == ("A", "A", "B", "C")


def test_the_dismissal_offer_follows_the_round_not_the_snapshot() -> None:
    # RULING S12: proposals only in rounds 1..N, though the snapshot was read in round 1.
    engine = get_engine("sitaratas")
    state = engine.new_game(3, {}, 5)
    seats = tuple(SeatInfo(i, i + 1, f"P{i}", f"p{i}", False, True) for i in range(3))
    vote = {"can_propose": True, "rounds": 3, "round_number": 1, "open": False}
    snap = Snapshot(table_id=1, game="sitaratas", status="playing", options=engine.validate_options(3, {}),
                    seat_count=3, stake=0, host_id=1, host_name="P0", closed_reason="", seats=seats, match_id=98,
                    match_status="playing", version=0, state=engine.dumps(state), extra={"vote": vote})
    assert live_context(snap, user_id=1, connected=set())["vote"]["can_propose"] is True
    while engine.view(state, None)["round_number"] <= 3:
        seat = engine.to_act(state)[0]
        state = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    later = snap.with_state(version=50, state=engine.dumps(state))
    assert live_context(later, user_id=1, connected=set())["vote"]["can_propose"] is False
