"""The warband sheet: a Mordheim warband laid out like the official roster sheet.

A header with the warband, its gold and its rating; the legality stamp; then a box per hero (name
and type, profile, equipment, a line for skills, experience, cost) and a box per henchman group
(name, number, profile, equipment of each model, experience, cost per model and in all), two boxes
side by side. The figures are the Report's; `warband.WarbandSheet` says what goes in each box.
"""
from __future__ import annotations

from typing import Mapping

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, KeepInFrame, Paragraph, Spacer, Table

from armylists.rules.native.book import CHARACTERISTICS
from armylists.rules.report import ERROR, Violation

from armylists.lists.plain_words import plain_message

from armylists.exports.pdf_header import player_text, qr_code, section_heading, stamp, with_heading
from armylists.exports.pdf_list import PrintedList
from armylists.exports.pdf_style import BOLD, ILLEGAL, INK, MUTED, REGULAR, RULE, SHADE, Styles, table_style, text
from armylists.exports.warband import WarbandSheet, Warrior

GAP = 4 * mm  # between the two columns of boxes
PAD = 4  # points inside a box
QR_SIZE = 24 * mm
LINK_COLUMN = 32 * mm  # the QR code and, under it, the link in small type
HERO_TRACK_ROWS = 2  # rows of experience boxes: a hero has a long way to go, a group a short one
GROUP_TRACK_ROWS = 1
# A row of boxes cannot break across pages, so a box must stay shorter than a page: it shows its first
# few violations, and the stamp, which may run over pages, has them all.
BOX_VIOLATIONS = 3
FRAME_PADDING = 6  # a platypus Frame's padding on each side, inside the page's margins


def warband_story(printed: PrintedList, share_url: str | None, check: str, width: float,
                  height: float) -> list[Flowable]:
    """The sheet; `height` is the page's room for text, which no row of boxes may outgrow."""
    styles = Styles(9)
    sheet = WarbandSheet(printed)
    story = warband_header(sheet, styles, width, check, share_url)
    # What the builder does not check goes with the verdict, where whoever checks the list looks.
    unchecked = list(printed.report.unchecked)  # each note is a sentence
    note = ["Not checked by the builder (check by hand):"] + unchecked if unchecked else ""
    story += [Spacer(1, 3 * mm), stamp(printed.report, styles, width, note=note, system=printed.book.system,
                                             data_as_of=printed.data_as_of), Spacer(1, 1 * mm)]
    box_width = (width - GAP) / 2
    for title, figures, warriors in sheet.sections:
        boxes = [warrior_box(w, printed.report.budget_unit, styles, box_width) for w in warriors]
        rows = [box_row(boxes[i:i + 2], box_width, height) for i in range(0, len(boxes), 2)]
        story += [Spacer(1, 2 * mm)] + with_heading(section_heading(title, styles, width, figures), rows)
    return story


# -- the header ---------------------------------------------------------------------------------

def warband_header(sheet: WarbandSheet, styles: Styles, width: float, check: str,
                   share_url: str | None) -> list[Flowable]:
    """The warband's name, who leads it and what it is, then its gold and rating in a row of boxes."""
    printed = sheet.printed
    book, roster, report = printed.book, printed.roster, printed.report
    budget = report.budget_unit
    left = report.points_left
    # Mark-up: the checksum is one word, never broken from its name at the end of a line.
    facts = " \u00b7 ".join([text(f"Player: {player_text(roster)}"), text(f"Warband type: {book.name} {book.version}"),
                              f"checksum&nbsp;{text(check)}"])
    warriors = str(sheet.models) + (f" of {sheet.maximum}" if sheet.maximum is not None else "")
    figures = [("Gold budget", f"{report.points_limit} {budget}"), ("Gold spent", f"{report.total_points} {budget}"),
               ("Gold left", f"{left} {budget}" if left >= 0 else f"{-left} {budget} over")]
    if "rating" in report.figures:
        figures.append(("Warband rating", str(report.figures["rating"])))
    figures.append(("Warriors", warriors))
    campaign = sheet.campaign
    if campaign is not None and campaign.treasury is not None:  # later in its campaign: what it holds now
        figures += [("Treasury", f"{campaign.treasury} {budget}"), ("Wyrdstone", str(campaign.wyrdstone)),
                    ("Battles", f"{campaign.battles} ({campaign.won} won)")]
    room = width - (LINK_COLUMN if share_url else 0)
    left_part = [Paragraph(text(roster.name or "Untitled warband"), styles.title), Paragraph(facts, styles.subtitle),
                 Spacer(1, 2 * mm), figure_boxes(figures, styles, room, over=left < 0)]
    if campaign is not None and campaign.treasury is not None:
        muted = MUTED.hexval()
        left_part.append(Paragraph(f'<font color="{muted}">Stash</font> {text(", ".join(campaign.stash) or "empty")}'
                                   + (f' \u00b7 <font color="{muted}">Fallen</font> {text(", ".join(campaign.fallen))}'
                                      if campaign.fallen else ""), styles.cell))
    cells: list = [left_part]
    if share_url:
        # A link has no spaces to break at: let it break anywhere rather than leave one character alone.
        link = ParagraphStyle("link", parent=styles.small, fontSize=styles.size * 0.7, leading=styles.size * 0.9,
                              wordWrap="CJK")
        cells.append([qr_code(share_url, QR_SIZE), Paragraph(text(share_url), link)])
    # A table even with one cell, so that the title lines up with the boxes below it (see box_row).
    block = Table([cells], colWidths=[room, width - room] if share_url else [width])
    block.setStyle(table_style([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                               ("RIGHTPADDING", (0, 0), (-1, -1), 0), ("TOPPADDING", (0, 0), (-1, -1), 0),
                               ("BOTTOMPADDING", (0, 0), (-1, -1), 0), ("LEFTPADDING", (1, 0), (-1, 0), 4 * mm)]))
    return [block]


def figure_boxes(figures: list[tuple[str, str]], styles: Styles, width: float, over: bool) -> Table:
    """One box per figure, its name small above its value, as the official sheet's rating boxes."""
    label_size, value_size = styles.size * 0.8, styles.size * 1.5
    table = Table([[name for name, _ in figures], [value for _, value in figures]],
                  colWidths=[width / len(figures)] * len(figures))
    style = [("FONTSIZE", (0, 0), (-1, 0), label_size), ("TEXTCOLOR", (0, 0), (-1, 0), MUTED),
             ("FONTNAME", (0, 1), (-1, 1), BOLD), ("FONTSIZE", (0, 1), (-1, 1), value_size),
             ("LEADING", (0, 1), (-1, 1), value_size * 1.2), ("TEXTCOLOR", (0, 1), (-1, 1), INK),
             ("BOX", (0, 0), (-1, -1), 0.8, INK), ("LINEAFTER", (0, 0), (-2, -1), 0.5, RULE),
             ("TOPPADDING", (0, 0), (-1, 0), 3), ("BOTTOMPADDING", (0, 0), (-1, 0), 0),
             ("TOPPADDING", (0, 1), (-1, 1), 1), ("BOTTOMPADDING", (0, 1), (-1, 1), 5)]
    if over:
        gold_left = [name for name, _ in figures].index("Gold left")
        style.append(("TEXTCOLOR", (gold_left, 1), (gold_left, 1), ILLEGAL))
    table.setStyle(table_style(style))
    return table


# -- the boxes ----------------------------------------------------------------------------------

def box_row(boxes: list[Table], box_width: float, height: float) -> Flowable:
    """Two boxes side by side, framed to the same height; a lone last box keeps its column.

    A row cannot break across pages: one that does not fit goes whole to the next. One taller than
    a page (only a list made to be, such as a hundred models each with its own kit) is shrunk to
    fit a page rather than fail to print.
    """
    cells = [boxes[0], "", boxes[1] if len(boxes) > 1 else ""]
    # Centred, as the section band and the stamp are: all three are as wide as the page's text and
    # overhang the frame's padding by the same amount on each side.
    row = Table([cells], colWidths=[box_width, GAP, box_width])
    style = [("VALIGN", (0, 0), (-1, -1), "TOP"), ("BOX", (0, 0), (0, 0), 0.8, INK),
             ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
             ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0)]
    if len(boxes) > 1:
        style.append(("BOX", (2, 0), (2, 0), 0.8, INK))
    row.setStyle(table_style(style))
    room = height - 2 * FRAME_PADDING - 12 * mm  # and the section band kept with a first row
    if row.wrap(2 * box_width + GAP, room)[1] <= room:
        return row
    # Only here: a KeepInFrame shrinks its content to the room left on the page it lands on, so
    # around a row that fits a page it would shrink the row instead of moving it to the next page.
    return KeepInFrame(2 * box_width + GAP, room, [row], mode="shrink", hAlign="CENTER")


def warrior_box(w: Warrior, budget: str, styles: Styles, width: float) -> Table:
    """A hero's or a henchman group's box: a shaded title line, then its lines from top to bottom."""
    inner = width - 2 * PAD
    title = f"<b>{text(w.type)}</b>"
    if not w.hero:
        title = f"<b>{w.models} \u00d7</b> " + title
    if w.campaign.promoted:  # Mordheim: the lad's got talent
        title += " (made a hero)"
    rows: list[list] = [[Paragraph(title, styles.body), f"{w.cost} {budget}" if w.cost is not None else "?"]]
    label = "Name" if w.hero else "Group name"
    rows.append([WritingLine(label, w.name, inner, styles.size * 0.9,
                             right=None if w.hero else f"Number {w.models}"), ""])
    if w.profiles:
        rows.append([profile_table(w.profiles, styles, inner), ""])
    rows += [[Paragraph(line, styles.cell), ""] for line in equipment_lines(w)]
    if w.spells:
        rows.append([Paragraph(f'<font color="{MUTED.hexval()}">Spells</font> {text(w.spells)}', styles.cell), ""])
    muted = MUTED.hexval()
    if w.campaign.skills:
        rows.append([Paragraph(f'<font color="{muted}">Skills</font> {text(", ".join(w.campaign.skills))}', styles.cell), ""])
    elif w.hero:
        rows.append([WritingLine("Skills", "", inner, styles.size * 0.9), ""])
    for label, lines in (("Advances", w.campaign.advances), ("Injuries", w.campaign.injuries)):
        if lines:
            rows.append([Paragraph(f'<font color="{muted}">{label}</font> {text(", ".join(lines))}', styles.cell), ""])
    if w.campaign.state:
        rows.append([Paragraph(f"<b>{text(w.campaign.state.capitalize())}</b>", styles.cell), ""])
    rows.append([ExperienceTrack(w.experience, inner, styles.size * 0.9,
                                 HERO_TRACK_ROWS if w.hero else GROUP_TRACK_ROWS, each=not w.hero,
                                 marks=w.campaign.marks), ""])
    if not w.hero and w.cost is not None:
        each = f"{w.cost_each} {budget} per model" if w.cost_each is not None else "models cost differently"
        rows.append([Paragraph(f'<font color="{MUTED.hexval()}">Cost</font> {text(each)}, '
                               f'<b>{w.cost} {budget}</b> for {w.models}', styles.cell), ""])
    rows += [[box_violation(v, styles), ""] for v in w.violations[:BOX_VIOLATIONS]]
    if len(w.violations) > BOX_VIOLATIONS:
        rows.append([Paragraph(f"\u00d7 and {len(w.violations) - BOX_VIOLATIONS} more, in the stamp above",
                               styles.error), ""])
    box = Table(rows, colWidths=[width - 22 * mm, 22 * mm])
    style = [("BACKGROUND", (0, 0), (-1, 0), SHADE), ("LINEBELOW", (0, 0), (-1, 0), 0.5, RULE),
             ("FONTNAME", (1, 0), (1, 0), BOLD), ("FONTSIZE", (1, 0), (1, 0), styles.unit.fontSize),
             ("ALIGN", (1, 0), (1, 0), "RIGHT"), ("TEXTCOLOR", (1, 0), (1, 0), INK),
             ("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), PAD),
             ("RIGHTPADDING", (0, 0), (-1, -1), PAD), ("TOPPADDING", (0, 0), (-1, -1), 1.2),
             ("BOTTOMPADDING", (0, 0), (-1, -1), 1.2), ("TOPPADDING", (0, 0), (-1, 0), 3),
             ("BOTTOMPADDING", (0, 0), (-1, 0), 3), ("BOTTOMPADDING", (0, -1), (-1, -1), PAD)]
    style += [("SPAN", (0, r), (1, r)) for r in range(1, len(rows))]
    box.setStyle(table_style(style))
    return box


def box_violation(v: Violation, styles: Styles) -> Paragraph:
    """The message only (without the warrior's id: the box is the warrior's); the stamp at the top gives
    each violation's source."""
    mark = "\u00d7" if v.severity == ERROR else "!"
    return Paragraph(f"{mark} {text(plain_message(v.message, [v.unit] if v.unit else []))}", styles.error if v.severity == ERROR else styles.warning)


def equipment_lines(w: Warrior) -> list[str]:
    """`Equipment: Dagger (free), Sword`, or a line per model when a group's models carry different kits."""
    label = "Equipment" if w.hero or len(w.equipment) > 1 else "Equipment (each)"
    muted = MUTED.hexval()
    if len(w.equipment) == 1:
        return [f'<font color="{muted}">{label}</font> {text(", ".join(w.equipment[0]) or "none")}']
    return [f'<font color="{muted}">{label}</font>'] + [
        f'<font color="{muted}">Model {n}:</font> {text(", ".join(kit) or "none")}'
        for n, kit in enumerate(w.equipment, start=1)]


def profile_table(profiles: tuple[Mapping, ...], styles: Styles, width: float) -> Table:
    """M WS BS S T W I A Ld in boxes, a row per profile; the profile's name only when there are several."""
    extra = [k for p in profiles for k in p if k not in CHARACTERISTICS and k not in ("name", "mount")]
    columns = list(CHARACTERISTICS) + list(dict.fromkeys(extra))
    named = len(profiles) > 1
    rows = [([""] if named else []) + columns]
    rows += [([str(p.get("name", ""))] if named else []) + [str(p.get(c, "-")) for c in columns] for p in profiles]
    name_width = 22 * mm if named else 0
    column = (width - name_width) / len(columns)
    table = Table(rows, colWidths=([name_width] if named else []) + [column] * len(columns), hAlign="LEFT")
    size = styles.size * 0.9
    table.setStyle(table_style([
        ("FONTSIZE", (0, 0), (-1, 0), size * 0.85), ("TEXTCOLOR", (0, 0), (-1, 0), MUTED),
        ("BACKGROUND", (0, 0), (-1, 0), SHADE), ("FONTSIZE", (0, 1), (-1, -1), size),
        ("FONTNAME", (0, 1), (-1, -1), BOLD), ("TEXTCOLOR", (0, 1), (-1, -1), INK),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"), ("GRID", (0, 0), (-1, -1), 0.5, RULE),
        ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
        ("LEFTPADDING", (0, 0), (-1, -1), 1), ("RIGHTPADDING", (0, 0), (-1, -1), 1),
    ]))
    return table


class WritingLine(Flowable):
    """`Name ______` : a label and its value, or a ruled line to write one on; text at the right if given."""

    def __init__(self, label: str, value: str, width: float, size: float, right: str | None = None):
        super().__init__()
        self.label, self.value, self.right = label, value, right
        self.width, self.size = width, size
        self.height = size * 1.8

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        canvas, size = self.canv, self.size
        base = size * 0.45
        canvas.setFont(REGULAR, size)
        canvas.setFillColor(MUTED)
        canvas.drawString(0, base, self.label)
        start = canvas.stringWidth(self.label, REGULAR, size) + 4
        end = self.width - (canvas.stringWidth(self.right, BOLD, size) + 8 if self.right else 0)
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.5)
        canvas.line(start, base - 2, end, base - 2)
        canvas.setFont(BOLD, size)
        canvas.setFillColor(INK)
        # The value before the text at the right, so that the PDF's text reads in the order it is seen.
        if self.value:
            canvas.drawString(start + 2, base, self.value)
        if self.right:
            canvas.drawRightString(self.width, base, self.right)


class ExperienceTrack(Flowable):
    """`Experience 20` and a track of small boxes, the ones already earned filled in, the boxes at the
    track's `marks` (an advance earned there) bordered thick, as the official roster sheet has them.

    At least `rows` rows of boxes, more if the warrior has more experience than they hold, up to
    MAX_ROWS: beyond that the number says it (Mordheim's own track ends at 90).
    """
    MAX_ROWS = 5
    LABEL_WIDTH = 24 * mm  # the least room before the boxes, so that tracks line up from box to box
    BOX = 2.4 * mm
    PITCH = 3.0 * mm

    def __init__(self, experience: int, width: float, size: float, rows: int, each: bool = False,
                 marks: tuple[int, ...] = ()):
        super().__init__()
        self.experience, self.size, self.each, self.marks = experience, size, each, frozenset(marks)
        self.width = width
        self.value = f"{experience}" + (" each" if each else "")
        self.label_width = max(self.LABEL_WIDTH, stringWidth("Experience ", REGULAR, size)
                               + stringWidth(self.value, BOLD, size) + 2 * mm)
        self.per_row = max(1, int((width - self.label_width) // self.PITCH))
        self.rows = min(self.MAX_ROWS, max(rows, -(-experience // self.per_row)))
        self.height = self.rows * self.PITCH + 1

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        canvas, size = self.canv, self.size
        top = self.height
        canvas.setFont(REGULAR, size)
        canvas.setFillColor(MUTED)
        canvas.drawString(0, top - size, "Experience")
        canvas.setFont(BOLD, size)
        canvas.setFillColor(INK)
        canvas.drawString(stringWidth("Experience ", REGULAR, size), top - size, self.value)
        canvas.setStrokeColor(MUTED)
        canvas.setLineWidth(0.5)
        canvas.setFillColor(MUTED)
        for n in range(self.rows * self.per_row):
            row, column = divmod(n, self.per_row)
            x = self.label_width + column * self.PITCH
            y = top - (row + 1) * self.PITCH
            mark = (n + 1) in self.marks  # box n is the (n+1)th experience point
            canvas.setLineWidth(1.3 if mark else 0.5)
            canvas.setStrokeColor(INK if mark else MUTED)
            canvas.rect(x, y, self.BOX, self.BOX, stroke=1, fill=1 if n < self.experience else 0)
