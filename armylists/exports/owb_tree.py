"""A roster tree of The Old World (a list of New Recruit's catalogues) as a list of one of our books of the
same army, so that it is written as Old World Builder keeps it (owb_list.py) where its units map.

New Recruit's data and OWB's name the same game's units and choices alike ("State Troops", "Halberds",
"Barded Warhorse"), but not by the same ids; so a tree's unit is matched by its name to an entry of the
book, and what it holds (each selection's name, at any depth) to the entry's options, mount, command and
items by theirs, without regard to case. The tree's roles (General, Battle Standard Bearer: the system's
mapping, rules/battlescribe/sheet.py) are the unit's General flag and its BSB option; a unit's size is
the largest number of one thing it holds (thirty State Troopers), within the entry's bounds.

What does not map (a unit the book has no entry of that name for; a selection no choice is named as) is
not guessed at: the units are left out and named, with the selections, in the list's description, which
OWB shows with the list.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

import msgspec

from armylists.rules import Book, Roster
from armylists.rules.battlescribe.sheet import BSB, GENERAL, Held, TreePrinting, unit_sheet
from armylists.rules.battlescribe.tree import Selection
from armylists.rules.native.book import Entry
from armylists.rules.reading.roster import RosterUnit

ROLE_WORDS = {"champion": ("champion",), "standard": ("standard bearer",), "musician": ("musician",)}


def key(name: str) -> str:
    """A name as it is compared: "Dwarfen Mountain Holds - Royal Clan" -> "dwarfen mountain holds royal clan"."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().casefold()
    return " ".join(re.sub(r"[^a-z0-9]+", " ", re.sub(r"['’`]", "", text)).split())


def target_book(tree_book: Book, books: list) -> Any:
    """The book of the tree's army among `books` (our own books of the game, and those imported from OWB):
    the one whose name the tree book's name begins with ("The Empire of Man - City-State of Nuln" is Empire
    of Man's), the longest such name; an OWB import before our own book of the same army. `books` are
    anything with a `name` and an `id` (the registry names imported books without building them)."""
    wanted = key(tree_book.name).removeprefix("the ")
    found = [b for b in books if wanted.startswith(key(b.name).removeprefix("the "))]
    found.sort(key=lambda b: (-len(key(b.name)), not b.id.startswith("owb-")))
    return found[0] if found else None


@dataclass
class Mapped:
    """The tree as a list of `book`, and what was left out (the description says so)."""
    roster: Roster
    left_out: list[str] = field(default_factory=list)

    def description(self, notes: str) -> str:
        said = f"Not in Old World Builder's terms: {'; '.join(self.left_out)}." if self.left_out else ""
        return "\n\n".join(t for t in (notes, said) if t)


def as_book_list(printing: TreePrinting, roster: Roster, book: Book) -> Mapped:
    """The tree's units that map to `book`'s entries, as a list of `book`."""
    entries = {key(e.name): e for e in book.entries.values()}
    units: list[RosterUnit] = []
    left: list[str] = []
    for force in printing.tree.all_forces():
        for selection in force.selections:
            if not isinstance(selection, Selection):
                continue
            sheet = unit_sheet(printing, selection)
            entry = entries.get(key(sheet.name)) or _closest(sheet.name, entries)
            if entry is None:
                left.append(f"{sheet.name} (no unit of that name in {book.name})")
                continue
            unit, unmapped = _unit(book, entry, sheet.held, sheet.roles, f"u{len(units) + 1}")
            if selection.amount <= 1:
                units.append(unit)
            else:  # a root selection taken several times: as many units
                units += [msgspec.structs.replace(unit, id=f"{unit.id}-{n}") for n in range(1, selection.amount + 1)]
            if unmapped:
                left.append(f"{sheet.name}: {', '.join(unmapped)}")
    mapped = Roster(system=book.system.id, book=book.id, book_version=book.version,
                    points_limit=roster.points_limit, units=tuple(units), name=roster.name, player=roster.player,
                    notes=roster.notes)
    return Mapped(mapped, left)


def loose(name: str) -> str:
    """A name with its words' plural `s` dropped: New Recruit's "Lance" is OWB's "Lances"."""
    return " ".join(w.removesuffix("s") for w in key(name).split())


def _closest(name: str, entries: dict[str, Entry]) -> Entry | None:
    """A unit named a little otherwise, where one entry only is: its name with the army's word before it
    ("Empire Steam Tank" for "Steam Tank"), or a plural apart ("State Troop" for "State Troops")."""
    wanted = key(name)
    ends = [e for k, e in entries.items() if wanted.endswith(" " + k)]
    if len(ends) == 1:
        return ends[0]
    close = [e for k, e in entries.items() if loose(k) == loose(wanted)]
    if len(close) == 1:
        return close[0]
    near = difflib.get_close_matches(wanted, list(entries), n=2, cutoff=0.9)
    return entries[near[0]] if len(near) == 1 else None


def _flat(held: tuple[Held, ...]) -> list[Held]:
    out: list[Held] = []
    for h in held:
        out.append(h)
        out += _flat(h.children)
    return out


def _unit(book: Book, entry: Entry, held: tuple[Held, ...], roles: tuple[str, ...], uid: str
          ) -> tuple[RosterUnit, list[str]]:
    everything = _flat(held)
    used: set[int] = set()

    def take(names: set[str]) -> Held | None:
        """The first selection not yet taken named one of `names`, else one a plural apart."""
        for same in (key, loose):
            wanted = {same(n) for n in names}
            for n, h in enumerate(everything):
                if n not in used and same(h.name) in wanted:
                    used.add(n)
                    return h
        return None

    options: dict[str, int] = {}
    for oid, option in entry.options.items():
        if option.role == "bsb":
            if BSB in roles:
                options[oid] = 1
            continue
        found = take({option.name})
        if found is not None:
            options[oid] = min(found.number, option.max) if option.max > 1 else 1
    mount = next((mid for mid, m in entry.mounts.items() if take({m.mount.name}) is not None), None)
    command = [role for role in entry.command if take(set(ROLE_WORDS.get(role, (role,))))]
    items = []
    for item in book.items.values():
        found = take({item.name})
        if found is not None:
            items += [item.id] * max(found.number, 1)
    path = next((p for p in entry.paths if take({p.replace("-", " ")}) is not None), None)
    size = None
    if not entry.character:
        counted = [h.number for h in held if h.number > 1]
        size = max(counted, default=entry.size_min)
        size = max(entry.size_min, min(size, entry.size_max or size))
    # What maps to nothing and costs points is said: a free one is the unit's own kit (a Hand Weapon), and a
    # selection holding others (a model, a group of options) is no choice itself.
    unmapped = [h.name for n, h in enumerate(everything) if n not in used and not h.children and h.cost > 0]
    unit = RosterUnit(id=uid, entry=entry.id, size=size, options=tuple(options.items()), mount=mount,
                      items=tuple(items), command=tuple(command), general=GENERAL in roles, path=path)
    return unit, unmapped
