"""Read rules data (YAML) into compiled `System` and `Book` objects.

Loading happens in three steps, each of which stops with a `RulesDataError` naming the file, the path
inside it and the reason: parse the YAML, check it against its JSON Schema, then check every reference
(a category, troop type, mount, Path, option or item named but not defined) and every rule's type and
parameters. Nothing reaches validation that could crash it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from armylists.rules.native.book import Book, Item, System
from armylists.rules.reading.build_book import build_book, check_selectors
from armylists.rules.reading.build_system import build_items, build_rule, build_system
from armylists.rules.reading.data_files import LIST_SCHEMA, SCHEMA_DIR, check_schema, content_hash, read_yaml
from armylists.rules.errors import RulesDataError
from armylists.rules.reading.list_reader import SLUG_PATTERN

# What the importers, the event rules and the tests take from the loader; the building itself is in
# build_system.py and build_book.py, the reading of files in data_files.py.
__all__ = [
    "LIST_SCHEMA", "SCHEMA_DIR", "Library", "RulesFile", "build_book", "build_from_stored", "build_items",
    "build_system", "check_schema", "content_hash", "load_one_book", "load_system_folder", "load_system_part",
    "load_tree", "read_yaml",
    "check_selectors", "build_rule",
]

# --- a folder of rules data -------------------------------------------------------------------

@dataclass(frozen=True)
class RulesFile:
    """One loaded file, as the database stores it."""
    kind: str  # system, items, book
    system: str
    id: str
    version: str
    name: str
    path: str
    content_hash: str
    data: Mapping[str, Any] = field(repr=False)


@dataclass
class Library:
    """Every system and book found under a rules data folder."""
    systems: dict[str, System] = field(default_factory=dict)
    books: dict[tuple[str, str, str], Book] = field(default_factory=dict)
    files: list[RulesFile] = field(default_factory=list)
    common_items: dict[str, dict[str, Item]] = field(default_factory=dict)

    def book(self, system: str, book: str, version: str) -> Book | None:
        return self.books.get((system, book, version))

    def latest(self, system: str, book: str) -> Book | None:
        versions = [b for (s, i, _), b in self.books.items() if s == system and i == book]
        return max(versions, key=lambda b: _version_key(b.version)) if versions else None


def _version_key(version: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in version.replace("-", ".").split("."))


def _display(root: Path) -> Callable[[Path], str]:
    def display(p: Path) -> str:
        return str(p.relative_to(root.parent)) if p.is_relative_to(root.parent) else str(p)
    return display


def load_system_part(folder: Path, root: Path) -> tuple[System, dict[str, Item], list[RulesFile]]:
    """A system folder's system.yaml and its item lists (not its books): the system, its common items
    by id, and the files read."""
    display = _display(root)
    system_path = folder / "system.yaml"
    sys_data = read_yaml(system_path, display(system_path))
    system = build_system(sys_data, display(system_path))
    if system.id != folder.name:
        raise RulesDataError(display(system_path), ("id",), f"is {system.id!r}; it must match its folder {folder.name!r}")
    files = [RulesFile("system", system.id, system.id, system.version, system.name, display(system_path),
                       system.content_hash, sys_data)]
    common: dict[str, Item] = {}
    for path in sorted((folder / "items").glob("*.yaml")):
        data = read_yaml(path, display(path))
        items = build_items(data, system, display(path))
        for iid in items:
            if iid in common:
                raise RulesDataError(display(path), ("items",), f"item id {iid!r} is also defined in another item list")
        common.update(items)
        files.append(RulesFile("items", system.id, data["id"], str(data["version"]), data["name"],
                               display(path), content_hash(data), data))
    return system, common, files


def load_system_folder(folder: Path, root: Path, library: Library) -> None:
    display = _display(root)
    system, common, files = load_system_part(folder, root)
    library.systems[system.id] = system
    library.files += files
    library.common_items[system.id] = common
    for path in sorted((folder / "books").glob("*.yaml")):
        data = read_yaml(path, display(path))
        book = build_book(data, system, common, display(path))
        if book.key in library.books:
            raise RulesDataError(display(path), ("version",), f"{book.id} {book.version} is defined by two files")
        library.books[book.key] = book
        library.files.append(RulesFile("book", system.id, book.id, book.version, book.name,
                                       display(path), book.content_hash, data))


def load_one_book(root: Path, system_id: str, book_id: str, version: str,
                  system_part: Callable[[Path], tuple[System, dict[str, Item], list[RulesFile]]] | None = None
                  ) -> Book | None:
    """The book `book_id` at `version` from its own file (`<system>/books/<book>.yaml`) and its system's
    folder, without reading any other book; None when that file is not there or holds another version
    (the caller then looks through every file). `system_part` may cache `load_system_part` per folder."""
    if not (re.fullmatch(SLUG_PATTERN, system_id) and re.fullmatch(SLUG_PATTERN, book_id)):
        return None  # ids are slugs; anything else (a "..", a "/") is no file name to try
    folder = root / system_id
    path = folder / "books" / f"{book_id}.yaml"
    if not (folder / "system.yaml").is_file() or not path.is_file():
        return None
    system, common, _ = (system_part or (lambda f: load_system_part(f, root)))(folder)
    display = _display(root)
    data = read_yaml(path, display(path))
    if not isinstance(data, dict) or data.get("id") != book_id or str(data.get("version")) != version:
        return None
    return build_book(data, system, common, display(path))


def load_tree(root: Path) -> Library:
    """Load every system folder under `root` (folders holding a system.yaml)."""
    library = Library()
    for folder in sorted(p for p in root.iterdir() if (p / "system.yaml").is_file()):
        load_system_folder(folder, root, library)
    return library


def build_from_stored(system_data: Mapping, item_lists: Iterable[Mapping], book_data: Mapping, source: str) -> Book:
    """Rebuild a book from the documents the database stored (for versions no longer on disk)."""
    system = build_system(system_data, source)
    common: dict[str, Item] = {}
    for data in item_lists:
        common.update(build_items(data, system, source))
    return build_book(book_data, system, common, source)
