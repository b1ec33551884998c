"""A unit added by its entry's id or exact name, to any list: our books' units (lists/saved/edits.py) and a
roster tree's root selections (lists/trees/tree_lists.py), as the editor adds them; what the API's
`POST /api/v1/lists/{id}/units/` does."""
from __future__ import annotations

import difflib
from typing import Any

from armylists.lists.saved import edits
from armylists.lists.trees import tree_lists
from armylists.lists.saved.edits import EditError
from armylists.rules import Book, Roster
from armylists.rules.reading.roster import unit_to_dict
from armylists.rules.reading.selection_tree import tree_to_list


def add_named_unit(book: Book, roster: Roster, wanted: str, size: int | None = None) -> tuple[Roster, str]:
    """The list with a unit of the entry `wanted` (its id, else its exact name) added; and the unit's id.
    An unknown entry is an EditError naming the closest entry."""
    if roster.is_tree:
        return tree_lists.add_root_selection(roster, wanted, size=size)
    roster, unit_id = edits.add_unit(book, roster, native_entry(book, wanted))
    if size is not None:
        roster = edits.set_size(roster, unit_id, size)
    return roster, unit_id


def native_entry(book: Book, wanted: str) -> str:
    if wanted in book.entries:
        return wanted
    named = [e.id for e in book.entries.values() if e.name == wanted]
    if named:
        return named[0]
    names = {e.name: e.id for e in book.entries.values()}
    close = difflib.get_close_matches(wanted, list(names) + list(book.entries), n=1, cutoff=0.0)
    hint = f"; the closest is {close[0]!r} ({names.get(close[0], close[0])})" if close else ""
    raise EditError(f"{book.name} {book.version} has no entry {wanted!r}{hint}.", "entry")


def unit_document(roster: Roster, unit_id: str) -> dict[str, Any]:
    """The unit as the list document holds it: our unit, or a root selection with its children."""
    if roster.is_tree:
        for force in tree_to_list(roster.forces or ()):
            for force_id, selection in _root_selections(force):
                if selection["id"] == unit_id:
                    return {"force": force_id, **selection}
        raise EditError(f"The list has no selection {unit_id!r}.", "unit")
    return unit_to_dict(edits.get_unit(roster, unit_id))


def _root_selections(force: dict):
    for selection in force["selections"]:
        yield force["id"], selection
    for child in force.get("forces", ()):
        yield from _root_selections(child)
