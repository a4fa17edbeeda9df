"""The engine contract (docs/design.md, "The engine contract") as types.

Every engine module satisfies :class:`Engine` for its own state and action types: mypy checks
each module against it where the catalogue (``games.catalog``) names it. The actions are
TypedDicts, so a strict check of the engines and bots follows every key of every action; the
views and the records' rounds are JSON objects whose keys each engine's docstring lists.
"""

from __future__ import annotations

from typing import Any, NotRequired, Protocol, TypedDict, TypeVar

# A JSON object: an engine's view, a game's options, a record's round.
JSON = dict[str, Any]

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


class Record(TypedDict):
    """A game's record (docs/design.md, "The record"): what ``record(state)`` returns and what a
    finished match stores in its ``record`` column."""

    game: str
    players: int | list[str]
    options: JSON
    seed: int | str
    rounds: list[JSON]
    totals: list[int]
    placements: list[list[int]]
    over: bool
    sitaratas: NotRequired[int | None]  # Sitaratas only: the seat named the Sitaratas


class Engine(Protocol[StateT, ActionT]):
    """One game's rules: a module of functions over its immutable ``StateT``."""

    @property
    def name(self) -> str: ...

    @property
    def min_players(self) -> int: ...

    @property
    def max_players(self) -> int: ...

    def validate_options(self, players: Any, options: JSON | None) -> JSON: ...

    def new_game(self, players: Any, options: JSON | None, seed: int | str) -> StateT: ...

    def to_act(self, state: StateT) -> list[int]: ...

    def legal_actions(self, state: StateT, seat: int) -> list[ActionT]: ...

    def apply(self, state: StateT, seat: int, action: ActionT) -> StateT: ...

    def view(self, state: StateT, seat: int | None) -> JSON: ...

    def is_over(self, state: StateT) -> bool: ...

    def record(self, state: StateT) -> Record: ...

    def dumps(self, state: StateT) -> str: ...

    def loads(self, text: str) -> StateT: ...
