"""Old World Builder's datasets as books of our format: one book per army, one common item list.

    dataset = read_dataset(Path("old-world-builder"))   # data.py: read and shape-checked
    conversion = convert(dataset, system)                # plain dicts in our format, and a report per army
    books = check(conversion, system)                    # every file through the engine's own loader

Each army becomes the book `owb-<army>` at version `owb-<commit>` (OWB's commit from the folder's
NOTE.md, else a hash of the files), marked `imported`, crediting OWB, and listing in `unchecked` what
OWB's data cannot say. OWB's "general" item group becomes the item list `owb-general`, the common items
of imported books; its army groups and item-like groups (runes, virtues, gifts) become each book's own
items and item categories. docs/import-owb.md describes every mapping.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from armylists.rules.native.book import Book, System
from armylists.rules.errors import RulesDataError
from armylists.rules.reading.loader import build_book, build_items

from armylists.importers.owb.army import GENERAL_GROUP, ArmyConverter, ArmyReport, convert_item
from armylists.importers.owb.data import CREDIT, SYSTEM_ID, Dataset, OwbInputError, read_dataset

ITEMS_ID = "owb-general"

__all__ = ["ArmyReport", "Conversion", "OwbInputError", "check", "convert", "read_dataset", "ITEMS_ID"]


@dataclass
class Conversion:
    version: str
    items_file: dict
    books: list[dict] = field(default_factory=list)
    reports: list[ArmyReport] = field(default_factory=list)

    @property
    def general_items(self) -> int:
        return len(self.items_file["items"])


def convert(dataset: Dataset, system: System) -> Conversion:
    """Every army of the dataset as a book of our format, and OWB's general items as an item list."""
    if system.id != SYSTEM_ID:
        raise OwbInputError(system.id, (), f"is not {SYSTEM_ID}: OWB's datasets are for The Old World")
    used: set[str] = set()
    general = [convert_item(i, used, GENERAL_GROUP) for i in dataset.items.get(GENERAL_GROUP, [])]
    items_file = {
        "kind": "items", "id": ITEMS_ID, "name": "Old World Builder: common magic items", "system": SYSTEM_ID,
        "version": dataset.version, "sources": [CREDIT, "Imported from its magic-items.json (group general)"],
        "imported": True, "items": general,
    }
    conversion = Conversion(dataset.version, items_file)
    common = {i["id"]: i for i in general}
    for army in dataset.system["armies"]:
        book, report = ArmyConverter(dataset, system, army["id"], common).convert()
        conversion.books.append(book)
        conversion.reports.append(report)
    return conversion


def check(conversion: Conversion, system: System) -> dict[str, Book]:
    """Build every produced file with the engine's loader, as load_rules would: a dangling reference is
    an error naming the book (and its OWB army) and the path inside it."""
    try:
        common = build_items(conversion.items_file, system, f"{ITEMS_ID} (OWB's general items)")
        books = {}
        for book, report in zip(conversion.books, conversion.reports):
            books[report.army] = build_book(book, system, common, f"{book['id']} (OWB army {report.army})")
    except RulesDataError as exc:
        raise OwbInputError(exc.source, exc.path, exc.reason) from None
    return books
