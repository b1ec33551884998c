"""One game system's part of the site's library: what an event of that system (its checks, its rules, its
form's book names) needs, without building the books of every other system (issue 39 item 2).

`site_library()` builds the newest version of every imported book: on a site with the community data that
is about 120 books, seconds of CPU and hundreds of MB on a fresh worker, for an event that plays one system.
"""
from __future__ import annotations

from armylists.lists.library.catalogue import disk_library, get_book, imported_book_keys, imported_system
from armylists.rules import Library, RulesDataError


def system_site_library(system: str) -> Library:
    """The system (ours on disk, else the imported one's latest stored row) with its books on disk and the
    newest version of each of its imported books; an unknown system gives an empty Library."""
    disk = disk_library()
    library = Library(books={key: b for key, b in disk.books.items() if key[0] == system},
                      files=[f for f in disk.files if f.system == system])
    if system in disk.systems:
        library.systems[system] = disk.systems[system]
        library.common_items[system] = disk.common_items.get(system, {})
    for key in imported_book_keys(system):
        try:
            book = get_book(*key)
        except RulesDataError:  # stored by an older importer and no longer valid: not offered
            continue
        if book is not None:
            library.books.setdefault(book.key, book)
            library.systems.setdefault(system, book.system)
    if system not in library.systems:
        found = imported_system(system)
        if found is not None:
            library.systems[system] = found
    return library
