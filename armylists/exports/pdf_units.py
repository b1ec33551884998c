"""The units of a printed roster, by category: what each is, its profile, and the items taken."""
from __future__ import annotations

from typing import Callable, Iterable, Mapping

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer, Table

from armylists.rules import Book, Violation
from armylists.rules.book import CHARACTERISTICS, Item
from armylists.rules.report import UnitLine

from .pdf_header import section_heading, violation_paragraph
from .pdf_style import ACCENT, BOLD, INK, MUTED, REGULAR, RULE, SHADE, Styles, fitted, table_style, text
from .text import ItemRef, UnitWords, item_name

POINTS_WIDTH = 42 * mm


def unit_title(words: UnitWords, label: str = "") -> str:
    """`30 Heavy Infantry [red banner]` followed by its roles, as Paragraph mark-up."""
    name = f"{words.size} {words.name}" if words.size is not None else words.name
    label = label or words.unit.label
    title = f"<b>{text(name)}</b>" + (f' <font color="{MUTED.hexval()}">[{text(label)}]</font>' if label else "")
    if words.roles:
        title += f'  <font color="{ACCENT.hexval()}">' + " \u00b7 ".join(text(r) for r in words.roles) + "</font>"
    return title


def unit_details(words: UnitWords, show_item: Callable[[ItemRef], str]) -> str:
    parts = []
    if words.options:
        parts.append(("Options", ", ".join(words.options)))
    if words.models:
        parts.append(("Each model", ", ".join(words.models)))
    if words.mount:
        parts.append(("Mount", words.mount))
    if words.command:
        parts.append(("Command", ", ".join(
            name + (f" ({', '.join(show_item(i) for i in items)})" if items else "") for name, items in words.command)))
    if words.items:
        parts.append(("Items", ", ".join(show_item(i) for i in words.items)))
    return "&nbsp;&nbsp; ".join(f'<font color="{MUTED.hexval()}">{k}:</font> {text(v)}' for k, v in parts)


def profiles_of(book: Book, words: UnitWords) -> list[Mapping]:
    """The entry's profiles (model, champion, its own mount) and those of the mount it rides."""
    profiles = list(words.entry.profiles) if words.entry else []
    mount = book.mounts.get(words.unit.mount) if words.unit.mount else None
    if mount is not None:
        profiles += list(mount.profiles)
    return profiles


class ProfileGrid(Flowable):
    """The characteristics table of a unit's models, drawn straight onto the page.

    A Table would do, but a roster prints one per unit and the grid is fixed-width text: drawing it
    directly costs a fifth of the time, which keeps a 20-unit roster under its 50 ms budget.
    """
    NAME_WIDTH = 44 * mm
    COLUMN = 8.5 * mm

    def __init__(self, profiles: list[Mapping], size: float):
        super().__init__()
        extra = [k for p in profiles for k in p if k not in CHARACTERISTICS and k not in ("name", "mount")]
        self.columns = [c for c in CHARACTERISTICS if any(c in p for p in profiles)] + list(dict.fromkeys(extra))
        self.rows = [[str(p.get("name", ""))] + [str(p.get(c, "-")) for c in self.columns] for p in profiles]
        self.size = size
        self.line = size * 1.25

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width = self.NAME_WIDTH + self.COLUMN * len(self.columns)
        self.height = self.line * (len(self.rows) + 1) + 2
        return self.width, self.height

    def draw(self) -> None:
        canvas, size, line = self.canv, self.size, self.line
        top = self.height - size
        canvas.setFont(REGULAR, size)
        canvas.setFillColor(MUTED)
        for i, column in enumerate(self.columns):
            canvas.drawCentredString(self.NAME_WIDTH + self.COLUMN * (i + 0.5), top, column)
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.4)
        canvas.line(0, top - size * 0.35, self.width, top - size * 0.35)
        canvas.setFillColor(INK)
        for r, row in enumerate(self.rows, start=1):
            y = top - line * r - 1
            canvas.drawString(2, y, row[0])
            for i, value in enumerate(row[1:]):
                canvas.drawCentredString(self.NAME_WIDTH + self.COLUMN * (i + 0.5), y, value)


def profile_grid(profiles: list[Mapping], styles: Styles) -> ProfileGrid | None:
    return ProfileGrid(profiles, styles.size * 0.8) if profiles else None


def unit_block(book: Book, words: UnitWords, points: str, styles: Styles, width: float,
               show_item: Callable[[ItemRef], str] = item_name, violations: Iterable[Violation] = (),
               label: str = "") -> Table:
    """One unit: name, roles and points on a shaded line, then its choices, profile, rules and problems."""
    rows: list[list] = [[Paragraph(unit_title(words, label), styles.body), points]]
    details = unit_details(words, show_item)
    if details:
        rows.append([Paragraph(details, styles.body), ""])
    grid = profile_grid(profiles_of(book, words), styles)
    if grid is not None:
        rows.append([grid, ""])
    rules = list(words.entry.rules) if words.entry else []
    mount = book.mounts.get(words.unit.mount) if words.unit.mount else None
    if mount is not None:
        rules += [r for r in mount.rules if r not in rules]
    if rules:
        rows.append([Paragraph(f"Rules: {text(', '.join(rules))}", styles.small), ""])
    violations = list(violations)
    rows += [[violation_paragraph(v, styles, book.system, [words.unit.id]), ""] for v in violations]
    block = Table(rows, colWidths=[width - POINTS_WIDTH, POINTS_WIDTH])
    style = [("BACKGROUND", (0, 0), (-1, 0), SHADE),
             ("VALIGN", (0, 0), (-1, -1), "TOP"), ("FONTNAME", (1, 0), (1, 0), BOLD), ("FONTSIZE", (1, 0), (1, 0), styles.points.fontSize),
             ("ALIGN", (1, 0), (1, 0), "RIGHT"), ("TEXTCOLOR", (1, 0), (1, 0), INK),
             ("LINEBELOW", (0, -1), (-1, -1), 0.4, RULE), ("TOPPADDING", (0, 0), (-1, -1), 1.5),
             ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5)]
    style += [("SPAN", (0, r), (1, r)) for r in range(1, len(rows))]
    # The unit's description stays on one page; only a long list of its violations may run over.
    style.append(("NOSPLIT", (0, 0), (-1, len(rows) - len(violations) - 1)))
    block.setStyle(table_style(style))
    return block


def item_reference(book: Book, carried: list[tuple[str, str, Item, UnitLine]], styles: Styles, width: float,
                   title: str = "Magical items taken") -> list[Flowable]:
    """Each item taken: its category, what it cost its bearer, who carries it and what it does.

    `carried` is (unit title, bearer, item, the unit's line in the Report); the cost is the item's
    price for the unit's category (a Lord pays the Lord price, 000:L2846-2849).
    """
    if not carried:
        return []
    categories = book.system.item_categories
    widths = [width * f for f in (0.22, 0.17, 0.06, 0.2, 0.35)]
    rows: list[list] = [["Item", "Category", "Cost", "Carried by", "What it does"]]
    for unit, bearer, item, line in carried:
        category = categories[item.category].name if item.category in categories else item.category
        cells = [item.name, category, str(item.price_for(line.category)), unit + (f" ({bearer})" if bearer else ""),
                 item.text or "-"]
        rows.append([fitted(value, styles.cell_bold if i == 0 else styles.cell, widths[i])
                     for i, value in enumerate(cells)])
    table = Table(rows, colWidths=widths, repeatRows=1)
    table.setStyle(table_style([
        ("FONTSIZE", (0, 0), (-1, -1), styles.cell.fontSize),
        ("LEADING", (0, 0), (-1, -1), styles.cell.leading), ("TEXTCOLOR", (0, 0), (-1, -1), INK),
        ("FONTNAME", (0, 0), (-1, 0), BOLD), ("FONTNAME", (0, 1), (0, -1), BOLD), ("ALIGN", (2, 0), (2, -1), "RIGHT"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK), ("LINEBELOW", (0, 1), (-1, -1), 0.3, RULE),
        ("VALIGN", (0, 0), (-1, -1), "TOP"), ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
    ]))
    return [Spacer(1, 3 * mm), section_heading(title, styles, width), Spacer(1, 1.5 * mm), table]


def items_carried(words: UnitWords) -> list[tuple[str, Item]]:
    """(bearer, item) for every item of the book the unit carries: the model's, then its command's."""
    found = [("", i) for i in words.items if isinstance(i, Item)]
    for bearer, items in words.command:
        found += [(bearer, i) for i in items if isinstance(i, Item)]
    return found
