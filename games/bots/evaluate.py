"""What each legal action is worth to a seat, from its view alone (issue 42).

The strong bots already deal the cards a seat cannot see, consistently with its view, and play
each candidate out (``games.bots.strong_*``: their ``Position`` and its ``outcome_*``). The
evaluator reuses exactly that sampler and those playouts, but keeps what the bots throw away:
every seat's result on every sampled deal. From them, per action:

* ``points``: the seat's expected final total — its total so far plus its expected points in
  the rest of the round (Sitaratas, Estimation), or plus the penalty points it is expected to
  take within the strong SITA bot's look-ahead (SITA, where fewer is better). The rounds after
  this one do not depend on the choice in expectation, so they add the same to every action
  and are left out (RULING P63).
* ``first``: the chance that the seat leads once the playout ends (ties share it): in the last
  round of a game, the chance of first place.

All actions are scored on the same sampled deals (common random numbers), so their differences
are far steadier than their values. ``samples`` is a count, and the caller's ``random.Random``
drives every draw: the same view, count and generator state give the same figures on any
machine. Only the view is read; a state never reaches this module.

Left out: Estimation's Super Calls, which the simulator cannot weigh (the strong bot leaves
them to the rule-based bot too, RULING P48). A decision with one legal action is not scored.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.bots import StrongBot
from games.engines.contract import JSON

# An action of any of the games: the evaluator weighs them alike.
AnyAction = Mapping[str, object]


@dataclass(frozen=True)
class Value:
    action: AnyAction
    points: float  # expected final total (SITA: penalty points)
    first: float  # chance of leading when the playout ends, 0 … 1


@dataclass(frozen=True)
class Evaluation:
    """Every scored action, best first."""

    values: tuple[Value, ...]
    samples: int
    lower_is_better: bool

    @property
    def best(self) -> Value:
        return self.values[0]

    def value_of(self, action: AnyAction) -> Value | None:
        return next((value for value in self.values if value.action == action), None)

    def loss(self, action: AnyAction) -> float | None:
        """How many expected points ``action`` gives away against the best (never negative);
        None for an action that was not scored."""
        value = self.value_of(action)
        if value is None:
            return None
        return max(0.0, self.gain(self.best.points, value.points))

    def gain(self, better: float, worse: float) -> float:
        return worse - better if self.lower_is_better else better - worse


def evaluate(strong: StrongBot[Any], view: JSON, rng: random.Random, samples: int) -> Evaluation:
    """The expected result of each legal action for the seat whose ``view`` this is, weighed by
    the game's strong bot (the catalogue's ``strong_bot``; ``games.catalog.evaluate`` finds it)."""
    if samples < 1:
        raise ValueError("An evaluation needs at least one sample.")
    if view.get("seat") is None:
        raise ValueError("Only a seat's view can be evaluated.")
    position = strong.Position(view)
    candidates, outcome = strong.weighed(position, view)
    lower = strong.LOWER_IS_BETTER
    me, totals = view["seat"], view["totals"]
    points = [0.0] * len(candidates)
    first = [0.0] * len(candidates)
    for _ in range(samples):
        world = position.sample(rng)
        for index, action in enumerate(candidates):
            result = outcome(action, world)
            final = [total + extra for total, extra in zip(totals, result)]
            points[index] += final[me]
            first[index] += _leading(final, me, lower)
    values = [Value(action, points[i] / samples, first[i] / samples) for i, action in enumerate(candidates)]
    order = sorted(
        range(len(values)),
        key=lambda i: ((values[i].points if lower else -values[i].points), -values[i].first, i),
    )
    return Evaluation(tuple(values[i] for i in order), samples, lower)


def _leading(final: list[float], me: int, lower: bool) -> float:
    """1 when ``me`` alone leads, 1/k when k seats share the lead, else 0."""
    best = min(final) if lower else max(final)
    if final[me] != best:
        return 0.0
    return 1.0 / sum(1 for value in final if value == best)
