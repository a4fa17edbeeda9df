"""Running totals by round as a small inline SVG line chart (no JavaScript, no library)."""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from games.display.figures import figure
from games.records.charts import HEIGHT, LEFT, RIGHT, WIDTH, running_plot

COLOURS = ["#0f5132", "#c2410c", "#1d4ed8", "#a21caf", "#ca8a04", "#0e7490", "#be123c", "#4d7c0f", "#6d28d9", "#57534e"]


def running_totals_svg(*, names: list[str], running: list[list[int]], title: str) -> SafeString:
    """One line per seat from 0 before the first round through each round's running total."""
    if not running:
        return mark_safe("")
    plot = running_plot(running, len(names))
    x, y = plot.x, plot.y
    x_labels = format_html_join(
        "",
        '<text x="{}" y="{}" class="axis" text-anchor="middle">{}</text>',
        ((x(i), HEIGHT - 10, i) for i in plot.x_labels()),
    )
    y_labels = format_html_join(
        "",
        '<line x1="{}" x2="{}" y1="{}" y2="{}" class="{}"/><text x="{}" y="{}" class="axis" '
        'text-anchor="end">{}</text>',
        (
            (LEFT, WIDTH - RIGHT, y(v), y(v), "zero" if v == 0 else "grid", LEFT - 6, plot.label_y(v), figure(v))
            for v in plot.y_ticks()
        ),
    )
    lines = format_html_join(
        "",
        '<polyline points="{}" fill="none" stroke="{}" stroke-width="2.5" stroke-linejoin="round">'
        "<title>{}: {}</title></polyline>",
        (
            (
                " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(line)),
                COLOURS[seat % len(COLOURS)],
                names[seat],
                figure(line[-1]),  # as every figure is written (issue 53)
            )
            for seat, line in enumerate(plot.series)
        ),
    )
    dots = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="3.5" fill="{}"/>',
        ((x(plot.rounds), y(line[-1]), COLOURS[seat % len(COLOURS)]) for seat, line in enumerate(plot.series)),
    )
    return format_html(
        '<svg class="chart" viewBox="0 0 {} {}" role="img" aria-label="{}" xmlns="http://www.w3.org/2000/svg">'
        "<title>{}</title>{}{}{}{}</svg>",
        WIDTH,
        HEIGHT,
        title,
        title,
        y_labels,
        x_labels,
        lines,
        dots,
    )


def legend(names: list[str]) -> list[dict]:
    """Seat names with their line colour, for an HTML legend under the chart."""
    return [{"name": name, "colour": COLOURS[seat % len(COLOURS)]} for seat, name in enumerate(names)]
