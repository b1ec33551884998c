"""A unit of a roster tree (a list of an imported BattleScribe book) on the printed roster, drawn with
our own books' blocks (pdf_units.UnitBlock): its name, roles (General, BSB) and points on the shaded
line; then every selection it holds with its number and cost, nested as held; a table per profile type
of what it holds (Name and the type's characteristics, after modifiers: rules/battlescribe/profiles.py);
its rules by name; its own violations."""
from __future__ import annotations

from typing import Iterable

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph

from armylists.rules import Violation
from armylists.rules.battlescribe.sheet import UnitSheet
from armylists.rules.native.book import System

from armylists.exports.pdf_grid import NO_TEXT, Grid, Look, Padding, Rule
from armylists.exports.pdf_header import violation_paragraph
from armylists.exports.pdf_runs import Run, RunsText
from armylists.exports.pdf_style import ACCENT, BOLD, INK, MUTED, REGULAR, RULE, Styles, text
from armylists.exports.pdf_text import text_width
from armylists.exports.pdf_units import UnitBlock

PAD = 3                  # a profile cell's left and right padding
NAME_MAX = 45 * mm       # the Name column at most; a longer name wraps
SHORT = 16 * mm          # a column whose every value fits this is never squeezed
COLUMN = 7 * mm          # a characteristic's column at least (M, WS, ... read as a grid, as our profiles)
# A unit taller than this (an A4 page's frame, less a little) is split between its parts rather than
# moved whole to the next page, where it would not fit either: a big unit has many profile tables.
WHOLE = 240 * mm


def tree_title(sheet: UnitSheet) -> list[Run]:
    """`King  General · BSB` as our books' rosters print a unit's name and roles."""
    name = sheet.name if sheet.number <= 1 else f"{sheet.number} {sheet.name}"
    runs = [Run(name, BOLD, INK)]
    if sheet.roles:
        runs.append(Run("  " + " \u00b7 ".join(sheet.roles), REGULAR, ACCENT))
    return runs


def held_runs(sheet: UnitSheet, unit: str) -> list[Run]:
    """`Selections: Great Weapon 10 pts, Runic Special Items (Rune of Destruction 80 pts)`."""
    if not sheet.held:
        return []
    return [Run("Selections: ", REGULAR, MUTED), Run(", ".join(h.words(unit) for h in sheet.held), REGULAR, INK)]


def squeezed(widths: list[float], width: float) -> list[float]:
    """Column widths that fit `width`: the long columns (wider than SHORT) keep SHORT each and share the
    rest in proportion to what more they would take; the Name and the short columns keep theirs. Where
    even that is too wide (very many columns), every column in proportion."""
    long = [c for c in range(1, len(widths)) if widths[c] > SHORT]
    room = width - sum(w for c, w in enumerate(widths) if c not in long) - SHORT * len(long)
    if not long or room < 0:
        return [w * width / sum(widths) for w in widths]
    more = sum(widths[c] - SHORT for c in long)
    return [SHORT + room * (w - SHORT) / more if c in long else w for c, w in enumerate(widths)]


def profile_table(table: dict, size: float, width: float) -> Grid:
    """One profile type's table: its name over the Name column, then its characteristics' columns."""
    leading = size * 1.25
    columns = list(table["columns"])
    rows = [[table["type"]] + columns] + [list(r) + [""] * (len(columns) + 1 - len(r)) for r in table["rows"]]
    natural = [max(max(text_width(str(row[c]), BOLD if r == 0 and c == 0 else REGULAR, size)
                       for r, row in enumerate(rows)) + 2 * PAD, COLUMN if c else 0) for c in range(len(columns) + 1)]
    widths = [min(natural[0], NAME_MAX)] + natural[1:]
    if sum(widths) > width:
        widths = squeezed(widths, width)
    style = ParagraphStyle("profile", fontName=REGULAR, fontSize=size, leading=leading, textColor=INK)
    cells, looks = [], []
    for r, row in enumerate(rows):
        look_row, cell_row = [], []
        for c, value in enumerate(row):
            font, colour = (BOLD, INK) if r == 0 and c == 0 else ((REGULAR, MUTED) if r == 0 else (REGULAR, INK))
            value = str(value)
            if text_width(value, font, size) > widths[c] - 2 * PAD:
                cell_row.append(Paragraph(text(value), ParagraphStyle(
                    f"profile-{font}", parent=style, fontName=font, textColor=colour)))
                look_row.append(NO_TEXT)
            else:
                cell_row.append(value)
                look_row.append(Look(font, size, leading, colour))
        cells.append(cell_row)
        looks.append(look_row)
    rules: list[Rule | None] = [Rule(0.4, RULE)] + [None] * (len(rows) - 1)
    return Grid(cells, widths, looks, rules, Padding(left=PAD, right=PAD, top=0.6, bottom=0.6), "TOP", h_align="LEFT")


def tree_unit_block(sheet: UnitSheet, uid: str, points: str, unit: str, styles: Styles, width: float,
                    system: System, violations: Iterable[Violation] = ()) -> UnitBlock:
    """The unit `uid` (its root selection's id); `unit` is the budget's unit ("pts")."""
    inner = width - 2 * UnitBlock.PAD_X
    parts: list[Flowable] = []
    held = held_runs(sheet, unit)
    if held:
        parts.append(RunsText(held, styles.body.fontSize, styles.body.leading))
    parts += [profile_table(t, styles.size * 0.8, inner) for t in sheet.tables]
    if sheet.rules:
        parts.append(RunsText([Run(f"Rules: {', '.join(sheet.rules)}", REGULAR, MUTED)], styles.small.fontSize,
                              styles.small.leading))
    return UnitBlock(RunsText(tree_title(sheet), styles.body.fontSize, styles.body.leading), points, parts,
                     [violation_paragraph(v, styles, system, [uid]) for v in violations],
                     styles.points.fontSize, width, whole=WHOLE)
