"""The category chart: one bar per category, its percent of the limit, with the bounds marked.

Bars are all one colour on purpose: whether a category breaks its bound is the engine's verdict
(exact integer arithmetic), printed in the stamp; a colour worked out here from the rounded percent
could disagree with it at exactly the boundary.

The chart is drawn straight onto the page (CategoryChart) with the lines, bars and labels a reportlab
graphics Drawing of the same shapes drew: the Drawing's renderer saves and restores the canvas state
for every shape and checks every attribute set, a fifteenth of a roster's time for forty shapes.
"""
from __future__ import annotations

from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable

from armylists.rules.report import CategoryLine

from armylists.exports.pdf_style import BAR, ILLEGAL, INK, LEGAL, MUTED, REGULAR, RULE

ROW = 15  # points per category row
LABEL_WIDTH = 58
AXIS = 12  # room for the percent labels below the bars
LEGEND = 12  # room for the legend above them


def category_chart(categories: tuple[CategoryLine, ...], width: float) -> "CategoryChart":
    """Horizontal bars of each category's percent; a green tick at its minimum, a red one at its maximum."""
    top = max([50.0] + [c.percent for c in categories]
              + [float(b) for c in categories for b in (c.min_percent, c.max_percent) if b is not None])
    scale_max = min(100, int(-(-top // 10) * 10))  # round up to the next 10%
    plot = width - LABEL_WIDTH - 30  # room at the right for the last bar's percent
    bars_top = AXIS + ROW * len(categories)
    chart = CategoryChart(width, bars_top + LEGEND)

    def x_of(percent: float) -> float:
        return LABEL_WIDTH + plot * min(percent, scale_max) / scale_max

    for step in range(0, scale_max + 1, 10):
        x = x_of(step)
        chart.line(x, AXIS - 2, x, bars_top, RULE, 0.4)
        chart.string(x, 2, f"{step}%", 6, MUTED, "middle")
    for row, cat in enumerate(categories):
        y = bars_top - ROW * (row + 1)
        chart.string(LABEL_WIDTH - 5, y + 4.5, cat.name, 7.5, INK, "end")
        if cat.percent > 0:
            chart.bar(LABEL_WIDTH, y + 3, x_of(cat.percent) - LABEL_WIDTH, ROW - 6, BAR)
        chart.string(x_of(cat.percent) + 3, y + 4.5, f"{cat.percent:.1f}%", 6.5, INK)
        for bound, colour in ((cat.min_percent, LEGAL), (cat.max_percent, ILLEGAL)):
            if bound is not None:
                x = x_of(bound)
                chart.line(x, y + 1, x, y + ROW - 1, colour, 1.8)
    legend_y = bars_top + 4
    x = LABEL_WIDTH
    for colour, name in ((LEGAL, "minimum"), (ILLEGAL, "maximum")):
        chart.line(x, legend_y - 1, x, legend_y + 6, colour, 1.8)
        chart.string(x + 4, legend_y, name, 6, MUTED)
        x += 48
    chart.string(x, legend_y, "bar: percent of the points limit", 6, MUTED)
    return chart


class CategoryChart(Flowable):
    """Lines, filled bars and labels in the Vera font, drawn in the order they were added."""

    def __init__(self, width: float, height: float):
        super().__init__()
        self.width, self.height = width, height
        self.shapes: list[tuple] = []

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: Color, width: float) -> None:
        self.shapes.append(("line", x1, y1, x2, y2, colour, width))

    def bar(self, x: float, y: float, width: float, height: float, colour: Color) -> None:
        self.shapes.append(("bar", x, y, width, height, colour))

    def string(self, x: float, y: float, text: str, size: float, colour: Color, anchor: str = "start") -> None:
        if anchor != "start":  # as the Drawing placed it: its width measured, then moved left by it or half
            x -= stringWidth(text, REGULAR, size) * (1 if anchor == "end" else 0.5)
        self.shapes.append(("string", x, y, text, size, colour))

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        canvas = self.canv
        for kind, *shape in self.shapes:
            if kind == "line":
                x1, y1, x2, y2, colour, width = shape
                canvas.setStrokeColor(colour)
                canvas.setLineWidth(width)
                canvas.line(x1, y1, x2, y2)
            elif kind == "bar":
                x, y, width, height, colour = shape
                canvas.setFillColor(colour)
                canvas.rect(x, y, width, height, stroke=0, fill=1)
            else:
                x, y, text, size, colour = shape
                canvas.setFillColor(colour)
                canvas.setFont(REGULAR, size)
                canvas.drawString(x, y, text)
