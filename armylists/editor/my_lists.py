"""The rows of "My lists": each list with its system's mark, searched and sorted from the query string
alone (`q`, `sort`: "name", "-points", ...), so the page works without JavaScript (issue 42 item 4)."""
from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from typing import Any, Callable

from django.db.models import QuerySet

from armylists.lists.library.catalogue import book_name, disk_library, get_book
from armylists.models import ArmyList

# What a player may sort by, each with its key; the default is the last changed first.
SORTS: dict[str, tuple[str, Callable[[dict[str, Any]], Any]]] = {
    "name": ("Name", lambda r: (r["list"].name.casefold(), r["list"].pk)),
    "army": ("Army", lambda r: (r["book"].casefold(), r["list"].name.casefold())),
    "points": ("Points", lambda r: (r["list"].total_points, r["list"].name.casefold())),
    "legal": ("Legal", lambda r: (not r["list"].valid, r["list"].name.casefold())),
    "changed": ("Last changed", lambda r: (r["list"].updated, r["list"].pk)),
}
DEFAULT_SORT = "-changed"
MARK_COLOURS = 6  # my_lists.css's palette, .mark-0 to .mark-5


@dataclass(frozen=True)
class Mark:
    """A system's mark beside each of its lists: its initials in one of a few colours, both made from the
    system's name and id, so a new system has one without any code or data."""

    letters: str
    colour: int


def mark_of(system_id: str, system_name: str) -> Mark:
    # "The 9th Age: Fantasy Battles, 2nd edition" -> T9A; "Warhammer: The Old World" -> TOW (the part
    # that tells it apart is after the colon when the part before is a single word); "Mordheim" -> M.
    head, _, tail = system_name.partition(":")
    words = (tail if tail.strip() and len(head.split()) == 1 else head).split()
    letters = "".join(w[0] for w in words if w[0].isupper() or w[0].isdigit())[:3] or system_id[:1].upper()
    return Mark(letters, zlib.crc32(system_id.encode()) % MARK_COLOURS)


def parse_sort(value: str) -> tuple[str, bool]:
    """(key, descending) of a `sort` parameter; anything unknown is the default."""
    key = value.removeprefix("-")
    if key not in SORTS:
        return parse_sort(DEFAULT_SORT)
    return key, value.startswith("-")


def rows(lists: QuerySet[ArmyList], q: str = "", sort: str = DEFAULT_SORT) -> list[dict[str, Any]]:
    """The user's lists as the page shows them: those whose name, army or system holds every word of `q`
    (case aside), in the order `sort` names."""
    library = disk_library()
    out = []
    for army_list in lists:
        book = get_book(army_list.system, army_list.book, army_list.book_version)
        system = library.systems.get(army_list.system) or (book.system if book else None)
        system_name = system.name if system else army_list.system
        out.append({
            "list": army_list,
            "system": system_name,
            "mark": mark_of(army_list.system, system_name),
            "book": f"{book.name if book else book_name(army_list.system, army_list.book)} {army_list.book_version}",
            "unit": system.budget_unit if system else "pts",
            "shared": bool(army_list.share_token),
        })
    words = [w.casefold() for w in re.split(r"\s+", q.strip()) if w]
    if words:
        out = [r for r in out if all(w in f"{r['list'].name} {r['book']} {r['system']}".casefold() for w in words)]
    key, descending = parse_sort(sort)
    return sorted(out, key=SORTS[key][1], reverse=descending)


def sort_links(q: str, sort: str) -> list[dict[str, Any]]:
    """A header link per sort key: a second click on the current key turns its direction."""
    current, descending = parse_sort(sort)
    links = []
    for key, (label, _) in SORTS.items():
        next_sort = key if key != current or descending else f"-{key}"
        links.append({"key": key, "label": label, "sort": next_sort, "q": q,
                      "current": key == current, "descending": descending and key == current})
    return links
