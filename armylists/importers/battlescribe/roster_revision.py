"""A roster's game system revision checked against the one its book is stored with (issue 38 item 5).

A .ros names the catalogue revision it was made with (which picks the book version, roster_files.py) and
the game system's (`gameSystemRevision`). The same catalogue revision may be stored with another game
system revision (a data update stores it as a dated version: importers/storing.dated_versions). A roster
made with another system revision is read all the same: the player is told, as a notice of the import
(listfiles/formats.ListFormat.notices), never refused.
"""
from __future__ import annotations

from django.db import DatabaseError

from armylists.importers.battlescribe.elements import BattleScribeInputError
from armylists.importers.battlescribe.rosters import parse_roster_file
from armylists.models import BattleScribeDocument, BookGameData
from armylists.rules import Book, Roster


def stored_system_revision(book: Book) -> tuple[int, str] | None:
    """(revision, name) of the game system the book's BattleScribe data is stored with, or None."""
    try:
        row = BookGameData.objects.filter(book__kind="book", book__system=book.system.id, book__slug=book.id,
                                          book__version=book.version).values_list("documents", flat=True).first()
        if not row:
            return None
        found = BattleScribeDocument.objects.filter(digest=row[0], kind="system").values_list("revision", "name").first()
    except DatabaseError:
        return None
    return found


def revision_notices(data: bytes, source: str, roster: Roster, book: Book) -> list[str]:
    """What the player should know when the roster's game system revision is not the stored one."""
    try:
        said = parse_roster_file(data, source).get("gameSystemRevision")
    except BattleScribeInputError:
        return []
    if said is None or not str(said).strip().isdigit():
        return []
    stored = stored_system_revision(book)
    if stored is None or stored[0] == int(said):
        return []
    revision, name = stored
    return [f"The roster was made with revision {int(said)} of the game system {name}; this site checks it "
            f"with revision {revision}, the one {book.name} {book.version} is stored with. Rules that changed "
            f"between the two may judge the list otherwise than the tool that wrote it."]
