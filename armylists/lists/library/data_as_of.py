"""What data a list is checked with, in words: its book and version, and the game data version (source,
release or commit, date) that book version came from (armylists/gamedata/), for the editor's report, the
report API, the PDF's legality stamp and an event's table and CSV.

    data_as_of("bs-mordheim", "bs-reiklanders-1a", "r10")
    -> {"book": "bs-reiklanders-1a", "book_version": "r10", "data_version": "BSData/mordheim release v1.0",
        "date": "2026-03-04", "text": "bs-reiklanders-1a r10, from BSData/mordheim release v1.0 of 2026-03-04"}

The data version named is the first import that brought this book version: later imports holding the
same version unchanged do not move it, so a stored list's "data as of" never changes. A book of the
site's own rules data (rules_data/) has no data version.
"""
from __future__ import annotations

import threading
import weakref

from django.db import DatabaseError

from armylists.models import GameDataBook, GameDataVersion

# A version's JSON (every book it brought, its coverage) is not read to name it.
_VERSION_JSON = tuple(f"data_version__{f}" for f in ("books", "systems", "coverage", "skipped", "message"))


def data_as_of(system: str, book: str, version: str, imported: bool = True, name: str = "") -> dict:
    """`imported` False (a book of rules_data/) answers without asking the database; `name` is the book's
    name as players know it, which the text uses (the id where it is not given)."""
    found = None
    try:
        if not imported:
            raise LookupError
        # The books' rows (GameDataBook), by their index: never a scan of every version's JSON (issue 39).
        row = (GameDataBook.objects.filter(system=system, book=book, book_version=version,
                                           data_version__status=GameDataVersion.OK)
               .select_related("data_version__source").defer(*_VERSION_JSON)
               .order_by("data_version__imported_at", "data_version_id").first())
        if row is not None:
            found, name = row.data_version, name or row.name
    except (DatabaseError, LookupError):
        found = None
    if found is None:
        return {"book": book, "book_version": version, "data_version": None, "date": None,
                "text": site_data_text(name or book, version, imported)}
    label = version_label(found)
    data_version, _, date = label.rpartition(" of ")
    return {"book": book, "book_version": version, "data_version": data_version, "date": date,
            "text": f"{name or book} {version}, from {label}"}


# A book version's data version, once found, per Book object this process built (the book caches of
# lists/library/catalogue.py give one per stored book, dropped with it): the first import that brought a
# version never moves, so the editor asks the database once per book, not once per edit (issue 37). Not
# found is not kept: a later import may bring the version.
_found_for_book: dict[int, tuple[weakref.ref, dict]] = {}   # id(book) -> (the book, weakly: never kept alive)
_found_lock = threading.Lock()


def book_data_as_of(book) -> dict:
    """`data_as_of` of a Book (`book.system.id`, `book.id`, `book.version`), a found data version kept
    with the Book object. The answer is shared: never change it."""
    with _found_lock:
        kept = _found_for_book.get(id(book))
    if kept is not None and kept[0]() is book:
        return kept[1]
    found = data_as_of(book.system.id, book.id, book.version, book.imported, book.name)
    if found["data_version"] is not None:
        with _found_lock:
            if len(_found_for_book) >= 256:   # books come and go with the caches: never more than a few hundred
                _found_for_book.clear()
            _found_for_book[id(book)] = (weakref.ref(book), found)
    return found


def holds_system(version: GameDataVersion, system: str) -> bool:
    return any(b["system"] == system for b in version.books)


def newest_data_version(system: str, day=None) -> GameDataVersion | None:
    """The newest imported game data version holding books of `system` (imported on or before `day`, a
    date, when given): what an event of that system plays unless its organiser picks another."""
    try:
        versions = GameDataVersion.objects.filter(status=GameDataVersion.OK).select_related("source")
        if day is not None:
            versions = versions.filter(imported_at__date__lte=day)
        return next((v for v in versions.order_by("-imported_at", "-id") if holds_system(v, system)), None)
    except DatabaseError:
        return None


def version_label(version: GameDataVersion) -> str:
    ref = version.ref if version.ref_kind == "release" else version.ref[:12]
    date = f"{version.date:%Y-%m-%d}" if version.date else f"{version.imported_at:%Y-%m-%d}"
    return f"{version.source} {version.ref_kind} {ref} of {date}"


def data_as_of_texts(system: str) -> dict[tuple[str, str], str]:
    """(book, version) -> `data_as_of(...)["text"]` for every imported book version of `system`, in one
    query: an event's table and CSV. A book version not in it is the site's own data (`site_data_text`)."""
    texts: dict[tuple[str, str], str] = {}
    try:
        rows = (GameDataBook.objects.filter(system=system, data_version__status=GameDataVersion.OK)
                .select_related("data_version__source").defer(*_VERSION_JSON)
                .order_by("data_version__imported_at", "data_version_id"))
        labels: dict[int, str] = {}
        for row in rows:
            if (row.book, row.book_version) not in texts:
                if row.data_version_id not in labels:
                    labels[row.data_version_id] = version_label(row.data_version)
                texts[(row.book, row.book_version)] = (f"{row.name or row.book} {row.book_version}, "
                                                       f"from {labels[row.data_version_id]}")
    except DatabaseError:
        pass
    return texts


def site_data_text(name: str, version: str, imported: bool = False) -> str:
    """A book version no game data version brought: the site's rules data, or imported on the command line."""
    where = "imported on this site" if imported else "this site's rules data"
    return f"{name} {version} ({where})"
