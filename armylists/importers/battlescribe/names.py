"""Ids for what the importer makes: slugs of BattleScribe's names, unique within a book or an entry."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache


@lru_cache(maxsize=1 << 16)  # a shared entry's name is made an id once per unit that links it
def slug(text: str) -> str:
    text = unicodedata.normalize("NFKD", re.sub(r"['’`]", "", text)).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or "x"


class Ids:
    """Unique slugs from names, in the order asked."""
    def __init__(self) -> None:
        self.used: set[str] = set()

    def __call__(self, name: str) -> str:
        base = slug(name)
        found, n = base, 2
        while found in self.used:
            found, n = f"{base}-{n}", n + 1
        self.used.add(found)
        return found
