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
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from armylists.exports.pdf_text import TextWriter, text_width

WORDS = re.compile(r"\S+\s*|\s+")  # each word with the spaces after it


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

    def paint(self, canvas: Canvas, writer: TextWriter, x: float, y: float) -> None:
        """The lines into `writer`, the text's lower left corner at (x, y) of the canvas."""
        top = y + self.height - self.size
        for line in self.lines:
            writer.at(x, top)
            for words, font, colour in line:
                writer.show(words, font, self.size, colour)
            top -= self.leading

    def draw(self) -> None:
        writer = TextWriter(self.canv)
        self.paint(self.canv, writer, 0, 0)
        writer.close()
