"""Make a process ready for its first request: the compiled rules, the URLconf (and with it every view
module) and the site's templates, loaded before any request arrives.

gunicorn.conf.py calls `warm()` in the master (preload: the workers fork with all of it in memory) and
again in each worker before it accepts a request (a no-op after the fork; the whole load otherwise).

The imported books (the database's: about 120 on a site with the community data, seconds to build) are not
built before listening: in each worker, after the fork, a background thread builds them one by one while
the worker already answers (issue 39 item 2), pausing between books so a request waits for the GIL at most
one book's build, and stopping at the built books' size budget (books_cache.BuiltBooks). A request that
needs a book not built yet builds it itself, as before. With Redis (REDIS_URL) a book some process built
before is read from the books cache instead of built (books_cache.shared_book): a fresh worker's warm-up
then unpickles what the first worker built.
"""
from __future__ import annotations

import logging
import os
import threading
import time

from django.conf import settings
from django.core.cache import caches
from django.db import connections
from django.template import TemplateDoesNotExist, TemplateSyntaxError
from django.template.loader import get_template
from django.urls import get_resolver

from armylists.lists.library import catalogue
from armylists.lists.library.catalogue import disk_library, validate_roster
from armylists.rules import ListDocumentError, RulesDataError, parse_roster


logger = logging.getLogger(__name__)
_warmed_in: list[int] = []  # the processes warm() ran in: a second call in a new one is a forked worker
PAUSE = 0.05  # seconds the background warm-up sleeps between two books


def warm() -> dict[str, float | int]:
    """Load what the first request would; returns seconds per part, for the server's log. Called again in
    a process forked from one it warmed (a gunicorn worker), it starts the imported books' warm-up there."""
    if _warmed_in and os.getpid() not in _warmed_in:
        warm_imported_in_background()
    _warmed_in.append(os.getpid())
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


def warm_imported_in_background() -> threading.Thread:
    thread = threading.Thread(target=warm_imported, name="warm-imported-books", daemon=True)
    thread.start()
    return thread


def warm_imported(pause: float = PAUSE) -> int:
    """Build the newest version of each imported book until the built books' budget is nearly spent;
    returns how many it built. Never raises: a book that does not build is left to the request that asks."""
    built = 0
    try:
        for key in catalogue.imported_book_keys():
            if catalogue._stored_books.size > 0.8 * catalogue._stored_books.budget:
                break
            try:
                if catalogue.get_book(*key) is not None:
                    built += 1
            except Exception:  # noqa: BLE001 -- warming never fails a worker
                logger.warning("warm-up: %s did not build", key, exc_info=True)
            time.sleep(pause)
    except Exception:  # noqa: BLE001 -- an unreachable database: the requests will say so
        logger.warning("warm-up of the imported books stopped", exc_info=True)
    finally:
        connections.close_all()  # this thread's own connections
    return built
