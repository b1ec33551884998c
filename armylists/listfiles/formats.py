"""The list formats other tools write, as the importers register them: "is this yours?" and "read it".

The list files part (reading.py, importing.py) knows our own formats, the JSON list document and
tournament text, and asks every registered format first; it imports no importer. An importer's Django
side registers its formats when the app starts (apps.py names the modules); a new importer adds a
module there and calls `register` in it.
"""
from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from armylists.rules import Book, Roster


class ListFileError(Exception):
    """A list file that cannot be used; its message is the one line to print (the file, and the path or
    line inside it)."""

    def without_source(self, source: str) -> str:
        """The message less the file's name it starts with, for a page that shows the name beside it."""
        message, prefix = str(self), f"{source}: "
        return message[len(prefix):] if message.startswith(prefix) else message


@dataclass(frozen=True)
class ListFormat:
    name: str  # the format, as a player knows it
    recognise: Callable[[bytes, str], bool]  # (data, source) -> is it this format? Cheap, never raises
    read: Callable[[bytes, str], "tuple[Roster, Book]"]  # the Roster and its Book, or a ListFileError
    # (data, source, the Roster and Book read) -> what the player should know about the list as read,
    # such as figures the other tool wrote that differ from ours; shown after an import
    notices: "Callable[[bytes, str, Roster, Book], list[str]] | None" = None
    # () -> the dates (YYYY-MM-DD) of the game data stored for this format, where a list may be read with the
    # data of another date than its own (New Recruit's data by date): the import page offers them
    data_dates: "Callable[[], list[str]] | None" = None


# The date of the game data the player chose to read a list with (the import page's choice), for the
# formats whose data is kept by date; None: the format's own choice (a summary's tournament date).
DATA_AS_OF: ContextVar[str | None] = ContextVar("DATA_AS_OF", default=None)


FORMATS: list[ListFormat] = []


def register(list_format: ListFormat) -> None:
    """Add a format, asked after those registered before it (registering a name again replaces it)."""
    for i, known in enumerate(FORMATS):
        if known.name == list_format.name:
            FORMATS[i] = list_format
            return
    FORMATS.append(list_format)


def format_of(data: bytes, source: str) -> ListFormat | None:
    """The first registered format that recognises `data`, or None (then it is one of ours, or nothing)."""
    return next((f for f in FORMATS if f.recognise(data, source)), None)


@dataclass(frozen=True)
class ListWriter:
    """A list file another tool reads, written by an importer for the lists it applies to."""
    extension: str  # "ros": the download's file extension and the export's `as=`
    label: str  # the download link's text
    content_type: str
    applies: Callable[["Roster", "Book"], bool]  # cheap: may this list be written so?
    write: Callable[["Roster", "Book", int], bytes]  # (roster, book, its total) -> the file, or a ListFileError


WRITERS: dict[str, ListWriter] = {}


def register_writer(writer: ListWriter) -> None:
    WRITERS[writer.extension] = writer


def writers_for(roster: "Roster", book: "Book") -> list[ListWriter]:
    """The registered writers that can write this list, in the order they were registered."""
    return [w for w in WRITERS.values() if w.applies(roster, book)]
