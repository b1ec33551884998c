"""New Recruit's T9A data and tournament summaries for the tests that import summaries: armies of one
commit of the bundle converted once per run and stored in the test database per test, and real summaries
read from the shared file. Everything is read from ../shared/external/new-recruit-t9a at run time (never
copied here); the tests using it are skipped when it is absent."""
from __future__ import annotations

import gzip
import json
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "external" / "new-recruit-t9a"
BUNDLE = DATA / "nr-t9a.bundle"
LISTS = DATA / "tournament-lists.jsonl.gz"
COMMIT = "273623d85e29e20faf1ccb91060fd00fc79ff288"  # 2025-10-10: the data of the tournaments below
LATER = "b543015"  # the bundle's head, 2026-04-10: a newer version of an army beside the one above
GLENNCON = "677fa79d0fafcecf2e794a5f"  # GlennCon 2025, 2025-10-18, 28 lists, the largest 4000 pts
ZAMA = "68b3160ebca86ec64e13c4de"  # "Битва при Заме", 2025-10-18, 15 lists, the largest 3999 pts

needs_data = pytest.mark.skipif(not (BUNDLE.is_file() and LISTS.is_file()),
                                reason="New Recruit's T9A data is not in ../shared/external/new-recruit-t9a")


@lru_cache(maxsize=None)
def _lines() -> dict[tuple[str, int], str]:
    with gzip.open(LISTS, "rt", encoding="utf-8") as f:
        return {(x["tournament"], x["list"]): line.strip() for line in f for x in [json.loads(line)]}


def summary_line(tournament: str, number: int) -> str:
    """The line of the shared file that carries that list, as it is there."""
    return _lines()[(tournament, number)]


def summary(tournament: str, number: int) -> dict:
    return json.loads(summary_line(tournament, number))


def tournament_lines(tournament: str) -> list[str]:
    return [line for (t, _), line in sorted(_lines().items()) if t == tournament]


@lru_cache(maxsize=None)
def converted(commit: str, armies: tuple[str, ...]) -> tuple:
    """The rows import_nr_t9a stores for these armies (`ok.json`...) of that commit: the system file, then
    each book, built by the engine's loader first as the command does."""
    from armylists.importers.nr_t9a import SYSTEM_ID, check, convert, open_source
    from armylists.importers.storing import StoredFile
    from armylists.lists.library.catalogue import disk_library

    system = disk_library().systems[SYSTEM_ID]
    source = open_source(BUNDLE)
    try:
        snapshot = source.at(commit)
        conversion = convert(snapshot, list(armies), frozenset(c.id for c in system.categories))
    finally:
        source.close()
    check(conversion, system)
    system_file = next(f for f in disk_library().files if f.kind == "system" and f.system == SYSTEM_ID)
    rows = [StoredFile("system", SYSTEM_ID, system_file.id, system_file.version, system_file.name,
                       dict(system_file.data), system_file.path)]
    rows += [StoredFile("book", SYSTEM_ID, book["id"], book["version"], book["name"], book,
                        f"nr-t9a.bundle:{conversion.commit}:{report.army}.json")
             for book, report in zip(conversion.books, conversion.reports)]
    return tuple(rows)


def store(commit: str, *armies: str) -> None:
    """Those armies of that commit in the test database, as `import_nr_t9a SOURCE --at COMMIT` stores them."""
    from armylists.importers.storing import store_rules_files

    created, _, refused = store_rules_files(list(converted(commit, tuple(armies))), "")
    assert not refused, refused
