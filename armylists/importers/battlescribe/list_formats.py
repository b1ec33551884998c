"""BattleScribe / New Recruit rosters (.ros, .rosz) as the site reads them, registered with the list
files part (armylists/listfiles/formats.py) when the app starts; roster_files.py finds the imported book
a roster names."""
from __future__ import annotations

from armylists.importers.battlescribe.roster_files import RosterFileError, read_roster_data
from armylists.importers.battlescribe.rosters import looks_like_roster
from armylists.listfiles.formats import ListFileError, ListFormat, register
from armylists.rules import Book, Roster


def _read(data: bytes, source: str) -> tuple[Roster, Book]:
    try:
        return read_roster_data(data, source)
    except RosterFileError as exc:
        raise ListFileError(str(exc)) from None


register(ListFormat("BattleScribe / New Recruit roster (.ros, .rosz)", looks_like_roster, _read))
