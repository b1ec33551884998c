"""Make a process ready for its first request: the compiled rules, the URLconf (and with it every view
module) and the site's templates, loaded before any request arrives.

gunicorn.conf.py calls `warm()` in the master (preload: the workers fork with all of it in memory) and
again in each worker before it accepts a request (a no-op after the fork; the whole load otherwise).
"""
from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import caches
from django.db import connections
from django.template import TemplateDoesNotExist, TemplateSyntaxError
from django.template.loader import get_template
from django.urls import get_resolver

from armylists.lists.library.catalogue import disk_library, validate_roster
from armylists.rules import ListDocumentError, RulesDataError, parse_roster


def warm() -> dict[str, float | int]:
    """Load what the first request would; returns seconds per part, for the server's log."""
    took = {}
    start = time.perf_counter()
    library = disk_library()
    took["rules"] = time.perf_counter() - start
    start = time.perf_counter()
    _first_check(library)
    took["first_check"] = time.perf_counter() - start
    start = time.perf_counter()
    get_resolver().url_patterns  # imports every view module, DRF and the exports
    took["urls"] = time.perf_counter() - start
    start = time.perf_counter()
    for folder in settings.TEMPLATES[0]["DIRS"]:
        for path in sorted(folder.rglob("*.html")):
            try:
                get_template(str(path.relative_to(folder)))
            except (TemplateDoesNotExist, TemplateSyntaxError):  # a fragment only valid when included
                continue
    took["templates"] = time.perf_counter() - start
    took["books"] = len(library.books)
    # Nothing opened here may be shared with forked workers.
    connections.close_all()
    caches.close_all()
    return took


def _first_check(library) -> None:
    """Read and check an empty list of each system: compiles the list schema and each system's rules,
    which the first list read would otherwise pay for (a tenth of a second)."""
    seen = set()
    for book in library.books.values():
        if book.system.id in seen:
            continue
        seen.add(book.system.id)
        try:
            roster = parse_roster({"format": "armylist/1", "system": book.system.id, "book": book.id,
                                   "book_version": book.version, "points_limit": 1000, "units": []}, "warm-up")
            validate_roster(book, roster)
        except (ListDocumentError, RulesDataError):  # warming never stops a server from starting
            continue
