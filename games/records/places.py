"""Placements (groups of seats, best first, as the engines give them) as places."""

from __future__ import annotations


def places_from_groups(groups: list[list[int]]) -> dict[int, int]:
    """A place per seat; tied seats share the place they start at (1, 1, 3: no second place)."""
    places, place = {}, 1
    for group in groups:
        for seat in group:
            places[seat] = place
        place += len(group)
    return places
