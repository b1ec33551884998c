"""Old World Builder's saved lists (`.owb.json`) as our list document, for the books import_owb made.

OWB's "download" writes one list as JSON (`JSON.stringify(list)`, named `<list-name>.owb.json`). Its
shape, as OWB's code builds it (new list, add unit, edit unit, points) - no example file is in the
stored data, so the tests build one from this description:

    {"name", "description", "game": "the-old-world", "points", "army", "armyComposition",
     "compositionRule": "open-war" | "grand-melee" | "combined-arms" | "grand-melee-combined-arms" | "battle-march",
     "characters": [unit], "core": [...], "special": [...], "rare": [...], "mercenaries": [...], "allies": [...]}

A unit is the dataset's unit copied when it was added, plus:
- `id`: "<dataset unit id>.<random>"; `army`: the army a mercenary comes from;
- `strength`: its models (the minimum when added; absent for characters);
- `active: true` on each chosen equipment, armour, option, sub-option, mount and command entry
  (the "General" command makes it the General); `stackableCount` on options taken several times;
- `items[k].selected`: the magic items chosen for that allowance (each with name_en, type, points,
  and `amount` when taken several times); `command[k].magic.selected`: a champion's or standard's;
- `activeLore`, `name` (the player's own name for the unit), `customNote`, `detachments`.

Assumptions: a unit's choices are matched to our ids with the same rules that made the book
(`plan_unit`), from the copy of the unit the list carries; items by their name and kind.
"""
from __future__ import annotations

import json
import re
from typing import Any

from armylists.rules import Book, ListDocumentError, parse_roster
from armylists.rules.reading.plain_data import UnstorableData, load_json

from armylists.importers.owb.data import (CATEGORIES, SYSTEM_ID, OwbInputError, check_unit, display, item_category,
                                         item_name, name_of, slug, unmarked)
from armylists.importers.owb.units import plan_unit

MODES = {
    "open-war": [], "grand-melee": ["grand-melee"], "combined-arms": ["combined-arms"],
    "grand-melee-combined-arms": ["grand-melee", "combined-arms"], "battle-march": ["battle-march"],
}


def read_owb_list(text: bytes | str, source: str) -> dict:
    """Decode a saved list and check the fields every import needs. Decoded as the API decodes a body
    (plain_data.load_json): nesting past MAX_DEPTH, NUL, lone surrogates, NaN and numbers out of range
    are refused here, before any of it reaches a message or a page."""
    try:
        data = load_json(text)
    except UnstorableData as exc:
        raise OwbInputError(source, exc.path, exc.reason) from None
    except UnicodeDecodeError as exc:
        raise OwbInputError(source, (), f"is not UTF-8 text: {exc.reason}") from None
    except json.JSONDecodeError as exc:
        raise OwbInputError(source, (), f"is not valid JSON: {exc.msg} at line {exc.lineno}, "
                                        f"column {exc.colno}") from None
    if not isinstance(data, dict) or "army" not in data or not any(k in data for k in CATEGORIES):
        raise OwbInputError(source, (), "is not an Old World Builder list (no army and no unit categories)")
    if data.get("game") != SYSTEM_ID:
        raise OwbInputError(source, ("game",), f"is {data.get('game')!r}; only lists for {SYSTEM_ID!r} can be imported")
    if not isinstance(data["army"], str) or not data["army"]:
        raise OwbInputError(source, ("army",), "is not an army id")
    return data


def book_id(data: dict) -> str:
    """The imported book a saved list needs."""
    return f"owb-{slug(data['army'])}"


def _at(unit: dict, ref: tuple) -> dict:
    obj: Any = unit
    for part in ref:
        obj = obj[part]
    return obj


def _points_limit(data: dict, source: str) -> int:
    value = data.get("points")
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 100000:
        raise OwbInputError(source, ("points",), f"is {value!r}, not a points limit from 1 to 100000")
    return value


def convert_list(data: dict, book: Book, source: str) -> dict:
    """Our list document for `data` (read by `read_owb_list`) and its imported book."""
    army = data["army"]
    comp = data.get("armyComposition")
    composition = None
    if comp and comp != army:
        if not isinstance(comp, str) or slug(comp) not in book.compositions:
            known = ", ".join(book.compositions) or "none"
            raise OwbInputError(source, ("armyComposition",), f"{comp!r} is not a composition of {book.name} "
                                                              f"{book.version} (it has: {known})")
        composition = slug(comp)
    rule = data.get("compositionRule") or "open-war"
    if rule not in MODES:
        raise OwbInputError(source, ("compositionRule",), f"{rule!r} is not one of {', '.join(MODES)}")
    if data.get("allies"):
        raise OwbInputError(source, ("allies",), f"holds {len(data['allies'])} allied unit(s); allies come from "
                                                 f"another army's book and cannot be part of one list here")
    doc: dict[str, Any] = {"format": "armylist/1"}
    if isinstance(data.get("name"), str) and data["name"].strip():
        doc["name"] = data["name"].strip()[:200]
    doc.update(system=SYSTEM_ID, book=book.id, book_version=book.version)
    if composition:
        doc["composition"] = composition
    if MODES[rule]:
        doc["modes"] = MODES[rule]
    doc["points_limit"] = _points_limit(data, source)
    if isinstance(data.get("description"), str) and data["description"].strip():
        doc["notes"] = data["description"].strip()[:5000]
    units: list[dict] = []
    used: set[str] = set()
    for category in CATEGORIES:
        found = data.get(category) or []
        if not isinstance(found, list):
            raise OwbInputError(source, (category,), "is not a list of units")
        for i, unit in enumerate(found):
            _Unit(book, (comp or army, composition), source, (category, i), used, units).convert(unit, category)
    doc["units"] = units
    try:
        parse_roster(doc, source)
    except ListDocumentError as exc:  # too many units, a name too long...: what our document cannot hold
        raise OwbInputError(source, (), f"makes a list our format cannot hold: {exc}") from None
    return doc


class _Unit:
    """One OWB unit of a saved list (and its detachments) as units of our document."""

    def __init__(self, book: Book, composition: tuple[str, str | None], source: str, path: tuple, used: set[str],
                 out: list):
        (self.owb_composition, self.composition), self.source, self.path = composition, source, path
        self.book, self.used, self.out = book, used, out

    def fail(self, where: tuple, message: str) -> OwbInputError:
        return OwbInputError(self.source, self.path + where, message)

    def entry_for(self, unit: dict, category: str | None):
        base = slug(self.owb_id(unit))
        candidates = [base, *(f"{base}-{c}" for c in CATEGORIES)]
        if isinstance(unit.get("army"), str):
            candidates.append(f"{slug(unit['army'])}-{base}")
        found = [self.book.entries[c] for c in candidates if c in self.book.entries]
        if not found:
            raise self.fail(("id",), f"unit {self.owb_id(unit)!r} ({name_of(unit)}) is not in "
                                     f"{self.book.name} {self.book.version}")
        return next((e for e in found if e.category_in(self.composition) == category), found[0])

    @staticmethod
    def owb_id(unit: dict) -> str:
        """The dataset's unit id: OWB adds ".<random>" (a dataset id may itself hold a dot)."""
        return unit["id"].rsplit(".", 1)[0] if "." in unit["id"] else unit["id"]

    def unit_id(self, unit: dict) -> str:
        tail = unit["id"].rsplit(".", 1)[1] if "." in unit["id"] else ""
        uid = tail if re.fullmatch(r"[A-Za-z0-9_-]{1,40}", tail) else ""
        n = len(self.out) + 1
        while not uid or uid in self.used:
            uid, n = f"u{n}", n + 1
        self.used.add(uid)
        return uid

    def convert(self, unit: dict, category: str | None, label: str = "", parent: str | None = None) -> None:
        check_unit(unit, self.source, self.path)
        entry = self.entry_for(unit, category)
        plan = plan_unit(unit, entry.character)
        doc: dict[str, Any] = {"id": self.unit_id(unit), "entry": entry.id}
        if parent:  # a detachment OWB saves inside its regiment accompanies it
            doc["accompanies"] = parent
        if not entry.character:
            size = unit.get("strength") or unit.get("minimum") or entry.size_min
            if isinstance(size, str) and size.isdigit():
                size = int(size)
            if not isinstance(size, int) or isinstance(size, bool) or size < 1:
                raise self.fail(("strength",), f"is {size!r}, not a number of models")
            doc["size"] = size
        chosen: set[str] = set()
        mount = next((m for m in plan.mounts if _at(unit, m.ref).get("active")), None)
        if mount is not None:
            if mount.id not in entry.mounts:
                raise self.fail(mount.ref, f"mount {mount.name!r} is not one of {entry.name}'s in {self.book.name}")
            doc["mount"] = mount.id
            chosen.add(mount.id)
        roles = []
        for part in plan.command:
            if _at(unit, part.ref).get("active"):
                if part.role not in entry.command:
                    raise self.fail(part.ref, f"{entry.name} cannot take a {part.role} in {self.book.name}")
                roles.append(part.role)
                chosen.add(part.role)
        if roles:
            doc["command"] = [r for r in ("champion", "musician", "standard") if r in roles]
        options: dict[str, int] = {}
        for choice in plan.options:
            obj = _at(unit, choice.ref)
            # A choice not offered in the list's composition (a Runesmith's Battle Standard outside a Royal
            # Clan) is kept and priced all the same: the book's rule for that composition reports it.
            if choice.stackable:
                count = int(obj.get("stackableCount") or obj.get("minimum") or 0)
            else:
                count = 1 if obj.get("active") or (choice.always_in and self._always(choice.always_in)) else 0
            if not count or not all(r in chosen for r in choice.requires):
                continue
            if choice.id not in entry.options:
                raise self.fail(choice.ref, f"option {choice.name!r} is not an option of {entry.name} in "
                                            f"{self.book.name} {self.book.version}")
            options[choice.id] = count
            chosen.add(choice.id)
        if options:
            doc["options"] = options
        if plan.general_ref is not None and _at(unit, plan.general_ref).get("active"):
            doc["general"] = True
        items = []
        for k, slot in enumerate(unit.get("items") or []):
            items += self.items(slot.get("selected"), ("items", k, "selected"))
        for choice in plan.options:  # the Battle Standard Bearer's standard is the model's own item
            if choice.role == "bsb" and choice.id in options and isinstance(choice.magic, dict):
                selected = _at(unit, choice.ref).get("magic", {}).get("selected")
                items += self.items(selected, choice.ref + ("magic", "selected"))
        if items:
            doc["items"] = items
        for part in plan.command:
            magic = _at(unit, part.ref).get("magic")
            if part.role in roles and isinstance(magic, dict) and magic.get("selected"):
                key = {"standard": "standard_items", "champion": "champion_items"}.get(part.role, "items")
                doc[key] = doc.get(key, []) + self.items(magic["selected"], part.ref + ("magic", "selected"))
        lore = unit.get("activeLore")
        if lore:
            if slug(str(lore)) not in self.book.paths:
                raise self.fail(("activeLore",), f"lore {lore!r} is not one of {self.book.name}'s")
            doc["path"] = slug(str(lore))
        name = unit.get("name")
        if label or (isinstance(name, str) and name.strip() and name.strip() != name_of(unit)):
            doc["label"] = (label or name.strip())[:100]
        if isinstance(unit.get("customNote"), str) and unit["customNote"].strip():
            doc["notes"] = unit["customNote"].strip()[:1000]
        self.out.append(doc)
        for j, detachment in enumerate(unit.get("detachments") or []):
            _Unit(self.book, (self.owb_composition, self.composition), self.source, self.path + ("detachments", j),
                  self.used, self.out).convert(detachment, None,
                                               f"detachment of {doc.get('label') or entry.name} ({doc['id']})",
                                               doc["id"])

    def _always(self, compositions: set[str]) -> bool:
        return self.owb_composition in compositions

    def items(self, selected: Any, where: tuple) -> list[str]:
        if not selected:
            return []
        if not isinstance(selected, list):
            raise self.fail(where, "is not a list of items")
        found = []
        for j, item in enumerate(selected):
            if not isinstance(item, dict) or not name_of(item):
                raise self.fail(where + (j,), "is not an item")
            # OWB's asterisk left off both sides: a list file keeps it, and books stored before
            # IMPORTER_REVISION 4 do too.
            name, category = item_name(item).lower(), item_category(str(item.get("type", "")))
            matches = [i for i in self.book.items.values() if unmarked(display(i.name)).lower() == name]
            best = [i for i in matches if i.category == category] or matches
            if not best:
                raise self.fail(where + (j,), f"item {item_name(item)!r} is not in {self.book.name} {self.book.version}")
            amount = item.get("amount") or 1
            amount = int(amount) if str(amount).isdigit() and int(amount) > 0 else 1
            found += [best[0].id] * amount
        return found
