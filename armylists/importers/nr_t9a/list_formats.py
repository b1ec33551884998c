"""New Recruit's tournament summary of one T9A list as the site reads it, registered with the list files
part (armylists/listfiles/formats.py) when the app starts.

The summary names its army by New Recruit's code (DH); it is read against that army's book as imported
by `manage.py import_nr_t9a` (a book of `t9a-2`): the version of the tournament's date when one is
imported, else the newest (summaries.py: `choose_version`). The notices say which version, and name every
unit whose cost here differs from New Recruit's, with both figures.
"""
from __future__ import annotations

import re

from django.db import DatabaseError

from armylists.importers.nr_t9a.summaries import (
    SYSTEM_ID, SummaryError, choose_version, how_to_import, looks_like_summary, parse_summary, read_summary,
    unit_notes,
)
from armylists.listfiles.formats import ListFileError, ListFormat, register
from armylists.lists.catalogue import get_book
from armylists.rules import Book, ListDocumentError, Roster, RulesDataError, parse_roster, validate

NAME = "New Recruit tournament summary (JSON line)"


def army_versions(army: str) -> tuple[str, list[str]] | None:
    """(book id, its imported versions) of the New Recruit army `army` (DH), or None when none is imported.
    An imported book names its army file in its sources ("... dh.json version ...") and in the row's
    source ("nr-t9a.bundle:273623d:dh.json")."""
    from armylists.models import RulesFile

    code = army.lower()
    named = re.compile(rf"(^|[\s,(]){re.escape(code)}\.json\b")
    try:
        rows = list(RulesFile.objects.filter(kind="book", system=SYSTEM_ID)
                    .values_list("slug", "version", "source_path", "data__sources"))
    except DatabaseError:
        return None
    found: dict[str, list[str]] = {}
    for slug, version, source_path, sources in rows:
        texts = [str(s) for s in sources] if isinstance(sources, list) else []
        if source_path.lower().endswith(f":{code}.json") or any(named.search(t) for t in texts):
            found.setdefault(slug, []).append(version)
    if not found:
        return None
    slug = max(found, key=lambda s: len(found[s]))  # one book per army; the id follows the army's name
    return slug, found[slug]


def book_of(summary: dict, source: str) -> tuple[Book, str]:
    """The book to read `summary` against and why it is that version, or ListFileError (400 on the site)."""
    versions = army_versions(summary["army"])
    if versions is None:
        raise ListFileError(f"{source}: {how_to_import(summary['army'])}")
    slug, known = versions
    while known:
        version, why = choose_version(known, summary.get("start"))
        try:
            book = get_book(SYSTEM_ID, slug, version)
        except RulesDataError:  # stored by an older importer and no longer valid: the next one
            book = None
        if book is not None:
            return book, why
        known = [v for v in known if v != version]
    raise ListFileError(f"{source}: {how_to_import(summary['army'])}")


def _read(data: bytes, source: str) -> tuple[Roster, Book]:
    roster, book, _ = _read_with_notes(data, source)
    return roster, book


def _read_with_notes(data: bytes, source: str) -> tuple[Roster, Book, list[str]]:
    try:
        summary = parse_summary(data, source)
        book, why = book_of(summary, source)
        read = read_summary(summary, book, source)
        roster = parse_roster(read.document, source)
    except SummaryError as exc:
        raise ListFileError(str(exc)) from None
    except ListDocumentError as exc:
        raise ListFileError(str(exc)) from None
    report = validate(book, roster)
    ours = {u.id: u.points for u in report.units}
    notes = [f"Read against {book.name} {book.version}: {why}."]
    notes += unit_notes(read.reading, [ours.get(f"u{i + 1}", 0) for i in range(len(read.reading.units))])
    return roster, book, notes


def _notices(data: bytes, source: str, roster: Roster, book: Book) -> list[str]:
    return _read_with_notes(data, source)[2]


register(ListFormat(NAME, lambda data, source: looks_like_summary(data), _read, _notices))
