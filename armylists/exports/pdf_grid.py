"""Tables of short text drawn straight onto the page, laid out as reportlab's Table lays them out.

The roster's header facts, its category table and its table of magical items are grids of short
strings with fixed column widths, a few Paragraphs for text that wraps, and rules between rows. A
reportlab Table prints them with a style per cell (its commands applied cell by cell), a text object
per string and the fill colour and font set again for each cell; for a 20-unit roster that was a
sixth of the time. A Grid places every cell where such a Table puts it (the same paddings, leading,
vertical alignment, column and row positions; rules with round caps, as a Table's) and writes its
strings as one text object (pdf_text.TextWriter). It splits between rows at a page's foot, repeating
its first `repeat` rows, as a Table with `repeatRows` does.
"""
from __future__ import annotations

from typing import NamedTuple

from reportlab.lib.colors import Color
from reportlab.platypus import Flowable

from armylists.exports.pdf_text import TextWriter


class Look(NamedTuple):
    """How a cell's text is set: a Table's FONTNAME, FONTSIZE, LEADING, TEXTCOLOR and ALIGN."""
    font: str
    size: float
    leading: float
    colour: Color
    align: str = "LEFT"  # or RIGHT


NO_TEXT = Look("", 0, 0, Color(0, 0, 0))  # the look of a cell that holds a Flowable


class Rule(NamedTuple):
    weight: float
    colour: Color


class Padding(NamedTuple):
    left: float = 6  # a Table cell's defaults
    right: float = 6
    top: float = 3
    bottom: float = 3


class Grid(Flowable):
    """Rows of cells (a string, or a Flowable such as a Paragraph) in columns of fixed `widths`.

    `looks[r][c]` sets cell (r, c)'s text; `rules[r]` is the rule drawn below row r (None for none).
    Looks and rules belong to their rows, so each part of a split grid keeps them; the part after a
    split also draws the rule of the row before the split over its first row's top (`carried`), as a
    split Table does.
    """

    def __init__(self, rows: list[list], widths: list[float], looks: list[list[Look]], rules: list[Rule | None],
                 padding: Padding = Padding(), valign: str = "BOTTOM", repeat: int = 0, h_align: str = "CENTER",
                 carried: Rule | None = None):
        super().__init__()
        self.carried = carried
        self.rows, self.widths, self.looks, self.rules = rows, widths, looks, rules
        self.padding, self.valign, self.repeat = padding, valign, repeat
        self.hAlign = h_align
        self.positions = [0.0]
        for w in widths:
            self.positions.append(self.positions[-1] + w)
        self.width = self.positions[-1]
        self.heights: list[float] = []

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        if not self.heights:
            pad = self.padding
            self.heights = [max(self.cell_height(value, look, width) for value, look, width in
                                zip(row, looks, self.widths)) + pad.top + pad.bottom
                            for row, looks in zip(self.rows, self.looks)]
            # The bottom of each row, from the table's top down, summed as a Table sums them (from the
            # bottom up, compensating rounding), so rows land on the same points.
            bottoms, height, carry = [], 0.0, 0.0
            for h in reversed(self.heights):
                bottoms.append(height)
                y = h - carry
                total = height + y
                carry = (total - height) - y
                height = total
            self.bottoms = bottoms[::-1]
            self.height = height
        return self.width, self.height

    def cell_height(self, value, look: Look, width: float) -> float:
        if isinstance(value, Flowable):
            return value.wrap(width - self.padding.left - self.padding.right, 72000)[1]
        return look.leading * (value.count("\n") + 1)

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        self.wrap(available_width, available_height)
        fits, used = 0, 0.0
        for h in self.heights:
            if used + h > available_height:
                break
            used += h
            fits += 1
        if fits <= self.repeat:
            return []
        if fits == len(self.rows):
            return [self]
        first = self.part(slice(0, fits), slice(0, 0), self.carried)
        return [first, self.part(slice(fits, None), slice(0, self.repeat), self.rules[fits - 1])]

    def part(self, rows: slice, head: slice, carried: Rule | None) -> Grid:
        """The rows `head` (repeated at the top) and `rows` as a grid of their own."""
        return Grid(self.rows[head] + self.rows[rows], self.widths, self.looks[head] + self.looks[rows],
                    self.rules[head] + self.rules[rows], self.padding, self.valign, self.repeat, self.hAlign, carried)

    def draw(self) -> None:
        canvas, pad, valign = self.canv, self.padding, self.valign
        writer = TextWriter(canvas)
        for row, looks, bottom, height in zip(self.rows, self.looks, self.bottoms, self.heights):
            for value, look, x, width in zip(row, looks, self.positions, self.widths):
                if isinstance(value, Flowable):  # a Table's flowable cell, aligned left
                    h = value.height
                    if valign == "TOP":
                        y = bottom + height - pad.top - h
                    elif valign == "BOTTOM":
                        y = bottom + pad.bottom
                    else:
                        y = bottom + (height + pad.bottom - pad.top + h) / 2.0 - h
                    writer.close()  # the strings before it first, so the page reads in the Table's order
                    value.drawOn(canvas, x + pad.left, y)
                    continue
                lines = value.split("\n")
                if valign == "TOP":
                    y = bottom + height - pad.top - look.size
                elif valign == "BOTTOM":
                    y = bottom + pad.bottom + len(lines) * look.leading - look.size
                else:
                    y = bottom + (pad.bottom + height - pad.top + len(lines) * look.leading) / 2.0 - look.size
                if look.align == "RIGHT":
                    x, anchor = x + width - pad.right, "end"
                else:
                    x, anchor = x + pad.left, "start"
                for line in lines:
                    writer.put(x, y, line, look.font, look.size, look.colour, anchor)
                    y -= look.leading
        writer.close()
        rules = list(zip(self.rules, self.bottoms))
        if self.carried is not None:
            rules.append((self.carried, self.bottoms[self.repeat - 1] if self.repeat else self.height))
        if any(rule for rule, _ in rules):
            canvas.saveState()
            canvas.setLineCap(1)  # a Table's rules have round caps and joins
            canvas.setLineJoin(1)
            current = None
            for rule, y in rules:
                if rule is not None:
                    if rule != current:
                        canvas.setStrokeColor(rule.colour)
                        canvas.setLineWidth(rule.weight)
                        current = rule
                    canvas.line(0, y, self.width, y)
            canvas.restoreState()
