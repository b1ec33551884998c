"""A list of The Old World as Old World Builder keeps it: its saved list (`.owb.json`) and what OWB sends to
Battle Tavern (issue 42 item 6).

OWB's code (github.com/nthiebes/old-world-builder, commit 4f78d6b4; read, not copied) keeps every list in
the browser's storage under "owb.lists" (a JSON text of an array of lists); its download is one list,
`JSON.stringify(list)`; and its Battle Tavern page (src/pages/battle-tavern/BattleTavern.jsx) POSTs a form
with one field, `data`: the JSON of the whole storage, `{"owb.lists": "<that text>", ...}`, to
`http://127.0.0.1:47823/import`, where the desktop game listens on the player's own machine.

One list, as OWB's "new list" and "add unit" make it (src/pages/new-list/NewList.jsx, src/pages/add/Add.jsx,
src/state/lists.js):

    {"name", "description", "game": "the-old-world", "points", "army", "armyComposition", "compositionRule",
     "characters": [unit], "core", "special", "rare", "mercenaries", "allies", "id": "<letters>"}

A unit is the army dataset's unit copied ("id": "<unit id>.<random>") with `strength`, `active: true` on
each chosen equipment, armour, option, mount and command part, `stackableCount`, `items[k].selected`,
`command[k].magic.selected`, `activeLore`, `name`, `customNote` and `detachments`. We do not keep OWB's
dataset, so each unit is written from our book's entry, in the places OWB's unit has them and in the order
the book importer read them (importers/owb/units.py, `plan_unit`): an entry's "weapons" group is OWB's
`equipment`, its "armour" group `armor`, a choice that requires another is that one's sub-option, and so
on. So the list importer (importers/owb/lists.py) reads a list of a book imported from OWB back to the
same list; tests/exports/test_owb_list.py checks it. A list of one of our own Old World books is written
the same way, with our names.

Not written: OWB's translations, rules text and notes (the dataset's, which the game has already). A
roster tree of New Recruit's Old World data is first made a list of a book of its army (owb_tree.py).
"""
from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from armylists.rules import Book, Roster
from armylists.rules.native.book import Entry, Option
from armylists.rules.reading.roster import RosterUnit

SYSTEM = "the-old-world"
IMPORTED_PREFIX = "owb-"  # the books `import_owb` makes: "owb-<OWB's army id>"
CATEGORIES = ("characters", "core", "special", "rare", "mercenaries", "allies")  # OWB's, in its order
STORAGE_KEY = "owb.lists"  # where OWB keeps its lists, and the key Battle Tavern reads
# OWB's item types of the system's item categories (importers/owb/data.py reads them the other way);
# a book's own category (runes, virtues...) is OWB's type by the same name.
ITEM_TYPES = {"weapon": "weapon", "armour": "armor", "talisman": "talisman", "enchanted": "enchanted-item",
              "arcane": "arcane-item", "standard": "banner"}


def item_type(category: str) -> str:
    """OWB's type of an item category: the system's by the table, a book's own by its id in OWB's spelling
    ("armour-runes" of our Dwarfs is OWB's "armor-runes"; an imported book's ids are OWB's already)."""
    return ITEM_TYPES.get(category) or category.replace("armour", "armor")


# Our list's matched-play modes as OWB's one composition rule (the importer's MODES, the other way).
RULES = {(): "open-war", ("grand-melee",): "grand-melee", ("combined-arms",): "combined-arms",
         ("combined-arms", "grand-melee"): "grand-melee-combined-arms", ("battle-march",): "battle-march"}
# What OWB calls the command parts; the importer finds each role by the word in its name.
COMMAND_NAMES = {"champion": "Champion", "standard": "Standard bearer", "musician": "Musician"}
WEAPONS, ARMOUR, TOP_CHOICE, COMMAND_CHOICE = "weapons", "armour", "options", "command-choice"
COMPOSITION_MARK = re.compile(r"^(.*) \(([a-z0-9-]+(?:, [a-z0-9-]+)*)\)$")


def writes_owb(plays: str) -> bool:
    """A list of The Old World (`plays`: the game its kind says it is, lists/kinds.py) is written as OWB
    keeps it, where its kind writes OWB's list."""
    return plays == SYSTEM


def army_id(book: Book) -> str:
    """OWB's id of the army: an imported book's is in its id; our own books use OWB's ids already."""
    return book.id.removeprefix(IMPORTED_PREFIX)


def owb_list(book: Book, roster: Roster, allies: Book | None = None) -> dict[str, Any]:
    """The list as one list object of OWB's."""
    data: dict[str, Any] = {"name": roster.name or book.name, "description": roster.notes, "game": SYSTEM,
                            "points": roster.points_limit, "army": army_id(book)}
    data.update({category: [] for category in CATEGORIES})
    children: dict[str, list[RosterUnit]] = {}
    for unit in roster.units:
        if unit.accompanies:  # a Detachment: OWB keeps it inside its regiment
            children.setdefault(unit.accompanies, []).append(unit)
    for unit in roster.units:
        if unit.accompanies and any(u.id == unit.accompanies for u in roster.units):
            continue
        own = allies if unit.allied else book
        if own is None or unit.entry not in own.entries:
            continue  # an entry the book no longer has: nothing OWB could show for it
        entry = own.entries[unit.entry]
        written = _Unit(own, roster.composition).write(unit, entry)
        written["detachments"] = [_Unit(own, roster.composition).write(child, own.entries[child.entry])
                                  for child in children.get(unit.id, []) if child.entry in own.entries]
        if unit.allied:
            written["army"] = army_id(own)
            data["allies"].append(written)
        else:
            category = entry.category_in(roster.composition)
            data[category if category in CATEGORIES else "characters" if entry.character else "core"].append(written)
    data["id"] = _letters(json.dumps([roster.name, roster.book, [u.id for u in roster.units]]))
    data["armyComposition"] = roster.composition or data["army"]
    data["compositionRule"] = RULES.get(tuple(sorted(roster.modes)), "open-war")
    return data


def owb_file(book: Book, roster: Roster, allies: Book | None = None) -> str:
    """OWB's download of one list (`<name>.owb.json`), which its Import page reads."""
    return json.dumps(owb_list(book, roster, allies), ensure_ascii=False) + "\n"


def battle_tavern_data(book: Book, roster: Roster, allies: Book | None = None) -> str:
    """The form field `data` OWB posts to Battle Tavern: its storage, of which the game reads the lists
    (a JSON text inside the JSON, as the browser's storage holds it)."""
    return json.dumps({STORAGE_KEY: json.dumps([owb_list(book, roster, allies)], ensure_ascii=False)},
                      ensure_ascii=False)


def battle_tavern_url(port: int) -> str:
    """Where Battle Tavern listens: the player's own machine, never this site's server."""
    return f"http://127.0.0.1:{port}/import"


def _letters(text: str) -> str:
    """An id of lowercase letters, as OWB's `getRandomId` makes them, but the same for the same list."""
    return "".join(chr(ord("a") + int(c, 16)) for c in hashlib.sha1(text.encode()).hexdigest()[:10])


def _choice(option: Option, count: int, compositions: set[str] | None = None) -> dict[str, Any]:
    name = option.name
    marked = COMPOSITION_MARK.match(name)
    if marked and compositions:  # OWB's name, once per composition: the composition tells them apart
        name = marked.group(1)
    obj: dict[str, Any] = {"name_en": name, "points": option.cost, "perModel": option.per_model}
    if compositions:
        obj["armyComposition"] = {c: {} for c in sorted(compositions)}
    if option.max > 1:  # OWB's stackable option: taken `stackableCount` times
        obj.update(stackable=True, maximum=option.max, stackableCount=count)
    obj["active"] = bool(count)
    return obj


def _marked_twice(entry: Entry) -> dict[str, set[str]]:
    """The compositions in the names of choices OWB's unit has under one name, once per composition
    ("Ambushers (wild-herd)"): the importer marks a name so only when it is not the entry's only one."""
    found = {oid: COMPOSITION_MARK.match(o.name) for oid, o in entry.options.items()}
    names = [m.group(1) for m in found.values() if m]
    return {oid: set(m.group(2).split(", ")) for oid, m in found.items()
            if m and (names.count(m.group(1)) > 1 or m.group(1) in {o.name for o in entry.options.values()})}


class _Unit:
    """One unit of our list as OWB's unit: its entry's choices in the places OWB's unit has them."""

    def __init__(self, book: Book, composition: str | None):
        self.book, self.composition = book, composition

    def write(self, unit: RosterUnit, entry: Entry) -> dict[str, Any]:
        taken = dict(unit.options)
        out: dict[str, Any] = {"name_en": entry.name, "id": f"{entry.id}.{unit.id}", "points": entry.points}
        if not entry.character:
            out.update(minimum=entry.size_min, maximum=entry.size_max or 0, strength=unit.size or entry.size_min)
        places: dict[str, list] = {"command": [], "equipment": [], "armor": [], "options": [], "mounts": []}
        if entry.character:
            places["command"].append({"name_en": "General", "points": 0, "active": unit.general})
        made: dict[str, dict] = {}  # option, mount and role ids -> the OWB object a sub-option goes into
        for role, part in entry.command.items():
            obj = {"name_en": COMMAND_NAMES.get(role, role.capitalize()), "points": part.cost,
                   "active": role in unit.command}
            if part.items is not None:
                chosen = unit.standard_items if role == "standard" else unit.champion_items if role == "champion" else ()
                obj["magic"] = {**self._slot(part.items), "selected": self._items(chosen, entry)}
            places["command"].append(obj)
            made[role] = obj
        bsb_items, own_items = self._split_standard(unit, entry)
        folded: dict[str, dict] = {}  # a folded parent (OWB's always-active option) by its group id
        marked = _marked_twice(entry)
        for oid, option in entry.options.items():
            obj = _choice(option, taken.get(oid, 0), marked.get(oid))
            parent = option.requires[0] if len(option.requires) == 1 else None
            if option.role == "bsb":
                obj["magic"] = {"types": [ITEM_TYPES["standard"]], "selected": bsb_items}
                places["command"].append(obj)
            elif parent in made:
                if option.group:
                    obj["exclusive"] = True
                made[parent].setdefault("options", []).append(obj)
            elif option.group == WEAPONS and not option.requires:
                places["equipment"].append(obj)
            elif option.group == ARMOUR and not option.requires:
                places["armor"].append(obj)
            elif option.group == COMMAND_CHOICE:
                obj["exclusive"] = True
                places["command"].append(obj)
            elif option.group == TOP_CHOICE or option.group is None:
                if option.group:
                    obj["exclusive"] = True
                places["options"].append(obj)
            else:  # the choices of a default OWB always takes ("Level 1 Wizard": its higher levels)
                group = entry.groups.get(option.group)
                if option.group not in folded:
                    folded[option.group] = {"name_en": group.name if group else option.group, "points": 0,
                                            "alwaysActive": True, "active": True, "options": []}
                    places["options"].append(folded[option.group])
                folded[option.group]["options"].append({**obj, "exclusive": True})
            made[oid] = obj
        if entry.mounts:
            if not entry.mount_required:
                places["mounts"].append({"name_en": "On foot", "points": 0, "active": unit.mount is None})
            for mid, choice in entry.mounts.items():
                obj = {"name_en": choice.mount.name, "points": choice.cost, "active": unit.mount == mid}
                places["mounts"].append(obj)
                made[mid] = obj
            self._move_mount_options(places, made, entry)
        for objs in places.values():  # OWB numbers each list's choices when it loads the army (updateIds)
            for n, obj in enumerate(objs):
                obj["id"] = n
        out.update(places)
        out["items"] = [{"name_en": "Magic Items", **self._slot(entry.items), "selected": own_items}] if entry.items else []
        if entry.paths:
            out["lores"] = list(entry.paths)
        if unit.path:
            out["activeLore"] = unit.path
        if unit.label:
            out["name"] = unit.label
        if unit.notes:
            out["customNote"] = unit.notes
        out["unitType"] = entry.category_in(self.composition)
        out["magicItemsArmy"] = army_id(self.book)
        return out

    def _move_mount_options(self, places: dict[str, list], made: dict[str, dict], entry: Entry) -> None:
        """A choice that requires a mount was met before the mounts were written: move it under its mount."""
        for oid, option in entry.options.items():
            parent = option.requires[0] if len(option.requires) == 1 else None
            if parent in entry.mounts and made[oid] in places["options"]:
                places["options"].remove(made[oid])
                if option.group:
                    made[oid]["exclusive"] = True
                made[parent].setdefault("options", []).append(made[oid])

    def _split_standard(self, unit: RosterUnit, entry: Entry) -> tuple[list, list]:
        """A Battle Standard Bearer's magic standard is carried under the BSB's command part in OWB."""
        bsb = next((oid for oid, o in entry.options.items() if o.role == "bsb"), None)
        standards = [i for i in unit.items if bsb and dict(unit.options).get(bsb)
                     and i in self.book.items and self.book.items[i].category == "standard"]
        rest = list(unit.items)
        for item in standards:
            rest.remove(item)
        return self._items(tuple(standards), entry), self._items(tuple(rest), entry)

    def _slot(self, access) -> dict[str, Any]:
        access = access.in_composition(self.composition)
        slot: dict[str, Any] = {"types": sorted(item_type(c) for c in access.categories or ())}
        if access.allowance is not None:
            slot["maxPoints"] = access.allowance
        return slot

    def _items(self, ids: tuple[str, ...] | list[str], entry: Entry) -> list[dict[str, Any]]:
        """The chosen items, one object each; an item taken more than once is one object with its `amount`."""
        out: list[dict[str, Any]] = []
        for iid in dict.fromkeys(ids):
            item = self.book.items.get(iid)
            if item is None:
                continue
            obj: dict[str, Any] = {"name_en": item.name, "name": item.name.lower(), "type": item_type(item.category),
                                   "points": item.price_for(entry.category)}
            if list(ids).count(iid) > 1:
                obj["amount"] = list(ids).count(iid)
            out.append(obj)
        return out
