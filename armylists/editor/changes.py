"""Which unit cards one change of the editor redraws.

A change to one unit (its size, options, mount, command...) is answered with the parts of the page it
changed rather than the whole list: that unit's card, the card of any other unit whose line or
violations changed with it (a second unit over a duplicate limit, say), every category heading, the
status line and the report panel (templates/lists/editor_changes.html). A card shows its unit, its line
in the Report, its violations and its place in its category, and offers items by what the rest of the
army has taken; when anything the cards share changes (units added, removed or moved, a list setting,
an item taken, an imported book's pool item taken: lists/offers/pool_choices.py), the whole list is redrawn as before.
"""
from __future__ import annotations

from armylists.rules import Book, Report, Roster


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


def changed_units(before: Roster, before_report: Report, after: Roster, after_report: Report,
                  book: Book | None = None) -> set[str] | None:
    """The ids of the units whose cards differ after the change; None when the whole list must be redrawn."""
    if _shared(before, before_report, book) != _shared(after, after_report, book):
        return None
    old, new = _cards(before, before_report), _cards(after, after_report)
    return {uid for uid, card in new.items() if old.get(uid) != card}
