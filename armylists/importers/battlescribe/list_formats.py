"""BattleScribe / New Recruit rosters (.ros, .rosz) as the site reads them, registered with the list
files part (armylists/listfiles/formats.py) when the app starts, and written (a list kept as a roster
tree, as .ros and .rosz); roster_files.py finds the imported book a roster names."""
from __future__ import annotations

from armylists.importers.battlescribe.roster_files import RosterFileError, read_roster_data, roster_xml, roster_zip
from armylists.importers.battlescribe.roster_revision import revision_notices
from armylists.importers.battlescribe.rosters import looks_like_roster
from armylists.lists.kinds import kind_of
from armylists.listfiles.formats import ListFileError, ListFormat, ListWriter, register, register_writer
from armylists.rules import Book, Roster


def _read(data: bytes, source: str) -> tuple[Roster, Book]:
    try:
        return read_roster_data(data, source)
    except RosterFileError as exc:
        raise ListFileError(str(exc)) from None


# A roster made with another game system revision than its book's stored one: read, with a notice.
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
