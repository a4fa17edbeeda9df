"""Bots: pure-Python players that see only a seat's view (no Django import).

A game's normal bot is a module with ``choose(view, rng) -> action`` (:class:`Bot`), its strong
bot one with ``choose(view, rng, budget) -> action`` (:class:`StrongBot`): ``view`` is exactly
what ``engine.view(state, seat)`` gives that seat, ``rng`` a ``random.Random``. The same view and
the same generator state give the same action, so a retried Celery task makes the same move. The
strong bots' ``Budget`` is a count of sampled deals (RULING P49), so they are deterministic too,
unless their CPU safety cap stops a move early (``Budget.capped``).

Which bot plays at which level the host chooses is the site's (``games.catalog.get_bot``): this
package offers the players and the two ways a level changes one (:func:`easy`, :func:`guarded`).

The strong bots' hot modules (the samplers in ``draw``, the rollouts in ``tricks``, the strong
bots and the rule-based policies they call) are compiled in place by mypyc when the README's
commands run (config/compile_bots.py): the same code, the same moves, several times the samples
per second. Compiled classes cannot be subclassed from plain Python; ``sources.prefer_sources()``
imports the plain modules instead, to compare the two.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from games.bots.budget import Budget
from games.engines.contract import JSON

ActionT = TypeVar("ActionT")
ActionT_co = TypeVar("ActionT_co", covariant=True)
logger = logging.getLogger(__name__)

# RULING P47: the easy bot is the normal bot that, on this share of its moves, plays any legal
# action instead.
EASY_MISTAKES = 0.3


class Bot(Protocol[ActionT_co]):
    """A game's normal (rule-based) bot module."""

    def choose(self, view: JSON, rng: random.Random) -> ActionT_co: ...


class Sampler(Protocol):
    """A strong bot's reading of a view: it deals the cards the seat cannot see."""

    def sample(self, rng: random.Random) -> Any: ...


# A candidate played out on one sampled world: every seat's result (a Position's ``outcome_*``).
Outcome = Callable[[Any, Any], list[int]]


class StrongBot(Protocol[ActionT_co]):
    """A game's strong (sampling) bot module; the evaluator (games.bots.evaluate) weighs with it."""

    @property
    def LOWER_IS_BETTER(self) -> bool: ...  # SITA's points are penalties

    def choose(self, view: JSON, rng: random.Random, budget: Budget | None = None) -> ActionT_co: ...

    def Position(self, view: JSON) -> Sampler: ...  # noqa: N802 - the module's class

    def weighed(self, position: Any, view: JSON) -> tuple[list[Any], Outcome]:
        """The actions an evaluation weighs for ``view`` and the outcome that plays each out."""
        ...


class Move(Protocol[ActionT_co]):
    """One level's player: the view, the generator and the budget (only a strong bot spends it)."""

    def __call__(self, view: JSON, rng: random.Random, budget: Budget | None = None) -> ActionT_co: ...


def random_bot(view: JSON, rng: random.Random) -> Any:
    """Any legal action, uniformly: the baseline the good bots must beat."""
    return rng.choice(view["legal_actions"])


def plain(bot: Callable[[JSON, random.Random], ActionT]) -> Move[ActionT]:
    """A bot that samples nothing, as a level's move (the budget is left untouched)."""

    def move(view: JSON, rng: random.Random, budget: Budget | None = None) -> ActionT:
        return bot(view, rng)

    return move


def easy(normal: Bot[ActionT]) -> Move[ActionT]:
    """RULING P47: the normal bot, with a share of any-legal-action moves."""

    def move(view: JSON, rng: random.Random, budget: Budget | None = None) -> ActionT:
        # The draw comes first and always, so the same generator state gives the same move.
        if rng.random() < EASY_MISTAKES:
            legal: list[ActionT] = view["legal_actions"]
            return rng.choice(legal)
        return normal.choose(view, rng)

    return move


def guarded(strong: StrongBot[ActionT], normal: Bot[ActionT], game: str) -> Move[ActionT]:
    """The strong bot, with the normal bot standing in should it ever fail: a live table must
    never wait on a bot that raised. The tests call the strong bots directly, so a failure
    there still fails loudly."""

    def move(view: JSON, rng: random.Random, budget: Budget | None = None) -> ActionT:
        try:
            action = strong.choose(view, rng, budget)
        except Exception:
            logger.exception("The strong %s bot failed; the normal bot moves instead.", game)
            return normal.choose(view, rng)
        if action not in view["legal_actions"]:
            logger.error("The strong %s bot chose an illegal action %r; the normal bot moves instead.", game, action)
            return normal.choose(view, rng)
        return action

    return move
