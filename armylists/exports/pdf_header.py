"""The top of a printed roster: who and what the list is, the legality stamp, the category summary."""
from __future__ import annotations

from typing import Iterable, Sequence

from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table

from armylists.lists.plain_words import plain_message, source_words
from armylists.rules import Book, Report, Roster
from armylists.rules.native.book import System
from armylists.rules.native.render_text import figures_text
from armylists.rules.report import ERROR, Violation

from armylists.exports.pdf_chart import category_chart
from armylists.exports.pdf_grid import NO_TEXT, Grid, Look, Padding, Rule
from armylists.exports.pdf_style import BOLD, ILLEGAL, INK, LEGAL, MUTED, REGULAR, RULE, Styles, fitted, table_style, text
from armylists.exports.pdf_text import TextWriter
from armylists.exports.text import mode_names

QR_SIZE = 28 * mm


def qr_code(url: str, size: float = QR_SIZE) -> Drawing:
    """The share link as a QR code, `size` points square (level M: still reads with a fold across it)."""
    widget = QrCodeWidget(url, barLevel="M", barBorder=2)
    x0, y0, x1, y1 = widget.getBounds()
    drawing = Drawing(size, size, transform=[size / (x1 - x0), 0, 0, size / (y1 - y0), 0, 0])
    drawing.initialFontName = REGULAR  # reportlab would otherwise start the drawing in Helvetica
    drawing.add(widget)
    return drawing


def player_text(roster: Roster) -> str:
    """"Ann (Team Reikland)", "Ann", or "-" when the list names no player."""
    if roster.player and roster.team:
        return f"{roster.player} ({roster.team})"
    return roster.player or (f"team {roster.team}" if roster.team else "-")


def header(book: Book, roster: Roster, report: Report, styles: Styles, width: float, check: str,
           share_url: str | None) -> list[Flowable]:
    """Title, player and the facts an opponent or organiser looks for first; the QR code at the right."""
    budget = report.budget_unit
    comp = book.compositions.get(roster.composition) if roster.composition else None
    composition = comp.name if comp else (roster.composition or "none")
    # Every system counts units and models; the rest are the system's own figures (drops, Wizards,
    # Mordheim's warband rating), named as its data names them.
    figures = figures_text(report)
    facts = [
        ("Player", player_text(roster)),
        ("Game system", book.system.name),
        ("Army book", f"{book.name} {book.version}"),
        ("Composition", composition + (f" ({report.band_name})" if report.band_name else "")),
        *matched_play(book, roster),
        ("Points limit", f"{report.points_limit} {budget}"),
        ("Total", f"{report.total_points} {budget}"),
        ("Points left", f"{report.points_left} {budget}" if report.points_left >= 0
         else f"{-report.points_left} {budget} over the limit"),
        ("Army", figures),
        ("Checksum", check),
    ]
    value_width = width - 26 * mm - (QR_SIZE + 4 * mm if share_url else 0)
    key_look = Look(REGULAR, styles.small.fontSize, styles.body.leading, MUTED)
    value_look = Look(REGULAR, styles.body.fontSize, styles.body.leading, INK)
    facts_table = Grid([[k, fitted(v, styles.body, value_width)] for k, v in facts], [26 * mm, value_width],
                       [[key_look, value_look]] * len(facts), [None] * len(facts), Padding(0, 6, 0, 0), "TOP",
                       h_align="LEFT")
    left = [Paragraph(text(roster.name or "Untitled list"), styles.title), facts_table]
    if not share_url:
        return left
    right = [qr_code(share_url), Paragraph(text(share_url), styles.small)]
    block = Table([[left, right]], colWidths=[width - QR_SIZE - 4 * mm, QR_SIZE + 4 * mm])
    block.setStyle(table_style([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                               ("RIGHTPADDING", (0, 0), (-1, -1), 0)]))
    return [block]


def matched_play(book: Book, roster: Roster) -> list[tuple[str, str]]:
    """The "Matched play" row: the modes the list chose, or Open War; none for a system without modes
    (unless the list names some anyway, which the stamp then reports)."""
    if not book.system.modes and not roster.modes:
        return []
    return [("Matched play", mode_names(book, roster.modes))]


def stamp(report: Report, styles: Styles, width: float, details: bool = True, note: str | Sequence[str] = "",
          system: System | None = None, data_as_of: str = "") -> Table:
    """LEGAL or NOT LEGAL in a coloured box, with every violation's message and the rule it comes from
    (in `system`'s words) when `details`, and the data it was checked with (`data_as_of`) when given."""
    errors = len(report.errors)
    warnings = len(report.violations) - errors
    if report.valid:
        verdict = "LEGAL" + (f" ({warnings} warning{'s' if warnings != 1 else ''})" if warnings else "")
        colour = LEGAL
    else:
        verdict = f"NOT LEGAL ({errors} error{'s' if errors != 1 else ''})"
        colour = ILLEGAL
    big = Paragraph(f'<font color="{colour.hexval()}">{text(verdict)}</font>', styles.heading)
    rows: list[list] = [[big]]
    if details:
        unit_ids = [u.id for u in report.units]
        rows += [[violation_paragraph(v, styles, system, unit_ids)] for v in report.violations]
    # A row cannot break across pages: a long note comes as one row per sentence, so the box can.
    rows += [[Paragraph(text(line), styles.small)] for line in ([note] if isinstance(note, str) else note) if line]
    if data_as_of:
        rows.append([Paragraph(text(f"Data as of: {data_as_of}"), styles.small)])
    box = Table(rows, colWidths=[width])
    box.setStyle(table_style([
        ("BOX", (0, 0), (-1, -1), 1.5, colour), ("LEFTPADDING", (0, 0), (-1, -1), 6),
        ("TOPPADDING", (0, 0), (0, 0), 0), ("BOTTOMPADDING", (0, -1), (-1, -1), 5),
        ("TOPPADDING", (0, 1), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -2), 1),
    ]))
    return box


def violation_paragraph(v: Violation, styles: Styles, system: System | None = None,
                        unit_ids: Iterable[str] = ()) -> Paragraph:
    """The message as a player reads it (no unit ids) and its rule's source in the system's words; the
    code stays in the JSON and the API."""
    mark = "\u00d7" if v.severity == ERROR else "!"
    where = source_words(v.source, system)
    style = styles.error if v.severity == ERROR else styles.warning
    source = f" <font color=\"{MUTED.hexval()}\" size=\"{styles.size * 0.75}\">[{text(where)}]</font>" if where else ""
    return Paragraph(f"{mark} {text(plain_message(v.message, unit_ids))}{source}", style)


def _bound(percent, points, count, budget: str) -> str:
    """A category's minimum or maximum as the table prints it: a percent, else points (a roster tree's
    limit may be in points), else a number of units; "-" for none."""
    if percent is not None:
        return f"{percent}%"
    if points is not None:
        return f"{points} {budget}"
    return f"{count} unit{'' if count == 1 else 's'}" if count is not None else "-"


def category_table(report: Report, styles: Styles, width: float) -> Grid:
    """Points, percent and bounds of each category, and the total."""
    budget = report.budget_unit
    rows = [["Category", "Units", budget, "%", "Min", "Max"]]
    for c in report.categories:
        rows.append([c.name, str(c.units), str(c.points), f"{c.percent:.1f}%",
                     _bound(c.min_percent, c.min_points, c.min_count, budget),
                     _bound(c.max_percent, c.max_points, c.max_count, budget)])
    rows.append(["Total", str(report.figures.get("units", len(report.units))), str(report.total_points),
                 f"{report.total_points * 100 / report.points_limit:.1f}%", "", ""])
    size = styles.size * 0.9
    looks = []
    for r in range(len(rows)):
        font = BOLD if r in (0, len(rows) - 1) else REGULAR  # the heading and the total
        looks.append([Look(font, size, size * 1.2, INK, "LEFT" if c == 0 else "RIGHT") for c in range(6)])
    # A heavy rule under the heading and over the total, light ones between the categories.
    rules: list[Rule | None] = [Rule(0.3, RULE)] * len(rows)
    rules[0] = rules[-2] = Rule(0.8, INK)
    rules[-1] = None
    return Grid(rows, [width * f for f in (0.28, 0.12, 0.17, 0.17, 0.13, 0.13)], looks, rules,
                Padding(3, 3, 1.8, 1.8), h_align="LEFT")


def category_summary(report: Report, styles: Styles, width: float, title: bool = True) -> list[Flowable]:
    """The category table beside its bar chart."""
    gap = 8 * mm
    table_width = width * 0.46
    chart = category_chart(report.categories, width - table_width - gap)
    both = Grid([[category_table(report, styles, table_width), chart]], [table_width + gap, chart.width],
                [[NO_TEXT, NO_TEXT]], [None], Padding(0, 0, 3, 3), "MIDDLE", h_align="LEFT")
    return ([Paragraph("Categories", styles.heading)] if title else []) + [both, Spacer(1, 2 * mm)]


class SectionHeading(Flowable):
    """A band with the section name, and its figures at the right, drawn straight onto the page.

    It prints what a one-row Table with a background drew (the Table's paddings and its default leading
    of 12 points kept, so the page looks the same) without the Table's style and cell bookkeeping,
    which cost more than the band itself; a roster has one per category.
    """
    LEADING, PAD_X, PAD_TOP, PAD_BOTTOM = 12, 6, 3, 4.5

    def __init__(self, title: str, right: str, size: float, width: float):
        super().__init__()
        self.title, self.right, self.size = title, right, size
        self.width, self.height = width, self.LEADING + self.PAD_TOP + self.PAD_BOTTOM
        self.hAlign = "CENTER"  # as a Table's: centred on the frame, overhanging its paddings alike

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        canvas = self.canv
        canvas.setFillColor(INK)
        canvas.rect(0, 0, self.width, self.height, stroke=0, fill=1)
        y = self.PAD_BOTTOM + self.LEADING - self.size
        writer = TextWriter(canvas)
        writer.put(self.PAD_X, y, self.title, BOLD, self.size, colors.white)
        writer.put(self.width - self.PAD_X, y, self.right, BOLD, self.size, colors.white, anchor="end")
        writer.close()


def section_heading(title: str, styles: Styles, width: float, right: str = "") -> SectionHeading:
    """A band with the section name, and its figures at the right."""
    return SectionHeading(title, right, styles.unit.fontSize, width)


def with_heading(heading: Flowable, blocks: list[Flowable]) -> list[Flowable]:
    """The heading kept on one page with the first block under it, never alone at a page's foot.

    The blocks keep themselves whole (a Table with NOSPLIT rows), which costs far less than a
    KeepTogether around each; a KeepTogether inside another would always break the page.
    """
    gap = 2.5 * mm
    story: list[Flowable] = [KeepTogether([heading, Spacer(1, 1.5 * mm), blocks[0]]), Spacer(1, gap)]
    for block in blocks[1:]:
        story += [block, Spacer(1, gap)]
    return story
