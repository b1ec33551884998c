"""Test support for tests/battlescribe/test_battlescribe_parity.py: a list of one of our hand-written books as a list of
the book BattleScribe's catalogue of the same army imports to, matched BY NAME.

An imported book has no mounts, items, command or paths of its own kind: every choice of a unit is an
option of its entry (docs/import-battlescribe.md). So each unit's entry is found by its name, and each of
its options, its mount, magic items, command parts, Path and the General's title become options of the
imported entry with the same name, with the options they nest under (`requires`) taken too.
"""
from __future__ import annotations

import re

from armylists.rules.native.book import Book, Entry, Option

# How our command parts and the General are named in the catalogues (the 9th Age's own words).
COMMAND_NAMES = {"champion": "Champion", "musician": "Musician", "standard": "Standard Bearer"}
GENERAL_NAME = "General"  # nested in the catalogues under "Army General", which comes with it
# Tags every imported option carries, whatever group it is in.
GENERIC_TAGS = frozenset({"bs-any", "bs-type-upgrade", "bs-type-unit", "bs-type-model"})


def name_key(name: str) -> str:
    """A name as both sources may spell it: no case, spaces, punctuation or a catalogue's "XX - " prefix
    for the army's own items ("ES - Star Mace" is the Star Mace)."""
    name = re.sub(r"^[A-Z]{2,3} - ", "", name.replace("\u200b", ""))
    return re.sub(r"[^a-z0-9]", "", name.lower())


class Translator:
    def __init__(self, ours: Book, imported: Book, aliases: dict[str, str] | None = None,
                 option_aliases: dict[tuple[str, str], str] | None = None):
        self.ours, self.imported = ours, imported
        # (imported entry's name, our choice's name) -> the imported option's id, where the catalogue gives
        # two options one name and only the id tells which is meant
        self.option_aliases = option_aliases or {}
        self.aliases = {name_key(k): name_key(v) for k, v in (aliases or {}).items()}
        self.entries: dict[str, list[Entry]] = {}
        for entry in imported.entries.values():
            self.entries.setdefault(name_key(entry.name), []).append(entry)
        # "Entry > choice" of our lists that the imported entry has no option of that name for: such a
        # choice is kept as an option the imported book does not know, which it reports as illegal.
        self.missing: list[str] = []

    def key(self, name: str) -> str:
        key = name_key(name)
        return self.aliases.get(key, key)

    def entry(self, ours: Entry) -> Entry:
        """The imported entry of our entry's name (every unit of our two books has one: a KeyError says
        which not); of two (a catalogue's Yetis as Special and as Rare), the one in our entry's category."""
        named = self.entries[self.key(ours.name)]
        return next((e for e in named if e.category == ours.category), named[0])

    def document(self, doc: dict) -> dict:
        units = [self.unit(u) for u in doc["units"]]
        return {**doc, "system": self.imported.system.id, "book": self.imported.id,
                "book_version": self.imported.version, "units": units}

    def unit(self, unit: dict) -> dict:
        ours = self.ours.entries[unit["entry"]]
        theirs = self.entry(ours)
        chosen: dict[str, int] = {}
        for option_id, count in unit.get("options", {}).items():
            self.take(theirs, ours.options[option_id].name, chosen, count)
        if unit.get("mount"):
            self.take(theirs, ours.mounts[unit["mount"]].mount.name, chosen)
        for item in [*unit.get("items", []), *unit.get("standard_items", []), *unit.get("champion_items", [])]:
            self.take(theirs, self.ours.items[item].name, chosen)
        for role in unit.get("command", []):
            self.take(theirs, COMMAND_NAMES[role], chosen)
        if unit.get("path"):
            self.take(theirs, {**self.ours.system.paths, **self.ours.paths}.get(unit["path"], unit["path"]), chosen)
        if unit.get("general"):
            self.take(theirs, GENERAL_NAME, chosen)
        self.take_equipment(ours, theirs, chosen)
        out = {"id": unit["id"], "entry": theirs.id, "options": chosen}
        if unit.get("size") is not None:
            out["size"] = unit["size"]
        return out

    def take(self, entry: Entry, name: str, chosen: dict[str, int], count: int = 1) -> None:
        """The option of that name: of several, the first whose `requires` are already chosen, else the
        first at the top; the options it requires are taken with it."""
        if (entry.name, name) in self.option_aliases:
            self.take_option(entry, entry.options[self.option_aliases[entry.name, name]], chosen, count)
            return
        named = [o for o in entry.options.values() if self.key(o.name) == self.key(name)]
        if not named:
            self.missing.append(f"{entry.name} > {name}")
            chosen["not-in-catalogue-" + self.key(name)] = count
            return
        option = next((o for o in named if o.requires and all(r in chosen for r in o.requires)),
                      next((o for o in named if not o.requires), named[0]))
        self.take_option(entry, option, chosen, count)

    def take_option(self, entry: Entry, option: Option, chosen: dict[str, int], count: int = 1) -> None:
        for required in option.requires:
            if required not in chosen:
                self.take_option(entry, entry.options[required], chosen)
        chosen[option.id] = max(chosen.get(option.id, 0), count)  # a banner took its Standard Bearer already

    def take_equipment(self, ours: Entry, theirs: Entry, chosen: dict[str, int]) -> None:
        """Our entry's own equipment that the catalogue makes a selection (BattleScribe selects it by default,
        and its constraints then count it, "at least 1 Close Combat Weapon per model"), unless a choice of
        the list took another option of its group (shares a tag) instead."""
        taken = [theirs.options[o] for o in chosen if o in theirs.options]
        pieces = {self.key(p) for p in ours.equipment}
        for option in theirs.options.values():
            # one option may be several pieces ("Lance & Shield")
            if option.requires or option.id in chosen or not all(
                    self.key(part) in pieces for part in option.name.split(" & ")):
                continue
            if not any((option.tags & other.tags) - GENERIC_TAGS for other in taken):
                self.take_option(theirs, option, chosen)
                taken.append(option)
