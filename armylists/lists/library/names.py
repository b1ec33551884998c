"""The site's systems and books as pages, forms and messages name them: our rules on disk (built at start-up)
and the imported ones from their rows' columns, no imported book built (issue 39 item 2, issue 37 item 5).

    site_systems()["bs-mordheim"].name  -> "Mordheim (imported data, BSData)"
    shelved_books("t9a-0.11")           -> [Shelved(system=SystemName("t9a-0.11", ...), id="empire-of-sonnstahl", ...)]
    book_label("t9a-0.11", "ogre-khans@0.11.0") -> "Ogre Khans 0.11.0"

`catalogue.site_library()` builds the newest version of every imported book: on a site with the community
data that is about 120 books, 20 s of CPU and 700 MB on a fresh worker, for a form that prints their names
or a page that names one system. A system is small (its stored row built alone: `imported_system`); a
book's name, id and version are columns. What only a built book knows (its units, its event rules'
names) is asked of `get_book` for the books a caller names.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db import DatabaseError

from armylists.lists.library.catalogue import disk_library, imported_book_keys, imported_system
from armylists.rules import System
from armylists.rules.reading.loader import _version_key


@dataclass(frozen=True)
class SystemName:
    """A system as a book listing names it: what a text header's `System:` line is matched with."""
    id: str
    name: str


@dataclass(frozen=True)
class Shelved:
    """A book as a list of books names it, without building it: `exports/text_read.py` reads a header's
    `Book:` line against these and builds the one it names (`catalogue.get_book`)."""
    system: SystemName
    id: str
    version: str
    name: str
    imported: bool

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.system.id, self.id, self.version)


def site_systems() -> dict[str, System]:
    """Every system a list may be built in, as `site_library().systems` gives them: ours on disk, then each
    system of an imported book (its latest stored row, named as the book pages name it), none built twice."""
    systems = dict(disk_library().systems)
    for system in sorted({key[0] for key in imported_book_keys()} - set(systems)):
        found = imported_system(system)
        if found is not None:
            systems[system] = found
    return systems


def one_system(system: str) -> System | None:
    """One system by id, ours or imported (`site_systems()[system]`), nothing else read."""
    found = disk_library().systems.get(system)
    if found is not None:
        return found
    return imported_system(system) if any(key[0] == system for key in imported_book_keys(system)) else None


def shelved_books(system: str | None = None) -> list[Shelved]:
    """The books of `site_library()` (every system when `system` is None): every version of ours on disk,
    the newest version of each imported book (`imported_book_keys`), named from their rows' columns."""
    from armylists.models import RulesFile

    disk = disk_library()
    names = {s.id: s.name for s in disk.systems.values()}
    shelved = [Shelved(SystemName(b.system.id, names.get(b.system.id, b.system.name)), b.id, b.version, b.name, False)
               for b in disk.books.values() if system is None or b.system.id == system]
    keys = [key for key in imported_book_keys(system) if key not in disk.books]
    if not keys:
        return shelved
    systems = site_systems() if system is None else {system: one_system(system)}
    try:
        rows = RulesFile.objects.filter(kind="book", imported=True)
        if system is not None:
            rows = rows.filter(system=system)
        book_names = {(s, b, v): n for s, b, v, n in rows.values_list("system", "slug", "version", "name")}
    except DatabaseError:
        book_names = {}
    for key in keys:
        found = systems.get(key[0])
        shelved.append(Shelved(SystemName(key[0], found.name if found is not None else key[0]), key[1], key[2],
                               book_names.get(key) or key[1], True))
    return shelved


def book_label(system: str, book: str, books: list[Shelved] | None = None) -> str:
    """`catalogue.book_name` from the columns: the army book's name from any version of it the site offers,
    else its id; "book@version" (an event pins one) names the version too. `books` is `shelved_books(...)`
    read once by a caller naming many."""
    book_id, _, version = book.partition("@")
    found = [b for b in (books if books is not None else shelved_books(system))
             if b.system.id == system and b.id == book_id]
    try:  # the newest version's name, as Library.latest chooses it
        name = max(found, key=lambda b: _version_key(b.version)).name if found else book_id
    except TypeError:  # versions that do not compare part by part ("2023" and "r20")
        name = found[-1].name
    return f"{name} {version}" if version else name


_compositions: dict[tuple[str, str, str, str], tuple[tuple[str, str], ...]] = {}  # (key..., content hash) -> ...


def book_compositions(books: list[Shelved]) -> dict[tuple[str, str, str], tuple[tuple[str, str], ...]]:
    """Each book's compositions as (id, name), by its key: ours from the built books on disk, an imported
    one's read once per process from its row (only its document's `compositions`, keyed by the row's content
    hash so a book stored again with other content is read again), never the whole book built."""
    from armylists.models import RulesFile

    disk = disk_library()
    found: dict[tuple[str, str, str], tuple[tuple[str, str], ...]] = {}
    imported = []
    for book in books:
        if book.key in disk.books:
            found[book.key] = tuple((c.id, c.name) for c in disk.books[book.key].compositions.values())
        else:
            imported.append(book.key)
    if not imported:
        return found
    wanted = set(imported)
    try:
        hashes = {(s, b, v): (pk, h) for pk, s, b, v, h in RulesFile.objects.filter(
            kind="book", imported=True, system__in={k[0] for k in wanted}).values_list(
            "pk", "system", "slug", "version", "content_hash") if (s, b, v) in wanted}
        missing = {pk: (*key, digest) for key, (pk, digest) in hashes.items() if (*key, digest) not in _compositions}
        if missing:
            for pk, listed in RulesFile.objects.filter(pk__in=list(missing)).values_list("pk", "data__compositions"):
                _compositions[missing[pk]] = tuple((c["id"], c.get("name") or c["id"]) for c in listed or ()
                                                   if isinstance(c, dict) and "id" in c)
    except DatabaseError:
        return found
    for key in imported:
        if key in hashes:
            found[key] = _compositions.get((*key, hashes[key][1]), ())
    return found
