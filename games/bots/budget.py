"""The strong bots' budget per move: a count of sampled deals (issue 38, RULING P49).

A strong bot evaluates its candidates on one sampled deal after another until it has done
``samples`` of them. The count, not the clock, decides how strong the bot is, so a bot on a
busy server plays exactly the moves it plays on an idle one: the same view, generator and
count give the same move. The site passes the count in (its ``BOT_STRONG_SAMPLES``
setting); this library reads no environment.

The only clock is a safety net: if the samples have taken more than ``cpu_seconds`` of the
thread's own CPU time (``time.thread_time``, which does not run while another process has
the core), the bot stops early and says so in ``capped``. The cap is set far above what the
default count needs, so it fires only for a position much heavier than any measured.
"""

from __future__ import annotations

import time

# Samples per move of the strong bots, by default (docs/performance.md has the strength).
DEFAULT_SAMPLES = 200
# The safety cap, in seconds of the thread's CPU time per move.
DEFAULT_CPU_SECONDS = 2.0


class Budget:
    """One move's budget: ``more()`` says whether another sample is to be done.

    ``done`` counts the samples taken; ``capped`` is true when the CPU cap stopped the move
    before ``samples`` were done (the site counts those in its metrics).
    """

    __slots__ = ("samples", "cpu_seconds", "done", "capped", "_cpu_start")

    def __init__(self, samples: int | None = None, cpu_seconds: float | None = DEFAULT_CPU_SECONDS) -> None:
        samples = DEFAULT_SAMPLES if samples is None else samples
        if samples < 1:
            raise ValueError("A strong bot needs at least one sample per move.")
        self.samples = samples
        self.cpu_seconds = cpu_seconds
        self.done = 0
        self.capped = False
        self._cpu_start = time.thread_time()

    def more(self) -> bool:
        """Whether one more sample is due; the first always is, so a move is always chosen."""
        if self.done >= self.samples:
            return False
        if self.done and self.cpu_seconds is not None and time.thread_time() - self._cpu_start > self.cpu_seconds:
            self.capped = True
            return False
        return True

    def tick(self) -> None:
        """Record one finished sample."""
        self.done += 1
