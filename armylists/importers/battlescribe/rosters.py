"""BattleScribe and New Recruit rosters (.ros, zipped .rosz): read as untrusted XML, and the imported book
each names.

    root = parse_roster_file(data, "army.rosz")           # defusedxml, the importer's size caps
    key = book_key(root, "army.rosz")                      # (system, book, version) of the imported book

A roster names its game system and catalogue by name and revision (`gameSystemName`, `catalogueName`,
`catalogueRevision`); those give the imported book's id and version exactly as the importer made them
(`bs-<slug of the name>`, `r<revision>`). The roster itself is read one to one into a roster tree over the
book's stored game data (roster_tree.py); the flattened shape lists once had, and its reader and writer,
are gone (issue 37, "one semantics"). This module knows no Django: callers find the book.
"""
from __future__ import annotations

from xml.etree.ElementTree import Element

from armylists.importers.battlescribe import version as book_version
from armylists.importers.battlescribe.names import slug
from armylists.importers.battlescribe.elements import MAX_SELECTION_NUMBER, kids, local, number, revision
from armylists.importers.battlescribe.sources import BattleScribeInputError, parse_xml
from armylists.rules.reading.archives import ArchiveError, is_zip, unpack

ROSTER_NS = "http://www.battlescribe.net/schema/rosterSchema"
MAX_ROSTER_BYTES = 8 * 1024 * 1024  # a roster of 200 units is well under 1 MB of XML


def parse_roster_file(data: bytes, source: str) -> Element:
    """The <roster> root of a .ros (XML) or .rosz (a zip holding one .ros), read as untrusted input.

    A .rosz holds one file and nothing else is unpacked; it is read by the one archive reader
    (armylists/rules/reading/archives.py) within the request's budget (an event upload's many files share one)."""
    if is_zip(data):
        try:
            (source, data), = unpack(data, source, member_bytes=MAX_ROSTER_BYTES, one_file=True)
        except ArchiveError as exc:
            raise BattleScribeInputError(exc.source, "", exc.message) from None
    elif len(data) > MAX_ROSTER_BYTES:
        raise BattleScribeInputError(source, "", f"is {len(data)} bytes; at most {MAX_ROSTER_BYTES} are read")
    root = parse_xml(source, data)
    if local(root.tag) != "roster":
        raise BattleScribeInputError(source, f"<{local(root.tag)}>", "is not a BattleScribe or New Recruit roster "
                                                                     "(its root element is not <roster>)")
    return root


def looks_like_roster(data: bytes, source: str) -> bool:
    """Cheap sniffing for the import readers: a .ros/.rosz name, or XML whose start names a roster."""
    if source.lower().endswith((".ros", ".rosz")):
        return True
    head = data[:2048].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"<") and b"<roster" in head


def _forces(root: Element, source: str) -> list[Element]:
    forces = kids(root, "forces", "force")
    if not forces:
        raise BattleScribeInputError(source, "<roster>", "has no <force>; nothing to import")
    names = {(f.get("catalogueName"), f.get("catalogueRevision")) for f in forces}
    if len(names) > 1:
        raise BattleScribeInputError(source, "<forces>", "its forces come from several catalogues "
                                                         f"({', '.join(sorted(str(n) for n, _ in names))}); a list "
                                                         f"here is one army book")
    return forces


def book_names(root: Element, source: str) -> tuple[str, str]:
    """The roster's game system and catalogue as BattleScribe names them (what a player knows them by)."""
    return root.get("gameSystemName") or "", _forces(root, source)[0].get("catalogueName") or ""


def book_key(root: Element, source: str) -> tuple[str, str, str]:
    """The (system, book, version) the importer gave the roster's game system and catalogue."""
    force = _forces(root, source)[0]
    system, catalogue = root.get("gameSystemName") or "", force.get("catalogueName") or ""
    if not system or not catalogue:
        raise BattleScribeInputError(source, "<roster>/<force>", "names no gameSystemName or catalogueName")
    revision_ = revision(source, "<force> catalogueRevision", force.get("catalogueRevision"))
    return "bs-" + slug(system), "bs-" + slug(catalogue), book_version(revision_)


def selection_number(selection: Element, source: str) -> int:
    """How many times a selection is taken: a whole number from 0 to MAX_SELECTION_NUMBER (1 when absent)."""
    where = f"<selection name={selection.get('name')!r} entryId={selection.get('entryId')!r}> number"
    count = number(source, where, selection.get("number"), 1, 0, MAX_SELECTION_NUMBER)
    if not float(count).is_integer():  # float(): the default 1 is an int, which has no is_integer() on 3.11
        raise BattleScribeInputError(source, where, f"{selection.get('number')!r} is not a whole number")
    return int(count)
