"""Public pages about the rules: which systems and army books the site knows."""
from __future__ import annotations

import re

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from armylists.lists.library.catalogue import get_book
from armylists.lists.library.listings import book_groups
from armylists.lists.offers.entries import cost_as_added
from armylists.lists.kinds import kind_for_book
from armylists.rules import Book
from armylists.rules.native.book import Entry

from armylists.editor.unit_cards import cost_text


def home(request: HttpRequest) -> HttpResponse:
    """Every book by game, filtered by `q` (a GET form; htmx swaps only the books as one types): names and
    versions from the rows' columns, no book built (lists/library/listings.py)."""
    q = request.GET.get("q", "")[:100]
    games = book_groups(q)
    context = {"games": games, "q": q, "shown": sum(g.count for g in games)}
    if request.headers.get("HX-Request"):
        return render(request, "armylists/home_books.html", context)
    return render(request, "armylists/home.html", context)


def book_detail(request: HttpRequest, system: str, book: str, version: str) -> HttpResponse:
    found = get_book(system, book, version)
    if found is None:
        raise Http404("No such army book")
    categories = []
    for cat in found.system.categories:
        entries = [_entry_row(found, e) for e in found.entries.values() if e.category == cat.id]
        categories.append({"category": cat, "entries": entries})
    kind = kind_for_book(found)  # a new list's: a roster tree's is checked by the data's own rules
    return render(request, "armylists/book_detail.html", {
        "book": found, "categories": categories, "tree": kind.checked_by_its_data,
        "not_checked": not_checked(found) if found.imported else [],
        # what that check does not understand, found by trying each unit entry (lists/trees/tree_coverage.py)
        "not_evaluated": kind.not_evaluated(found)})


# The importers' words for what they could not map, as a player reads them (importers/battlescribe/books.py).
KIND_WORDS = [
    (r"name or profile modifier \(display only\)",
     "A name or profile changed by a modifier (shown only; no rule depends on it)"),
    (r"modifier (add|remove|set-primary|unset-primary) of category", "A modifier that changes an entry's categories"),
    (r"cost (\w+) with conditions", "A cost that changes with what the list holds"),
    (r"cost \w+ of a group or category", "A cost modifier on a group or category"),
    (r"a second cost \(not the budget's\)", "A second cost, besides the points"),
    (r"cost of .+ \(rounded\)", "A cost with a fraction, rounded"),
    (r"a negative cost \(taken as 0\)", "A negative cost, taken as 0"),
    (r"modifier (\w+) of (.+)", r"A modifier (\1) of \2"),
]
NOTE = re.compile(r"^Not checked, (?P<kind>.+?): (?P<where>.+?)(?: \((?P<times>\d+) times\))?$")


def not_checked(book: Book) -> list[dict]:
    """An imported book's `unchecked` in plain words, one row per kind: what, how often, and where
    ("Dwarven Holds 2024 > Miners"); a note that is already a sentence (Old World Builder's) is its own row."""
    rows: dict[str, dict] = {}
    for note in book.unchecked:
        found = NOTE.match(note)
        if found is None:
            rows.setdefault(note, {"what": note, "count": 0, "where": []})
            continue
        kind = found["kind"]
        what = next((re.sub(f"^{pattern}$", words, kind) for pattern, words in KIND_WORDS
                     if re.fullmatch(pattern, kind)), kind[:1].upper() + kind[1:])
        row = rows.setdefault(what, {"what": what, "count": 0, "where": []})
        row["count"] += int(found["times"] or 1)
        row["where"].append(found["where"])
    return list(rows.values())


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
