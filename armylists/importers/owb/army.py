"""One OWB army as one book dict of our format (used by `owb.convert`).

`ArmyConverter` gathers the army's units (and the mercenaries it hires from other armies' files), makes
one entry per unit with `units.plan_unit`, then its items and allowances (`magic.py`), its rules
per composition and the `unchecked` lines (`rules.py`), and assembles the book.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from armylists.rules.native.book import System

from armylists.importers.owb.data import (
    CATEGORIES, CREDIT, SYSTEM_FILE, SYSTEM_ID, SYSTEM_ITEM_TYPES, Dataset, OwbInputError, display, english,
    name_of, slug, title,
)
from armylists.importers.owb.compositions import SOURCE as PERCENT_SOURCE
from armylists.importers.owb.magic import GENERAL_GROUP, MagicMixin, convert_item
from armylists.importers.owb.rules import RulesMixin
from armylists.importers.owb.units import UnitPlan, plan_unit, points

TROOP_TYPE = "regular-infantry"  # OWB has no troop types; the book's `unchecked` says so
MOUNT_TROOP_TYPE = "heavy-cavalry"

__all__ = ["ArmyConverter", "ArmyReport", "GENERAL_GROUP", "convert_item"]


@dataclass
class ArmyReport:
    army: str
    book: str
    name: str
    units: int  # the dataset's units of this army
    mercenaries: int  # units hired from other armies' files
    entries: int
    items: int  # the book's own items
    groups: dict[str, int]  # item group -> items the book took from it
    rules: int
    unchecked: list[str]


class ArmyConverter(MagicMixin, RulesMixin):
    def __init__(self, dataset: Dataset, system: System, army_id: str, common: dict[str, dict]):
        self.dataset, self.system, self.army_id, self.common = dataset, system, army_id, common
        self.record = dataset.army(army_id)
        self.data = dataset.armies[army_id]
        self.grand = army_id
        self.comps = list(dict.fromkeys([army_id, *(self.record.get("armyComposition") or [])]))
        self.notes: dict[str, set[str]] = {}
        self.unparsed: dict[tuple[str, str], list[str]] = {}
        self.entries: list[dict] = []
        self.units: list[tuple[dict, dict, UnitPlan, set[str], bool]] = []
        self.rules: dict[str, dict[str, dict]] = {c: {} for c in self.comps}
        self.mounts: dict[str, dict] = {}
        self.tags: dict[str, set[str]] = {}
        self.lores: set[str] = set()
        self.caps: dict[str, int] = {}  # book item type -> how many one model may carry
        self.groups: list[str] = []
        self.bsb_allowance: int | None = None
        # The tag the system's item allowance rule reads: a Battle Standard Bearer's standard is outside it.
        self.outside_tag = next((r.params.get("standard_outside_allowance_tag") for r in system.rules
                                 if r.type == "item_allowance"), None)
        self.foreign = False  # the unit being added is a mercenary from another army's file
        self.forbidden: dict[str, dict[tuple, list[str]]] = {}  # composition -> what it does not offer
        self.percent_known: set[str] = set()  # compositions whose category percentages OWB's code gives
        self.replaced: list[str] = []  # system rules the book replaces (its own Grand Army percentages)

    def note(self, topic: str, detail: str) -> None:
        self.notes.setdefault(topic, set()).add(detail)

    # -- the whole book ----------------------------------------------------------------------------
    def convert(self) -> tuple[dict, ArmyReport]:
        collected = self._collect()
        self.groups = self._groups(collected)
        for eid, unit, category, own, army in collected:
            self._add(eid, unit, category, own, army)
        items, provenance = self._items()
        self._note_rules()
        self._forbid_rules()
        book = self._book(items)
        own = sum(1 for c in collected if c[3])
        report = ArmyReport(self.army_id, book["id"], book["name"], own, len(collected) - own, len(book["entries"]),
                            len(items), provenance, len(book.get("rules", [])) +
                            sum(len(c.get("rules", [])) for c in book.get("compositions", [])), book["unchecked"])
        return book, report

    def _collect(self) -> list[tuple[str, dict, str, bool, str]]:
        used: set[str] = set()
        out = []
        for category in CATEGORIES:
            for unit in self.data.get(category, []):
                base = slug(unit["id"])
                eid, n = (base if base not in used else f"{base}-{category}"), 2
                while eid in used:
                    eid, n = f"{base}-{category}-{n}", n + 1
                used.add(eid)
                out.append((eid, unit, category, True, self.army_id))
        hired = self.record.get("mercenaries") or {}
        seen: set[tuple[str, str]] = set()
        for comp in self.comps:
            for group in hired.get(comp, []):
                army = group.get("army")
                if army == self.army_id:
                    continue
                where = ("armies", self.army_id, "mercenaries", comp)
                if army not in self.dataset.armies:
                    raise OwbInputError(str(self.dataset.system_path or self.dataset.folder / SYSTEM_FILE), where,
                                        f"names army {army!r}, which the system file does not have")
                for uid in group.get("units", []):
                    if (army, uid) in seen:
                        continue
                    seen.add((army, uid))
                    unit = self._find(army, uid)
                    if unit is None:
                        raise OwbInputError(str(self.dataset.system_path or self.dataset.folder / SYSTEM_FILE), where,
                                            f"names unit {uid!r} of {army}, which its file does not have")
                    eid, n = (slug(uid) if slug(uid) not in used else f"{slug(army)}-{slug(uid)}"), 2
                    while eid in used:
                        eid, n = f"{slug(army)}-{slug(uid)}-{n}", n + 1
                    used.add(eid)
                    out.append((eid, unit, "mercenaries", False, army))
        return out

    def _find(self, army: str, uid: str) -> dict | None:
        data = self.dataset.armies[army]
        return next((u for cat in ("mercenaries", *CATEGORIES) for u in data.get(cat, []) if u["id"] == uid), None)

    def _groups(self, collected: Iterable[tuple]) -> list[str]:
        """The item groups the book's own items come from: its army's, other armies' its units may use
        (magicItemsArmy), and those of the item kinds its units take (runes, virtues...)."""
        items = self.dataset.items
        groups = [g for g in self.record.get("items") or [] if g != GENERAL_GROUP and g in items]
        types: set[str] = set()
        for _, unit, _, _, _ in collected:
            slots = [*(unit.get("items") or []), unit.get("magic") or {},
                     *((c.get("magic") or {}) for c in unit.get("command") or [])]
            for slot in slots:
                if isinstance(slot, dict):
                    types.update(slot.get("types") or [])
                    if slot.get("magicItemsArmy") in items and slot["magicItemsArmy"] not in groups:
                        groups.append(slot["magicItemsArmy"])
            if unit.get("magicItemsArmy") in items and unit["magicItemsArmy"] not in groups:
                groups.append(unit["magicItemsArmy"])
        kinds = self.dataset.group_types()
        # Only groups of item-like kinds alone (runes, virtues, gifts) come in for a kind: an army's
        # magic items do not come in because a unit may take Wizards' armour, which that army also has.
        item_like = {g for g, ts in kinds.items() if not ts & (set(SYSTEM_ITEM_TYPES) | {"armor-mages"})}
        for t in sorted(types - set(SYSTEM_ITEM_TYPES)):
            if not any(t in kinds[g] for g in groups):
                groups.extend(g for g in sorted(item_like) if t in kinds[g] and g not in groups)
        return groups

    # -- one unit ----------------------------------------------------------------------------------
    def _available(self, unit: dict, category: str, own: bool, army: str) -> set[str]:
        if category == "mercenaries":
            hired = self.record.get("mercenaries") or {}
            return {c for c in self.comps for g in hired.get(c, [])
                    if g.get("army") == army and unit["id"] in g.get("units", [])}
        if not isinstance(unit.get("armyComposition"), dict):
            return set(self.comps)
        return {c for c in unit["armyComposition"] if c in self.comps}

    def _add(self, eid: str, unit: dict, category: str, own: bool, army: str) -> None:
        character = category == "characters"
        plan = plan_unit(unit, character)
        self.foreign = not own
        if not own:  # a mercenary from another army: its compositions are that army's, not ours
            for choice in plan.options:
                choice.compositions = None
            for mount in plan.mounts:
                mount.compositions = None
        for topic, detail in plan.notes:
            self.note(topic, detail)
        entry: dict[str, Any] = {"id": eid, "name": name_of(unit), "category": category, "troop_type": TROOP_TYPE,
                                 "points": points(unit) + sum(f.cost for f in plan.folded if f.per_model)}
        flat = sum(f.cost for f in plan.folded if not f.per_model)
        if flat:
            entry["base_points"] = flat
        if not character:
            entry["size"] = self._size(unit)
        comps = self._available(unit, category, own, army)
        cats = {c: v["category"] for c, v in (unit.get("armyComposition") or {}).items()
                if own and category != "mercenaries" and isinstance(v, dict)
                and v.get("category") in self.system.category_names and c in self.comps}
        entry["category"] = cats.get(self.grand, category)
        moved = {slug(c): cat for c, cat in cats.items() if c != self.grand and cat != entry["category"]}
        if moved:
            entry["composition_categories"] = moved
        equipment = sorted({e for f in plan.folded for e in f.equipment})
        if equipment:
            entry["equipment"] = equipment
        special = [display(r) for r in english(unit.get("specialRules")).split(",") if display(r)]
        if special:
            entry["rules"] = special
        lowered = {r.lower().split(" (")[0] for r in special}
        self.tags[eid] = ({"named"} if unit.get("named") else set()) | {
            tag for tag, rule in (("loner", "loner"), ("large-target", "large target")) if rule in lowered}
        self._magic_and_wizard(entry, unit, plan)
        self._choices(entry, plan)
        self.entries.append(entry)
        self.units.append((entry, unit, plan, comps, own))
        if set(self.comps) - comps:
            self._forbid({"entry": eid}, entry["name"], set(self.comps) - comps)
        if plan.general_compositions is not None and comps - plan.general_compositions:
            # OWB lets some characters lead only some compositions (a Witch Hunter is no Knightly Order's General)
            self._forbid({"entry": eid, "general": True}, f"{entry['name']} as General",
                         comps - plan.general_compositions)
        if unit.get("detachment"):
            self.note("detachment", entry["name"])

    @staticmethod
    def _size(unit: dict) -> dict:
        """OWB's minimum and maximum (0: no maximum); neither: one model (a war machine, a monster); a
        detachment's from its own bounds."""
        low, high = int(unit.get("minimum") or 0), int(unit.get("maximum") or 0)
        if unit.get("detachment") and not low and not high:
            low, high = int(unit.get("minDetachmentSize") or 1), int(unit.get("maxDetachmentSize") or 0)
            return {"min": low, **({"max": max(high, low)} if high else {})}
        if not low and not high:
            return {"min": 1, "max": 1}
        return {"min": max(low, 1), **({"max": max(high, low, 1)} if high else {})}

    def _choices(self, entry: dict, plan: UnitPlan) -> None:
        options = []
        for c in plan.options:
            o: dict[str, Any] = {"id": c.id, "name": c.name, "cost": c.cost}
            for key, value in (("per_model", c.per_model), ("group", c.group), ("requires", list(c.requires)),
                               ("equipment", list(c.equipment)), ("wizard_level", c.wizard_level), ("role", c.role)):
                if value:
                    o[key] = value
            if c.max > 1:
                o["max"] = c.max
            if c.role == "bsb" and self.bsb_allowance is not None:
                o["item_allowance"] = self.bsb_allowance
            elif c.role == "bsb" and c.magic and c.magic.get("types") and self.outside_tag:
                o["tags"] = [self.outside_tag]  # its magic standard is outside the allowance
            options.append(o)
            if c.compositions is not None and set(self.comps) - c.compositions:
                self._forbid({"entry": entry["id"], "option": c.id}, c.name,
                             set(self.comps) - c.compositions)
        if options:
            entry["options"] = options
        groups = {gid: g for gid, g in plan.groups.items() if any(o.get("group") == gid for o in options)}
        if groups:
            entry["groups"] = groups
        mounts = []
        for m in plan.mounts:
            known = self.mounts.setdefault(m.id, {"id": m.id, "name": m.name, "troop_type": MOUNT_TROOP_TYPE})
            if m.large_target:
                known["tags"] = ["large-target"]
            mounts.append({"mount": m.id, "cost": m.cost})
            if m.compositions is not None and set(self.comps) - m.compositions:
                self._forbid({"entry": entry["id"], "mount": m.id}, m.name,
                             set(self.comps) - m.compositions)
        if mounts:
            entry["mounts"] = mounts
            if plan.mount_default and not plan.on_foot:
                entry["mount_required"] = True
        command = {}
        for part in plan.command:
            command[part.role] = {"cost": part.cost}
            access = self._access([part.magic] if isinstance(part.magic, dict) else [])
            if access:
                command[part.role]["magic_items"] = access
        if command:
            entry["command"] = command

    # -- the book ----------------------------------------------------------------------------------
    def _book(self, items: list[dict]) -> dict:
        book_rules, compositions = self._assembled_rules()
        self._tag_entries()
        item_categories = self._item_categories()
        book: dict[str, Any] = {
            "kind": "book", "id": f"owb-{self.army_id}",
            "name": f"{display(self.record.get('name_en') or title(self.army_id))} (Old World Builder)",
            "system": SYSTEM_ID, "version": self.dataset.version,
            "sources": [CREDIT, f"Imported from its dataset the-old-world/{self.army_id}.json and magic-items.json",
                        PERCENT_SOURCE],
            "notes": "Imported by armylists' import_owb; every limit OWB's data cannot state is listed in `unchecked`.",
            "imported": True, "unchecked": self._unchecked(),
        }
        system_paths = sorted(p for p in self.lores if p in self.system.paths)
        own_paths = sorted(p for p in self.lores if p not in self.system.paths)
        if system_paths:
            book["paths"] = system_paths
        if own_paths:
            book["own_paths"] = [{"id": p, "name": title(p)} for p in own_paths]
        if item_categories:
            book["item_categories"] = item_categories
        if self.mounts:
            book["mounts"] = list(self.mounts.values())
        if items:
            book["items"] = items
        if compositions:
            book["compositions"] = compositions
        if self.replaced:
            book["replace_rules"] = self.replaced
        if book_rules:
            book["rules"] = book_rules
        book["entries"] = self.entries
        return book

