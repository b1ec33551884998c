"""An event's muster PDF: a cover table of every approved list, then each list with the full roster's own
pages (`pdf.full_story`), under one footer.

    render_muster(Muster(title, facts, author, lists), printed_on=None, progress=None) -> bytes

What is printed is handed in: the event's part (events/reporting.py) picks the lists, checks them with the
event's rules and works out each one's "data as of"; nothing here reads the database or decides legality.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date
from functools import partial
from typing import Callable

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table

from armylists.exports.pdf import FOOTER_SPACE, MARGIN, PAGE, Footer, FooterCanvas, full_story
from armylists.exports.pdf_list import PrintedList
from armylists.exports.pdf_style import REGULAR, RULE, Styles, register_fonts, table_style, text

Progress = Callable[[int, int], None]  # (steps done, steps in all)


@dataclass(frozen=True)
class MusterList:
    """One approved list: its cover row and its section."""
    player: str
    team: str
    army: str  # the army's name and its book version
    points: int
    checksum: str
    printed: PrintedList | None  # None: the list cannot be printed (`problem` says why)
    problem: str = ""


@dataclass(frozen=True)
class Muster:
    title: str  # the event's name
    facts: str  # the line under it: the date, the points, how many lists
    author: str  # the organiser, in the PDF's properties
    lists: tuple[MusterList, ...]


def render_muster(muster: Muster, printed_on: date | None = None, progress: Progress | None = None) -> bytes:
    """The muster as PDF bytes. `progress` is told the second half of two steps a list (the first half,
    reading and checking the lists, is the caller's): a step a list as its section is put together, then
    the layout's own progress."""
    register_fonts()
    lists = len(muster.lists)
    styles = Styles(9)
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=PAGE, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                            bottomMargin=MARGIN + FOOTER_SPACE, title=f"{muster.title}: approved lists",
                            author=muster.author, creator="armylists", invariant=1, initialFontName=REGULAR)
    story: list[Flowable] = [Paragraph(text(muster.title), styles.title), Paragraph(text(muster.facts), styles.subtitle),
                             Spacer(1, 4 * mm), _cover_table(muster.lists, styles, doc.width)]
    for entry in muster.lists:
        if progress is not None:  # no step further, but the job's heartbeat goes on (events.jobs)
            progress(lists, 2 * lists)
        story.append(PageBreak())
        story.append(Paragraph(text(entry.player + (f" ({entry.team})" if entry.team else "")), styles.heading))
        if entry.printed is None:
            story.append(Paragraph(text(f"This list cannot be printed: {entry.problem}"), styles.error))
            continue
        story += full_story(entry.printed, None, entry.checksum, doc.width)
    footer = Footer(f"{muster.title}: approved lists", "", (printed_on or date.today()).isoformat())
    if progress is not None:
        doc.setProgressCallBack(_layout_progress(progress, lists, len(story)))
    doc.build(story, canvasmaker=partial(FooterCanvas, footer=footer))
    return buffer.getvalue()


def _layout_progress(progress: Progress, lists: int, flowables: int) -> Callable[[str, int], None]:
    """reportlab's layout callback turned into the second half of the muster's steps (flowables laid out
    of those in the story, scaled to one step a list)."""
    def on_layout(kind: str, value: int) -> None:
        if kind == "PROGRESS" and flowables:
            progress(lists + lists * min(value, flowables) // flowables, 2 * lists)
    return on_layout


def _cover_table(lists: tuple[MusterList, ...], styles: Styles, width: float) -> Table | Paragraph:
    if not lists:
        return Paragraph("No list is approved yet.", styles.body)
    data = [[Paragraph(h, styles.cell_bold) for h in ("Player", "Team", "Army", "Points", "Checksum")]]
    for entry in lists:
        data.append([Paragraph(text(entry.player), styles.cell), Paragraph(text(entry.team), styles.cell),
                     Paragraph(text(entry.army), styles.cell), Paragraph(text(entry.points), styles.cell_right),
                     Paragraph(text(entry.checksum), styles.cell)])
    widths = [0.28, 0.16, 0.32, 0.1, 0.14]
    result = Table(data, colWidths=[w * width for w in widths], repeatRows=1)
    result.setStyle(table_style([("LINEBELOW", (0, 0), (-1, 0), 0.6, RULE), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                                 ("LINEBELOW", (0, 1), (-1, -1), 0.25, RULE)]))
    return result
