"""Find the Book a list pins: the rules data on disk first, then any older version the database keeps."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError

from armylists.lists.library.books_cache import built_books, load_library, shared_book
from armylists.lists.kinds import kind_of
from armylists.rules import Book, Library, ListDocumentError, Report, Roster, Rule, RulesDataError, System
from armylists.rules.bridges.systems import load_mappings
from armylists.rules.reading.build_system import build_system
from armylists.rules.reading.list_reader import SLUG_PATTERN
from armylists.rules.reading.loader import build_from_stored, load_one_book, load_system_folder, load_system_part


@lru_cache(maxsize=1)
def disk_library() -> Library:
    """Every book on disk, built once per process (or read from the shared books cache)."""
    return load_library(settings.RULES_DATA_DIR)


@lru_cache(maxsize=None)
def _system_part(folder: Path):
    return load_system_part(folder, settings.RULES_DATA_DIR)


def system_part(folder: Path):
    """A system folder's (System, common items, files read), read once per process."""
    return _system_part(folder)


@lru_cache(maxsize=256)
def _book_file(system: str, book: str, version: str) -> Book | None:
    return load_one_book(settings.RULES_DATA_DIR, system, book, version, _system_part)


_system_libraries: dict[str, Library] = {}


def system_library(system: str) -> Library | None:
    """One system's folder (the system, its items and every book of it), read once; None if there is no
    such folder. What an event of that system needs, without the other systems' books."""
    if disk_library.cache_info().currsize:
        whole = disk_library()
        if system not in whole.systems:
            return None
        return Library(systems={system: whole.systems[system]}, common_items={system: whole.common_items[system]},
                       books={key: b for key, b in whole.books.items() if key[0] == system},
                       files=[f for f in whole.files if f.system == system])
    if system not in _system_libraries:
        folder = settings.RULES_DATA_DIR / system
        if not re.fullmatch(SLUG_PATTERN, system) or not (folder / "system.yaml").is_file():
            return None
        library = Library()
        load_system_folder(folder, settings.RULES_DATA_DIR, library)
        _system_libraries[system] = library
    return _system_libraries[system]


_stored_books = built_books()  # least recently used dropped past a size budget (books_cache.BuiltBooks)


def get_book(system: str, book: str, version: str) -> Book | None:
    """The book from the rules data on disk, or a version the database keeps.

    Until something needs every book (a page listing them), only the book asked for is read, from its
    own file with its system's: checking one list reads one book, not all of them.
    """
    if disk_library.cache_info().currsize:
        found = disk_library().book(system, book, version)
    elif system in _system_libraries:
        found = _system_libraries[system].book(system, book, version)
    elif _on_disk(system):
        found = _book_file(system, book, version) or disk_library().book(system, book, version)
    else:  # a system only the database holds (BattleScribe data's): no book of ours read (issue 37 item 5)
        found = None
    if found is not None:
        return found
    key = (system, book, version)
    stored = _stored_books.get(key)
    if stored is None:
        stored = _from_database(system, book, version)
        if stored is None:
            return None
        _stored_books[key] = stored
    return stored


def _from_database(system: str, book: str, version: str) -> Book | None:
    from armylists.models import RulesFile

    try:
        book_row = RulesFile.objects.filter(kind="book", system=system, slug=book, version=version).first()
        if book_row is None:
            return None
        system_row = RulesFile.objects.filter(kind="system", system=system).order_by("-loaded_at").first()
        item_rows = list(RulesFile.objects.filter(kind="items", system=system).order_by("slug", "-loaded_at"))
    except DatabaseError:
        return None
    if system_row is None:
        return None
    system_data = _labelled(system, system_row.data)
    # An imported book (import_owb) uses only the imported item lists of its own version; a hand-written
    # book never sees imported lists.
    imported = bool(book_row.data.get("imported"))
    latest_items = {}
    for row in item_rows:
        if bool(row.data.get("imported")) != imported or (imported and row.version != version):
            continue
        latest_items.setdefault(row.slug, row)
    # Built once for every process when the books cache is shared (Redis): keyed by what it is built from.
    parts = (system, book, version, system_data.get("name", ""), system_row.content_hash, book_row.content_hash,
             *(f"{slug}:{row.content_hash}" for slug, row in latest_items.items()))
    return shared_book(parts, lambda: build_from_stored(system_data, [row.data for row in latest_items.values()],
                                                        book_row.data, f"stored {book} {version}"))


def _labelled(system: str, system_data: dict) -> dict:
    """An imported system's data, named as the system of ours it plays and as the source's data."""
    mapped = mapped_systems().get(system)
    if mapped is None:
        return system_data
    ours = _our_system(mapped[0])
    return {**system_data, "name": f"{ours.name if ours else mapped[0]} (imported data, {mapped[1]})"}


def _on_disk(system: str) -> bool:
    """Whether `system` is a folder of the rules data on disk (a slug with a system.yaml)."""
    return bool(re.fullmatch(SLUG_PATTERN, system)) and (settings.RULES_DATA_DIR / system / "system.yaml").is_file()


def _our_system(system: str) -> System | None:
    """One of our systems on disk, read alone (its system.yaml and items) unless every book is read already:
    naming an imported system after ours reads none of our books (check_lists of a roster tree did: 0.85 s)."""
    if disk_library.cache_info().currsize:
        return disk_library().systems.get(system)
    if not _on_disk(system):
        return None
    try:
        return _system_part(settings.RULES_DATA_DIR / system)[0]
    except RulesDataError:
        return disk_library().systems.get(system)  # the whole library says what is wrong


def imported_system(system: str) -> System | None:
    """A system that lives only in the database (BattleScribe data's), built alone from its latest stored
    row: what a command of that system's lists needs, without building every imported book."""
    from armylists.models import RulesFile

    try:
        row = RulesFile.objects.filter(kind="system", system=system).order_by("-loaded_at").first()
    except DatabaseError:
        return None
    if row is None:
        return None
    return build_system(_labelled(system, row.data), f"stored {system}")


def mapped_systems() -> dict[str, tuple[str, str]]:
    """Imported system id -> (our system of the same game, the source that says so), for every game data
    source with `maps_to` whose versions stored books under a system other than that one (BattleScribe
    data's `bs-mordheim` -> `mordheim`). Such books stay in their own system (their rules are the data's
    own); this says which of ours they play, for the site's names and for system-wide rules of ours."""
    from django.db.models import F

    from armylists.models import GameDataBook, GameDataSource

    found: dict[str, tuple[str, str]] = {}
    try:
        # The versions' books as rows (GameDataBook), not every version's JSON read (issue 39).
        rows = (GameDataBook.objects.filter(data_version__status="ok").exclude(data_version__source__maps_to="")
                .exclude(system=F("data_version__source__maps_to"))
                .order_by("data_version__imported_at", "data_version_id")
                .values_list("system", "data_version__source_id").distinct())
        sources = {}
        for system, source_id in rows:
            if system not in found:
                if source_id not in sources:
                    sources[source_id] = GameDataSource.objects.get(pk=source_id)
                found[system] = (sources[source_id].maps_to, str(sources[source_id]))
    except DatabaseError:
        return {}
    return found


def our_system_name(game_system: dict) -> str | None:
    """The name of our system that rules_data/battlescribe_systems.yaml maps a BattleScribe game system onto
    (plain dict with `id` and `name`), or None: an imported system of a game we have is called by our name."""
    try:
        mapping = load_mappings(settings.RULES_DATA_DIR).find(game_system)
    except RulesDataError:  # a broken mapping file names no system; tree_lists.our_rules reports it
        return None
    if mapping is None:
        return None
    ours = disk_library().systems.get(mapping.system)
    return ours.name if ours is not None else None


def held_book_versions() -> dict[tuple[str, str], str]:
    """(system, book) -> version, for the books of every game data source held at a version
    (armylists/gamedata/): new lists get those versions rather than the newest."""
    from armylists.models import GameDataSource

    try:
        held = list(GameDataSource.objects.filter(held__isnull=False).values_list("held__books", flat=True))
    except DatabaseError:
        return {}
    return {(b["system"], b["book"]): b["version"] for books in held for b in books}


def imported_book_keys(system: str | None = None) -> list[tuple[str, str, str]]:
    """(system, book, version) of the newest version of each imported book (import_owb, import_battlescribe,
    game data updates), which live only in the database; a book of a game data source held at a version, at
    that version. Of one system only when `system` is given. Nothing is built. A book renamed by its data
    (`renamed_books`) is offered under its newest name only."""
    newest, renamed = _newest_imported(system)
    return [(found_system, slug, version) for (found_system, slug), version in newest.items()
            if (found_system, slug) not in renamed]


def renamed_books(system: str | None = None) -> dict[tuple[str, str], str]:
    """(system, old book id) -> the book id the data now gives the same book: a BattleScribe catalogue keeps
    its id when the data renames its file and name (Mordheim's "Reikland Mercinaries" became "Reikland
    Mercenaries"), so the newer book of that catalogue id is its successor (issue 38 item 2); so does a New
    Recruit T9A army its code and an OWB army its id (RulesFile.lineage)."""
    return _newest_imported(system)[1]


def _data_dates() -> dict[tuple[str, str, str], str]:
    """(system, book, version) -> the date (YYYY-MM-DD) of the data that first brought it: the release or
    commit date of the game data versions holding it."""
    from armylists.models import GameDataBook

    found: dict[tuple[str, str, str], str] = {}
    rows = (GameDataBook.objects.filter(data_version__status="ok", data_version__date__isnull=False)
            .values_list("system", "book", "book_version", "data_version__date"))
    for system, book, version, date in rows:
        key, day = (system, book, version), f"{date:%Y-%m-%d}"
        if key not in found or day < found[key]:
            found[key] = day
    return found


DATED_VERSION = re.compile(r"@(\d{4}-\d{2}-\d{2})")


def _newest_imported(system: str | None) -> tuple[dict[tuple[str, str], str], dict[tuple[str, str], str]]:
    """The newest version of each imported book, by the data's own date, never by the order of imports
    (issue 38 item 3: staff importing an older date for a past event changes nothing for new lists; a
    revision going down at a later date is the newer data). The date is the game data version's that
    brought it, else the one its version names (New Recruit's T9A "0.4.2@2026-02-13"), else the day it
    was loaded; on the same day the later loaded. Then the renamed books: a catalogue id whose newest book
    has another id."""
    from armylists.models import RulesFile

    # No order (the newest is chosen below): ordered as the model's Meta says, SQLite walks the unique index
    # and reads every row's `imported` through its JSON's overflow pages, 64 ms at 127 books where this is 1 ms.
    rows = RulesFile.objects.filter(kind="book", imported=True).order_by()
    if system is not None:
        rows = rows.filter(system=system)
    try:
        rows = list(rows.values_list("system", "slug", "version", "loaded_at", "id", "game_data__catalogue_id",
                                     "lineage"))
        dates = _data_dates() if rows else {}
    except DatabaseError:
        return {}, {}
    best: dict[tuple[str, str], tuple] = {}
    catalogue_ids: dict[tuple[str, str], str] = {}
    for found_system, slug, version, loaded_at, pk, catalogue_id, lineage in rows:
        catalogue_id = catalogue_id or lineage  # a New Recruit T9A army code, an OWB army id
        named = DATED_VERSION.search(version)
        day = dates.get((found_system, slug, version)) or (named.group(1) if named else f"{loaded_at:%Y-%m-%d}")
        order = (day, loaded_at, pk)
        if (found_system, slug) not in best or order > best[(found_system, slug)][0]:
            best[(found_system, slug)] = (order, version)
            if catalogue_id:
                catalogue_ids[(found_system, slug)] = catalogue_id
    newest = {key: version for key, (_, version) in best.items()}
    if newest:  # no question about held sources when nothing is imported
        newest.update({key: version for key, version in held_book_versions().items() if key in newest})
    heir: dict[tuple[str, str], tuple] = {}  # (system, catalogue id) -> (order, book id) of its newest book
    for key, catalogue_id in catalogue_ids.items():
        candidate = (best[key][0], key[1])
        heir[(key[0], catalogue_id)] = max(heir.get((key[0], catalogue_id), candidate), candidate)
    renamed = {key: heir[(key[0], catalogue_id)][1] for key, catalogue_id in catalogue_ids.items()
               if heir[(key[0], catalogue_id)][1] != key[1]}
    return newest, renamed


def imported_books(system: str | None = None) -> list[Book]:
    """The latest version of each imported book (`imported_book_keys`), built; of one system only when
    `system` is given."""
    books = []
    for system, slug, version in imported_book_keys(system):
        try:
            book = get_book(system, slug, version)
        except RulesDataError:  # stored by an older importer and no longer valid: not offered
            continue
        if book is not None:
            books.append(book)
    return books


def common_item_lists(book: Book) -> list[dict]:
    """The item lists (as stored) whose items are `book`'s common items: the system's on disk, or for an
    imported book the imported list of its version."""
    if not book.imported:
        return [f.data for f in disk_library().files if f.kind == "items" and f.system == book.system.id]
    from armylists.models import RulesFile

    try:
        rows = RulesFile.objects.filter(kind="items", system=book.system.id, version=book.version)
        return [row.data for row in rows if row.data.get("imported")]
    except DatabaseError:
        return []


def system_name(system: str, library: Library | None = None) -> str:
    """The game system's name as players know it (Warhammer: The Old World); its id if none is loaded.
    Without `library`, ours on disk or the imported system's stored row alone: no imported book built."""
    found = library.systems.get(system) if library is not None else \
        disk_library().systems.get(system) or imported_system(system)
    return found.name if found is not None else system


def book_name(system: str, book: str, library: Library | None = None) -> str:
    """The army book's name as players know it (Empire of Man), from any version of it loaded; else its id.
    An event names a book by id, with a version after "@" when it pins one: that version is named too.
    Without `library`, an imported book's name is its row's column (the newest version offered): no book built."""
    book_id, _, version = book.partition("@")
    if library is not None:
        found = library.latest(system, book_id)
        name = found.name if found is not None else book_id
    else:
        found = disk_library().latest(system, book_id)
        name = found.name if found is not None else _offered(system)[1].get(book_id, book_id)
    return f"{name} {version}" if version else name


def _offered(system: str) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """The (book, version) of `system` that the site offers (every version on disk, the newest
    imported) and each book's name (an imported one's from its row's column), no imported book built."""
    from armylists.models import RulesFile

    disk = [(b, v) for (s, b, v) in disk_library().books if s == system]
    imported = [(b, v) for _s, b, v in imported_book_keys(system) if (system, b, v) not in disk_library().books]
    names = {}
    if imported:
        wanted = set(imported)
        try:
            names = {slug: name for slug, version, name in RulesFile.objects.filter(
                kind="book", imported=True, system=system).order_by().values_list("slug", "version", "name")
                if (slug, version) in wanted}
        except DatabaseError:
            pass
    return disk + imported, names


def listed_books(system: str | None = None) -> list[Book]:
    """Every book a new list may be built on: the rules data on disk, then the imported books. Of one
    system only when `system` is given: the allies choice and a list's newer version build that system's
    books, not every imported one (issue 39)."""
    disk = disk_library().books.values()
    if system is None:
        return [*disk, *imported_books()]
    return [*(b for b in disk if b.system.id == system), *imported_books(system)]


def book_for(roster: Roster, source: str = "list") -> Book:
    """The Book the roster pins, or a ListDocumentError that says what is available.

    A list with allies must name an allies book we have too (`allies_book_for`), or it cannot be checked.
    """
    book = _find(roster.system, roster.book, roster.book_version, source, ())
    allies_book_for(roster, source)
    return book


def allies_book_for(roster: Roster, source: str = "list") -> Book | None:
    """The Book the roster's allied units come from (None: the list has no allies), or a ListDocumentError
    naming the path ("allies", "book") or ("allies", "book_version") and what is available."""
    if roster.allies is None:
        return None
    return _find(roster.system, roster.allies.book, roster.allies.book_version, source, ("allies",))


def _find(system: str, book_id: str, version: str, source: str, where: tuple) -> Book:
    book = get_book(system, book_id, version)
    if book is not None:
        return book
    # What the message lists comes from the columns: a list naming an unknown book builds no book (issue 37).
    known = {*disk_library().systems, *(key[0] for key in imported_book_keys())}
    if system not in known:
        known = sorted(known)
        raise ListDocumentError(source, ("system",), f"unknown game system {system!r}; known: {', '.join(known) or 'none'}")
    what = "allies book" if where else "army book"
    offered, _names = _offered(system)
    versions = sorted(v for (b, v) in offered if b == book_id)
    if versions:
        reason = f"{book_name(system, book_id)} version {version!r} is not loaded; available: {', '.join(versions)}"
        raise ListDocumentError(source, (*where, "book_version"), f"{what} {reason}" if where else reason)
    books = sorted({b for (b, _) in offered})
    raise ListDocumentError(source, (*where, "book"), f"unknown {what} {book_id!r} for {system}; "
                                                      f"known: {', '.join(books) or 'none'}")


def validate_roster(book: Book, roster: Roster, extra_rules: tuple[Rule, ...] = (), source: str = "list") -> Report:
    """The list's Report as its kind makes it (lists/kinds.py), with the roster's allies book found here: what
    every caller outside the engine uses. A list kept as a roster tree (an imported BattleScribe book's) is
    judged by the tree evaluator over the book's stored game data (lists/trees/tree_lists.py); our rules
    (`extra_rules`) do not read it."""
    kind = kind_of(roster)
    return kind.report(book, roster, extra_rules, allies_book_for(roster, source) if kind.takes_allies else None,
                       source)


def report_for(roster: Roster, source: str = "list") -> Report:
    return validate_roster(book_for(roster, source), roster, source=source)
