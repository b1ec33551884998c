"""What data a list is checked with, in words: its book and version, and the game data version (source,
release or commit, date) that book version came from (armylists/gamedata/), for the editor's report, the
report API, the PDF's legality stamp and an event's table and CSV.

    data_as_of("bs-mordheim", "bs-reiklanders-1a", "r10")
    -> {"book": "bs-reiklanders-1a", "book_version": "r10", "data_version": "BSData/mordheim release v1.0",
        "date": "2026-03-04", "text": "bs-reiklanders-1a r10, from BSData/mordheim release v1.0 of 2026-03-04"}

The data version named is the first import that brought this book version: later imports holding the
same version unchanged do not move it, so a stored list's "data as of" never changes. A book of the
site's own rules data (rules_data/) has no data version.
"""
from __future__ import annotations

from django.db import DatabaseError

from armylists.models import GameDataVersion


def data_as_of(system: str, book: str, version: str, imported: bool = True) -> dict:
    """`imported` False (a book of rules_data/) answers without asking the database."""
    found = None
    try:
        if not imported:
            raise LookupError
        versions = GameDataVersion.objects.filter(status=GameDataVersion.OK).select_related("source")
        for candidate in versions.order_by("imported_at", "id"):
            if any(b["system"] == system and b["book"] == book and b["version"] == version for b in candidate.books):
                found = candidate
                break
    except (DatabaseError, LookupError):
        found = None
    if found is None:
        return {"book": book, "book_version": version, "data_version": None, "date": None,
                "text": f"{book} {version} (this site's rules data)"}
    ref = found.ref if found.ref_kind == "release" else found.ref[:12]
    name = f"{found.source} {found.ref_kind} {ref}"
    date = f"{found.date:%Y-%m-%d}" if found.date else f"{found.imported_at:%Y-%m-%d}"
    return {"book": book, "book_version": version, "data_version": name, "date": date,
            "text": f"{book} {version}, from {name} of {date}"}
