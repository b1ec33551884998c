"""What each unit card of a list of one of our books shows, and what every card depends on (the editor's
answer to an edit, editor/changes.py, through the list's kind, lists/kinds.py). A card shows its unit,
its line in the Report, its violations and its place in its category, and offers items by what the rest
of the army has taken: when anything the cards share changes (units added, removed or moved, a list
setting, an item taken, an imported book's pool item taken: lists/offers/pool_choices.py), every card
is drawn again."""
from __future__ import annotations

from armylists.rules import Book, Report, Roster


def native_cards(roster: Roster, report: Report, book: Book | None) -> tuple[tuple, dict[str, tuple]]:
    """(what every card depends on, each card's state by unit id)."""
    return _shared(roster, report, book), _cards(roster, report)


def _cards(roster: Roster, report: Report) -> dict[str, tuple]:
    """What each unit's card shows, by unit id (the form's values come from the unit itself)."""
    lines = {line.id: line for line in report.units}
    problems: dict[str, list] = {}
    for v in report.violations:
        if v.unit:
            problems.setdefault(v.unit, []).append((v.code, v.severity, v.message))
    return {u.id: (u, lines.get(u.id), tuple(problems.get(u.id, ()))) for u in roster.units}


def _shared(roster: Roster, report: Report, book: Book | None) -> tuple:
    """What every card depends on: the order of the units in their categories, the list's settings and
    every item taken (a once-per-army item is not offered twice), pool items too (an item's rarity)."""
    categories = {line.id: line.category for line in report.units}
    items = tuple((u.items, u.standard_items, u.champion_items) for u in roster.units)
    return (tuple((u.id, categories.get(u.id)) for u in roster.units), roster.points_limit, roster.composition,
            roster.modes, roster.allies, items, _pool_items(roster, book))


def _pool_items(roster: Roster, book: Book | None) -> tuple:
    if book is None:
        return ()
    entries = book.entries
    return tuple((u.id, oid, n) for u in roster.units if u.entry in entries and not u.allied
                 for oid, n in u.options if oid in entries[u.entry].options and entries[u.entry].options[oid].item_pool)
