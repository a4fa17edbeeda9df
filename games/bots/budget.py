"""The strong bots' time budget per move (issue 25).

A strong bot evaluates its candidates on one sampled deal after another and stops when one
more sample would overrun the budget, so the number of samples adapts to the position and
to the machine. ``BOT_MOVE_BUDGET_MS`` sets the budget (default 150 ms); a move never runs
more than the budget plus one sample, and a sample is kept to a few milliseconds.
"""

from __future__ import annotations

import os
import time

DEFAULT_BUDGET_MS = 150.0
# Stop this far before the budget: the clock is read between samples, and the choice itself
# (averaging, building the action) still follows the last sample.
SAFETY = 0.9


def budget_seconds() -> float:
    """The budget from ``BOT_MOVE_BUDGET_MS``; a missing, empty or bad value means the default."""
    raw = os.environ.get("BOT_MOVE_BUDGET_MS", "")
    try:
        value = float(raw) if raw.strip() else DEFAULT_BUDGET_MS
    except ValueError:
        value = DEFAULT_BUDGET_MS
    return max(1.0, value) / 1000.0


class Budget:
    """A deadline for one move: ``more()`` says whether another sample fits.

    ``samples`` fixes the number of samples instead (tests and replays that must be
    deterministic); ``seconds`` overrides the environment's budget.
    """

    __slots__ = ("start", "deadline", "samples", "done", "_slowest")

    def __init__(self, seconds: float | None = None, samples: int | None = None) -> None:
        self.start = time.perf_counter()
        self.deadline = self.start + (budget_seconds() if seconds is None else seconds) * SAFETY
        self.samples = samples
        self.done = 0
        self._slowest = 0.0

    def more(self) -> bool:
        """Whether one more sample fits; the first sample always runs, so a move is always chosen."""
        if self.samples is not None:
            return self.done < self.samples
        if self.done == 0:
            return True
        now = time.perf_counter()
        # Assume the next sample may take as long as the slowest one so far.
        return now + self._slowest < self.deadline

    def tick(self, started: float) -> None:
        """Record one finished sample that began at ``started`` (a ``perf_counter`` reading)."""
        self.done += 1
        self._slowest = max(self._slowest, time.perf_counter() - started)
