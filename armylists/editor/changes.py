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

from armylists.lists.kinds import ListKind
from armylists.rules import Book, Report, Roster


def changed_units(kind: ListKind, before: Roster, before_report: Report, after: Roster, after_report: Report,
                  book: Book | None = None) -> set[str] | None:
    """The ids of the units whose cards differ after the change; None when the whole list must be redrawn.
    The list's kind says what a card shows and what every card depends on."""
    shared_before, old = kind.cards(before, before_report, book)
    shared_after, new = kind.cards(after, after_report, book)
    if shared_before != shared_after:
        return None
    return {uid for uid, card in new.items() if old.get(uid) != card}
