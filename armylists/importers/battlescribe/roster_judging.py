"""A .ros/.rosz judged by the tree evaluator (armylists/rules/battlescribe/) over the data the site
imported its catalogue from, as our Report (validate_list).

The evaluator needs the catalogue's own data, which the stored book (our flattened form) does not keep:
it is read again from the files `import_battlescribe` read, as the roster writer does: the game
system's file, and every .gst/.cat beside the catalogue's file (its linked and library catalogues sit
there in a data set's folder or archive). A catalogue imported from a URL is refused with a message
saying to import it again from a file or folder.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from armylists.importers.battlescribe.plain import plain_document
from armylists.importers.battlescribe.roster_files import RosterFileError, _stored
from armylists.importers.battlescribe.roster_tree import judged, read_tree
from armylists.importers.battlescribe.rosters import book_key, book_names, parse_roster_file
from armylists.importers.battlescribe.sources import BattleScribeInputError, read_sources
from django.conf import settings

from armylists.lists.catalogue import system_part
from armylists.rules.battlescribe import GameData, GameDataError
from armylists.rules.battlescribe_systems import MAPPING_FILE, load_mappings, system_violations
from armylists.rules.errors import RulesDataError
from armylists.rules.report import ERROR, WARNING, Report, Violation


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
        system_row = _stored("system", system, system)
        game = _game_data(row.source_path, system_row.source_path if system_row else "", book_name_of(row))
        roster = read_tree(root, game, source)
        result, issues = judged(roster)
    except BattleScribeInputError as exc:
        raise RosterFileError(str(exc)) from None
    # the points of the report: the cost type the roster limits, else the data's first one that is spent
    types = [c["id"] for c in game.cost_types]
    cost_type = next((t for t in types if t in roster.cost_limits), None) or next(
        (t for t in types if result.costs.get(t)), types[0] if types else "")
    violations = tuple(Violation(i.code, i.message, ERROR if i.severity == "error" else WARNING) for i in issues)
    violations += tuple(_system_rules(roster, result, game))
    return Report(system=system, book=book_id, book_version=version,
                  points_limit=int(roster.cost_limits.get(cost_type, 0)),
                  total_points=int(round(result.costs.get(cost_type, 0))), band=None, band_name=None,
                  categories=(), units=(), figures={}, violations=violations,
                  budget_unit=game.cost_type_name(cost_type).strip() or "pts")


def _system_rules(roster, result, game: GameData) -> list[Violation]:
    """Our system's system-wide rules, where rules_data/battlescribe_systems.yaml maps the data's game
    system to one of ours (the General, the Battle Standard, how far under the limit, each magic item once,
    category bounds the catalogue lacks), each said once."""
    root = Path(settings.RULES_DATA_DIR)
    try:
        mapping = load_mappings(root).find(game.system) if (root / MAPPING_FILE).is_file() else None
        if mapping is None or not (root / mapping.system / "system.yaml").is_file():
            return []   # a game we do not know, or a system this site's rules data does not hold
        system = system_part(root / mapping.system)[0]
    except RulesDataError as exc:
        raise RosterFileError(f"{game.system.get('name')}: our rules for its game cannot be read: {exc}") from None
    return system_violations(roster, result, system, mapping)


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
