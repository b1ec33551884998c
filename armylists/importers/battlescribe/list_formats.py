"""BattleScribe / New Recruit rosters (.ros, .rosz) as the site reads them, registered with the list
files part (armylists/listfiles/formats.py) when the app starts, and written (a list kept as a roster
tree, as .ros and .rosz); roster_files.py finds the imported book a roster names."""
from __future__ import annotations

from django.db import DatabaseError

from armylists.importers.battlescribe.roster_files import RosterFileError, read_roster_data, roster_xml, roster_zip
from armylists.importers.battlescribe.elements import BattleScribeInputError
from armylists.importers.battlescribe.rosters import looks_like_roster, parse_roster_file
from armylists.lists.kinds import kind_of
from armylists.listfiles.formats import ListFileError, ListFormat, ListWriter, register, register_writer
from armylists.models import BattleScribeDocument, BookGameData
from armylists.rules import Book, Roster


def _read(data: bytes, source: str) -> tuple[Roster, Book]:
    try:
        return read_roster_data(data, source)
    except RosterFileError as exc:
        raise ListFileError(str(exc)) from None


# A roster's game system revision checked against the one its book is stored with (issue 38 item 5): the
# same catalogue revision may be stored with another system revision (a data update dates it:
# importers/storing.dated_versions). A roster made with another one is read all the same, with a notice.
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


register(ListFormat("BattleScribe / New Recruit roster (.ros, .rosz)", looks_like_roster, _read,
                    notices=revision_notices))


def _written_as(extension: str):
    """Only a roster tree is written from the site, as its kind says (lists/kinds.py: `writes`): it maps
    onto a .ros one to one (a list of an imported book in our older flattened shape is written by
    `export_list --format ros`)."""
    def applies(roster: Roster, book: Book) -> bool:
        return extension in kind_of(roster).writes
    return applies


def _write(roster: Roster, book: Book, total: int) -> bytes:
    try:
        return roster_xml(roster, book, total)
    except RosterFileError as exc:
        raise ListFileError(str(exc)) from None


def _write_zip(roster: Roster, book: Book, total: int) -> bytes:
    return roster_zip(_write(roster, book, total), roster.name)


register_writer(ListWriter("ros", "BattleScribe (.ros)", "application/xml", _written_as("ros"), _write))
register_writer(ListWriter("rosz", "BattleScribe (.rosz)", "application/zip", _written_as("rosz"), _write_zip))
