"""A list ready to print: its book, document and Report, each unit described once in the book's words."""
from __future__ import annotations

from dataclasses import dataclass

from armylists.rules import Book, Report, Roster, RosterUnit
from armylists.rules.battlescribe.sheet import TreePrinting, UnitSheet, unit_sheet
from armylists.rules.report import UnitLine

from armylists.exports.text import UnitWords, describe_unit


@dataclass(frozen=True)
class PrintedUnit:
    words: UnitWords
    line: UnitLine | None  # None: its entry is not in the book, so the Report could not price it
    book: Book  # the book it comes from: the list's, or its allies' for an allied unit
    sheet: UnitSheet | None = None  # a roster tree's unit, as its data describes it (given `printing`)


class PrintedList:
    """The book, list and report of one roster, with each unit described once in the book's words."""

    def __init__(self, book: Book, roster: Roster, report: Report, allies: Book | None = None, data_as_of: str = "",
                 printing: TreePrinting | None = None):
        self.book, self.roster, self.report, self.allies = book, roster, report, allies
        self.data_as_of = data_as_of  # the book and the game data version it came from, for the stamp
        lines = {u.id: u for u in report.units}
        self.units = []
        # A Report line no unit of the document holds is a roster tree's unit (a root selection of a force,
        # kept in `forces`): printed from its line, and from its sheet where the list's kind gave `printing`.
        held = {u.id for u in roster.units}
        roots = {} if printing is None else {s.uid: s for f in printing.tree.all_forces() for s in f.selections}
        for line in report.units:
            if line.id not in held:
                sheet = unit_sheet(printing, roots[line.id]) if line.id in roots else None
                self.units.append(PrintedUnit(_tree_words(line, sheet), line, book, sheet))
        for u in roster.units:
            own = allies if u.allied and allies is not None else book
            self.units.append(PrintedUnit(describe_unit(own, u), lines.get(u.id), own))

    def by_category(self) -> list[tuple[str, str, list[PrintedUnit]]]:
        """(title, figures, units) per category that has units, in the system's order; unpriced units last."""
        budget = self.report.budget_unit
        groups = []
        for cat in self.report.categories:
            units = [u for u in self.units if u.line is not None and u.line.category == cat.id]
            if units:
                groups.append((cat.name, f"{cat.points} {budget} \u00b7 {cat.percent:.1f}%", units))
        unpriced = [u for u in self.units if u.line is None]
        if unpriced:
            groups.append((f"Not in {self.book.name} {self.book.version}", "", unpriced))
        return groups

    def points(self, unit: PrintedUnit) -> str:
        return f"{unit.line.points} {self.report.budget_unit}" if unit.line else "?"


def _tree_words(line: UnitLine, sheet: UnitSheet | None) -> UnitWords:
    """A root selection of a roster tree in the words one line says it in (the compact and hidden
    rosters): its name, its roles and what it holds (from its sheet, when the tree was given)."""
    return UnitWords(unit=RosterUnit(id=line.id, entry=line.entry), entry=None, name=line.name, size=None,
                     roles=sheet.roles if sheet else (), options=sheet.option_names() if sheet else (), models=(),
                     mount=None, command=(), items=())
