"""A .ros/.rosz judged by the tree evaluator (armylists/rules/battlescribe/) over the data the site
imported its catalogue from, as our Report (validate_list).

The evaluator needs the catalogue's own data: `import_battlescribe` keeps it with the book
(lists/trees/battlescribe_data.py), with the game system and the catalogues it links; the catalogues other
forces of the roster name are added. A book imported before that was kept is judged over the files
it was imported from, read again (the game system's file and every .gst/.cat beside the catalogue's);
one imported from a URL is then refused with a message saying to import it again.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from armylists.importers.battlescribe.plain import plain_document
from armylists.importers.battlescribe.roster_files import RosterFileError, _stored, stored_game_data
from armylists.importers.battlescribe.roster_tree import read_tree
from armylists.importers.battlescribe.rosters import book_key, book_names, parse_roster_file
from armylists.importers.battlescribe.sources import BattleScribeInputError, read_sources
from armylists.lists.trees.tree_lists import our_rules
from armylists.rules.battlescribe import GameData, GameDataError
from armylists.rules.battlescribe.document import tree_report
from armylists.rules.errors import RulesDataError
from armylists.rules.report import Report


def judge_roster(data: bytes, source: str) -> Report:
    """The Report of a saved roster, judged by BattleScribe's semantics, or a RosterFileError."""
    try:
        root = parse_roster_file(data, source)
        system, book_id, version = book_key(root, source)
        row = _stored("book", system, book_id, version)
        if row is None or not row.data.get("imported"):
            system_name, book_name = book_names(root, source)
            raise RosterFileError(f"{source}: the roster is for {book_name} {version} of {system_name}, which this "
                                  f"site has not imported; import it with manage.py import_battlescribe")
        game = stored_game_data(root, system, book_id, version)
        if game is None:   # imported before the game data was kept with the book
            system_row = _stored("system", system, system)
            game = _game_data(row.source_path, system_row.source_path if system_row else "", book_name_of(row))
        roster = read_tree(root, game, source)
    except BattleScribeInputError as exc:
        raise RosterFileError(str(exc)) from None
    try:
        ours = our_rules(game)
    except RulesDataError as exc:
        raise RosterFileError(f"{game.system.get('name')}: our rules for its game cannot be read: {exc}") from None
    return tree_report(roster, system, book_id, version, ours)


def book_name_of(row) -> str:
    return str(row.data.get("name") or row.slug)


def _game_data(book_path: str, system_path: str, name: str) -> GameData:
    for path in (book_path, system_path):
        if not path or path.startswith(("http://", "https://")):
            raise RosterFileError(f"{name}: was imported from {path or 'a source no longer known'}; judging a roster "
                                  f"needs the catalogue's own data, so import it again from a file or folder")
    archive, _, _member = book_path.partition("!")
    folder = archive if "!" in book_path else str(Path(book_path).parent)
    sources = (folder,) + ((system_path.partition("!")[0],) if not _inside(system_path, folder) else ())
    return _read_game(sources, system_path, name, _stamp(sources))


def _stamp(sources: tuple[str, ...]) -> tuple:
    """What the files under the sources are now (path, size, time): the cached data is read again once any
    of them changes."""
    found = []
    for source in sources:
        root = Path(source)
        try:
            paths = sorted(p for p in root.rglob("*") if p.is_file()) if root.is_dir() else [root]
            found += [(str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in paths]
        except OSError:
            found.append((source, -1, -1))
    return tuple(found)


@lru_cache(maxsize=2)
def _read_game(sources: tuple[str, ...], system_path: str, name: str, _stamp: tuple) -> GameData:
    """The game data of a data set's files, kept for the next roster of the same files (a check of several
    rosters reads 21 MB of New Recruit's Old World data once, not once per roster)."""
    try:
        documents = read_sources(list(sources))
    except BattleScribeInputError as exc:
        raise RosterFileError(f"{name}: the files it was imported from cannot be read again ({exc}); import it "
                              f"again") from None
    plain = [plain_document(d) for d in documents]
    systems = [p for p in plain if p.get("kind") == "system"]
    system = next((p for p, d in zip(plain, documents) if d.source == system_path), systems[0] if systems else None)
    try:
        return GameData([system] + [p for p in plain if p.get("kind") == "catalogue"
                                    and p.get("game_system", system["id"]) == system["id"]])
    except (GameDataError, TypeError, KeyError) as exc:
        raise RosterFileError(f"{name}: its data cannot be evaluated: {exc}") from None


def _inside(path: str, folder: str) -> bool:
    try:
        return Path(path.partition("!")[0]).resolve().is_relative_to(Path(folder).resolve())
    except OSError:
        return False
