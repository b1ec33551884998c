"""Public pages about the rules: which systems and army books the site knows."""
from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from armylists.catalogue import get_book, listed_books, site_library


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
        entries = [e for e in found.entries.values() if e.category == cat.id]
        categories.append({"category": cat, "entries": entries})
    return render(request, "armylists/book_detail.html", {"book": found, "categories": categories})
