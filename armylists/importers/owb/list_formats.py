"""Old World Builder's lists as the site reads them: its saved list (.owb.json) and its text export,
registered with the list files part (armylists/listfiles/formats.py) when the app starts.

A saved list names its army by OWB's id; it is read against the newest book imported from OWB's data
(`manage.py import_owb`). The text export is read by text.py, over our tournament text reader.
"""
from __future__ import annotations

from django.db import DatabaseError

from armylists.importers.owb.data import SYSTEM_ID, OwbInputError
from armylists.importers.owb.lists import book_id, convert_list, read_owb_list
from armylists.importers.owb.text import is_owb_text, read_owb_text, text_notices
from armylists.listfiles.formats import ListFileError, ListFormat, register
from armylists.lists.library.catalogue import get_book
from armylists.rules import Book, ListDocumentError, Roster, RulesDataError, parse_roster
from armylists.rules.reading.plain_data import text_problem


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
            raise ListFileError(f"{source}: this Old World Builder list needs its army ({owb['army']}) as imported "
                                f"from Old World Builder's data, which this site has not loaded; ask the site's "
                                f"administrator to run `manage.py import_owb`, or paste the list's text export instead")
        return parse_roster(convert_list(owb, book, source), source), book
    except OwbInputError as exc:
        raise ListFileError(str(exc)) from None
    except ListDocumentError as exc:
        raise ListFileError(str(exc)) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:  # a shape not foreseen
        raise ListFileError(f"{source}: is not a list Old World Builder saves ({type(exc).__name__}: {exc})") from None


def _latest_imported(slug: str) -> Book | None:
    from armylists.models import RulesFile

    try:
        row = RulesFile.objects.filter(kind="book", system=SYSTEM_ID, slug=slug).order_by("-loaded_at", "-id").first()
        return get_book(SYSTEM_ID, slug, row.version) if row else None
    except (DatabaseError, RulesDataError):
        return None


def _read_owb_text(data: bytes, source: str) -> tuple[Roster, Book]:
    text = data.decode("utf-8-sig")
    problem = text_problem(text)  # as our tournament text is checked (listfiles/reading.py)
    if problem:
        raise ListFileError(f"{source}: {problem}")
    try:
        return read_owb_text(text, source)
    except ListDocumentError as exc:
        raise ListFileError(str(exc)) from None


def _owb_text_notices(data: bytes, source: str, roster: Roster, book: Book) -> list[str]:
    return text_notices(data.decode("utf-8-sig"), source, roster, book)


def _is_owb_text(data: bytes, source: str) -> bool:
    try:
        return is_owb_text(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return False


register(ListFormat("Old World Builder list (.owb.json)", _is_owb_json, _read_owb_json))
register(ListFormat("Old World Builder text export", _is_owb_text, _read_owb_text, _owb_text_notices))
