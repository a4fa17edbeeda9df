"""A playing table's snapshot made by hand, for the tests and benchmarks that render the live
fragment without a database."""

from __future__ import annotations

from typing import Any

from tables.render.fragment import SeatInfo, Snapshot


def seat_infos(seat_count: int, name: str = "P{}") -> tuple[SeatInfo, ...]:
    """Seat i held by user i + 1, named ``name.format(i)``, connected, nobody away."""
    return tuple(SeatInfo(i, i + 1, name.format(i), f"p{i}", False, True) for i in range(seat_count))


def playing_snapshot(game: str, *, seat_count: int, options: dict | None = None, **fields: Any) -> Snapshot:
    """The table of user 1 (seat 0) playing ``game``; ``fields`` set or replace the rest."""
    values: dict[str, Any] = {
        "table_id": 1,
        "game": game,
        "status": "playing",
        "options": options or {},
        "seat_count": seat_count,
        "stake": 0,
        "host_id": 1,
        "host_name": "P0",
        "closed_reason": "",
        "seats": seat_infos(seat_count),
        "match_status": "playing",
        "match_id": 0,  # no real match's (ids start at 1): a state is rendered only with its match
    }
    return Snapshot(**{**values, **fields})
