"""BattleScribe / New Recruit rosters for the site: the imported book a roster needs, from the database.

`read_roster_data(data, source)` gives the Roster and its Book of a .ros/.rosz (import_list, the list
file reader, the API and the import page): a roster tree, one to one, when the book's game data is
stored (lists/trees/battlescribe_data.py), else our flattened shape; `roster_xml(roster, book, total)` the
.ros of a list of an imported book (export_list --format ros, the list page, the API). The reading and writing is the importer's
(armylists/importers/battlescribe/rosters.py); this module finds the book's stored data (its entries'
tags in order) and, for writing, the files it was imported from (the catalogue's own ids).
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
from armylists.importers.battlescribe.rosters import (
    book_key, book_names, catalogue_ids, parse_roster_file, roster_document, write_roster,
)
from armylists.importers.battlescribe.roster_tree import read_tree, write_tree
from armylists.importers.battlescribe.sources import BattleScribeInputError, read_sources
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
        if game is not None:   # read one to one into the list's roster tree
            tree = read_tree(root, game, source)
            forces, limit, others = document_tree(tree)
            if limit < 1:
                raise BattleScribeInputError(source, "<costLimits>", "the roster sets no points limit; set one in "
                                                                    "BattleScribe or New Recruit and export it again")
            roster = Roster(system=system, book=book_id, book_version=version, points_limit=limit,
                            name=(root.get("name") or "")[:200], forces=forces, cost_limits=others)
            parse_roster(roster_to_dict(roster), source)   # within the document's bounds
            keep_evaluated(roster, tree)   # what judges it next reads this tree, not one built again
            return roster, book_for(roster, source)
        document = roster_document(root, row.data, source)
        roster = parse_roster(document, source)
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
    """The .ros of a list of a book imported from BattleScribe data, or a RosterFileError. A roster
    tree is written one to one from the book's stored game data; a list in our flattened shape from
    the files the book was imported from."""
    try:  # a roster tree's own evaluated roster (lists/kinds.py); None for our flattened shape
        tree = kind_of(roster).roster_tree(roster, book.name)
        if tree is not None:
            return write_tree(tree, roster.name)
    except ListDocumentError as exc:
        raise RosterFileError(str(exc)) from None
    row = _stored("book", book.system.id, book.id, book.version)
    if not book.imported or row is None or not book.id.startswith("bs-"):
        raise RosterFileError(f"{book.name}: only lists of books imported from BattleScribe or New Recruit data "
                              f"(manage.py import_battlescribe) can be written as a roster")
    system_row = _stored("system", book.system.id, book.system.id)
    roots = []
    for path in (system_row.source_path if system_row else "", row.source_path):
        roots += _source_roots(path, book.name)
    ids = catalogue_ids(roots)
    try:
        # the game system's own name, as BattleScribe knows it (ours carries its source: "Mordheim (BSData)")
        return write_roster(roster_to_dict(roster), row.data, ids, total,
                            ids.get("game_system_name") or book.system.name)
    except BattleScribeInputError as exc:
        raise RosterFileError(str(exc)) from None


def roster_zip(ros: bytes, name: str) -> bytes:
    """A .rosz: the .ros alone in a zip archive, as BattleScribe saves one."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")[:80] or "roster"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{stem}.ros", ros)
    return buffer.getvalue()


def _source_roots(path: str, name: str) -> list:
    """The XML root of the file a system or book was imported from: a roster names the catalogue by its ids."""
    if not path or path.startswith(("http://", "https://")):
        raise RosterFileError(f"{name}: was imported from {path or 'a source no longer known'}; a roster needs the "
                              f"catalogue's ids, so import it again from a file or folder on this machine")
    archive, _, member = path.partition("!")
    try:
        documents = read_sources([archive], xml=True)
    except BattleScribeInputError as exc:
        raise RosterFileError(f"{name}: the file it was imported from cannot be read again ({exc}); a roster needs "
                              f"the catalogue's ids, so import it again") from None
    return [d.root for d in documents if d.source == path]
