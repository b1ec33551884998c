"""A list ready to print: its book, document and Report, each unit described once in the book's words."""
from __future__ import annotations

from dataclasses import dataclass

from armylists.rules import Book, Report, Roster, RosterUnit
from armylists.rules.report import UnitLine

from armylists.exports.text import UnitWords, describe_unit


@dataclass(frozen=True)
class PrintedUnit:
    words: UnitWords
    line: UnitLine | None  # None: its entry is not in the book, so the Report could not price it
    book: Book  # the book it comes from: the list's, or its allies' for an allied unit


class PrintedList:
    """The book, list and report of one roster, with each unit described once in the book's words."""

    def __init__(self, book: Book, roster: Roster, report: Report, allies: Book | None = None, data_as_of: str = ""):
        self.book, self.roster, self.report, self.allies = book, roster, report, allies
        self.data_as_of = data_as_of  # the book and the game data version it came from, for the stamp
        lines = {u.id: u for u in report.units}
        self.units = []
        if roster.is_tree:   # a roster tree's units are the Report's lines: its root selections, by name
            self.units = [PrintedUnit(_tree_words(line), line, book) for line in report.units]
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


def _tree_words(line: UnitLine) -> UnitWords:
    """A root selection of a roster tree in the words the Report has for it (its name); what it holds
    is printed by issue 22's cards."""
    return UnitWords(unit=RosterUnit(id=line.id, entry=line.entry), entry=None, name=line.name, size=None,
                     roles=(), options=(), models=(), mount=None, command=(), items=())
