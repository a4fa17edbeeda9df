"""The engine contract (docs/design.md, "The engine contract") as types.

Every engine module satisfies :class:`Engine` for its own state, action and round types: mypy
checks each module against it where the catalogue (``games.catalog``) names it. The actions and
the records' rounds are TypedDicts defined in each engine's module (``Action``, and
``SitaratasRound``, ``EstimationRound``, ``SitaRound``), and :class:`Record` is generic over its
round type, so a strict check of the engines, bots and records follows every key of every action
and of every round; the trick games share the trick's shape (:class:`TrickRecord`). The views
are JSON objects whose keys each engine's docstring lists.
"""

from __future__ import annotations

from typing import Any, Generic, NotRequired, Protocol, TypedDict, TypeVar

# A JSON object: an engine's view, a game's options.
JSON = dict[str, Any]

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")
RoundT = TypeVar("RoundT")


class PlayRecord(TypedDict):
    """A card played, in a record's trick (and a view's)."""

    seat: int
    card: str
    joker: NotRequired[str]  # Sitaratas only: "high" / "low", for a joker (RULING S6)


class TrickRecord(TypedDict):
    """A trick in the trick games' records (docs/design.md, "The record"): Sitaratas, Estimation."""

    leader: int
    plays: list[PlayRecord]
    winner: int | None  # None for the trick in progress


class Record(TypedDict, Generic[RoundT]):
    """A game's record (docs/design.md, "The record"): what ``record(state)`` returns and what a
    finished match stores in its ``record`` column. ``RoundT`` is the game's round: an engine's
    ``record`` returns ``Record[SitaratasRound]`` and so on, and that game's records module reads
    the same type."""

    game: str
    players: int | list[str]
    options: JSON
    seed: int | str
    rounds: list[RoundT]
    totals: list[int]
    placements: list[list[int]]
    over: bool
    sitaratas: NotRequired[int | None]  # Sitaratas only: the seat named the Sitaratas


class Engine(Protocol[StateT, ActionT, RoundT]):
    """One game's rules: a module of functions over its immutable ``StateT``, taking ``ActionT``s
    and recording ``RoundT``s."""

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

    def record(self, state: StateT) -> Record[RoundT]: ...

    def dumps(self, state: StateT) -> str: ...

    def loads(self, text: str) -> StateT: ...
