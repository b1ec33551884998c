"""What a player did between two revisions of a list, in sentences, in the book's names (units, options,
items, mounts), never ids; a unit is followed by its id across revisions, so renaming or resizing it
reads as a change of that unit. lists/saved/history.py uses it for a list's history, a diff of two revisions,
the move to newer data, and an organiser's view of a player's successive submissions.

    describe(before, after, book_before, book) -> ["Added Swordsmen (5 models).", "Points limit 500 -> 600."]
"""
from __future__ import annotations

from dataclasses import replace

from armylists.rules import Book, Roster
from armylists.rules.reading.roster import RosterUnit


def entry_name(book: Book | None, unit: RosterUnit) -> str:
    entry = book.entries.get(unit.entry) if book else None
    return unit.label or (entry.name if entry else unit.entry)


def _option_name(book: Book | None, unit: RosterUnit, option: str) -> str:
    entry = book.entries.get(unit.entry) if book else None
    found = entry.options.get(option) if entry else None
    return found.name if found else option


def _item_name(book: Book | None, item: str) -> str:
    found = book.items.get(item) if book else None
    return found.name if found else item


def _mount_name(book: Book | None, unit: RosterUnit) -> str:
    entry = book.entries.get(unit.entry) if book else None
    found = entry.mounts.get(unit.mount) if entry and unit.mount else None
    return getattr(getattr(found, "mount", None), "name", None) or getattr(found, "name", None) or str(unit.mount)


def _size(unit: RosterUnit) -> str:
    return f" ({unit.size} model{'' if unit.size == 1 else 's'})" if unit.size else ""


def unit_changes(name: str, old: RosterUnit, new: RosterUnit, book_before: Book | None, book: Book | None) -> list[str]:
    out = []
    if old.size != new.size:
        out.append(f"{name}: {old.size or 0} -> {new.size or 0} models.")
    old_options, new_options = dict(old.options), dict(new.options)
    for option in new_options.keys() - old_options.keys():
        out.append(f"{name}: took {_option_name(book, new, option)}.")
    for option in old_options.keys() - new_options.keys():
        out.append(f"{name}: dropped {_option_name(book_before, old, option)}.")
    for option in sorted(old_options.keys() & new_options.keys()):
        if old_options[option] != new_options[option]:
            out.append(f"{name}: {_option_name(book, new, option)} {old_options[option]} -> {new_options[option]}.")
    old_items = old.items + old.standard_items + old.champion_items
    new_items = new.items + new.standard_items + new.champion_items
    for item in sorted(set(new_items) - set(old_items)):
        out.append(f"{name}: took {_item_name(book, item)}.")
    for item in sorted(set(old_items) - set(new_items)):
        out.append(f"{name}: dropped {_item_name(book_before, item)}.")
    if old.mount != new.mount:
        out.append(f"{name}: now rides {_mount_name(book, new)}." if new.mount else f"{name}: now on foot.")
    if old.general != new.general:
        out.append(f"{name} is now the General." if new.general else f"{name} is no longer the General.")
    if old.command != new.command:
        out.append(f"{name}: command group changed.")
    return out


def describe(before: Roster | None, after: Roster, book_before: Book | None, book: Book | None) -> list[str]:
    """What a player did between two revisions, in sentences; the first revision: "Started the list."."""
    if before is None:
        return [f"Started the list: {book.name if book else after.book} {after.book_version}, "
                f"{after.points_limit} points."]
    out = []
    if before.book != after.book:  # a book the data renamed (issue 38 item 2)
        out.append(f"Moved to {book.name if book else after.book} {after.book_version} "
                   f"(was {book_before.name if book_before else before.book} {before.book_version}).")
    elif before.book_version != after.book_version:
        out.append(f"Moved to {book.name if book else after.book} {after.book_version} "
                   f"(was {before.book_version}).")
    if before.name != after.name:
        out.append(f"Renamed to {after.name!r}.")
    if before.points_limit != after.points_limit:
        out.append(f"Points limit {before.points_limit} -> {after.points_limit}.")
    if before.composition != after.composition:
        out.append(f"Composition {before.composition or 'none'} -> {after.composition or 'none'}.")
    if before.modes != after.modes:
        out.append(f"Matched-play rules: {', '.join(after.modes) or 'none'}.")
    old_units = {u.id: u for u in before.units}
    new_units = {u.id: u for u in after.units}
    for unit in after.units:
        if unit.id not in old_units:
            out.append(f"Added {entry_name(book, unit)}{_size(unit)}.")
        else:
            out += unit_changes(entry_name(book, unit), old_units[unit.id], unit, book_before, book)
    for unit in before.units:
        if unit.id not in new_units:
            out.append(f"Removed {entry_name(book_before, unit)}.")
    if [u.id for u in before.units if u.id in new_units] != [u.id for u in after.units if u.id in old_units]:
        out.append("Units moved.")
    if not out and (before.notes != after.notes or before.player != after.player or before.team != after.team):
        out.append("Notes, player or team changed.")
    return out or ["No change to the list."]


UNFLATTENED = "Made the roster tree the same list is: judged by the book's BattleScribe data from now on."


def changes_between(before: Roster | None, after: Roster, book_before: Book | None, book: Book | None) -> list[str]:
    """`describe`, but for a flattened list made its tree (migration 0013, an upgrade): its units are the
    tree's selections now, not removed (issue 37 item 2); what else changed is said as for any list."""
    if before is None or before.is_tree or not after.is_tree:
        return describe(before, after, book_before, book)
    same_units = replace(after, units=before.units, forces=None, composition=before.composition)
    return [s for s in describe(before, same_units, book_before, book) if s != "No change to the list."] + [UNFLATTENED]


def revision_summary(before: Roster | None, book_before: Book | None, roster: Roster, book: Book | None,
                     verdict: dict | None) -> dict:
    """What a revision's history entry says (ListRevision.summary): what changed since `before`, its
    verdict and the book it was read with. Made when the revision is saved (lists/saved/stored.py) or,
    for one saved without it, when its history is first read (lists/saved/history.py)."""
    return {"changes": changes_between(before, roster, book_before, book), "verdict": verdict,
            "key": [roster.system, roster.book, roster.book_version],
            "imported": book.imported if book else True, "name": book.name if book else "",
            "budget_unit": book.system.budget_unit if book else "pts"}
