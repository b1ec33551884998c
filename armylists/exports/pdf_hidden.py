"""The hidden list of The 9th Age (000:L133-149): an open list for the opponent, and a hidden sheet.

The open part hides the magical items (000:L139-142) and shows what is mundane about them, such
as a Magical Weapon's type (000:L143-145; an item without a type is "hidden item"). Units that look
the same in the open part are told apart by their label, or by "A", "B"... when they have none
(000:L146-149). Per-unit points on the open part leave out the hidden items' cost, which would
otherwise tell the opponent what they are worth; the violations (which name items), the category
summary and the items themselves are on the hidden sheet, a page of their own.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import count
from string import ascii_uppercase

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer, Table
from reportlab.platypus.flowables import PageBreakIfNotEmpty

from armylists.rules.native.book import Item

from armylists.exports.pdf_list import PrintedList, PrintedUnit
from armylists.exports.pdf_header import category_summary, header, section_heading, stamp, with_heading
from armylists.exports.pdf_style import INK, RULE, Styles, table_style, text
from armylists.exports.pdf_units import items_carried, unit_block
from armylists.exports.text import ItemRef, UnitWords, unit_text

HIDDEN_ITEM = "hidden item"


def mundane(item: ItemRef) -> str:
    """What the opponent sees of an item: its mundane type, or only that there is one."""
    return item.type if isinstance(item, Item) and item.type else HIDDEN_ITEM


def labels(printed: PrintedList) -> dict[str, str]:
    """unit id -> the label that tells it apart: its own, or a letter when another unit looks the same.

    Two units look the same when they differ only in hidden things: 000:L146-149's example is two
    units alike but for a Magical Standard, so an item with no mundane type does not count.
    """
    groups: dict[tuple, list[PrintedUnit]] = {}
    for unit in printed.units:
        groups.setdefault(_looks(unit), []).append(unit)
    found = {u.words.unit.id: u.words.unit.label for u in printed.units}
    for twins in groups.values():
        if len(twins) < 2:
            continue
        taken = {u.words.unit.label for u in twins}
        letters = (letter for letter in _letters() if letter not in taken)
        for unit in twins:
            if not unit.words.unit.label:
                found[unit.words.unit.id] = next(letters)
    return found


def _looks(unit: PrintedUnit) -> tuple:
    """What the opponent sees of a unit, leaving out items that show nothing mundane."""
    words = unit.words

    def shown(items: tuple[ItemRef, ...]) -> tuple[str, ...]:
        return tuple(item.type for item in items if isinstance(item, Item) and item.type)

    return (words.unit.entry, words.size, words.roles, words.options, words.mount,
            tuple((name, shown(items)) for name, items in words.command), shown(words.items))


def _letters():
    """A, B, ... Z, AA, AB, ..."""
    yield from ascii_uppercase
    for n in count(1):
        for first in ascii_uppercase[:n]:
            for second in ascii_uppercase:
                yield first + second


def hidden_cost(unit: PrintedUnit) -> int:
    """What the unit's hidden items cost it: each at its price for the unit's category (000:L2846-2849)."""
    if unit.line is None:
        return 0
    return sum(item.price_for(unit.line.category) for _, item in items_carried(unit.words))


def open_points(unit: PrintedUnit, budget: str) -> str:
    """The unit's points without its hidden items: `113 pts + hidden`. A roster tree's unit that holds
    selections shows none of its points: which of them are magical items the data does not say (see
    `_open_words`), so any figure could tell what they are worth."""
    if unit.line is None:
        return "?"
    if unit.sheet is not None and unit.sheet.option_names():
        return f"{budget} hidden"
    if not items_carried(unit.words):
        return f"{unit.line.points} {budget}"
    return f"{unit.line.points - hidden_cost(unit)} {budget} + hidden"


def _open_words(unit: PrintedUnit) -> UnitWords:
    """What the open list says of a unit. A roster tree's selections are not told apart as magical items
    (its data has no item types of ours), so none of them is shown: the unit's name and roles only."""
    return replace(unit.words, options=()) if unit.sheet is not None else unit.words


@dataclass(frozen=True)
class OpenUnit:
    """One unit as the open part shows it: its line (mundane types only, its telling-apart label) and its
    points without its hidden items."""
    id: str
    line: str
    points: str


def open_part(printed: PrintedList) -> list[tuple[str, list[OpenUnit]]]:
    """(category, units) of the open part, in the printed order: what a link shared as the open part
    shows. No category figures (the hidden items' cost is in them), no violations (they name items)."""
    budget, label_of = printed.report.budget_unit, labels(printed)
    groups = []
    for title, _, units in printed.by_category():
        rows = []
        for unit in units:
            words, label = _open_words(unit), label_of[unit.words.unit.id]
            line = unit_text(words, show_item=mundane)
            if label and not words.unit.label:  # a letter that tells it from its twins (000:L146-149)
                head = f"{words.size} {words.name}" if words.size is not None else words.name
                line = f"{head} [{label}]{line[len(head):]}"
            rows.append(OpenUnit(unit.words.unit.id, line, open_points(unit, budget)))
        groups.append((title, rows))
    return groups


def open_story(printed: PrintedList, share_url: str | None, check: str, width: float) -> list[Flowable]:
    """The open part alone, for a link shared as it: the hidden list without its hidden sheet."""
    return hidden_story(printed, share_url, check, width, sheet=False)


def hidden_story(printed: PrintedList, share_url: str | None, check: str, width: float,
                 sheet: bool = True) -> list[Flowable]:
    styles = Styles(9)
    book, report, budget = printed.book, printed.report, printed.report.budget_unit
    label_of = labels(printed)
    story = header(book, printed.roster, report, styles, width, check, share_url)
    note = ("Hidden list: magical items show only their mundane type, and unit points leave out their cost. "
            + ("The items, the violations and the category summary are on the hidden sheet." if sheet else
               "This is the open part only: the hidden sheet is the player's and the organiser's."))
    story += [Spacer(1, 4 * mm), stamp(report, styles, width, details=False, note=note, data_as_of=printed.data_as_of)]
    story.append(Spacer(1, 3 * mm))
    for title, _, units in printed.by_category():
        blocks = [unit_block(unit.book, _open_words(unit), open_points(unit, budget), styles, width,
                             show_item=mundane, label=label_of[unit.words.unit.id]) for unit in units]
        story += with_heading(section_heading(title, styles, width), blocks)
    if sheet:  # on a page of its own; no blank page where the open part filled its last one exactly
        while story and isinstance(story[-1], Spacer):
            story.pop()
        story += [PageBreakIfNotEmpty()] + hidden_sheet(printed, label_of, check, styles, width)
    return story


def hidden_sheet(printed: PrintedList, label_of: dict[str, str], check: str, styles: Styles,
                 width: float) -> list[Flowable]:
    """The hidden part: every item by labelled unit, then the full stamp and category summary."""
    book, report = printed.book, printed.report
    categories = book.system.item_categories
    story: list[Flowable] = [
        Paragraph("Hidden sheet", styles.title),
        Paragraph(text(f"{printed.roster.name or 'Army list'} \u00b7 checksum {check} \u00b7 for the organiser; "
                       f"reveal each item the first time it is used"), styles.subtitle),
        # (000:L150-159 in The 9th Age; the sheet prints for every system, so no seed citation in it)
        Spacer(1, 3 * mm),
    ]
    head = ["Unit", "Carried by", "Item", "Category", "Shown as", "Cost"]
    rows = [[Paragraph(f"<b>{h}</b>", styles.cell_right if h == "Cost" else styles.cell) for h in head]]
    for unit in printed.units:
        if unit.line is None:
            continue
        label = label_of[unit.words.unit.id]
        name = unit.words.name + (f" [{label}]" if label else "")
        for bearer, item in items_carried(unit.words):
            category = categories[item.category].name if item.category in categories else item.category
            rows.append([Paragraph(f"<b>{text(name)}</b>", styles.cell), Paragraph(text(bearer or "-"), styles.cell),
                         Paragraph(text(item.name), styles.cell), Paragraph(text(category), styles.cell),
                         Paragraph(text(mundane(item)), styles.cell),
                         Paragraph(str(item.price_for(unit.line.category)), styles.cell_right)])
    if len(rows) == 1:
        rows.append([Paragraph("No hidden items.", styles.cell)] + [""] * 5)
    table = Table(rows, colWidths=[width * f for f in (0.26, 0.17, 0.22, 0.14, 0.14, 0.07)], repeatRows=1)
    table.setStyle(table_style([
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK), ("LINEBELOW", (0, 1), (-1, -1), 0.3, RULE),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
    ]))
    story += [table, Spacer(1, 5 * mm), stamp(report, styles, width, system=book.system), Spacer(1, 2 * mm)]
    story += category_summary(report, styles, width)
    return story
