"""The units of a printed roster, by category: what each is, its profile, and the items taken."""
from __future__ import annotations

from typing import Callable, Iterable, Mapping

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, KeepTogether, Spacer

from armylists.rules import Book, Violation
from armylists.rules.native.book import Item
from armylists.rules.reading.data_files import in_characteristic_order
from armylists.rules.report import UnitLine

from armylists.exports.pdf_grid import Grid, Look, Padding, Rule
from armylists.exports.pdf_header import section_heading, violation_paragraph
from armylists.exports.pdf_runs import Run, RunsText
from armylists.exports.pdf_style import ACCENT, BOLD, INK, MUTED, REGULAR, RULE, SHADE, Styles, fitted
from armylists.exports.pdf_text import TextWriter, text_width
from armylists.exports.text import ItemRef, UnitWords, item_name

POINTS_WIDTH = 42 * mm


def unit_title(words: UnitWords, label: str = "") -> list[Run]:
    """`30 Heavy Infantry [red banner]` followed by its roles."""
    name = f"{words.size} {words.name}" if words.size is not None else words.name
    label = label or words.unit.label
    runs = [Run(name, BOLD, INK)]
    if label:
        runs.append(Run(f" [{label}]", REGULAR, MUTED))
    if words.roles:
        runs.append(Run("  " + " \u00b7 ".join(words.roles), REGULAR, ACCENT))
    return runs


def unit_details(words: UnitWords, show_item: Callable[[ItemRef], str]) -> list[Run]:
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
    runs: list[Run] = []
    for key, value in parts:
        if runs:
            runs.append(Run("\u00a0\u00a0 ", REGULAR, INK))
        runs += [Run(f"{key}: ", REGULAR, MUTED), Run(value, REGULAR, INK)]
    return runs


def profiles_of(book: Book, words: UnitWords) -> list[Mapping]:
    """The entry's profiles (model, champion, its own mount) and those of the mount it rides."""
    profiles = list(words.entry.profiles) if words.entry else []
    mount = book.mounts.get(words.unit.mount) if words.unit.mount else None
    if mount is not None:
        profiles += list(mount.profiles)
    if words.entry is not None:  # a mount chosen as an option (an imported book's)
        options = words.entry.options
        profiles += [p for oid, n in words.unit.options if n and oid in options for p in options[oid].profiles]
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
        self.columns = in_characteristic_order(k for p in profiles for k in p if k not in ("name", "mount"))
        self.rows = [[str(p.get("name", ""))] + [str(p.get(c, "-")) for c in self.columns] for p in profiles]
        self.size = size
        self.line = size * 1.25

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width = self.NAME_WIDTH + self.COLUMN * len(self.columns)
        self.height = self.line * (len(self.rows) + 1) + 2
        return self.width, self.height

    def paint(self, canvas: Canvas, writer: TextWriter, x: float, y: float) -> None:
        """The rule on `canvas` and the characteristics into `writer`, the grid's lower left at (x, y)."""
        size, line = self.size, self.line
        top = y + self.height - size
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.4)
        canvas.line(x, top - size * 0.35, x + self.width, top - size * 0.35)
        centres = [x + self.NAME_WIDTH + self.COLUMN * (i + 0.5) for i in range(len(self.columns))]

        def placed(values: list[str]) -> list[tuple[float, str]]:
            return [(c - text_width(value, REGULAR, size) / 2, value) for c, value in zip(centres, values)]
        writer.row(top, placed(self.columns), REGULAR, size, MUTED)
        for r, row in enumerate(self.rows, start=1):
            writer.row(top - line * r - 1, [(x + 2, row[0])] + placed(row[1:]), REGULAR, size, INK)

    def draw(self) -> None:
        writer = TextWriter(self.canv)
        self.paint(self.canv, writer, 0, 0)
        writer.close()


def profile_grid(profiles: list[Mapping], styles: Styles) -> ProfileGrid | None:
    return ProfileGrid(profiles, styles.size * 0.8) if profiles else None


class UnitBlock(Flowable):
    """One unit, drawn straight onto the page: a shaded line with its title and, at the right, its points;
    then its choices, profile, rules and violations, each across the whole width; a rule below it.

    This is what a two-column Table with spanned rows drew, without a Table's cell bookkeeping, which
    was a third of a roster's time. The unit's description stays on one page; only a long list of its
    violations may run over to the next (split() keeps the description and the violations that fit).
    A unit taller than `whole` (a page, for a roster tree's unit with many profile tables) splits between
    its parts instead.
    """
    PAD_X = 6  # a Table cell's paddings, kept so the page looks as it did
    PAD_Y = 1.5

    def __init__(self, title: Flowable | None, points: str, parts: list[Flowable], violations: list[Flowable],
                 points_size: float, width: float, whole: float | None = None):
        super().__init__()
        self.title, self.points, self.parts, self.violations = title, points, parts, violations
        self.whole = whole
        self.font_size = points_size
        self.block_width = width

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        inner = self.block_width - 2 * self.PAD_X
        self.title_height = 0.0
        if self.title is not None:
            _, height = self.title.wrap(self.block_width - POINTS_WIDTH - 2 * self.PAD_X, available_height)
            self.title_height = max(height, self.font_size * 1.2) + 2 * self.PAD_Y
        self.heights = [p.wrap(inner, available_height)[1] + 2 * self.PAD_Y for p in self.parts + self.violations]
        self.width, self.height = self.block_width, self.title_height + sum(self.heights)
        return self.width, self.height

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        self.wrap(available_width, available_height)
        kept = self.title_height + sum(self.heights[:len(self.parts)])
        if self.whole is not None and self.height > self.whole:
            return self.split_parts(available_height)
        if kept > available_height or not self.violations:
            return []  # the description does not fit: the whole unit goes to the next page
        return self.split_violations(available_height, kept)

    def split_parts(self, available_height: float) -> list[Flowable]:
        """The title and the parts that fit, then the rest (and the violations) as a block of its own."""
        used, fits = self.title_height, 0
        while fits < len(self.parts) and used + self.heights[fits] <= available_height:
            used += self.heights[fits]
            fits += 1
        if fits == 0:
            return []
        if fits == len(self.parts):
            return self.split_violations(available_height, used)
        return [UnitBlock(self.title, self.points, self.parts[:fits], [], self.font_size, self.block_width),
                UnitBlock(None, "", self.parts[fits:], self.violations, self.font_size, self.block_width, self.whole)]

    def split_violations(self, available_height: float, kept: float) -> list[Flowable]:
        fits = len(self.parts)
        while fits < len(self.heights) and kept + self.heights[fits] <= available_height:
            kept += self.heights[fits]
            fits += 1
        shown = fits - len(self.parts)
        if shown == 0:
            return []
        return [UnitBlock(self.title, self.points, self.parts, self.violations[:shown], self.font_size, self.block_width),
                UnitBlock(None, "", [], self.violations[shown:], self.font_size, self.block_width)]

    def draw(self) -> None:
        canvas = self.canv
        writer = TextWriter(canvas)  # the block's text as one text object, drawn over its shading
        top = self.height
        if self.title is not None:
            canvas.setFillColor(SHADE)
            canvas.rect(0, top - self.title_height, self.width, self.title_height, stroke=0, fill=1)
            self.title.paint(canvas, writer, self.PAD_X, top - self.PAD_Y - self.title.height)
            writer.put(self.width - self.PAD_X, top - self.PAD_Y - self.font_size, self.points, BOLD, self.font_size,
                       INK, anchor="end")
            top -= self.title_height
        for part, height in zip(self.parts + self.violations, self.heights):
            if isinstance(part, (RunsText, ProfileGrid)):
                part.paint(canvas, writer, self.PAD_X, top - height + self.PAD_Y)
            else:  # a violation's Paragraph, after the text above it in the page's order
                writer.close()
                part.drawOn(canvas, self.PAD_X, top - height + self.PAD_Y)
            top -= height
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.4)
        canvas.line(0, 0, self.width, 0)
        writer.close()


def unit_block(book: Book, words: UnitWords, points: str, styles: Styles, width: float,
               show_item: Callable[[ItemRef], str] = item_name, violations: Iterable[Violation] = (),
               label: str = "") -> UnitBlock:
    """One unit: name, roles and points on a shaded line, then its choices, profile, rules and problems."""
    parts: list[Flowable] = []
    details = unit_details(words, show_item)
    if details:
        parts.append(RunsText(details, styles.body.fontSize, styles.body.leading))
    grid = profile_grid(profiles_of(book, words), styles)
    if grid is not None:
        parts.append(grid)
    rules = list(words.entry.rules) if words.entry else []
    mount = book.mounts.get(words.unit.mount) if words.unit.mount else None
    if mount is not None:
        rules += [r for r in mount.rules if r not in rules]
    if rules:
        parts.append(RunsText([Run(f"Rules: {', '.join(rules)}", REGULAR, MUTED)], styles.small.fontSize,
                              styles.small.leading))
    return UnitBlock(RunsText(unit_title(words, label), styles.body.fontSize, styles.body.leading), points, parts,
                     [violation_paragraph(v, styles, book.system, [words.unit.id]) for v in violations],
                     styles.points.fontSize, width)


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
    size, leading = styles.cell.fontSize, styles.cell.leading
    looks = [[Look(BOLD if r == 0 or c == 0 else REGULAR, size, leading, INK, "RIGHT" if c == 2 else "LEFT")
              for c in range(5)] for r in range(len(rows))]  # the heading and the items' names in bold
    rules = [Rule(0.8, INK)] + [Rule(0.3, RULE)] * (len(rows) - 1)
    table = Grid(rows, widths, looks, rules, Padding(top=1.5, bottom=1.5), "TOP", repeat=1)
    return [Spacer(1, 3 * mm), section_heading(title, styles, width), Spacer(1, 1.5 * mm), table]


def items_carried(words: UnitWords) -> list[tuple[str, Item]]:
    """(bearer, item) for every item of the book the unit carries: the model's, then its command's."""
    found = [("", i) for i in words.items if isinstance(i, Item)]
    for bearer, items in words.command:
        found += [(bearer, i) for i in items if isinstance(i, Item)]
    return found


def kept_with_last(story: list[Flowable], tail: list[Flowable]) -> list[Flowable]:
    """`story` with `tail` (a closing note) kept on one page with its last block (issue 40 item 6: the note
    alone had made a page holding one sentence, or had left its heading at the foot of the page before).
    Spacers between are kept; a last block that is a KeepTogether already (a section's heading and first
    unit) is opened, since a KeepTogether inside another always breaks the page."""
    if not tail:
        return story
    at = len(story)
    while at and isinstance(story[at - 1], Spacer):
        at -= 1
    if not at:
        return story + [KeepTogether(tail)]
    last = story[at - 1]
    held = list(last._content) if isinstance(last, KeepTogether) else [last]
    return story[:at - 1] + [KeepTogether(held + story[at:] + tail)]
