"""The books a site offers, as a page lists them: names and versions from indexed columns, no book built.

    book_groups(q="elf") -> [Game(name="The 9th Age: Fantasy Battles v0.11.9.3", systems=[Shelf(...), ...]), ...]

The home page lists every book of every game; on a site with the community data that is about 120 books,
and building each from its stored JSON to print its name cost seconds on a fresh worker (issue 39 item 2).
Our own books come from the rules on disk (built at start-up); an imported book's name, version and system
are columns of its RulesFile row, the newest version of each book as `imported_book_keys` chooses it.
A game is one of our systems with the imported systems that play it (`mapped_systems`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db import DatabaseError

from armylists.lists.library.catalogue import disk_library, imported_book_keys, mapped_systems


@dataclass(frozen=True)
class Listing:
    system: str
    id: str
    version: str
    name: str
    imported: bool


@dataclass
class Shelf:
    """One system's books, by name."""
    id: str
    name: str
    books: list[Listing] = field(default_factory=list)


@dataclass
class Game:
    """One game: our system of it first, then the imported systems that play it."""
    name: str
    systems: list[Shelf] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(len(s.books) for s in self.systems)


def imported_listings() -> tuple[list[Listing], dict[str, str]]:
    """The newest version of each imported book (a held source's at its version), and each imported
    system's name, read from the rows' columns."""
    from armylists.models import RulesFile

    try:
        # The newest by the data's date, never by load order, a held source's at its version, and a renamed
        # book under its new name only: what new lists get (catalogue.imported_book_keys, issue 38 item 3).
        keys = set(imported_book_keys())
        rows = list(RulesFile.objects.filter(kind="book", imported=True).order_by("-loaded_at", "-id")
                    .values_list("system", "slug", "version", "name"))
        system_rows = list(RulesFile.objects.filter(kind="system").order_by("loaded_at", "id")
                           .values_list("system", "name"))
    except DatabaseError:
        return [], {}
    newest: dict[tuple[str, str], Listing] = {}
    for system, slug, version, name in rows:
        if (system, slug, version) in keys:
            newest.setdefault((system, slug), Listing(system, slug, version, name, True))
    return list(newest.values()), dict(system_rows)


def book_groups(q: str = "") -> list[Game]:
    """Every book a new list may be built on, grouped by game then system, those whose name, id or system
    name holds `q` (any case) when it is given; empty games and systems left out while filtering."""
    disk = disk_library()
    mapped = mapped_systems()
    imported, imported_names = imported_listings()
    shelves: dict[str, Shelf] = {}
    for system in disk.systems.values():
        shelves[system.id] = Shelf(system.id, system.name)
    for book in disk.books.values():
        shelves[book.system.id].books.append(Listing(book.system.id, book.id, book.version, book.name, False))
    for listing in imported:
        if listing.system not in shelves:
            name = imported_names.get(listing.system, listing.system)
            if listing.system in mapped:  # called by our name, as the book pages call it (catalogue._labelled)
                ours, source = mapped[listing.system]
                name = f"{disk.systems[ours].name if ours in disk.systems else ours} (imported data, {source})"
            shelves[listing.system] = Shelf(listing.system, name)
        shelves[listing.system].books.append(listing)
    needle = q.strip().casefold()
    games: dict[str, Game] = {}
    for shelf in sorted(shelves.values(), key=lambda s: (s.id not in disk.systems, s.name)):
        game_id = mapped.get(shelf.id, (shelf.id,))[0]
        game_name = disk.systems[game_id].name if game_id in disk.systems else shelf.name
        books = sorted(shelf.books, key=lambda b: (b.name, b.version))
        if needle:
            books = [b for b in books if needle in b.name.casefold() or needle in b.id.casefold()
                     or needle in shelf.name.casefold()]
            if not books:
                continue
        games.setdefault(game_id, Game(game_name)).systems.append(Shelf(shelf.id, shelf.name, books))
    return sorted(games.values(), key=lambda g: g.name)
