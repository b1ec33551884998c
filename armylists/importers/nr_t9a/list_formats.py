"""New Recruit's tournament summary of one T9A list as the site reads it, registered with the list files
part (armylists/listfiles/formats.py) when the app starts.

The summary names its army by New Recruit's code (DH); it is read against that army's book as imported
by `manage.py import_nr_t9a` (a book of `t9a-2`): the version of the tournament's date when one is
imported, else the newest (summaries.py: `choose_version`). The notices say which version, and name every
unit whose cost here differs from New Recruit's, with both figures.
"""
from __future__ import annotations

import re
from datetime import date, timedelta

from django.db import DatabaseError

from armylists.importers.nr_t9a.summaries import (
    SYSTEM_ID, SummaryError, SummaryList, choose_version, how_to_import, looks_like_summary, parse_summary,
    read_summary, unit_notes,
)
from armylists.importers.nr_t9a.source import version_date
from armylists.listfiles.formats import DATA_AS_OF, ListFileError, ListFormat, register
from armylists.lists.library.catalogue import get_book
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
    chosen = DATA_AS_OF.get()  # the import page's choice of the data's date, else the tournament's
    while known:
        if chosen:
            version, why = choose_version(known, _day_after(chosen))
            why = (f"the data of {chosen} you chose: the newest imported on or before it"
                   if version_date(version) <= chosen else f"the newest imported; none is from on or before {chosen}")
        else:
            version, why = choose_version(known, summary.get("start"))
        try:
            book = get_book(SYSTEM_ID, slug, version)
        except RulesDataError:  # stored by an older importer and no longer valid: the next one
            book = None
        if book is not None:
            return book, why
        known = [v for v in known if v != version]
    raise ListFileError(f"{source}: {how_to_import(summary['army'])}")


def _day_after(day: str) -> str:
    return (date.fromisoformat(day) + timedelta(days=1)).isoformat()


def stored_dates() -> list[str]:
    """The dates of New Recruit's T9A data stored here (each imported version's), for the import page."""
    from armylists.models import RulesFile

    try:
        versions = RulesFile.objects.filter(kind="book", system=SYSTEM_ID).values_list("version", flat=True).distinct()
        return sorted({d for v in versions if (d := version_date(v))})
    except DatabaseError:
        return []


# The summary read last in this process, as read: the import reads a summary, then asks for its notices
# (listfiles/importing.py), which would otherwise read it a second time; check_lists asks for none.
_last_read: dict[tuple[str, bytes, str | None], tuple[SummaryList, str]] = {}


def _read_summary(data: bytes, source: str) -> tuple[Roster, Book, SummaryList, str]:
    try:
        summary = parse_summary(data, source)
        book, why = book_of(summary, source)
        read = read_summary(summary, book, source)
        return parse_roster(read.document, source), book, read, why
    except SummaryError as exc:
        raise ListFileError(str(exc)) from None
    except ListDocumentError as exc:
        raise ListFileError(str(exc)) from None


def _read(data: bytes, source: str) -> tuple[Roster, Book]:
    roster, book, read, why = _read_summary(data, source)
    _last_read.clear()
    _last_read[(source, data, DATA_AS_OF.get())] = (read, why)
    return roster, book


def _notices(data: bytes, source: str, roster: Roster, book: Book) -> list[str]:
    """The version read and why, then what summaries.unit_notes says of each unit, priced by the engine."""
    last = _last_read.pop((source, data, DATA_AS_OF.get()), None)  # another request may have read one since: then again
    read, why = last if last is not None else _read_summary(data, source)[2:]
    ours = {u.id: u.points for u in validate(book, roster).units}
    notes = [f"Read against {book.name} {book.version}: {why}."]
    return notes + unit_notes(read.reading, [ours.get(f"u{i + 1}", 0) for i in range(len(read.reading.units))])


register(ListFormat(NAME, lambda data, source: looks_like_summary(data), _read, _notices, stored_dates))
