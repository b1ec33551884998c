"""The category chart: one bar per category, its percent of the limit, with the bounds marked.

Bars are all one colour on purpose: whether a category breaks its bound is the engine's verdict
(exact integer arithmetic), printed in the stamp; a colour worked out here from the rounded percent
could disagree with it at exactly the boundary.
"""
from __future__ import annotations

from reportlab.graphics.shapes import Drawing, Line, Rect, String

from armylists.rules.report import CategoryLine

from .pdf_style import BAR, ILLEGAL, INK, LEGAL, MUTED, REGULAR, RULE

ROW = 13  # points per category row
LABEL_WIDTH = 62


def category_chart(categories: tuple[CategoryLine, ...], width: float) -> Drawing:
    """Horizontal bars of each category's percent; a green tick at its minimum, a red one at its maximum."""
    top = max([50.0] + [c.percent for c in categories]
              + [float(b) for c in categories for b in (c.min_percent, c.max_percent) if b is not None])
    scale_max = min(100, int(-(-top // 10) * 10))  # round up to the next 10%
    plot = width - LABEL_WIDTH - 30
    height = ROW * len(categories) + 14
    drawing = Drawing(width, height)

    def x_of(percent: float) -> float:
        return LABEL_WIDTH + plot * min(percent, scale_max) / scale_max

    for step in range(0, scale_max + 1, 10):
        x = x_of(step)
        drawing.add(Line(x, 10, x, height, strokeColor=RULE, strokeWidth=0.4))
        drawing.add(String(x, 2, f"{step}%", fontName=REGULAR, fontSize=5.5, fillColor=MUTED, textAnchor="middle"))
    for row, cat in enumerate(categories):
        y = height - ROW * (row + 1)
        drawing.add(String(LABEL_WIDTH - 4, y + 3.5, cat.name, fontName=REGULAR, fontSize=7, fillColor=INK,
                           textAnchor="end"))
        if cat.percent > 0:
            drawing.add(Rect(LABEL_WIDTH, y + 2, x_of(cat.percent) - LABEL_WIDTH, ROW - 5, fillColor=BAR,
                             strokeColor=None))
        drawing.add(String(x_of(cat.percent) + 3, y + 3.5, f"{cat.percent:.1f}%", fontName=REGULAR, fontSize=6,
                           fillColor=INK))
        for bound, colour in ((cat.min_percent, LEGAL), (cat.max_percent, ILLEGAL)):
            if bound is not None:
                x = x_of(bound)
                drawing.add(Line(x, y, x, y + ROW - 1, strokeColor=colour, strokeWidth=1.6))
    legend_y = height - 2
    drawing.add(String(width, legend_y - 6, "| min", fontName=REGULAR, fontSize=5.5, fillColor=LEGAL, textAnchor="end"))
    drawing.add(String(width, legend_y - 13, "| max", fontName=REGULAR, fontSize=5.5, fillColor=ILLEGAL,
                       textAnchor="end"))
    return drawing
