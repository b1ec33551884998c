"""Find the Book a list pins: the rules data on disk first, then any older version the database keeps."""
from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.db import DatabaseError

from .rules import Book, Library, ListDocumentError, Report, Roster, load_tree, validate
from .rules.loader import build_from_stored


@lru_cache(maxsize=1)
def disk_library() -> Library:
    return load_tree(settings.RULES_DATA_DIR)


_stored_books: dict[tuple[str, str, str], Book] = {}


def get_book(system: str, book: str, version: str) -> Book | None:
    found = disk_library().book(system, book, version)
    if found is not None:
        return found
    key = (system, book, version)
    if key not in _stored_books:
        stored = _from_database(system, book, version)
        if stored is None:
            return None
        _stored_books[key] = stored
    return _stored_books[key]


def _from_database(system: str, book: str, version: str) -> Book | None:
    from .models import RulesFile

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
    latest_items = {}
    for row in item_rows:
        latest_items.setdefault(row.slug, row.data)
    return build_from_stored(system_row.data, latest_items.values(), book_row.data, f"stored {book} {version}")


def book_for(roster: Roster, source: str = "list") -> Book:
    """The Book the roster pins, or a ListDocumentError that says what is available."""
    book = get_book(roster.system, roster.book, roster.book_version)
    if book is not None:
        return book
    library = disk_library()
    if roster.system not in library.systems:
        known = ", ".join(sorted(library.systems)) or "none"
        raise ListDocumentError(source, ("system",), f"unknown game system {roster.system!r}; known: {known}")
    versions = sorted(v for (s, b, v) in library.books if s == roster.system and b == roster.book)
    if versions:
        reason = f"{roster.book} version {roster.book_version!r} is not loaded; available: {', '.join(versions)}"
        raise ListDocumentError(source, ("book_version",), reason)
    books = sorted({b for (s, b, _) in library.books if s == roster.system})
    raise ListDocumentError(source, ("book",), f"unknown army book {roster.book!r} for {roster.system}; "
                                               f"known: {', '.join(books) or 'none'}")


def report_for(roster: Roster, source: str = "list") -> Report:
    return validate(book_for(roster, source), roster)
