"""Public pages about the rules: which systems and army books the site knows."""
from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from armylists.lists.catalogue import get_book, listed_books, site_library
from armylists.lists.entries import cost_as_added
from armylists.rules import Book
from armylists.rules.book import Entry

from armylists.editor.unit_cards import cost_text


def home(request: HttpRequest) -> HttpResponse:
    library = site_library()
    every_book = listed_books()
    systems = []
    for system in library.systems.values():
        books = sorted((b for b in every_book if b.system.id == system.id), key=lambda b: b.name)
        systems.append({"system": system, "books": books})
    return render(request, "armylists/home.html", {"systems": systems})


def book_detail(request: HttpRequest, system: str, book: str, version: str) -> HttpResponse:
    found = get_book(system, book, version)
    if found is None:
        raise Http404("No such army book")
    categories = []
    for cat in found.system.categories:
        entries = [_entry_row(found, e) for e in found.entries.values() if e.category == cat.id]
        categories.append({"category": cat, "entries": entries})
    return render(request, "armylists/book_detail.html", {"book": found, "categories": categories})


def _entry_row(book: Book, entry: Entry) -> dict[str, str]:
    """An entry as the book page lists it: its troop type by the system's name for it, what it costs as
    first added (as the editor's catalogue prices it: artillery priced by its compulsory choice, not a
    bare 0) and its sizes ("5+" when there is no maximum)."""
    troop_type = book.system.troop_types.get(entry.troop_type)
    unit = book.system.budget_unit
    fixed = entry.size_max == entry.size_min
    if fixed:
        sizes = str(entry.size_min)
    elif entry.size_max is None:
        sizes = f"{entry.size_min}+"
    else:
        sizes = f"{entry.size_min}\u2013{entry.size_max}"
    return {
        "name": entry.name,
        "troop_type": troop_type.name if troop_type is not None else entry.troop_type,
        "cost": f"{cost_as_added(book, entry)} {unit}",
        "each": "" if fixed else f"{cost_text(entry.points, unit)} each",
        "sizes": sizes,
    }
