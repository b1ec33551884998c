"""BattleScribe and New Recruit data (game systems .gst, catalogues .cat) as systems and books of ours.

    documents = read_sources(["https://.../repo.zip"])      # sources.py: files, folders, zips, URLs
    conversion = convert(documents)                          # plain data -> our rules data (dicts)
    books = check(conversion)                                # every file through the engine's loader
    verify(conversion)                                       # the same, each book let go once built

Each game system becomes the system `bs-<name>` at version `r<revision>`, each catalogue the book
`bs-<name>` pinned at its revision, marked `imported`, with what could not be mapped in `unchecked`.
docs/import-battlescribe.md describes every mapping.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator

from armylists.rules.native.book import Book
from armylists.rules.reading.data_files import stored_content_hash
from armylists.rules.errors import RulesDataError
from armylists.rules.reading.loader import build_book, build_system

from armylists.importers.battlescribe.books import OTHER, BookMaker
from armylists.importers.battlescribe.choosing import distinct, not_an_army, system_name
from armylists.importers.battlescribe.elements import collector_paused
from armylists.importers.battlescribe.names import capped_id, slug
from armylists.importers.battlescribe.plain import plain_document
from armylists.rules.battlescribe.packed import digest as packed_digest, pack
from armylists.importers.battlescribe.sources import BattleScribeInputError, Document, read_sources

# Bump when the importer's output changes for the same data: a version's content never changes.
IMPORTER_REVISION = 1

__all__ = ["BattleScribeInputError", "BookReport", "Conversion", "check", "convert", "read_sources", "report_data",
           "verify"]


@dataclass
class BookReport:
    name: str
    book: str
    system: str
    revision: int
    source: str
    entries: int
    figures: dict
    warnings: list[str] = field(default_factory=list)   # said at import: a book whose entries all cost 0


@dataclass
class Conversion:
    systems: list[dict] = field(default_factory=list)
    books: list[dict] = field(default_factory=list)
    reports: list[BookReport] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)  # system or book id -> the file it came from
    # book id -> the documents the tree evaluator needs for it, packed: the game system, the catalogue and
    # the catalogues it links (nested), stored with the book so the site never reads the files again.
    # Each document is packed once (the system is every book's), and the plain ones can go after converting.
    game_data: dict[str, list[PackedDocument]] = field(default_factory=dict)
    _packed: dict[int, tuple[dict, PackedDocument]] = field(default_factory=dict, repr=False)
    # the documents read but made no book or system, each {"source", "name", "reason"}: libraries, catalogues
    # that lend entries only, a second document with an id already read
    skipped: list[dict] = field(default_factory=list)

    def packed(self, document: dict) -> PackedDocument:
        found = self._packed.get(id(document))
        if found is None or found[0] is not document:
            found = self._packed[id(document)] = (document, PackedDocument.of(document))
        return found[1]
    # The content hash the loader computed of each system and book dict as check or verify built it, by
    # the dict's id(), which storing need not compute again (81 MB of JSON for the Old World data). The
    # dicts are not changed after they are built.
    hashes: dict[int, tuple[dict, str]] = field(default_factory=dict)

    def content_hash(self, data: dict) -> str | None:
        """The hash check or verify computed of this very dict, or None."""
        found = self.hashes.get(id(data))
        return found[1] if found is not None and found[0] is data else None


@dataclass(frozen=True)
class PackedDocument:
    """A plain document as the site stores it for the tree evaluator (rules/battlescribe/packed.py)."""
    kind: str
    bs_id: str
    revision: int
    name: str
    packed: bytes

    @classmethod
    def of(cls, document: dict) -> "PackedDocument":
        return cls(document["kind"], str(document["id"]), int(document.get("revision") or 0),
                   str(document.get("name", "")), pack(document))


def version(revision: int) -> str:
    return f"r{revision}" + (f".i{IMPORTER_REVISION}" if IMPORTER_REVISION > 1 else "")


def convert(documents: list[Document], source: str | None = None,
            ours: Callable[[dict], str | None] | None = None) -> Conversion:
    """Every catalogue of the documents as a book of its game system, which must be among them.

    `source` names where the data comes from (else its game system's file says, choosing.py);
    `ours(game system) -> str | None` is the name of our system that rules_data/battlescribe_systems.yaml
    maps it onto, which the imported system is then called by (marked as imported)."""
    with collector_paused():
        return _convert(documents, source, ours)


def _convert(documents: list[Document], source: str | None, ours: Callable[[dict], str | None] | None) -> Conversion:
    plain, skipped = distinct([plain_document(d) for d in documents])
    systems = {p["id"]: p for p in plain if p["kind"] == "system"}
    conversion = Conversion(skipped=skipped)
    for system in systems.values():
        catalogues = [p for p in plain if p["kind"] == "catalogue" and p["game_system"] == system["id"]]
        index: dict[str, dict] = {}
        for doc in [system, *catalogues]:
            index.update(own_ids(doc))
        info = system_info(system, catalogues)
        info["system"]["name"] = system_name(system, source, ours(system) if ours else None)
        conversion.systems.append(info["system"])
        conversion.sources[info["system_id"]] = system["source"]
        by_id = {c["id"]: c for c in catalogues}
        for catalogue in catalogues:
            reason = not_an_army(catalogue, system, index, by_id)
            if reason:
                conversion.skipped.append({"source": catalogue["source"], "name": catalogue["name"], "reason": reason})
                continue
            linked = [by_id[t] for t, roots in catalogue["catalogue_links"] if roots and t in by_id]
            # Catalogues copy shared entries from each other under the same ids (every 0.11 army's Battle
            # Standard Bearer is one id, with its own Magical Standards): an id means the catalogue's own,
            # then the game system's or a linked catalogue's, and only then any other catalogue's.
            near = [by_id[t] for t, _ in catalogue["catalogue_links"] if t in by_id]
            scope = {**index, **own_ids(system)}
            for doc in [*near, catalogue]:
                scope.update(own_ids(doc))
            book_info = {**info, "book_id": capped_id("bs-", catalogue["name"]), "version": version(catalogue["revision"]),
                         "credit": f"{catalogue['name']} (BattleScribe catalogue, revision {catalogue['revision']}) "
                                   f"for {system['name']} (revision {system['revision']})"}
            book_info["cost_type"] = book_cost_type(catalogue, [*near, system], info["cost_type"])
            maker = BookMaker(catalogue, system, scope, linked, book_info)
            book = maker.make()
            # the category entries' limits, which the tree evaluator checks in each force of the book
            maker.cov.category_entries([catalogue, system, *linked_catalogues(catalogue, by_id)[1:]])
            book["unchecked"] = maker.cov.unchecked()   # what no list of it is checked by, in the evaluator's words
            conversion.books.append(book)
            conversion.sources[book["id"]] = catalogue["source"]
            warnings = [] if _priced(book) or not book["entries"] else [
                f"every entry and option costs 0 {info['system']['budget']['unit']}: the catalogue names no cost "
                f"of a type it or its game system uses ({', '.join(_cost_types_used(catalogue)) or 'none'}); "
                f"its lists will show no points"]
            conversion.game_data[book["id"]] = [conversion.packed(doc) for doc in
                                                 [system, *linked_catalogues(catalogue, by_id)]]
            # the game data its lists are judged by is part of the book's content: the same revision with another
            # limit or condition (which the converted book does not hold) is other content, never the stored one
            book["game_data"] = [packed_digest(d.packed) for d in conversion.game_data[book["id"]]]
            conversion.reports.append(BookReport(catalogue["name"], book["id"], info["system_id"],
                                                 catalogue["revision"], catalogue["source"], len(book["entries"]),
                                                 maker.cov.figures(), warnings))
    orphans = [p for p in plain if p["kind"] == "catalogue" and p["game_system"] not in systems]
    if orphans:
        first = orphans[0]
        raise BattleScribeInputError(first["source"], "<catalogue gameSystemId>",
                                     f"its game system {first['game_system']!r} is not among the files read; "
                                     f"import the .gst with it")
    if not plain:
        raise BattleScribeInputError("(input)", "", "no game system or catalogue was read")
    conversion._packed.clear()  # it held the plain documents: they may go now
    return conversion


def _nodes(doc: dict):
    stack = list(doc.get("entries", [])) + list(doc.get("shared", {}).values())
    while stack:
        node = stack.pop()
        yield node
        stack += node.get("children", [])


def _cost_types_used(doc: dict) -> list[str]:
    """The cost types a catalogue's entries name with a value other than 0, most used first."""
    used: dict[str, int] = {}
    for node in _nodes(doc):
        for type_id, value in node.get("costs", {}).items():
            if value:
                used[type_id] = used.get(type_id, 0) + 1
    return sorted(used, key=lambda t: -used[t])


def book_cost_type(catalogue: dict, around: list[dict], system_type: str) -> str:
    """The cost type a book's points are read from: the game system's first, unless the catalogue's
    entries (or those of the catalogues it links) price nothing in it and price in another one, which a
    catalogue may declare itself or not at all; then the one it declares, else the one most used."""
    used = _cost_types_used(catalogue) or [t for doc in around for t in _cost_types_used(doc)]
    if not used or system_type in used:
        return system_type
    declared = [t for t in catalogue.get("cost_types", {}) if t in used]
    return declared[0] if declared else used[0]


def _priced(value) -> bool:
    """Any entry or option of a produced book with a cost other than 0."""
    if isinstance(value, dict):
        return any((k in ("points", "cost") and isinstance(v, (int, float)) and v) or _priced(v)
                   for k, v in value.items())
    if isinstance(value, list):
        return any(_priced(v) for v in value)
    return False


def linked_catalogues(catalogue: dict, by_id: dict[str, dict]) -> list[dict]:
    """The catalogue and every catalogue it links, nested (a library's own links too), itself first."""
    found = [catalogue]
    for doc in found:
        for target, _roots in doc["catalogue_links"]:
            if target in by_id and by_id[target] not in found:
                found.append(by_id[target])
    return found


def own_ids(doc: dict) -> dict[str, dict]:
    """A game system's or catalogue's shared entries and groups, and its root entries, by id."""
    return {**doc["shared"], **{e["id"]: e for e in doc["entries"] if e["kind"] != "link"}}


def system_info(system: dict, catalogues: list[dict]) -> dict:
    """The system dict of our rules data for a game system, and what its books need to know of it."""
    system_id = capped_id("bs-", system["name"])
    cost_type = next(iter(system["cost_types"]), "pts")
    unit = (system["cost_types"].get(cost_type) or "pts").strip() or "pts"
    categories: dict[str, str] = {}  # BattleScribe category id -> ours (by name, so catalogues' own "Core" is Core)
    ours: dict[str, str] = {}
    for bs_id, name in system["categories"].items():
        ours.setdefault(slug(name), name)
        categories[bs_id] = slug(name)
    for catalogue in catalogues:
        for bs_id, name in catalogue["categories"].items():
            if slug(name) in ours:
                categories[bs_id] = slug(name)
    ours.setdefault(OTHER, "Other")
    characteristics = set()
    data = {
        "kind": "system", "id": system_id, "name": system["name"], "version": version(system["revision"]),
        "sources": [f"{system['name']} (BattleScribe game system, revision {system['revision']})"],
        "notes": "Imported from BattleScribe data by manage.py import_battlescribe; its books' lists are roster "
                 "trees, judged by the data's own constraints and modifiers as BattleScribe reads them.",
        "budget": {"unit": unit},
        "categories": [{"id": cid, "name": name} for cid, name in ours.items()],
        "troop_types": [{"id": "model", "name": "Model", "on_foot": True}],
        "rules": [{"id": "unit-size", "type": "unit_size"}, {"id": "unit-options", "type": "unit_options"}],
    }
    for doc in [system, *catalogues]:
        for bs_id in doc.get("characteristic_types", {}):
            characteristics.add(bs_id)
    return {"system": data, "system_id": system_id, "cost_type": cost_type, "categories": categories,
            "characteristics": characteristics | {"wb-rating"},
            "rules": {k: v for doc in [system, *catalogues] for k, v in doc["rules"].items()},
            "profiles": {k: v for doc in [system, *catalogues] for k, v in doc["profiles"].items()}}


def check(conversion: Conversion) -> dict[str, Book]:
    """Build every produced system and book with the engine's loader, as load_rules would."""
    return dict(_built(conversion))


def verify(conversion: Conversion) -> None:
    """check() for a run that stores the books and needs no Book: each is built, then let go (all of the
    Old World data's Books at once took 200 MB)."""
    for _ in _built(conversion):
        pass


def _built(conversion: Conversion) -> Iterator[tuple[str, Book]]:
    systems = {}
    with collector_paused():
        try:
            for data in conversion.systems:
                systems[data["id"]] = build_system(data, f"{data['id']} ({conversion.sources[data['id']]})",
                                                   hash_of=stored_content_hash)
                conversion.hashes[id(data)] = (data, systems[data["id"]].content_hash)
            for data in conversion.books:
                book = build_book(data, systems[data["system"]], {}, f"{data['id']} ({conversion.sources[data['id']]})",
                                  hash_of=stored_content_hash)
                conversion.hashes[id(data)] = (data, book.content_hash)
                yield data["id"], book
        except RulesDataError as exc:
            raise BattleScribeInputError(exc.source, str(exc.path), exc.reason) from None


def report_data(conversion: Conversion) -> dict:
    """Per book: name, system, revision, entries, constraints and modifiers (total, checked), unchecked;
    and the documents skipped, with why."""
    books = []
    totals = {"constraints": {"total": 0, "checked": 0}, "modifiers": {"total": 0, "checked": 0, "display_only": 0}}
    for r in conversion.reports:
        f = r.figures
        books.append({"name": r.name, "book": r.book, "system": r.system, "revision": r.revision, "source": r.source,
                      "entries": r.entries, "constraints": f["constraints"], "modifiers": f["modifiers"],
                      "unchecked": f["unchecked"], "warnings": r.warnings})
        for key in totals:
            for k in totals[key]:
                totals[key][k] += f[key][k]
    total = totals["constraints"]["total"] + totals["modifiers"]["total"]
    checked = totals["constraints"]["checked"] + totals["modifiers"]["checked"]
    totals["checked_percent"] = round(100 * checked / total, 1) if total else 100.0
    return {"books": books, "totals": totals, "skipped": list(conversion.skipped)}
