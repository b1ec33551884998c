"""A stored list opened with its books, and an edit of it re-checked and saved.

`load(army_list)` reads the stored document and finds its book (and its allies' book); `save_edit`
is the one place an edited document is re-checked and stored: its shape read back, the engine's
report, the revision it was made on compared (a stale edit is not saved).
"""
from __future__ import annotations

from dataclasses import dataclass

from armylists.lists.kinds import ListKind, kind_of
from armylists.lists.library.catalogue import allies_book_for, book_for, validate_roster
from armylists.lists.saved.revision_words import revision_summary
from armylists.models import ArmyList, ListRevision
from armylists.rules import Book, ListDocumentError, Report, Roster, RosterUnit, parse_roster, roster_to_dict


@dataclass
class Loaded:
    army_list: ArmyList
    roster: Roster
    book: Book
    allies: Book | None = None  # the book the list's allied units come from
    # What answers for the list (lists/kinds.py), decided once where it is opened (`load`); every page asks it.
    kind: ListKind | None = None

    def __post_init__(self) -> None:
        if self.kind is None:  # a list opened from a revision (the history pages): its document says
            self.kind = kind_of(self.roster)

    def book_of(self, unit: RosterUnit) -> Book:
        """The book a unit's entry, options and items come from: the allies book for an allied unit."""
        return self.allies if unit.allied and self.allies is not None else self.book


DEFAULT = object()  # save_edit's `was` not given: the list it was loaded as


class Unavailable(Exception):
    """The stored list cannot be opened in the editor (its book is not loaded, say)."""


def load(army_list: ArmyList) -> Loaded:
    try:
        roster = parse_roster(army_list.document, f"list {army_list.pk}")
        book = book_for(roster, f"list {army_list.pk}")
        kind = kind_of(roster)
        kind.open(roster, f"list {army_list.pk}")  # a tree's stored game data must be there to judge it
        return Loaded(army_list, roster, book, allies_book_for(roster, f"list {army_list.pk}"), kind)
    except ListDocumentError as exc:
        # A book no longer loaded is said in a player's words; another problem names where it is.
        raise Unavailable(exc.reason if exc.path[-1:] in (("book",), ("book_version",), ("system",)) else str(exc)) \
            from None


def save_edit(loaded: Loaded, roster: Roster, expected: int, was: Loaded | None = DEFAULT) -> tuple[Loaded, Report] | None:
    """Re-check the edited `roster` and store it, if the stored list is still at revision `expected`.

    Returns the list as saved with its report, or None when another edit was saved first (nothing is
    written). A document that would not read back is a `ListDocumentError`, and nothing is written.
    `was`: the list as stored when the change began, `loaded` itself unless the caller says (an upgrade,
    a restore; None: not known). The new revision's history entry is said against it once, here, so a
    long history's first reading reads no documents (issue 39 item 4)."""
    army_list = loaded.army_list
    parse_roster(roster_to_dict(roster))  # what is saved must read back
    allies = allies_book_for(roster, f"list {army_list.pk}")
    report = validate_roster(loaded.book, roster)
    army_list.set_document(roster, report)
    if not army_list.save_if_revision(expected):
        return None
    was = loaded if was is DEFAULT else was
    if was is not None:
        errors = len(report.errors)
        verdict = {"valid": report.valid, "total_points": report.total_points, "errors": errors,
                   "warnings": len(report.violations) - errors}
        ListRevision.objects.filter(army_list_id=army_list.pk, revision=army_list.revision).update(
            summary=revision_summary(was.roster, was.book, roster, loaded.book, verdict))
    return Loaded(army_list, roster, loaded.book, allies, kind_of(roster)), report
