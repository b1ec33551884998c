"""A unit added by its entry's id or exact name, to any list, as the editor adds it: what the API's
`POST /api/v1/lists/{id}/units/` does. The list's kind (lists/kinds.py) adds it: one of our books' units
(lists/saved/edits.py) or a roster tree's root selection (lists/trees/tree_lists.py)."""
from __future__ import annotations

from typing import Any

from armylists.lists.kinds import kind_of, native_entry  # noqa: F401 (native_entry: the name's old home)
from armylists.rules import Book, Roster


def add_named_unit(book: Book, roster: Roster, wanted: str, size: int | None = None) -> tuple[Roster, str]:
    """The list with a unit of the entry `wanted` (its id, else its exact name) added; and the unit's id.
    An unknown entry is an EditError naming the closest entry."""
    return kind_of(roster).add_unit(book, roster, wanted, size=size)


def unit_document(roster: Roster, unit_id: str) -> dict[str, Any]:
    """The unit as the list document holds it: our unit, or a root selection with its children."""
    return kind_of(roster).unit_document(roster, unit_id)
