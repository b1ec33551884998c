"""Which unit cards one change of the editor redraws.

A change to one unit (its size, options, mount, command...) is answered with the parts of the page it
changed rather than the whole list: that unit's card, the card of any other unit whose line or
violations changed with it (a second unit over a duplicate limit, say), every category heading, the
status line and the report panel (templates/lists/editor_changes.html). A card shows its unit, its line
in the Report, its violations and its place in its category, and offers items by what the rest of the
army has taken; when anything the cards share changes (units added, removed or moved, a list setting,
an item taken, an imported book's pool item taken: lists/offers/pool_choices.py), the whole list is redrawn as before.

A roster tree's cards read what the army holds (an option a condition holds back, a profile a modifier
changes), which its shared state follows too closely for `changed_units` to keep a card when a unit is
added, duplicated or removed: there the cards as drawn before and after are compared instead
(`placed_changes`), and the answer places the new cards, drops the removed ones and redraws those that
differ (issue 40: an edit answers at most 40 kB; the whole list of an Empire of Man tree was 268 kB).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from armylists.editor.unit_cards import Section
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


PLAIN_ID = re.compile(r"[A-Za-z0-9_-]+")


@dataclass
class Placed:
    """What an edit changed in a list's cards, as they are drawn (`placed_changes`): the cards drawn again
    in place, the new ones with where each goes (an htmx out-of-band swap: "afterend:#unit-<before it>"),
    the removed ones, and the sections drawn again whole (one empty before or after: its "No ... yet")."""
    changed: set[str] = field(default_factory=set)
    added: dict[str, str] = field(default_factory=dict)
    removed: list[str] = field(default_factory=list)
    sections: set[str] = field(default_factory=set)


def placed_changes(before: list[Section], after: list[Section]) -> Placed | None:
    """The cards that differ between two drawings of the list's sections (each card as the page draws it:
    its selections, line, problems, offers, profiles), where the units kept their sections and order and
    were only added or removed; None when the page must be drawn again (sections came or went, a unit
    moved, the list became empty or stopped being empty: its note)."""
    if [s.id for s in before] != [s.id for s in after]:
        return None
    old = {c.id: c for s in before for c in s.units}
    new = {c.id for s in after for c in s.units}
    if not old or not new or not all(PLAIN_ID.fullmatch(uid) for uid in old.keys() | new):
        return None   # an id a CSS selector cannot name as it stands ("afterend:#unit-<id>"): drawn whole
    placed = Placed()
    for was, now in zip(before, after):
        if [c.id for c in was.units if c.id in new] != [c.id for c in now.units if c.id in old]:
            return None
        ids = [c.id for c in now.units]
        if [c.id for c in was.units] != ids and (not was.units or not now.units or not set(ids) & set(old)):
            placed.sections.add(now.id)   # nothing to place the new cards by, or nothing left to show
            continue
        for i, card in enumerate(now.units):
            if card.id not in old:
                after_card = ids[i - 1] if i else None
                placed.added[card.id] = (f"afterend:#unit-{after_card}" if after_card else
                                         f"beforebegin:#unit-{next(u for u in ids[i:] if u in old)}")
            elif _drawn(old[card.id]) != _drawn(card):
                placed.changed.add(card.id)
        placed.removed += [c.id for c in was.units if c.id not in new]
    return placed


def catalogue_changes(before: list[dict], after: list[dict]) -> list[dict] | None:
    """The catalogue's entries that differ after an edit ({"e": entry, "allied": ...}: each swapped in by its
    button's id), where its sections and entries stand as before; None where the whole of it must be drawn
    again (a section or an entry came or went)."""
    def layout(sections):
        return [(s["id"], [e["id"] for e in s["entries"]]) for s in sections]
    if layout(before) != layout(after):
        return None
    return [{"e": new, "allied": section["allied"]} for was, section in zip(before, after)
            for old, new in zip(was["entries"], section["entries"]) if old != new]


def _drawn(card):
    """A card as it is drawn: its place at a section's ends shows only on its move buttons, where it has them."""
    return card if "move" in card.urls else replace(card, first=False, last=False)
