"""A book the data removed: a game data source once brought it, and the version of that source new lists
get (its held one, else its newest by the data's date) has it no more, under its name or a new one.

    found = removed_book("bs-mordheim", "bs-averlanders")   # Removed(...) or None
    found.sentence  # "BSData/mordheim's data of 2026-06-30 no longer has this book (last in its data of ...)"

Mordheim's history removes 33 warbands and New Recruit's T9A data eight armies (2026-01): their pages and
their lists' upgrade say so, rather than "the version new lists get" (issue 38 item 2). A book renamed by
its data (catalogue.renamed_books) is followed, not removed. A few indexed queries, no book built.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath

from django.db import DatabaseError

from armylists.lists.library.catalogue import renamed_books
from armylists.models import GameDataBook, GameDataSource, GameDataVersion, RulesFile

from armylists.gamedata.updating import current


@dataclass(frozen=True)
class Removed:
    source: str  # the source's name (owner/name, or its URL)
    last_had: str  # YYYY-MM-DD: the data of that source that last had the book
    now: str  # YYYY-MM-DD: the data new lists get, which no longer has it

    @property
    def sentence(self) -> str:
        return (f"{self.source}'s data of {self.now} no longer has this book (it was last in its data of "
                f"{self.last_had}): lists on it keep this version, and no newer one will come.")


def _day(version: GameDataVersion) -> str:
    return f"{(version.date or version.imported_at):%Y-%m-%d}"


def removed_book(system: str, book: str) -> Removed | None:
    """Why `book` of `system` is in no data new lists get, when a source brought it and dropped it."""
    try:
        if (system, book) in renamed_books(system):
            return None
        rows = (GameDataBook.objects.filter(system=system, book=book, data_version__status=GameDataVersion.OK)
                .values_list("data_version__source_id", "data_version_id"))
        brought: dict[int, set[int]] = {}
        for source_id, version_id in rows:
            brought.setdefault(source_id, set()).add(version_id)
        files = {PurePath(p).stem for p in RulesFile.objects.filter(kind="book", system=system, slug=book)
                 .values_list("source_path", flat=True) if p}
        for source in GameDataSource.objects.filter(pk__in=list(brought)).order_by("pk"):
            now = current(source)
            if now is None or now.pk in brought[source.pk]:
                return None  # a source new lists get it from still has it
            if any(row.get("what") == "catalogue" and row.get("book") in files for row in now.skipped or ()):
                return None  # its file could not be read in that data: kept at its version, not removed
        for source in GameDataSource.objects.filter(pk__in=list(brought)).order_by("pk"):
            had = GameDataVersion.objects.filter(pk__in=brought[source.pk])
            last = max(had, key=lambda v: (_day(v), v.imported_at, v.pk))
            return Removed(str(source), _day(last), _day(current(source)))
    except DatabaseError:
        return None
    return None
