"""BattleScribe / New Recruit rosters for the site: the imported book a roster needs, from the database.

`read_roster_data(data, source)` gives the Roster and its Book of a .ros/.rosz (import_list, the list
file reader, the API and the import page): the roster tree, one to one, over the book's stored game data
(lists/trees/battlescribe_data.py); `roster_xml(roster, book, total)` the .ros of a roster tree
(export_list --format ros, the list page, the API). A book imported before its game data was kept with it
has no tree to read a roster into: the roster is refused, saying to import the catalogue again (the
flattened shape such lists once had is retired: issue 37, "one semantics").
"""
from __future__ import annotations

import io
import re
import zipfile

from django.db import DatabaseError

from armylists.lists.trees.battlescribe_data import GameDataUnavailable, game_data_for
from armylists.lists.library.catalogue import book_for
from armylists.lists.kinds import kind_of
from armylists.lists.trees.tree_lists import keep_evaluated
from armylists.importers.battlescribe.rosters import book_key, book_names, parse_roster_file
from armylists.importers.battlescribe.roster_tree import read_tree, write_tree
from armylists.importers.battlescribe.sources import BattleScribeInputError
from armylists.rules.battlescribe import GameData, RosterError
from armylists.rules.battlescribe.document import document_tree
from armylists.rules import Book, ListDocumentError, Roster, parse_roster, roster_to_dict


class RosterFileError(Exception):
    """A roster that cannot be read or written; its message is the one line to print."""


def _stored(kind: str, system: str, slug: str, version: str | None = None):
    from armylists.models import RulesFile

    # The book's document (an Old World book's is up to 8 MB of JSON) is read only where it is used: a list
    # of a book with stored game data is read from that (check_lists read it for every .ros: 66 ms a list).
    rows = RulesFile.objects.filter(kind=kind, system=system, slug=slug).defer("data")
    if version is not None:
        rows = rows.filter(version=version)
    try:
        return rows.order_by("-loaded_at", "-id").first()
    except DatabaseError:
        return None


def read_roster_data(data: bytes, source: str) -> tuple[Roster, Book]:
    """The list a .ros or .rosz holds, for the catalogue revision it names, or a RosterFileError."""
    try:
        root = parse_roster_file(data, source)
        system, book_id, version = book_key(root, source)
        row = _stored("book", system, book_id, version)
        if row is None or not row.imported:
            from armylists.models import RulesFile

            have = sorted(RulesFile.objects.filter(kind="book", system=system, slug=book_id)
                          .values_list("version", flat=True))
            system_name, book_name = book_names(root, source)  # as the player knows them, not our ids
            raise RosterFileError(f"{source}: the roster is for {book_name} {version} of {system_name}, which this site "
                                  f"has not imported" + (f" (it has {', '.join(have)})" if have else "")
                                  + "; import that catalogue revision with manage.py import_battlescribe")
        game = stored_game_data(root, system, book_id, version)
        if game is None:
            raise RosterFileError(f"{source}: {row.name or book_id} {version} was imported before this site kept "
                                  f"its BattleScribe data, which a roster is read with; import that catalogue "
                                  f"revision again with manage.py import_battlescribe")
        tree = read_tree(root, game, source)   # one to one into the list's roster tree
        forces, limit, others = document_tree(tree)
        if limit < 1:
            raise BattleScribeInputError(source, "<costLimits>", "the roster sets no points limit; set one in "
                                                                "BattleScribe or New Recruit and export it again")
        roster = Roster(system=system, book=book_id, book_version=version, points_limit=limit,
                        name=(root.get("name") or "")[:200], forces=forces, cost_limits=others)
        parse_roster(roster_to_dict(roster), source)   # within the document's bounds
        keep_evaluated(roster, tree)   # what judges it next reads this tree, not one built again
        return roster, book_for(roster, source)
    except BattleScribeInputError as exc:
        raise RosterFileError(str(exc)) from None
    except (ListDocumentError, RosterError) as exc:
        raise RosterFileError(str(exc)) from None


def stored_game_data(root, system: str, book_id: str, version: str) -> GameData | None:
    """The book's stored game data with the catalogues of the roster's other forces, or None."""
    catalogues = tuple({f.get("catalogueId", "") for f in root.iter() if f.tag.endswith("force")} - {""})
    try:
        return game_data_for(system, book_id, version, catalogues)
    except GameDataUnavailable as exc:
        raise RosterFileError(f"{book_id} {version}: {exc}") from None


def roster_xml(roster: Roster, book: Book, total: int) -> bytes:
    """The .ros of a roster tree, written one to one from its book's stored game data, or a RosterFileError
    (a list of one of our books, or a list kept in the old flattened shape, has no roster tree to write)."""
    try:  # a roster tree's own evaluated roster (lists/kinds.py); None for any other list
        tree = kind_of(roster).roster_tree(roster, book.name)
    except ListDocumentError as exc:
        raise RosterFileError(str(exc)) from None
    if tree is None:
        if book.imported and book.id.startswith("bs-"):
            raise RosterFileError(f"{roster.name or book.name}: this list is kept in the shape lists of "
                                  f"{book.name} had before they were roster trees, which no roster is written "
                                  f"from; import it again from its .ros, or build it again")
        raise RosterFileError(f"{book.name}: only lists of books imported from BattleScribe or New Recruit data "
                              f"(manage.py import_battlescribe) can be written as a roster")
    return write_tree(tree, roster.name)


def roster_zip(ros: bytes, name: str) -> bytes:
    """A .rosz: the .ros alone in a zip archive, as BattleScribe saves one."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")[:80] or "roster"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{stem}.ros", ros)
    return buffer.getvalue()
