"""The category chart: one bar per category, its percent of the limit, with the bounds marked.

Bars are all one colour on purpose: whether a category breaks its bound is the engine's verdict
(exact integer arithmetic), printed in the stamp; a colour worked out here from the rounded percent
could disagree with it at exactly the boundary.
"""
from __future__ import annotations

from reportlab.graphics.shapes import Drawing, Line, Rect, String

from armylists.rules.report import CategoryLine

from .pdf_style import BAR, ILLEGAL, INK, LEGAL, MUTED, REGULAR, RULE

ROW = 15  # points per category row
LABEL_WIDTH = 58
AXIS = 12  # room for the percent labels below the bars
LEGEND = 12  # room for the legend above them


def category_chart(categories: tuple[CategoryLine, ...], width: float) -> Drawing:
    """Horizontal bars of each category's percent; a green tick at its minimum, a red one at its maximum."""
    top = max([50.0] + [c.percent for c in categories]
              + [float(b) for c in categories for b in (c.min_percent, c.max_percent) if b is not None])
    scale_max = min(100, int(-(-top // 10) * 10))  # round up to the next 10%
    plot = width - LABEL_WIDTH - 30  # room at the right for the last bar's percent
    bars_top = AXIS + ROW * len(categories)
    drawing = Drawing(width, bars_top + LEGEND)
    drawing.initialFontName = REGULAR  # reportlab would otherwise start the drawing in Helvetica

    def x_of(percent: float) -> float:
        return LABEL_WIDTH + plot * min(percent, scale_max) / scale_max

    for step in range(0, scale_max + 1, 10):
        x = x_of(step)
        drawing.add(Line(x, AXIS - 2, x, bars_top, strokeColor=RULE, strokeWidth=0.4))
        drawing.add(String(x, 2, f"{step}%", fontName=REGULAR, fontSize=6, fillColor=MUTED, textAnchor="middle"))
    for row, cat in enumerate(categories):
        y = bars_top - ROW * (row + 1)
        drawing.add(String(LABEL_WIDTH - 5, y + 4.5, cat.name, fontName=REGULAR, fontSize=7.5, fillColor=INK,
                           textAnchor="end"))
        if cat.percent > 0:
            drawing.add(Rect(LABEL_WIDTH, y + 3, x_of(cat.percent) - LABEL_WIDTH, ROW - 6, fillColor=BAR,
                             strokeColor=None))
        drawing.add(String(x_of(cat.percent) + 3, y + 4.5, f"{cat.percent:.1f}%", fontName=REGULAR, fontSize=6.5,
                           fillColor=INK))
        for bound, colour in ((cat.min_percent, LEGAL), (cat.max_percent, ILLEGAL)):
            if bound is not None:
                x = x_of(bound)
                drawing.add(Line(x, y + 1, x, y + ROW - 1, strokeColor=colour, strokeWidth=1.8))
    legend_y = bars_top + 4
    x = LABEL_WIDTH
    for colour, name in ((LEGAL, "minimum"), (ILLEGAL, "maximum")):
        drawing.add(Line(x, legend_y - 1, x, legend_y + 6, strokeColor=colour, strokeWidth=1.8))
        drawing.add(String(x + 4, legend_y, name, fontName=REGULAR, fontSize=6, fillColor=MUTED))
        x += 48
    drawing.add(String(x, legend_y, "bar: percent of the points limit", fontName=REGULAR, fontSize=6,
                       fillColor=MUTED))
    return drawing
