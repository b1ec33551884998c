"""Short text in a few runs of font and colour, wrapped at spaces and drawn straight onto the page.

What a roster's unit blocks print (each unit's title, its choices, its rules) is plain text in two or
three styles. reportlab's Paragraph would parse mark-up (an HTML parser per paragraph) and lay out any
text; these lines need neither, and a 20-unit roster has sixty of them: drawing them here takes a
fraction of the time. Runs are plain strings (no mark-up to escape).
"""
from __future__ import annotations

import re
from typing import NamedTuple

from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable

WORDS = re.compile(r"\S+\s*|\s+")  # each word with the spaces after it

_widths: dict[tuple[str, float], dict[str, float]] = {}


def text_width(text: str, font: str, size: float) -> float:
    """stringWidth, kept per font and size: a roster measures the same words (Shield, Heavy Armour, the
    profile's values) hundreds of times, and every roster the site prints measures them again."""
    table = _widths.get((font, size))
    if table is None:
        table = _widths[(font, size)] = {}
    width = table.get(text)
    if width is None:
        if len(table) > 20_000:  # free text (unit names, notes) must not pile up
            table.clear()
        width = table[text] = stringWidth(text, font, size)
    return width


class Run(NamedTuple):
    text: str
    font: str
    colour: Color


class RunsText(Flowable):
    """Runs of text at one size and leading, wrapped to the width they are given."""

    def __init__(self, runs: list[Run], size: float, leading: float):
        super().__init__()
        self.runs = [run for run in runs if run.text]
        self.size = size
        self.leading = leading
        self.lines: list[list[tuple[str, str, Color]]] = []

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        if self.lines and self.width == available_width:  # wrapped again to the same width (a block's split)
            return self.width, self.height
        size = self.size
        lines: list[list[list]] = [[]]
        x = 0.0
        for run in self.runs:
            for word in WORDS.findall(run.text):
                width = text_width(word, run.font, size)
                if x > 0 and x + text_width(word.rstrip(), run.font, size) > available_width and word.strip():
                    lines.append([])
                    x = 0.0
                line = lines[-1]
                if line and line[-1][1] == run.font and line[-1][2] == run.colour:
                    line[-1][0] += word  # one string per run of a line: one text operation to draw
                elif x > 0 or word.strip():
                    line.append([word, run.font, run.colour])
                x += width
        self.lines = [[(t.rstrip() if i == len(line) - 1 else t, f, c) for i, (t, f, c) in enumerate(line)]
                      for line in lines if line]
        self.width = available_width
        self.height = self.leading * len(self.lines)
        return self.width, self.height

    def draw(self) -> None:
        text = self.canv.beginText()
        y = self.height - self.size
        for line in self.lines:
            text.setTextOrigin(0, y)
            for words, font, colour in line:
                text.setFont(font, self.size, self.leading)
                text.setFillColor(colour)
                text.textOut(words)
            y -= self.leading
        self.canv.drawText(text)
