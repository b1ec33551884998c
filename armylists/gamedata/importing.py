"""An unpacked folder of game data imported through the existing importers, all or nothing.

    outcome = import_folder("battlescribe", folder, "BSData-mordheim-1a2b3c")

BattleScribe data goes through import_battlescribe's path (read, convert, check by the engine's
loader, store), Old World Builder's through import_owb's, New Recruit's T9A data through import_nr_t9a's
(the army .json files at the folder's top, as books of The 9th Age, 2nd edition, at `<data version>@<date>`);
all store with `store_rules_files`, which writes nothing when any file would change a stored version's
content, so a stored list's rules never change.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from armylists.importers import battlescribe, nr_t9a, owb
from armylists.importers.nr_t9a.source import FolderSource
from armylists.importers.storing import (StoredFile, battlescribe_files, dated_versions, owb_files,
                                        store_rules_files)
from armylists.lists.library.catalogue import disk_library

MAX_SKIPPED = 500  # rows of "skipped and why" kept per version; the count says how many in all
MAX_BROKEN = 10  # catalogues left out of one update because their file cannot be read; one more refuses it
SHAPE_ERRORS = (KeyError, TypeError, ValueError, AttributeError, RecursionError)


class ImportRefused(Exception):
    """Nothing was stored; str() says why, for people."""


@dataclass
class Outcome:
    kind: str
    systems: list[str] = field(default_factory=list)
    books: list[dict] = field(default_factory=list)
    coverage: dict = field(default_factory=dict)
    skipped: list[dict] = field(default_factory=list)
    created: int = 0
    unchanged: int = 0


def import_folder(kind: str, folder: Path, name: str, date: str = "") -> Outcome:
    """`date` (YYYY-MM-DD) is the data's own: New Recruit's books are versioned by it, and a book whose
    version is stored with other content is stored beside it at its version with this date."""
    if kind == "battlescribe":
        outcome, rows, hint = _battlescribe(folder)
    elif kind == "owb":
        outcome, rows, hint = _owb(folder, name)
    elif kind == "nr-t9a":
        outcome, rows, hint = _nr_t9a(folder, name, date)
    else:
        raise ImportRefused(f"{kind!r} is not a kind of game data this site imports")
    if date:  # the same revision with other content is a new version named by the data's date (issue 38 item 1)
        rows = dated_versions(rows, date)
        outcome.books = _books(rows)
        outcome.systems = [f"{r.system} {r.version}" for r in rows if r.kind == "system"]
    created, unchanged, refused = store_rules_files(rows, hint)
    if refused:
        raise ImportRefused("Nothing imported. " + " ".join(refused))
    outcome.created, outcome.unchanged = len(created), unchanged
    outcome.skipped = outcome.skipped[:MAX_SKIPPED]
    return outcome


def _books(rows: list[StoredFile]) -> list[dict]:
    return [{"system": r.system, "book": r.slug, "version": r.version, "name": r.name} for r in rows if r.kind == "book"]


def _readable_catalogues(folder: Path) -> tuple[list, list[dict]]:
    """The folder's documents, leaving out each catalogue (.cat) whose file cannot be read, with a row of
    "skipped and why" for it: a data set's history holds commits with one broken file (BSData Mordheim's
    Pirates.cat of 2025-11, Ostlanders.cat of 2026-06), and the rest of such a commit is the data players
    use (issue 38: none of its updates failed). That book stays at the version stored before. A broken
    game system file (.gst) or a zipped catalogue still refuses the whole import."""
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in (".gst", ".cat", ".gstz", ".catz"))
    skipped: list[dict] = []
    while True:
        try:
            return battlescribe.read_sources([str(p) for p in files] or [str(folder)]), skipped
        except battlescribe.BattleScribeInputError as exc:
            broken = Path(exc.source)
            # Only a plain .cat: a zipped one may be over the update's unpacking budget, which always refuses.
            if broken not in files or broken.suffix.lower() != ".cat" or len(skipped) >= MAX_BROKEN:
                raise
            files.remove(broken)
            skipped.append({"book": broken.stem, "name": broken.stem, "what": "catalogue", "count": 1,
                            "why": f"its file cannot be read ({exc.element + ': ' if exc.element else ''}"
                                   f"{exc.message}); the book stays at the version this site had"})


def _battlescribe(folder: Path) -> tuple[Outcome, list[StoredFile], str]:
    try:
        documents, broken = _readable_catalogues(folder)
        conversion = battlescribe.convert(documents)
        battlescribe.verify(conversion)  # every book built by the engine's loader, then let go
    except battlescribe.BattleScribeInputError as exc:
        raise ImportRefused(f"Nothing imported. {_relative(str(exc), folder)}") from None
    except SHAPE_ERRORS as exc:
        raise ImportRefused(f"Nothing imported. The data has a shape the BattleScribe importer does not know "
                            f"({type(exc).__name__}: {exc})") from None
    if not conversion.books:
        raise ImportRefused("Nothing imported. No catalogue (.cat) of a game system (.gst) was read")
    report = battlescribe.report_data(conversion)
    rows, hint = battlescribe_files(conversion)
    outcome = Outcome("battlescribe", systems=[f"{s['id']} {s['version']}" for s in conversion.systems],
                      books=_books(rows), coverage=report["totals"])
    outcome.coverage["books"] = {b["book"]: _percent(b) for b in report["books"]}
    outcome.skipped += broken
    for book in report["books"]:  # one row per kind of thing not checked, with how many and one example
        kinds: dict[str, dict] = {}
        for unchecked in book["unchecked"]:
            row = kinds.setdefault(unchecked["kind"], {"book": book["book"], "name": book.get("name") or book["book"],
                                                       "what": unchecked["kind"], "count": 0,
                                                       "why": f"our engine does not check it (e.g. {unchecked['where']})"})
            row["count"] += unchecked["count"]
        outcome.skipped += kinds.values()
        # a book whose entries all cost 0 is said, never imported in silence
        outcome.skipped += [{"book": book["book"], "name": book.get("name") or book["book"], "what": "points",
                             "count": 1, "why": warning}
                            for warning in book.get("warnings", [])]
    return outcome, rows, hint


def _percent(book: dict) -> float:
    total = book["constraints"]["total"] + book["modifiers"]["total"]
    checked = book["constraints"]["checked"] + book["modifiers"]["checked"]
    return round(100 * checked / total, 1) if total else 100.0


def _owb(folder: Path, name: str) -> tuple[Outcome, list[StoredFile], str]:
    library = disk_library()
    system = library.systems.get(owb.SYSTEM_ID)
    if system is None:
        raise ImportRefused(f"Nothing imported. The rules data has no {owb.SYSTEM_ID!r} system to import into")
    try:
        conversion = owb.convert(owb.read_dataset(folder), system)
        owb.check(conversion, system)
    except owb.OwbInputError as exc:
        raise ImportRefused(f"Nothing imported. {_relative(str(exc), folder)}") from None
    except SHAPE_ERRORS as exc:
        raise ImportRefused(f"Nothing imported. Old World Builder's data has a shape the importer does not know "
                            f"({type(exc).__name__}: {exc})") from None
    system_file = next(f for f in library.files if f.kind == "system" and f.system == owb.SYSTEM_ID)
    rows, hint = owb_files(conversion, system_file, name)
    outcome = Outcome("owb", systems=[f"{owb.SYSTEM_ID} {system_file.version}"], books=_books(rows))
    outcome.coverage = {"books": {r.book: {"entries": r.entries, "not_checked": len(r.unchecked)}
                                  for r in conversion.reports}}
    for report in conversion.reports:
        outcome.skipped += [{"book": report.book, "what": line, "count": 1,
                             "why": "Old World Builder's data cannot say it"} for line in report.unchecked]
    return outcome, rows, hint


def _nr_t9a(folder: Path, name: str, date: str) -> tuple[Outcome, list[StoredFile], str]:
    library = disk_library()
    system = library.systems.get(nr_t9a.SYSTEM_ID)
    if system is None:
        raise ImportRefused(f"Nothing imported. The rules data has no {nr_t9a.SYSTEM_ID!r} system to import into")
    files = {p.name: p.read_bytes() for p in sorted(folder.glob("*.json")) if p.is_file()}
    snapshot = FolderSource(files, name, date).at()
    try:
        conversion = nr_t9a.convert(snapshot, categories=frozenset(c.id for c in system.categories))
        nr_t9a.check(conversion, system)
    except nr_t9a.NrSourceError as exc:
        raise ImportRefused(f"Nothing imported. {exc}") from None
    except (*SHAPE_ERRORS, IndexError) as exc:
        raise ImportRefused(f"Nothing imported. New Recruit's T9A data has a shape the importer does not know "
                            f"({type(exc).__name__}: {exc})") from None
    if not conversion.books:
        raise ImportRefused("Nothing imported. No army file of New Recruit's T9A data was read")
    system_file = next(f for f in library.files if f.kind == "system" and f.system == nr_t9a.SYSTEM_ID)
    rows = [StoredFile("system", nr_t9a.SYSTEM_ID, system_file.id, system_file.version, system_file.name,
                       dict(system_file.data), system_file.path)]
    # A New Recruit army is the same book by its code (its file, dh.json) whatever its name (issue 38 item 2).
    rows += [StoredFile("book", nr_t9a.SYSTEM_ID, book["id"], book["version"], book["name"], book,
                        f"{name}/{report.army}.json", lineage=f"nr-t9a:{report.army}")
             for book, report in zip(conversion.books, conversion.reports)]
    outcome = Outcome("nr-t9a", systems=[f"{nr_t9a.SYSTEM_ID} {system_file.version}"], books=_books(rows))
    outcome.coverage = {"books": {r.book: {"entries": r.entries, "options": r.options,
                                           "not_checked": sum(r.unchecked.values())} for r in conversion.reports}}
    for report in conversion.reports:
        outcome.skipped += [{"book": report.book, "what": construct, "count": count,
                             "why": "the importer does not understand it; a list's Report says it is not checked"}
                            for construct, count in sorted(report.unchecked.items())]
    hint = "bump the version in rules_data/t9a-2/system.yaml or re-import: the importer changed"
    return outcome, rows, hint


def _relative(message: str, folder: Path) -> str:
    """A message naming files by their place in the archive, not the server's temporary folder."""
    return message.replace(str(folder) + "/", "").replace(str(folder), ".")
