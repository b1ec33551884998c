"""A list brought in from anywhere (a file or pasted text), whatever wrote it, as our list document.

`import_list(data, source)` tries each reader of `READERS` in turn; the first that recognises the data
reads it. Each reader returns the Roster and its Book, or raises `ImportProblem` whose message names
the line (or the path inside a JSON file) and, for a name the book lacks, the closest name it has.
The readers reuse the command-line importers: our JSON and tournament text (`list_files`), Old World
Builder's saved lists (`importers.owb_lists`) and its text export (`owb_text`, over our text reader).

To add a format (BattleScribe / New Recruit rosters, say), write `recognise(data, source) -> bool` and
`read(data, source) -> (Roster, Book)` and add a `Reader` to `READERS` before the last one: the last
reader, our tournament text, takes whatever no other reader recognised.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from django.db import DatabaseError

from armylists import list_edits
from armylists.catalogue import get_book
from armylists.importers.owb_data import SYSTEM_ID, OwbInputError
from armylists.importers.battlescribe.rosters import looks_like_roster
from armylists.importers.owb_lists import book_id, convert_list, read_owb_list
from armylists.list_files import ListFileError, read_list_data
from armylists.owb_text import is_owb_text, read_owb_text
from armylists.rules import Book, ListDocumentError, Roster, RulesDataError, parse_roster
from armylists.rules.roster import MAX_DOCUMENT_BYTES

MAX_IMPORT_BYTES = 8 * 1024 * 1024  # an Old World Builder list copies every unit's whole definition


class ImportProblem(Exception):
    """Data that cannot be brought in; str() is the message to show, naming the line where there is one."""


@dataclass(frozen=True)
class Reader:
    name: str  # the format, as a player knows it
    recognise: Callable[[bytes, str], bool]
    read: Callable[[bytes, str], "tuple[Roster, Book]"]


def _is_json_object(data: bytes) -> bool:
    return data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")


def _is_owb_json(data: bytes, source: str) -> bool:
    # Old World Builder's saved list: an object with "army" and unit categories, and no "format" of ours.
    head = data[:4096]
    return _is_json_object(data) and b'"army"' in data and b'"format"' not in head


def _read_owb_json(data: bytes, source: str) -> tuple[Roster, Book]:
    try:
        owb = read_owb_list(data, source)
        slug = book_id(owb)
        book = _latest_imported(slug)
        if book is None:
            raise ImportProblem(f"{source}: this Old World Builder list needs its army ({owb['army']}) as imported "
                                f"from Old World Builder's data, which this site has not loaded; ask the site's "
                                f"administrator to run `manage.py import_owb`, or paste the list's text export instead")
        return parse_roster(convert_list(owb, book, source), source), book
    except OwbInputError as exc:
        raise ImportProblem(str(exc)) from None
    except ListDocumentError as exc:
        raise ImportProblem(str(exc)) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:  # a shape not foreseen
        raise ImportProblem(f"{source}: is not a list Old World Builder saves ({type(exc).__name__}: {exc})") from None


def _latest_imported(slug: str) -> Book | None:
    from armylists.models import RulesFile

    try:
        row = RulesFile.objects.filter(kind="book", system=SYSTEM_ID, slug=slug).order_by("-loaded_at", "-id").first()
        return get_book(SYSTEM_ID, slug, row.version) if row else None
    except (DatabaseError, RulesDataError):
        return None


def _read_ours(data: bytes, source: str) -> tuple[Roster, Book]:
    try:
        return read_list_data(data, source)
    except ListFileError as exc:
        raise ImportProblem(str(exc)) from None


def _read_owb_text(data: bytes, source: str) -> tuple[Roster, Book]:
    try:
        return read_owb_text(data.decode("utf-8-sig"), source)
    except ListDocumentError as exc:
        raise ImportProblem(str(exc)) from None


def _is_owb_text(data: bytes, source: str) -> bool:
    try:
        return is_owb_text(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return False


READERS: list[Reader] = [
    Reader("BattleScribe / New Recruit roster (.ros, .rosz)", looks_like_roster, _read_ours),
    Reader("Old World Builder list (.owb.json)", _is_owb_json, _read_owb_json),
    Reader("our JSON list document", lambda data, source: _is_json_object(data), _read_ours),
    Reader("Old World Builder text export", _is_owb_text, _read_owb_text),
    Reader("tournament text", lambda data, source: True, _read_ours),
]


def import_list(data: bytes, source: str) -> tuple[Roster, Book, str]:
    """The list in `data` with its Book and the name of the format it was read as, or `ImportProblem`."""
    if not data.strip():
        raise ImportProblem(f"{source}: is empty; paste a list or choose a file")
    if len(data) > max(MAX_IMPORT_BYTES, MAX_DOCUMENT_BYTES):
        raise ImportProblem(f"{source}: is {len(data)} bytes; a list may be at most {MAX_IMPORT_BYTES}")
    for reader in READERS:
        if reader.recognise(data, source):
            roster, book = reader.read(data, source)
            return list_edits.default_general(book, roster), book, reader.name
    raise ImportProblem(f"{source}: is not a list in a format this site reads")  # pragma: no cover (the last reads all)
