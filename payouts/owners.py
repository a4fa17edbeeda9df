"""Whose accounts these are besides a player's: the generic owner key, and a table as payouts is handed it.

payouts sits below the apps whose things hold coins and passes (tables, tournaments: docs/design.md,
"Apps and folders"), so an account refers to none of their rows and payouts imports none of them.
The app above hands in an ``Owner``: its own word for the kind of thing and the row's id. The
table is the owner payouts' own rules are written for (stakes, the pot's split, passes: RULINGS
P5, P6), so its word is here, and a table is handed in as the ``TableRef`` those rules read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

TABLE = "table"


@dataclass(frozen=True)
class Owner:
    kind: str  # the owning app's word, at most 20 characters: "table", "tournament"
    id: int

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.id}"


class TableRef(Protocol):
    """The parts of a table that payouts reads: its id, its stake, and who hosts it."""

    @property
    def pk(self) -> Any: ...

    @property
    def stake(self) -> int: ...

    @property
    def host_id(self) -> Any: ...


def table_owner(table: TableRef) -> Owner:
    return Owner(TABLE, table.pk)


@dataclass(frozen=True)
class Place:
    """How the wallet names an owner other than a table: its own words and its page."""

    label: str
    url: str


# The owner kind's namer: the ids of its rows → each one's place. Registered by the app above
# from its ``ready`` (tournaments/apps.py), so the wallet can name a tournament without importing it.
_NAMERS: dict[str, Callable[[set[int]], dict[int, Place]]] = {}


def namer_register(kind: str, namer: Callable[[set[int]], dict[int, Place]]) -> None:
    _NAMERS[kind] = namer


def places_of(owners: set[tuple[str, int]]) -> dict[tuple[str, int], Place]:
    """Each ``(kind, id)`` an app has a namer for, named by it; the others are left out."""
    named: dict[tuple[str, int], Place] = {}
    kinds = {kind for kind, _id in owners}
    for kind in kinds:
        namer = _NAMERS.get(kind)
        if namer is None:
            continue
        for owner_id, place in namer({i for k, i in owners if k == kind}).items():
            named[(kind, owner_id)] = place
    return named
