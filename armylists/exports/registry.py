"""Every export of a list, by the name the site, events, the API and `export_list` know it: one table.

    find("txt") -> TEXT (its name is "text")      find("docx") -> None
    offered(book, roster) -> the exports this list may be downloaded as, in the order they are offered
    export(entry, Listed(book, roster, ...), variant) -> the file (str or bytes)
    entry.filename(file_stem(name, "list"), variant) -> "Sonnstahl-combined-arms-full.pdf"

An entry says what the export is called (its name, and any name it was known by before: `txt`), its
file's extension and content type, its download link's label, the PDF variants it prints, whether it
needs the list's book and whether it is stamped with the "data as of" of the list's book
(lists/library/data_as_of.py). The stamp is worked out here for a stamped export and handed to its
writer, so no door can print a PDF without it. Our own exports (text, JSON, PDF) are the first entries;
the writers an importer registers with `listfiles/formats.py` (BattleScribe's .ros and .rosz) follow,
asked there each time (`formats.WRITERS`), so this module imports no importer. A new export format is
one entry in `OURS`, or a writer an importer registers.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Callable

from armylists.exports.checksum import document_json
from armylists.exports.pdf import VARIANTS, default_variant, render_pdf
from armylists.exports.owb_list import SYSTEM as OWB_SYSTEM
from armylists.exports.owb_list import battle_tavern_data, battle_tavern_url, owb_file, writes_owb
from armylists.exports.owb_tree import as_book_list, target_book
from armylists.exports.pdf_list import PrintedList
from armylists.exports.simulators import tts_cards
from armylists.exports.text import export_text
from armylists.lists.library.catalogue import (allies_book_for, book_name, disk_library, get_book, imported_book_keys,
                                               validate_roster)
from armylists.lists.library.data_as_of import data_as_of
from armylists.lists.kinds import ListKind, kind_for_book, kind_of
from armylists.listfiles.formats import WRITERS, ListFileError, ListWriter
from armylists.rules import Book, Report, Roster

# The download links' PDF labels, by variant; every list may print the first three, and the system's own
# sheet (Mordheim's warband sheet) is offered first.
PDF_LABELS = {"full": "PDF roster", "compact": "PDF, compact", "hidden": "PDF, hidden list",
              "warband": "PDF warband sheet"}
EVERY_LIST_PRINTS = ("full", "compact", "hidden")
HIDDEN = "hidden"  # offered only for a game with hidden lists (System.hidden_list)
MAX_STEM = 80


class Listed:
    """A list as its exports read it: the Book and the Roster, and what is worked out from them only
    when an export asks, once (the Report, the allies' book, a roster tree's printing).

    A door that has the Report already (an event's, with the event's own rules) or the allies' book
    passes them, and the list's kind if it opened the list; `share_url` is printed, with its QR code, on a PDF."""

    def __init__(self, book: Book | None, roster: Roster, report: Report | None = None,
                 allies: Book | None = None, share_url: str | None = None, source: str = "list",
                 kind: ListKind | None = None) -> None:
        self.book, self.roster, self.share_url, self.source = book, roster, share_url, source
        self._report, self._allies = report, allies
        self.kind = kind or kind_of(roster)  # what prints it (lists/kinds.py): the door's, if it opened one

    @cached_property
    def report(self) -> Report:
        if self._report is not None:
            return self._report
        return validate_roster(self._book(), self.roster, source=self.source)

    @cached_property
    def allies(self) -> Book | None:
        return self._allies if self._allies is not None else allies_book_for(self.roster, self.source)

    def stamp(self) -> str:
        """The "data as of" printed on the list: its book version and the game data it came from."""
        book = self._book()
        roster = self.roster
        return data_as_of(roster.system, roster.book, roster.book_version, book.imported, book.name)["text"]

    def _book(self) -> Book:
        if self.book is None:
            raise ValueError("this export needs the list's book")
        return self.book


def _always(roster: Roster, book: Book) -> bool:
    return True


@dataclass(frozen=True)
class Export:
    name: str  # what the doors call it: the download's address, the API's `as=`, `export_list --format`
    extension: str  # the file's, and the download link's address
    label: str  # the download link's text
    content_type: str
    write: Callable[[Listed, str, str], "str | bytes"]  # (the list, the variant, the stamp) -> the file
    aliases: tuple[str, ...] = ()  # names it is known by too, so no address that worked stops working
    stamped: bool = False  # printed with the list's "data as of" (handed to `write` as the stamp)
    variants: tuple[str, ...] = ()  # the PDF's layouts; none for any other export
    needs_book: bool = True  # False: the Roster alone is enough (a list whose book is gone still exports)
    applies: Callable[[Roster, Book], bool] = _always  # may this list be downloaded so? Cheap
    only: str = "a list"  # the lists `applies` takes, in words: a refusal says "only {only} ..."

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    @property
    def binary(self) -> bool:
        """A file that is not text: `export_list` writes it to a file, never to standard output."""
        return not self.content_type.startswith(("text/", "application/json", "application/xml"))

    def variant(self, book: Book, asked: str | None = None) -> str:
        """The variant printed: the one asked for if this export has it, otherwise the book's system's own
        (`default_variant`); "" for an export without variants."""
        if not self.variants:
            return ""
        return asked if asked in self.variants else default_variant(book)

    def filename(self, stem: str, variant: str = "") -> str:
        """The download's file name; a PDF names its variant, so each printed form keeps its own file."""
        return f"{stem}{'-' + variant if variant else ''}.{self.extension}"


def _text(listed: Listed, variant: str, stamp: str) -> str:
    return export_text(listed.book, listed.roster, listed.report, listed.allies)


def _json(listed: Listed, variant: str, stamp: str) -> str:
    return document_json(listed.roster)


def _pdf(listed: Listed, variant: str, stamp: str) -> bytes:
    variant = variant or listed.kind.print_variant(listed.book, listed.roster)  # the list's kind's own sheet first
    return render_pdf(listed.book, listed.roster, listed.report, variant or None, share_url=listed.share_url,
                      allies=listed.allies, data_as_of=stamp, tree=listed.kind.printing(listed.roster))


def _tts(listed: Listed, variant: str, stamp: str) -> str:
    return tts_cards(PrintedList(listed.book, listed.roster, listed.report, listed.allies, stamp,
                                 listed.kind.printing(listed.roster)))


def _as_owb(book: Book, roster: Roster, kind: ListKind, source: str) -> tuple[Book, Roster]:
    """The book and list OWB's list is written of: the list itself, or for a roster tree the list of our
    book of its army (ours or imported from OWB) that its units map to (exports/owb_tree.py)."""
    if not writes_owb(kind.plays(book, roster)):  # `export_list` asks any writer: this one writes no other game
        raise ListFileError(f"{source}: is a list of {book.system.name}; Old World Builder keeps lists of "
                            f"{OWB_SYSTEM!r} only")
    printing = kind.printing(roster)
    if printing is None:
        return book, roster
    target = _army_book(book, kind)
    if target is None:
        raise ListFileError(f"{source}: no book of this site is {book.name}'s army, so its units have no Old World "
                            f"Builder names; load that army's book (`manage.py import_owb`) first")
    mapped = as_book_list(printing, roster, target)
    return target, replace(mapped.roster, notes=mapped.description(roster.notes))


@dataclass(frozen=True)
class _Named:
    """A book of the site by its name only: the imported ones are not built to be chosen among."""
    name: str
    id: str
    version: str


def _army_book(tree_book: Book, kind: ListKind) -> Book | None:
    """The site's book of a tree book's army (owb_tree.target_book), of another kind than the tree's: among
    our books on disk and the newest imported ones by name, and only the chosen one built."""
    disk = [b for b in disk_library().books.values() if b.system.id == OWB_SYSTEM and kind_for_book(b) != kind]
    imported = [_Named(book_name(system, bid), bid, version) for system, bid, version in imported_book_keys(OWB_SYSTEM)]
    found = target_book(tree_book, [*disk, *imported])
    if isinstance(found, _Named):
        found = get_book(OWB_SYSTEM, found.id, found.version)
    return found if found is not None and kind_for_book(found) != kind else None


def _owb(listed: Listed, variant: str, stamp: str) -> str:
    book, roster = _as_owb(listed._book(), listed.roster, listed.kind, listed.source)
    return owb_file(book, roster, listed.allies if roster is listed.roster else None)


def _written_as_owb(roster: Roster, book: Book) -> bool:
    """A list its kind writes as Old World Builder's (lists/kinds.py: `writes`), of The Old World."""
    kind = kind_of(roster)
    return OWB_FILE in kind.writes and writes_owb(kind.plays(book, roster))


def _prints_warbands(roster: Roster, book: Book) -> bool:
    """A system whose own sheet is the warband's (Mordheim, a BSData Mordheim tree too: its kind says)
    plays its warriors as single models."""
    return kind_of(roster).print_variant(book, roster) == "warband"


TEXT = Export("text", "txt", "Text", "text/plain; charset=utf-8", _text, aliases=("txt",))
JSON = Export("json", "json", "JSON", "application/json; charset=utf-8", _json, needs_book=False)
PDF = Export("pdf", "pdf", "PDF roster", "application/pdf", _pdf, stamped=True, variants=VARIANTS)
# Simulators (exports/simulators.py): Tabletop Simulator's model cards of a warband
TTS = Export("tts", "tts.txt", "Tabletop Simulator cards", "text/plain; charset=utf-8", _tts, aliases=("tts.txt",),
             applies=_prints_warbands, only="a Mordheim warband")
# Old World Builder's saved list, which its Import page reads and Battle Tavern takes (exports/owb_list.py)
OWB_FILE = "owb"
OWB = Export(OWB_FILE, "owb.json", "Old World Builder (.owb.json)", "application/json; charset=utf-8", _owb,
             aliases=("owb.json",), applies=_written_as_owb, only="a list of The Old World")
OURS = (TEXT, JSON, PDF, TTS, OWB)  # in the order the download links offer them


def _from_writer(writer: ListWriter) -> Export:
    def write(listed: Listed, variant: str, stamp: str) -> bytes:
        return writer.write(listed.roster, listed.book, listed.report.total_points)
    return Export(writer.extension, writer.extension, writer.label, writer.content_type, write,
                  applies=writer.applies, only="a list of an imported BattleScribe book kept as a roster tree")


def exports() -> list[Export]:
    """Ours, then every writer an importer registered, in the order they were registered."""
    taken = {name for entry in OURS for name in entry.names}
    return [*OURS, *(_from_writer(w) for name, w in WRITERS.items() if name not in taken)]


def names(aliases: bool = False) -> list[str]:
    """Every export's name (and with `aliases` the names they are known by too), in the table's order."""
    return [name for entry in exports() for name in (entry.names if aliases else (entry.name,))]


def find(name: str) -> Export | None:
    """The export called `name` (or known by it), or None."""
    return next((entry for entry in exports() if name in entry.names), None)


def offered(book: Book, roster: Roster) -> list[Export]:
    """The exports this list may be downloaded as: ours, and each registered writer that applies to it."""
    return [entry for entry in exports() if entry.applies(roster, book)]


def export(entry: Export, listed: Listed, variant: str = "") -> str | bytes:
    """The file of `listed` as `entry` writes it, stamped when the entry is (a `ListFileError` from a
    writer that cannot write this list). `variant` is the entry's: `entry.variant(book, asked)`."""
    return entry.write(listed, variant, listed.stamp() if entry.stamped else "")


def battle_tavern_form(book: Book | None, roster: Roster | None, port: int) -> dict[str, str] | None:
    """The form the list page offers to send the list to Battle Tavern, as Old World Builder sends it: a
    POST from the player's own browser to the game on their own machine (`port`, the BATTLE_TAVERN_PORT
    setting); None for a list not written as OWB's."""
    if book is None or roster is None or not OWB.applies(roster, book):
        return None
    try:
        written, as_written = _as_owb(book, roster, kind_of(roster), "list")
    except ListFileError:  # a roster tree of an army no book of the site is
        return None
    allies = allies_book_for(roster) if as_written is roster else None
    return {"action": battle_tavern_url(port), "data": battle_tavern_data(written, as_written, allies)}


def stored_document_json(document: dict) -> str:
    """The JSON download of a list that cannot be opened (its book is gone): its document as stored."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def file_stem(name: str, fallback: str) -> str:
    """`name` as a file name's stem (letters, digits, `.`, `_` and `-`; at most 80), or `fallback`."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")[:MAX_STEM] or fallback


def download_links(link_base: str, book: Book | None, roster: Roster | None = None) -> list[tuple[str, str]]:
    """(label, address) of every download of a list: each export offered for it (the PDF once for each
    variant: the system's own sheet first, then the others every list may print). Without its book (a
    list whose book is gone), only what needs none: the JSON document."""
    if book is None or roster is None:
        return [(entry.label, f"{link_base}{entry.extension}/") for entry in exports() if not entry.needs_book]
    links = []
    for entry in offered(book, roster):
        if entry.variants:
            first = entry.variant(book, kind_of(roster).print_variant(book, roster))  # the kind's own sheet
            # the hidden list only where the game has one (its system data's `hidden_list`)
            variants = [first] + [v for v in EVERY_LIST_PRINTS if v != first and v in entry.variants
                                  and (v != HIDDEN or book.system.hidden_list)]
            links += [(PDF_LABELS.get(v, f"{entry.label}, {v}"), f"{link_base}{entry.extension}/?variant={v}")
                      for v in variants]
        else:
            links.append((entry.label, f"{link_base}{entry.extension}/"))
    return links
