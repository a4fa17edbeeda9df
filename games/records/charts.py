"""The running-totals chart's geometry: where each round's totals fall in the drawing.

Pure arithmetic; ``games.display.charts`` writes the SVG from it.
"""

from __future__ import annotations

from dataclasses import dataclass

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 44, 16, 14, 30
PLOT_WIDTH, PLOT_HEIGHT = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
MOST_X_LABELS = 12


@dataclass(frozen=True)
class Plot:
    series: list[list[int]]  # per seat: 0 before the first round, then the total after each
    low: int
    high: int

    @property
    def rounds(self) -> int:
        return len(self.series[0]) - 1

    def x(self, index: int) -> str:
        return f"{LEFT + PLOT_WIDTH * index / self.rounds:.1f}"

    def y(self, value: float) -> str:
        return f"{TOP + PLOT_HEIGHT * (self.high - value) / (self.high - self.low):.1f}"

    def x_labels(self) -> list[int]:
        """The rounds numbered under the axis: about a dozen at most, always the last."""
        every = max(1, self.rounds // MOST_X_LABELS)
        return [
            i for i in range(1, self.rounds + 1) if (i % every == 0 and self.rounds - i >= every) or i == self.rounds
        ]

    def y_ticks(self) -> list[int]:
        return sorted({self.low, 0, self.high})

    def label_y(self, value: int) -> str:
        """A y-axis label's baseline, a little below its grid line."""
        return self.y(value - 4 * (self.high - self.low) / PLOT_HEIGHT)


def running_plot(running: list[list[int]], seats: int) -> Plot:
    """The plot of the totals after each round (``running``, one list of seat totals per round)."""
    series = [[0] + [totals[seat] for totals in running] for seat in range(seats)]
    low = min(0, *(min(line) for line in series))
    high = max(1, *(max(line) for line in series))
    return Plot(series, low, high)
