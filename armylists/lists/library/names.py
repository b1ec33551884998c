"""The site's systems and books as pages, forms and messages name them: our rules on disk (built at start-up)
and the imported ones from their rows' columns, no imported book built (issue 39 item 2, issue 37 item 5).

    site_systems()["bs-mordheim"].name  -> "Mordheim (imported data, BSData)"
    shelved_books("t9a-0.11")           -> [Shelved(system=SystemName("t9a-0.11", ...), id="empire-of-sonnstahl", ...)]
    book_label("t9a-0.11", "ogre-khans@0.11.0") -> "Ogre Khans 0.11.0"

Building the newest version of every imported book (the retired `site_library()`): on a site with the
community data that is about 120 books, 20 s of CPU and 700 MB on a fresh worker, for a form that prints their names
or a page that names one system. A system is small (its stored row built alone: `imported_system`); a
book's name, id and version are columns. What only a built book knows (its units, its event rules'
names) is asked of `get_book` for the books a caller names.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db import DatabaseError
from django.db.models import F, Func, IntegerField

from armylists.lists.library.catalogue import disk_library, get_book, imported_book_keys, imported_system
from armylists.rules import RulesDataError, System
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


def site_systems(keys: list[tuple[str, str, str]] | None = None) -> dict[str, System]:
    """Every system a list may be built in, as the site offers them: ours on disk, then each
    system of an imported book (its latest stored row, named as the book pages name it). `keys` is
    `imported_book_keys()` when the caller read it already."""
    systems = dict(disk_library().systems)
    for system in sorted({key[0] for key in (imported_book_keys() if keys is None else keys)} - set(systems)):
        found = _stored_system(system)
        if found is not None:
            systems[system] = found
    return systems


def _stored_system(system: str) -> System | None:
    """`imported_system`, None where its stored row no longer builds (stored by an older importer): its
    books are then named by the system's id, as a page names an unknown system."""
    try:
        return imported_system(system)
    except RulesDataError:
        return None


def one_system(system: str) -> System | None:
    """One system by id, ours or imported (`site_systems()[system]`), nothing else read."""
    found = disk_library().systems.get(system)
    if found is not None:
        return found
    return _stored_system(system) if any(key[0] == system for key in imported_book_keys(system)) else None


def shelved_books(system: str | None = None) -> list[Shelved]:
    """The books the site offers (every system when `system` is None): every version of ours on disk,
    the newest version of each imported book (`imported_book_keys`), named from their rows' columns."""
    from armylists.models import RulesFile

    disk = disk_library()
    names = {s.id: s.name for s in disk.systems.values()}
    shelved = [Shelved(SystemName(b.system.id, names.get(b.system.id, b.system.name)), b.id, b.version, b.name, False)
               for b in disk.books.values() if system is None or b.system.id == system]
    newest = imported_book_keys(system)
    keys = [key for key in newest if key not in disk.books]
    if not keys:
        return shelved
    systems = site_systems(newest) if system is None else {system: disk.systems.get(system) or _stored_system(system)}
    try:
        rows = RulesFile.objects.filter(kind="book", imported=True)
        if system is not None:
            rows = rows.filter(system=system)
        book_names = {(s, b, v): n for s, b, v, n in rows.order_by().values_list("system", "slug", "version", "name")}
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


class _EntryCount(Func):
    """How many entries a stored book's document holds, counted by the database (the entries themselves,
    most of a book's JSON, are never sent to Python)."""
    output_field = IntegerField()

    def __init__(self):
        super().__init__(F("data"))

    def as_sql(self, compiler, connection, **extra):
        sql, params = compiler.compile(self.source_expressions[0])
        if connection.vendor == "postgresql":
            return f"jsonb_array_length(({sql})::jsonb -> 'entries')", params
        return f"json_array_length({sql}, '$.entries')", params


@dataclass(frozen=True)
class Summary:
    """What a book listing says of a book besides its name: its compositions (id, name) and its number of
    entries, read without building it."""
    compositions: tuple[tuple[str, str], ...]
    entries: int
    default_limit: int | None = None  # the book's own starting budget, if its document gives one


_summaries: dict[tuple[str, str, str, str], Summary] = {}  # (system, book, version, content hash) -> Summary


def book_summaries(books: list[Shelved]) -> dict[tuple[str, str, str], Summary]:
    """Each book's Summary, by its key: ours from the built books on disk, an imported one's read once per
    process from its row (its document's `compositions` and its count of entries, keyed by the row's content
    hash so a book stored again with other content is read again), never the book built."""
    from armylists.models import RulesFile

    disk = disk_library()
    found: dict[tuple[str, str, str], Summary] = {}
    imported = []
    for book in books:
        if book.key in disk.books:
            built = disk.books[book.key]
            found[book.key] = Summary(tuple((c.id, c.name) for c in built.compositions.values()), len(built.entries),
                                      built.default_limit)
        else:
            imported.append(book.key)
    if not imported:
        return found
    wanted = set(imported)
    try:
        hashes = {(s, b, v): (pk, h) for pk, s, b, v, h in RulesFile.objects.filter(
            kind="book", imported=True, system__in={k[0] for k in wanted}).order_by().values_list(
            "pk", "system", "slug", "version", "content_hash") if (s, b, v) in wanted}
        missing = {pk: (*key, digest) for key, (pk, digest) in hashes.items() if (*key, digest) not in _summaries}
        if missing:
            rows = (RulesFile.objects.filter(pk__in=list(missing)).order_by().annotate(entry_count=_EntryCount())
                    .values_list("pk", "data__compositions", "entry_count", "data__default_limit"))
            for pk, listed, entries, limit in rows:
                _summaries[missing[pk]] = Summary(tuple((c["id"], c.get("name") or c["id"]) for c in listed or ()
                                                        if isinstance(c, dict) and "id" in c), entries or 0,
                                                  limit if isinstance(limit, int) else None)
    except DatabaseError:
        return found
    for key in imported:
        if key in hashes and (*key, hashes[key][1]) in _summaries:
            found[key] = _summaries[(*key, hashes[key][1])]
    return found


def book_compositions(books: list[Shelved]) -> dict[tuple[str, str, str], tuple[tuple[str, str], ...]]:
    """Each book's compositions as (id, name), by its key (`book_summaries`)."""
    return {key: summary.compositions for key, summary in book_summaries(books).items()}


@dataclass(frozen=True)
class OfferedComposition:
    id: str
    name: str


@dataclass(frozen=True, eq=False)
class Offered:
    """An imported book as the new-list form offers it, not built: what the form shows and checks (its system,
    name, version, compositions and usual size); `built()` builds the one a player chose (issue 39 item 2)."""
    system: System
    id: str
    version: str
    name: str
    compositions: dict[str, OfferedComposition]
    default_limit: int | None
    imported: bool = True

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.system.id, self.id, self.version)


def offered_books() -> list:
    """Every book a new list may be built on (`catalogue.listed_books()`): ours on disk built (they are, at
    start-up), each imported one as an `Offered`, from its row's columns and `book_summaries`."""
    disk = disk_library()
    newest = imported_book_keys()
    systems = site_systems(newest)
    imported = [b for b in shelved_books() if b.imported]
    summaries = book_summaries(imported)
    offered: list = list(disk.books.values())
    for book in imported:
        system = systems.get(book.system.id)
        summary = summaries.get(book.key)
        if system is None or summary is None:  # its system or its row is gone: not offered
            continue
        offered.append(Offered(system, book.id, book.version, book.name,
                               {cid: OfferedComposition(cid, name) for cid, name in summary.compositions},
                               summary.default_limit if summary.default_limit is not None else system.default_limit))
    return offered


def built(book):
    """The Book of what `offered_books()` gave (a Book as it is, an `Offered` built), or None when it can no
    longer be built (its rows removed, or stored by an older importer)."""
    if not isinstance(book, Offered):
        return book
    try:
        return get_book(*book.key)
    except RulesDataError:
        return None
