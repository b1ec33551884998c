"""The compiled rules (every book on disk, schema-checked and built) kept in the `books` cache, so a
process builds them once per rules data and code version, not once per process.

Building them from YAML takes seconds; unpickling the built Library takes about a twentieth of that.
The cache is local memory by default (then gunicorn's preload does the sharing: the master builds the
Library before it forks its workers) and Redis when REDIS_URL is set, shared by every process on every
machine. The key is a digest of the rules data files and of the engine's source, so a changed book or
a new release of the code never reads a Library built from something else.

The books built from the database (imported ones: catalogue.get_book) go through the same cache when it
is shared by processes (Redis; `shared_book`): a worker, a command or a new server reads a book another
built, unpickling it instead of building it from its stored JSON (issue 39 item 2). Their key is a digest
of the stored rows' content hashes and of the engine's source, so a book imported again with other content,
or read by other code, is built again. In local memory they are not copied into the cache (each process
keeps them in its BuiltBooks already).
"""
from __future__ import annotations

import hashlib
import logging
import os
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.core.cache import caches

from armylists.rules import Library, load_tree

logger = logging.getLogger(__name__)

CACHE_ALIAS = "books"
ENGINE_DIR = Path(__file__).resolve().parents[2] / "rules"  # the engine's source: a change of it is a new key


def fingerprint(root: Path) -> str:
    """A digest of every rules data file under `root` (names and bytes) and of the engine's source."""
    digest = hashlib.sha256()
    for base in (Path(root), ENGINE_DIR):
        suffixes = (".py",) if base == ENGINE_DIR else (".yaml", ".yml", ".json")
        for path in sorted(p for p in base.rglob("*") if p.is_file() and p.suffix in suffixes):
            digest.update(str(path.relative_to(base)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


@lru_cache(maxsize=1)
def engine_fingerprint() -> str:
    """A digest of the engine's source alone, read once per process: part of every stored book's key."""
    digest = hashlib.sha256()
    for path in sorted(p for p in ENGINE_DIR.rglob("*.py") if p.is_file()):
        digest.update(str(path.relative_to(ENGINE_DIR)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def library_key(root: Path) -> str:
    return f"library:{fingerprint(root)}"


def load_library(root: Path) -> Library:
    """The Library of `root`: from the books cache when some process built it already, else built here
    and stored for the others. A cache that cannot be reached costs only the build, never an error."""
    cache = caches[CACHE_ALIAS]
    key = library_key(root)
    try:
        stored = cache.get(key)
    except Exception:  # an unreachable cache server: build it here
        logger.warning("books cache unreachable; building the rules here", exc_info=True)
        stored = None
    if stored is not None:
        try:
            return pickle.loads(stored)
        except Exception:  # a broken entry is rebuilt, not fatal
            logger.warning("books cache entry %s unreadable; building the rules again", key, exc_info=True)
    library = load_tree(root)
    try:
        cache.set(key, pickle.dumps(library, protocol=pickle.HIGHEST_PROTOCOL), timeout=None)
    except Exception:
        logger.warning("books cache unreachable; the rules are not shared", exc_info=True)
    return library


# Caches that live in one process: a book copied into one of them would be kept twice by that process.
PER_PROCESS_BACKENDS = ("django.core.cache.backends.locmem.LocMemCache",
                        "django.core.cache.backends.dummy.DummyCache")
# A shared stored book not read for this long is dropped by the cache server (Redis expires it): a site
# that imported every date of a history keeps in Redis only the books in use, not all 1,856.
SHARED_BOOK_SECONDS = 14 * 24 * 3600


def shares_books() -> bool:
    """Whether the books cache is one that other processes read too (Redis, a file or database cache)."""
    return settings.CACHES.get(CACHE_ALIAS, {}).get("BACKEND") not in (None, *PER_PROCESS_BACKENDS)


def stored_book_key(parts: Iterable[str]) -> str:
    """The shared cache's key of a book built from the database: what it was built from (the rows' content
    hashes, the names it was given) and the engine's source."""
    digest = hashlib.sha256(engine_fingerprint().encode())
    for part in parts:
        digest.update(b"\0" + str(part).encode())
    return f"book:{digest.hexdigest()[:40]}"


def shared_book(parts: Iterable[str], build: Callable[[], object]):
    """The book built from the database, read from the shared books cache when another process built it
    (`parts`: what it is built from, `stored_book_key`), else `build()`-ed here and stored for the others.
    Without a shared cache, only `build()`. A cache that cannot be reached or an unreadable entry costs
    only the build; an error of the build itself (bad stored data) is the caller's, as before."""
    if not shares_books():
        return build()
    cache = caches[CACHE_ALIAS]
    key = stored_book_key(parts)
    try:
        stored = cache.get(key)
    except Exception:  # an unreachable cache server: build it here
        logger.warning("books cache unreachable; building %s here", key, exc_info=True)
        stored = None
    if stored is not None:
        try:
            book = pickle.loads(stored)
        except Exception:  # a broken entry is rebuilt, never fatal
            logger.warning("books cache entry %s unreadable; building it again", key, exc_info=True)
        else:
            try:  # read again within its lifetime: the server keeps it another full lifetime
                cache.touch(key, SHARED_BOOK_SECONDS)
            except Exception:
                logger.warning("books cache unreachable after reading %s", key, exc_info=True)
            return book
    book = build()
    if book is not None:
        try:
            cache.set(key, pickle.dumps(book, protocol=pickle.HIGHEST_PROTOCOL), timeout=SHARED_BOOK_SECONDS)
        except Exception:
            logger.warning("books cache unreachable; %s is not shared", key, exc_info=True)
    return book


class BuiltBooks:
    """The books built from the database in this process (catalogue.get_book), the least recently used
    dropped once their size passes a budget: a long-running worker that opened every imported book keeps
    the ones in use, not all of them (issue 39 item 2; docs/deploy.md, "Memory").

    A book's size is its pickled length, measured once when it is built (building it from its stored JSON
    costs many times more); a built book takes in memory four to six times that. The budget is
    BOOKS_MEMORY_MB (default 512) megabytes of that measure; the book just built always stays. A budget
    below what a page listing every book needs makes that page build them again each time."""

    def __init__(self, budget_bytes: int):
        self.budget = budget_bytes
        self._books: OrderedDict[tuple, tuple[object, int]] = OrderedDict()
        self.size = 0
        self._lock = threading.Lock()  # the background warm-up fills it while requests read it

    def __contains__(self, key) -> bool:
        with self._lock:
            return key in self._books

    def get(self, key):
        """The book, marked as just used; None when it is not kept."""
        with self._lock:
            found = self._books.get(key)
            if found is None:
                return None
            self._books.move_to_end(key)
            return found[0]

    def __getitem__(self, key):
        with self._lock:
            self._books.move_to_end(key)
            return self._books[key][0]

    def __setitem__(self, key, book) -> None:
        weight = len(pickle.dumps(book, protocol=pickle.HIGHEST_PROTOCOL))
        with self._lock:
            if key in self._books:
                self.size -= self._books.pop(key)[1]
            self._books[key] = (book, weight)
            self.size += weight
            while self.size > self.budget and len(self._books) > 1:
                _old, (_book, dropped) = self._books.popitem(last=False)
                self.size -= dropped

    def __len__(self) -> int:
        return len(self._books)

    def keys(self) -> list:
        with self._lock:
            return list(self._books)

    def clear(self) -> None:
        with self._lock:
            self._books.clear()
            self.size = 0


def built_books() -> BuiltBooks:
    return BuiltBooks(int(float(os.getenv("BOOKS_MEMORY_MB", "512")) * 1024 * 1024))
