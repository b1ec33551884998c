"""A campaign's standings as a PDF: its name, a line of facts, and one table row per warband.

    render_standings(Standings(title, facts, author, rows), printed_on=None) -> bytes

What is printed is handed in (campaigns/league.py works the standings out); nothing here reads the
database or counts a battle.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date
from functools import partial

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, Table

from armylists.exports.pdf import FOOTER_SPACE, MARGIN, PAGE, Footer, FooterCanvas
from armylists.exports.pdf_style import REGULAR, RULE, SHADE, Styles, register_fonts, table_style, text

# (heading, share of the width, right-aligned): the columns the standings print, in this order
COLUMNS = (("#", 0.04, True), ("Player", 0.14, False), ("Warband", 0.22, False), ("Book", 0.2, False),
           ("Rating", 0.1, True), ("Battles", 0.1, True), ("W-D-L", 0.1, True), ("Gold", 0.1, True))


@dataclass(frozen=True)
class StandingRow:
    place: int
    player: str
    warband: str
    book: str
    rating: int | None  # None: the warband's book is not loaded, its rating unknown
    battles: int
    won: int
    drawn: int
    lost: int
    gold: int


@dataclass(frozen=True)
class Standings:
    title: str  # the campaign's name
    facts: str  # the line under it: warbands, battles recorded
    author: str  # who runs the campaign, in the PDF's properties
    rows: tuple[StandingRow, ...]


def render_standings(standings: Standings, printed_on: date | None = None) -> bytes:
    register_fonts()
    styles = Styles(9)
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=PAGE, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                            bottomMargin=MARGIN + FOOTER_SPACE, title=f"{standings.title}: standings",
                            author=standings.author, creator="armylists", invariant=1, initialFontName=REGULAR)
    story: list[Flowable] = [Paragraph(text(f"{standings.title}: standings"), styles.title),
                             Paragraph(text(standings.facts), styles.subtitle), Spacer(1, 4 * mm),
                             _table(standings.rows, styles, doc.width)]
    footer = Footer(f"{standings.title}: standings", "", (printed_on or date.today()).isoformat())
    doc.build(story, canvasmaker=partial(FooterCanvas, footer=footer))
    return buffer.getvalue()


def _cells(row: StandingRow) -> tuple[object, ...]:
    return (row.place, row.player, row.warband, row.book, "?" if row.rating is None else row.rating, row.battles,
            f"{row.won}-{row.drawn}-{row.lost}", f"{row.gold} gc")


def _table(rows: tuple[StandingRow, ...], styles: Styles, width: float) -> Table | Paragraph:
    if not rows:
        return Paragraph("No warband is entered yet.", styles.body)
    data = [[Paragraph(h, styles.cell_bold) for h, _, _ in COLUMNS]]
    for row in rows:
        data.append([Paragraph(text(value), styles.cell_right if right else styles.cell)
                     for value, (_, _, right) in zip(_cells(row), COLUMNS)])
    result = Table(data, colWidths=[share * width for _, share, _ in COLUMNS], repeatRows=1)
    result.setStyle(table_style([("LINEBELOW", (0, 0), (-1, 0), 0.6, RULE), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                                 ("LINEBELOW", (0, 1), (-1, -1), 0.25, RULE),
                                 ("BACKGROUND", (0, 1), (-1, 1), SHADE)]))
    return result
