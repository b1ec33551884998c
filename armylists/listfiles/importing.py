"""A list brought in from anywhere (a file or pasted text), whatever wrote it, as our list document.

`import_list(data, source)` reads the data as the list file reader does (reading.py: every format an
importer registered in formats.py, then our JSON and tournament text), with the import page's larger
size cap, and makes a Character the General when the list names none; a format may add notices for the
player (where another tool's figures differ from ours). A problem is an `ImportProblem`
whose message names the line (or the path inside a JSON file) and, for a name the book lacks, the
closest name it has.
"""
from __future__ import annotations

from armylists.listfiles.formats import DATA_AS_OF, FORMATS
from armylists.listfiles.reading import OUR_JSON, OUR_TEXT, ListFileError, read_any
from armylists.lists.saved import edits
from armylists.rules import Book, Roster
from armylists.rules.reading.archives import unpack_budget
from armylists.rules.reading.roster import MAX_DOCUMENT_BYTES

MAX_IMPORT_BYTES = 8 * 1024 * 1024  # an Old World Builder list copies every unit's whole definition


class ImportProblem(Exception):
    """Data that cannot be brought in; str() is the message to show, naming the line where there is one."""


def import_list(data: bytes, source: str, data_as_of: str | None = None) -> tuple[Roster, Book, str, list[str]]:
    """The list in `data` with its Book, the name of the format it was read as and what its format says
    the player should know about it (`ListFormat.notices`), or `ImportProblem`. `data_as_of` (YYYY-MM-DD):
    read a format whose data is kept by date with the data of that date (`DATA_AS_OF`)."""
    token = DATA_AS_OF.set(data_as_of or None)
    try:
        return _import_list(data, source)
    finally:
        DATA_AS_OF.reset(token)


def data_dates() -> list[str]:
    """Every date of stored game data some format may read a list with, newest first (the import page's
    choice, offered where there are several)."""
    return sorted({d for f in FORMATS if f.data_dates for d in f.data_dates()}, reverse=True)


def _import_list(data: bytes, source: str) -> tuple[Roster, Book, str, list[str]]:
    if not data.strip():
        raise ImportProblem(f"{source}: is empty; paste a list or choose a file")
    if len(data) > max(MAX_IMPORT_BYTES, MAX_DOCUMENT_BYTES):
        raise ImportProblem(f"{source}: is {len(data)} bytes; a list may be at most {MAX_IMPORT_BYTES}")
    try:
        with unpack_budget("request"):  # an archive (a .rosz) unpacks within the request's one budget
            roster, book, how = read_any(data, source)
    except ListFileError as exc:
        raise ImportProblem(str(exc)) from None
    roster = edits.default_general(book, roster)
    registered = next((f for f in FORMATS if f.name == how), None)
    notices = registered.notices(data, source, roster, book) if registered and registered.notices else []
    return roster, book, how, notices


def format_names() -> list[str]:
    """Every format the import page reads, as a player knows it, in the order they are tried."""
    return [f.name for f in FORMATS] + [OUR_JSON, OUR_TEXT]
