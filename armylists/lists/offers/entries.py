"""A book's entries as the pages ask about them: what each costs the moment it is added to a list (as
the engine prices it), its groups of alternatives, whether it may be a wizard.

The catalogue shows this, not the entry's bare cost per model: an artillery piece whose crew or weapon
is a compulsory choice costs that choice too, and a character that must ride costs its mount. The unit
is made the way the editor adds it (`edits.add_unit`) and priced by the engine, so the catalogue
and the list agree. Worked out once per book version (books never change under a version).
"""
from __future__ import annotations

from armylists.lists.saved import edits
from armylists.rules import Book, validate
from armylists.rules.native.book import Entry

_costs: dict[tuple[str, str, str, str], dict[str, int]] = {}


def entry_costs(book: Book) -> dict[str, int]:
    """{entry id: points of the unit as first added}."""
    key = (book.system.id, book.id, book.version, book.content_hash)
    found = _costs.get(key)
    if found is None:
        found = {}
        empty = edits.start_roster(book, "catalogue", book.default_limit or book.system.default_limit or 1000)
        for entry_id in book.entries:
            roster, _ = edits.add_unit(book, empty, entry_id)
            line = validate(book, roster).units
            found[entry_id] = line[0].points if line else 0
        _costs[key] = found
    return found


def cost_as_added(book: Book, entry: Entry) -> int:
    """What `entry` costs as first added (`entry_costs`); its bare cost at its smallest size when the
    engine could not price it alone."""
    return entry_costs(book).get(entry.id, entry.base_points + entry.points * entry.size_min)


def one_of_groups(entry: Entry) -> dict[str, list[str]]:
    """The entry's groups of alternatives (at most one choice), as radio buttons: group id -> option ids.
    An item of a pool (`item_pool`) is offered in the unit's item picker instead (lists/offers/pool_choices.py)."""
    groups: dict[str, list[str]] = {}
    for option in entry.options.values():
        if option.group and entry.groups[option.group].max == 1 and option.max == 1 and not option.item_pool:
            groups.setdefault(option.group, []).append(option.id)
    return groups


def may_be_wizard(entry: Entry) -> bool:
    return bool(entry.wizard_level or any(o.wizard_level for o in entry.options.values()))
