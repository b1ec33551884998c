"""Ids for what the importer makes: slugs of BattleScribe's names, unique within a book or an entry."""
from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache

ID_LENGTH = 80  # a stored system's or book's id (RulesFile.system and .slug, 80 characters on every database)


@lru_cache(maxsize=1 << 16)  # a shared entry's name is made an id once per unit that links it
def slug(text: str) -> str:
    text = unicodedata.normalize("NFKD", re.sub(r"['’`]", "", text)).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or "x"


def capped_id(prefix: str, name: str) -> str:
    """`prefix` and the name's slug, at most ID_LENGTH characters: a longer one (a name of 5,000 characters,
    which PostgreSQL refused to store) is cut and ends with a short hash of the whole, so two stay apart."""
    found = prefix + slug(name)
    if len(found) > ID_LENGTH:
        found = found[:ID_LENGTH - 9].rstrip("-") + "-" + hashlib.sha1(found.encode()).hexdigest()[:8]
    return found


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


def profile_text(node: dict, profiles: dict[str, dict]) -> list[str]:
    """A node's profiles as lines of text ("Knight: M 8, Ld 8"), its own then those its info links name."""
    lines = []
    for p in node["profiles"]:
        values = ", ".join(f"{k} {v}" for k, v in p["characteristics"] if v)
        if values:
            lines.append(f"{p['name']}: {values}")
    for target, kind, _ in node.get("info_links", ()):
        if kind == "profile" and target in profiles:
            p = profiles[target]
            lines.append(f"{p['name']}: " + ", ".join(f"{k} {v}" for k, v in p["characteristics"] if v))
    return lines
