"""A list's history in a player's words, and moving a list to a newer version of its book.

    history(army_list)              -> every saved revision, newest first, each with what changed
    describe(before, after, book)   -> ["Added Swordsmen (5 models).", "Points limit 500 -> 600.", ...]
    upgrade_target(loaded)          -> the book version new lists get, when it is not the list's
    preview(loaded, book)           -> the list at that version: its report beside the current one

What changed is said in the book's names (units, options, items, mounts), never ids; a unit is followed
by its id across revisions, so renaming or resizing it reads as a change of that unit.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from armylists.models import ArmyList
from armylists.rules import Book, ListDocumentError, Report, Roster, parse_roster
from armylists.rules.roster import RosterUnit

from armylists.lists.catalogue import get_book, listed_books, validate_roster
from armylists.lists.stored import Loaded


def _entry_name(book: Book | None, unit: RosterUnit) -> str:
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


def _unit_changes(name: str, old: RosterUnit, new: RosterUnit, book_before: Book | None, book: Book | None) -> list[str]:
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
    if before.book_version != after.book_version:
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
            out.append(f"Added {_entry_name(book, unit)}{_size(unit)}.")
        else:
            out += _unit_changes(_entry_name(book, unit), old_units[unit.id], unit, book_before, book)
    for unit in before.units:
        if unit.id not in new_units:
            out.append(f"Removed {_entry_name(book_before, unit)}.")
    if [u.id for u in before.units if u.id in new_units] != [u.id for u in after.units if u.id in old_units]:
        out.append("Units moved.")
    if not out and (before.notes != after.notes or before.player != after.player or before.team != after.team):
        out.append("Notes, player or team changed.")
    return out or ["No change to the list."]


@dataclass(frozen=True)
class Step:
    revision: int
    saved_at: object
    book_version: str
    changes: list[str]


def history(army_list: ArmyList) -> list[Step]:
    """Every revision the list's history keeps, newest first, each said against the one before it."""
    rows = list(army_list.revisions.order_by("revision"))
    steps, before, book_before = [], None, None
    for row in rows:
        try:
            roster = parse_roster(row.document, f"list {army_list.pk} revision {row.revision}")
        except ListDocumentError as exc:
            steps.append(Step(row.revision, row.saved_at, row.book_version, [f"Cannot be read: {exc.reason}"]))
            continue
        book = get_book(roster.system, roster.book, roster.book_version)
        steps.append(Step(row.revision, row.saved_at, row.book_version, describe(before, roster, book_before, book)))
        before, book_before = roster, book
    return steps[::-1]


def upgrade_target(loaded: Loaded) -> Book | None:
    """The version of the list's book that new lists get (the newest, or a held source's), if not the list's."""
    roster = loaded.roster
    offered = [b for b in listed_books() if b.system.id == roster.system and b.id == roster.book]
    newest = offered[-1] if offered else None
    return newest if newest is not None and newest.version != roster.book_version else None


@dataclass(frozen=True)
class Preview:
    roster: Roster
    before: Report
    after: Report | None
    changes: list[str]
    problem: str = ""  # why the list cannot move to that version


def preview(loaded: Loaded, book: Book) -> Preview:
    """The list at `book`'s version, checked, beside the list as it is."""
    before = validate_roster(loaded.book, loaded.roster)
    moved = replace(loaded.roster, book_version=book.version)
    try:
        after = validate_roster(book, moved)
    except ListDocumentError as exc:
        return Preview(moved, before, None, [], problem=exc.reason)
    changes = [f"Points {before.total_points} -> {after.total_points}."] if before.total_points != after.total_points else []
    if before.valid != after.valid:
        changes.append("The list becomes legal." if after.valid else "The list stops being legal.")
    old = {v.message for v in before.violations}
    new = {v.message for v in after.violations}
    changes += [f"New problem: {m}" for m in sorted(new - old)]
    changes += [f"No longer a problem: {m}" for m in sorted(old - new)]
    return Preview(moved, before, after, changes or ["Nothing changes for this list."])
