"""New Recruit's T9A data (vflam/nr-t9a) as books of our format: The 9th Age, 2nd edition, by date.

    source = open_source(Path("nr-t9a.bundle"))     # a folder, a zip, or a git bundle/repository
    snapshot = source.at("2025-03-01")              # the last commit before that day
    conversion = convert(snapshot)                  # one book dict per army, and what was not understood
    books = check(conversion, system)               # every book through the engine's own loader

Each army file becomes the book `<army name>` (`dread-elves`) of the system `t9a-2`, at the version
`<the data's version>@<commit date>`, so the data of different dates loads side by side. docs/import-nr-t9a.md
describes every mapping.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from armylists.rules.native.book import Book, System
from armylists.rules.errors import RulesDataError
from armylists.rules.reading.loader import build_book

from armylists.importers.nr_t9a.army import MAPPING, ArmyConverter, ArmyReport
from armylists.importers.nr_t9a.profiles import army_profiles
from armylists.importers.nr_t9a.rarity import read_rules
from armylists.importers.nr_t9a.source import SHARED_FILES, NrSourceError, Snapshot, open_source
from armylists.importers.nr_t9a.texts import add_texts, spell_paths

TEXT_FILES = ("unitstats.json", "ruledefs.json", "spells.json")  # profiles, rule texts, spells: no points

SYSTEM_ID = MAPPING["system"]

__all__ = ["ArmyReport", "Conversion", "NrSourceError", "SYSTEM_ID", "check", "convert", "convert_army",
           "open_source"]


@dataclass
class Conversion:
    commit: str
    date: str
    books: list[dict] = field(default_factory=list)
    reports: list[ArmyReport] = field(default_factory=list)


def _included_names(snapshot: Snapshot) -> list[str]:
    """The files an army may `include` (by their `id`): the shared files (special.json, id 102)."""
    return [n for n in SHARED_FILES if n in snapshot.keys]


def convert_army(snapshot: Snapshot, name: str, categories: frozenset[str] | None = None
                 ) -> tuple[dict, ArmyReport] | None:
    """One army file as a book; None for a file that is no playable army (no `army` tree)."""
    data = snapshot.json(name)
    if not isinstance(data, dict) or not data.get("army") or not data.get("name"):
        return None
    pools: dict[str, list[dict]] = {}
    heads: dict[str, dict] = {}  # a pool's ref -> its own node (label, bounds): for the pools offered unasked
    included = set(data.get("include") or [])
    files = [data] + [other for other in map(snapshot.json, _included_names(snapshot)) if other.get("id") in included]
    for pool in (pool for source in files for pool in source.get("dictionnary") or []):
        refs = pool.get("refs") or []
        for ref in [refs] if isinstance(refs, str) else refs:
            pools.setdefault(ref, []).extend(pool.get("options") or [])
            heads.setdefault(ref, pool)
    texts = {n: snapshot.json(n) for n in TEXT_FILES if n in snapshot.keys}  # each file read once
    book, report = ArmyConverter(data, pools, snapshot.date, categories, heads=heads,
                                 rarity_rules=read_rules(texts.get("ruledefs.json")),
                                 profiles=army_profiles(texts.get("unitstats.json"), str(data.get("short", "")).lower()),
                                 paths=spell_paths(texts.get("spells.json"))).convert()
    add_texts(book, data, pools, texts)
    return book, report


def convert(snapshot: Snapshot, armies: list[str] | None = None, categories: frozenset[str] | None = None
            ) -> Conversion:
    """Every army file of the snapshot (or those named: `de.json`) as a book of our format."""
    conversion = Conversion(snapshot.commit, snapshot.date)
    for name in snapshot.army_files():
        if armies is not None and name not in armies:
            continue
        done = convert_army(snapshot, name, categories)
        if done is not None:
            conversion.books.append(done[0])
            conversion.reports.append(done[1])
    return conversion


def check(conversion: Conversion, system: System) -> dict[str, Book]:
    """Build every book with the engine's loader, as load_rules would; by the army's short code."""
    books = {}
    for book, report in zip(conversion.books, conversion.reports):
        try:
            books[report.army] = build_book(book, system, {}, f"{book['id']} ({report.army}.json at {conversion.commit})")
        except RulesDataError as exc:
            raise NrSourceError(f"{exc.source}: {'.'.join(map(str, exc.path))}: {exc.reason}") from None
    return books
