"""Magic items of an OWB army: its item groups as our items, and each model's item allowance.

`MagicMixin` is part of `army.ArmyConverter` (it reads the converter's dataset, compositions and
item groups, and records notes for the book's `unchecked`).

- OWB's allowances per unit (`items`: several slots, each with types and `maxPoints`, 0 for no limit;
  `magic` of a champion or standard) become one `magic_items` access: the categories of every slot, and
  the points of the slots summed (a slot with no limit counts as its dearest items), the largest over
  the compositions. A Battle Standard Bearer's standard with no points limit (all of OWB's) is outside
  the allowance, as in our own books: its option carries the tag the system's `item_allowance` rule
  names (`standard_outside_allowance_tag`). Each simplification is named in `unchecked`.
- Item-like kinds (runes, virtues, gifts...) are book item categories; `maxItemsPerCategory` and
  `nonExclusive` become the category's `max_per_model`.
"""
from __future__ import annotations

import re
from typing import Any, Iterable

from armylists.importers.owb.data import SYSTEM_ITEM_TYPES, compositions_of, item_category, item_name, slug, title
from armylists.importers.owb.units import UnitPlan, points

GENERAL_GROUP = "general"
CATEGORY_NAMES = {"armor-mages": "Magic Armour (Wizards may wear)"}
STANDARD_TYPES = re.compile(r"banner|icon")


def convert_item(item: dict, used: set[str], group: str) -> dict:
    """An OWB item as ours; its id is its name's slug, made unique with its type, then its group."""
    base = slug(item_name(item))
    iid = base
    for hint in (item["type"], group):
        if iid not in used:
            break
        iid = f"{base}-{slug(hint)}"
    n = 2
    while iid in used:
        iid, n = f"{base}-{n}", n + 1
    used.add(iid)
    out: dict[str, Any] = {"id": iid, "name": item_name(item), "category": item_category(item["type"]),
                           "cost": points(item)}
    if item.get("onePerArmy") is False or item.get("stackable"):
        out["repeatable"] = True
    out["source"] = f"Old World Builder magic-items.json, {group}"
    return out


class MagicMixin:
    def _magic_and_wizard(self, entry: dict, unit: dict, plan: UnitPlan) -> None:
        self.bsb_allowance = None
        slots = [s for s in unit.get("items") or [] if isinstance(s, dict)]
        if not slots and isinstance(unit.get("magic"), dict):
            slots = [unit["magic"]]
        access = self._access(slots, entry["name"])
        bsb = next((c for c in plan.options if c.role == "bsb"), None)
        if bsb and bsb.magic and bsb.magic.get("types"):
            extra = {item_category(t) for t in bsb.magic["types"]}
            self._caps(bsb.magic)
            if access is None:
                access = {"categories": sorted(extra)}
            else:
                access["categories"] = sorted(set(access["categories"]) | extra)
                if "allowance" in access and bsb.magic.get("maxPoints"):  # a standard with its own limit
                    self.bsb_allowance = access["allowance"] + int(bsb.magic["maxPoints"])
                    self.note("allowance-sum", f"{entry['name']} as Battle Standard Bearer "
                                               f"({self.bsb_allowance} pts)")
        if access is not None:
            entry["magic_items"] = access
        level = max((f.wizard_level for f in plan.folded), default=0)
        lores = [slug(lore) for lore in unit.get("lores") or []]
        if lores and not level and not any(c.wizard_level for c in plan.options):
            level = 1  # a unit that knows a Lore but has no level to choose (a Coven)
        if level:
            entry["wizard"] = {"level": level, **({"paths": lores} if lores else {})}
        self.lores.update(lores)
        types = {t for s in slots for t in s.get("types") or []}
        wizardly = level or any(c.wizard_level for c in plan.options)
        armoured = any(f.equipment for f in plan.folded) or any(c.equipment for c in plan.options) or "armor" in types
        if wizardly and armoured:  # OWB offers a Wizard armour: its entry allows it (001:L767-773)
            self.tags[entry["id"]].add("wizard-may-wear-armour")

    def _access(self, slots: list[dict], who: str | None = None) -> dict | None:
        """One item allowance for OWB's slots (`items` of a unit, `magic` of a command): the categories
        of all, and points per composition summed over the slots there, the largest of those."""
        types = [t for s in slots for t in s.get("types") or []]
        if not types:
            return None
        for s in slots:
            self._caps(s)
        access: dict[str, Any] = {"categories": sorted({item_category(t) for t in types})}
        by_comp: dict[str, int | None] = {}
        for comp in self.comps:
            present = [s for s in slots if self._slot_in(s, comp)]
            limits = [self._slot_cap(s, comp) for s in present]
            if present:
                by_comp[comp] = None if not any(limits) else sum(
                    v or self._dearest(s.get("types") or [], s.get("maxItemsPerCategory"))
                    for v, s in zip(limits, present))
        caps = list(by_comp.values())
        if caps and None not in caps:
            grand = by_comp.get(self.grand)
            if grand is not None:
                # The Grand Army's allowance, and each composition's where it differs (a Royal Clan's runes).
                access["allowance"] = grand
                differs = {slug(c): v for c, v in by_comp.items() if c != self.grand and v != grand}
                if differs:
                    access["allowance_in"] = differs
            else:  # offered only in compositions: the largest of theirs
                access["allowance"] = max(caps)
                if who and len(set(caps)) > 1:
                    self.note("allowance-composition", who)
        if who and len([s for s in slots if s.get("types")]) > 1 and "allowance" in access:
            self.note("allowance-sum", f"{who} ({access['allowance']} pts)")
        return access

    def _caps(self, slot: dict) -> None:
        most = int(slot.get("maxItemsPerCategory") or 0)
        for t in slot.get("types") or []:
            if t not in SYSTEM_ITEM_TYPES and most > 1:
                self.caps[t] = max(self.caps.get(t, 1), most)

    def _slot_in(self, slot: dict, comp: str) -> bool:
        value = slot.get("armyComposition")
        return value is None or isinstance(value, dict) or self.foreign or comp in compositions_of(value)

    @staticmethod
    def _slot_cap(slot: dict, comp: str) -> int:
        value = slot.get("armyComposition")
        if isinstance(value, dict) and isinstance(value.get(comp), dict) and "maxPoints" in value[comp]:
            return int(value[comp]["maxPoints"] or 0)
        return int(slot.get("maxPoints") or 0)

    def _dearest(self, types: Iterable[str], per_type: int | None) -> int:
        """What a slot with no points limit can hold: its types' dearest items (`per_type` of each)."""
        total = 0
        for t in set(types):
            costs = sorted((points(i) for g in [GENERAL_GROUP, *self.groups] for i in self.dataset.items.get(g, [])
                            if i["type"] == t), reverse=True)
            total += sum(costs[:per_type or 1])
        return total

    # -- items -------------------------------------------------------------------------------------
    def _items(self) -> tuple[list[dict], dict[str, int]]:
        used = set(self.common)
        items, provenance = [], {}
        for group in self.groups:
            provenance[group] = 0
            for owb in self.dataset.items[group]:
                item = convert_item(owb, used, group)
                items.append(item)
                provenance[group] += 1
                self._item_limits(owb, item["id"], item["name"])
        for owb, item in zip(self.dataset.items.get(GENERAL_GROUP, []), self.common.values()):
            self._item_limits(owb, item["id"], item["name"])
        return items, provenance

    def _item_limits(self, owb: dict, iid: str, name: str) -> None:
        allowed = compositions_of(owb.get("armyComposition"))
        if allowed is not None and set(self.comps) - allowed:
            self._forbid({"item": iid}, name, set(self.comps) - allowed)
        if owb.get("compositionRule"):
            self.note("battle-march-item", name)
        if owb.get("perModel") or owb.get("perModelPoints") or owb.get("perUnitPoints"):
            self.note("per-model-item", name)
        if owb.get("stackable") and owb["type"] not in SYSTEM_ITEM_TYPES:  # a gift taken up to 3 times
            self.caps[owb["type"]] = max(self.caps.get(owb["type"], 1), int(owb.get("maximum") or 1))
        if owb.get("nonExclusive"):
            if owb["type"] in SYSTEM_ITEM_TYPES:
                self.note("non-exclusive-item", name)
            else:
                kind = [i for g in self.groups for i in self.dataset.items[g] if i["type"] == owb["type"]]
                self.caps[owb["type"]] = max(self.caps.get(owb["type"], 1), len(kind))

    def _item_categories(self) -> list[dict]:
        """The book's own item categories: every item-like kind its items or its models' allowances name."""
        kinds = sorted({t for g in self.groups for t in self.dataset.group_types()[g]} | set(self.caps)
                       | {c for e in self.entries for c in self._entry_categories(e)})
        item_categories: list[dict] = []
        for t in kinds:
            cid = item_category(t)
            if cid in self.system.item_categories:
                continue
            category: dict[str, Any] = {"id": cid, "name": CATEGORY_NAMES.get(t, title(cid))}
            if STANDARD_TYPES.search(t):
                category["standard"] = True
            if self.caps.get(t, 1) > 1:
                category["max_per_model"] = self.caps[t]
            if cid not in {c["id"] for c in item_categories}:
                item_categories.append(category)
        return item_categories

    @staticmethod
    def _entry_categories(entry: dict) -> list[str]:
        found = list(entry.get("magic_items", {}).get("categories", []))
        for part in entry.get("command", {}).values():
            found += part.get("magic_items", {}).get("categories", [])
        return [c for c in found if c not in SYSTEM_ITEM_TYPES.values()]
