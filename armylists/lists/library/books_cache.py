"""The compiled rules (every book on disk, schema-checked and built) kept in the `books` cache, so a
process builds them once per rules data and code version, not once per process.

Building them from YAML takes seconds; unpickling the built Library takes about a twentieth of that.
The cache is local memory by default (then gunicorn's preload does the sharing: the master builds the
Library before it forks its workers) and Redis when REDIS_URL is set, shared by every process on every
machine. The key is a digest of the rules data files and of the engine's source, so a changed book or
a new release of the code never reads a Library built from something else.
"""
from __future__ import annotations

import hashlib
import logging
import pickle
from pathlib import Path

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
