"""The printed roster (PDF, reportlab platypus), drawn from the Report the engine gave.

    render_pdf(book, roster, report, variant=None | "full" | "compact" | "hidden" | "open" | "warband",
               share_url=None) -> bytes

- full: header, legality stamp, category summary and chart, every unit with its profile, the items
  taken and what they do;
- compact: one page, the category summary and one line per unit, shrunk to fit;
- hidden: The 9th Age's hidden list (000:L133-149): an open list where every magical item shows only
  its mundane type and identical units carry a label, then a separate sheet of the hidden items;
- open: the hidden list's open part alone, without the hidden sheet (what a link shared as the open
  part downloads);
- warband: a Mordheim warband sheet laid out like the official roster, a box per hero and per
  henchman group, with the gold left and the warband rating.

No variant means the book's system's own (`default_variant`): the warband sheet for Mordheim, the
full roster for the rest. Asking for `full` always gives the full roster.

Every page has `page x of y`, the date and the list's checksum in its footer. Nothing here decides
legality: points, percentages and violations are the Report's.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date
from functools import partial

from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, KeepInFrame, Paragraph, SimpleDocTemplate, Spacer, Table

from armylists.rules import Book, Report, Roster
from armylists.rules.battlescribe.sheet import TreePrinting

from armylists.exports.checksum import checksum
from armylists.exports.pdf_header import category_summary, header, matched_play, qr_code, section_heading, stamp, with_heading
from armylists.exports.pdf_hidden import hidden_story, open_story
from armylists.exports.pdf_list import PrintedList
from armylists.exports.pdf_style import MUTED, REGULAR, RULE, Styles, register_fonts, table_style, text
from armylists.exports.pdf_text import TextWriter
from armylists.exports.pdf_tree import tree_unit_block
from armylists.exports.pdf_units import item_reference, items_carried, kept_with_last, unit_block
from armylists.exports.pdf_warband import warband_story
from armylists.exports.text import unit_text

VARIANTS = ("full", "compact", "hidden", "open", "warband")  # open: the hidden list's open part alone
PAGE = A4
MARGIN = 14 * mm
FOOTER_SPACE = 10 * mm


def default_variant(book: Book) -> str:
    """The variant printed when none is asked for: the system's own sheet (its `print_variant`), a choice
    of layout, not a rule: every variant prints any list."""
    return book.system.print_variant if book.system.print_variant in VARIANTS else "full"


def render_pdf(book: Book, roster: Roster, report: Report, variant: str | None = None,
               share_url: str | None = None, printed_on: date | None = None, allies: Book | None = None,
               data_as_of: str = "", tree: TreePrinting | None = None) -> bytes:
    """The roster as PDF bytes. `variant` None is the book's `default_variant`; `share_url` adds its
    QR code; `printed_on` is the footer's date (today); `allies` the book of the list's allied units;
    `tree` the evaluated roster of a roster tree (an imported BattleScribe book's list), whose units are
    then printed with what they hold, their profiles and rules (without it, by name and points only)."""
    variant = variant or default_variant(book)
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    register_fonts()
    printed = PrintedList(book, roster, report, allies, data_as_of, tree)
    check = checksum(roster)
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer, pagesize=PAGE, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
        bottomMargin=MARGIN + FOOTER_SPACE, title=roster.name or "Army list", author=roster.player,
        subject=f"{book.name} {book.version}, {report.points_limit} {report.budget_unit}", creator="armylists",
        invariant=1,  # no timestamp or random id: the same list prints the same bytes
        # Every page starts in this font; reportlab's default, Helvetica, would be listed in the PDF
        # as a font it does not embed.
        initialFontName=REGULAR,
    )
    width = doc.width
    if variant == "compact":
        story = compact_story(printed, share_url, check, width, doc.height)
    elif variant == "hidden":
        story = hidden_story(printed, share_url, check, width)
    elif variant == "open":
        story = open_story(printed, share_url, check, width)
    elif variant == "warband":
        story = warband_story(printed, share_url, check, width, doc.height)
    else:
        story = full_story(printed, share_url, check, width)
    footer = Footer(roster.name or "Army list", check, (printed_on or date.today()).isoformat())
    doc.build(story, canvasmaker=partial(FooterCanvas, footer=footer))
    return buffer.getvalue()


def full_story(printed: PrintedList, share_url: str | None, check: str, width: float) -> list[Flowable]:
    styles = Styles(9)
    book, report = printed.book, printed.report
    story = header(book, printed.roster, report, styles, width, check, share_url)
    story += [Spacer(1, 4 * mm), stamp(report, styles, width, system=book.system, data_as_of=printed.data_as_of)]
    story += category_summary(report, styles, width)
    carried = []
    for title, figures, units in printed.by_category():
        blocks = [tree_unit_block(unit.sheet, unit.words.unit.id, printed.points(unit), report.budget_unit, styles,
                                  width, book.system, report.violations_for(unit.words.unit.id))
                  if unit.sheet is not None else
                  unit_block(unit.book, unit.words, printed.points(unit), styles, width,
                             violations=report.violations_for(unit.words.unit.id)) for unit in units]
        story += with_heading(section_heading(title, styles, width, figures), blocks)
        for unit in units:
            if unit.line is not None:
                name = unit.words.name
                carried += [(name, bearer, item, unit.line) for bearer, item in items_carried(unit.words)]
    story += item_reference(book, carried, styles, width)
    if report.unchecked:  # kept with the last block: never a page holding this note alone (pdf_units)
        story = kept_with_last(story, [Spacer(1, 3 * mm), Paragraph("Not checked by the builder (check these by "
                                                                    "hand)", styles.unit)]
                               + [Paragraph(f"\u2022 {text(note)}", styles.small) for note in report.unchecked])
    return story


def compact_story(printed: PrintedList, share_url: str | None, check: str, width: float,
                  height: float) -> list[Flowable]:
    """Everything on one page: shrunk to fit rather than split, however long the list."""
    styles = Styles(7.5)
    book, roster, report = printed.book, printed.roster, printed.report
    budget = report.budget_unit
    left = report.points_left
    facts = " \u00b7 ".join(p for p in (
        roster.player, f"{book.name} {book.version}", book.system.name,
        *(names for _, names in matched_play(book, roster)),
        f"{report.total_points} of {report.points_limit} {budget}",
        f"{left} {budget} left" if left >= 0 else f"{-left} {budget} over", f"checksum {check}") if p)
    content: list[Flowable] = [Paragraph(text(roster.name or "Army list"), styles.title),
                               Paragraph(text(facts), styles.subtitle), Spacer(1, 2 * mm),
                               stamp(report, styles, width, system=printed.book.system,
                                     data_as_of=printed.data_as_of), Spacer(1, 2 * mm),
                               *category_summary(report, styles, width, title=False)]
    rows, style = [], [("VALIGN", (0, 0), (-1, -1), "TOP"),
                       ("TOPPADDING", (0, 0), (-1, -1), 0.8), ("BOTTOMPADDING", (0, 0), (-1, -1), 0.8)]
    for title, figures, units in printed.by_category():
        style += [("LINEBELOW", (0, len(rows)), (-1, len(rows)), 0.6, RULE), ("SPAN", (0, len(rows)), (1, len(rows)))]
        rows.append([Paragraph(f"<b>{text(title)}</b> <font color=\"{MUTED.hexval()}\">{text(figures)}</font>",
                               styles.body), ""])
        rows += [[Paragraph(text(unit.line.points if unit.line else "?"), styles.cell_right),
                  Paragraph(text(unit_text(unit.words)), styles.cell)] for unit in units]
    if rows:
        units_table = Table(rows, colWidths=[12 * mm, width - 12 * mm], hAlign="LEFT")
        units_table.setStyle(table_style(style))
        content.append(units_table)
    if share_url:
        content += [Spacer(1, 2 * mm), qr_code(share_url, 20 * mm), Paragraph(text(share_url), styles.small)]
    return [KeepInFrame(width, height, content, mode="shrink")]


@dataclass(frozen=True)
class Footer:
    title: str
    check: str
    day: str

    def draw(self, canvas: Canvas, page: int, pages: int) -> None:
        width, _ = PAGE
        y = MARGIN * 0.8
        canvas.saveState()
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.5)
        canvas.line(MARGIN, y + 9, width - MARGIN, y + 9)
        room = width / 2 - MARGIN - 40  # up to the date in the middle, with a gap
        if self.check:
            title = shortened(f"{self.title} \u00b7 checksum {self.check}", room, 7.5, keep=len(self.check) + 12)
        else:  # a document of several lists (an event's muster): each prints its checksum in its header
            title = shortened(self.title, room, 7.5, keep=12)
        writer = TextWriter(canvas)
        writer.put(MARGIN, y, title, REGULAR, 7.5, MUTED)
        writer.put(width / 2, y, self.day, REGULAR, 7.5, MUTED, anchor="middle")
        writer.put(width - MARGIN, y, f"page {page} of {pages}", REGULAR, 7.5, MUTED, anchor="end")
        writer.close()
        canvas.restoreState()


def shortened(line: str, room: float, size: float, keep: int) -> str:
    """`line` cut in its middle ("...") to fit `room` points, keeping its last `keep` characters."""
    if stringWidth(line, REGULAR, size) <= room:
        return line
    head, tail = line[:-keep], line[-keep:]
    while head and stringWidth(head + "..." + tail, REGULAR, size) > room:
        head = head[:-1]
    return head.rstrip() + "..." + tail


class FooterCanvas(Canvas):
    """Holds every page back until the end, so each footer can say how many pages there are."""

    def __init__(self, *args, footer: Footer, **kwargs):
        super().__init__(*args, **kwargs)
        self._footer = footer
        self._pages: list[dict] = []

    def showPage(self) -> None:
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._pages)
        for number, state in enumerate(self._pages, start=1):
            self.__dict__.update(state)
            self._footer.draw(self, number, total)
            super().showPage()
        super().save()
