"""Reading a list file and writing an output file, for the commands that take list files.

`read_list` reads the forms a player hands in: every format an importer registered (formats.py: a
BattleScribe / New Recruit roster, Old World Builder's saved list and text export), else our JSON list
document or a list in tournament text, and returns the Roster with its Book; anything wrong is a
`ListFileError` whose message is the one line to print (the file, and the path or line inside it).
Shared by import_list, export_list, check_lists, event uploads and the import page; `read_item` also
reads one line of a file of many lists (`ListLine`: check_lists' .jsonl of New Recruit summaries).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from armylists.lists.library.catalogue import book_for, get_book
from armylists.lists.library.names import shelved_books
from armylists.lists.trees.tree_lists import as_tree
from armylists.exports import parse_list_text
from armylists.rules import Book, ListDocumentError, Roster, parse_roster_json
from armylists.rules.reading.plain_data import text_problem
from armylists.rules.reading.roster import MAX_DOCUMENT_BYTES
from armylists.listfiles.formats import ListFileError, format_of

OUR_JSON = "our JSON list document"
OUR_TEXT = "tournament text"


@dataclass(frozen=True)
class ListLine:
    """One list that is one line of a file holding many (New Recruit's summaries, a .jsonl): read as a list
    file of its own, named `<file>:<line>` in every message and output."""
    path: Path
    number: int
    data: bytes

    @property
    def name(self) -> str:
        return f"{self.path.name}:{self.number}"

    def __str__(self) -> str:
        return f"{self.path}:{self.number}"


def read_item(item: Path | ListLine) -> tuple[Roster, Book]:
    """`read_list` for a file, or the list on one line of a file."""
    if isinstance(item, ListLine):
        return read_list_data(item.data, str(item))
    return read_list(item)


def read_list(path: Path) -> tuple[Roster, Book]:
    """The list in `path` (JSON document or tournament text) and its Book, or a `ListFileError`."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ListFileError(f"{path}: cannot be read: {exc.strerror}") from None
    return read_list_data(data, str(path))


def read_list_data(data: bytes, source: str) -> tuple[Roster, Book]:
    """`read_list` for bytes already read (an uploaded file); `source` names it in every message."""
    roster, book, _ = read_any(data, source)
    return roster, book


def read_any(data: bytes, source: str) -> tuple[Roster, Book, str]:
    """`read_list_data`, and the name of the format the data was read as. A list of an imported BattleScribe
    book is its roster tree whatever form it came in (tree_lists.as_tree: our JSON or tournament text in
    the flattened shape is the tree the same list is), so every reader judges it by the data's semantics."""
    registered = format_of(data, source)
    if registered is not None:
        roster, book = registered.read(data, source)
        how = registered.name
    else:
        roster, book, how = _read_ours(data, source)
    try:
        return as_tree(book, roster, source), book, how
    except ListDocumentError as exc:
        raise ListFileError(str(exc)) from None


def _read_ours(data: bytes, source: str) -> tuple[Roster, Book, str]:
    """Our JSON list document or tournament text."""
    try:
        if data.lstrip().startswith((b"{", b"[")):  # JSON; a list document is an object
            roster = parse_roster_json(data, source)
            return roster, book_for(roster, source), OUR_JSON
        if len(data) > MAX_DOCUMENT_BYTES:
            raise ListFileError(f"{source}: is {len(data)} bytes; a list may be at most {MAX_DOCUMENT_BYTES}")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ListFileError(f"{source}: is not UTF-8 text: {exc.reason}") from None
        problem = text_problem(text)
        if problem:
            raise ListFileError(f"{source}: {problem}")
        # the books by name (lists/library/names.py): only the one the header names is built (issue 37 item 5)
        roster = parse_list_text(text, shelved_books(), source, lookup=get_book)
        return roster, book_for(roster, source), OUR_TEXT
    except ListDocumentError as exc:
        raise ListFileError(str(exc)) from None


def write_output(output: Path, content: str | bytes) -> None:
    """Write `content` to `output`, or a `ListFileError` naming the file."""
    try:
        if isinstance(content, bytes):
            output.write_bytes(content)
        else:
            output.write_text(content, encoding="utf-8")
    except OSError as exc:
        raise ListFileError(f"{output}: cannot be written: {exc.strerror}") from None
