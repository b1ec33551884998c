"""Which magical items the editor offers a unit's models, and how much of each allowance is left.

The editor lists only the items a model may take: the categories its access allows, the item's own
restrictions (Wizards only, on foot, not a Large Target...), one item of each category per model, each
item once per army, and what fits in the allowance left. This mirrors the engine's item rules so the
choice is short and useful; it decides nothing: the engine still validates whatever the list holds,
and an item a crafted form adds anyway is reported there.

The unit as the engine resolves it (`Army`) gives its troop type after its mount, its Wizard level
and its roles, so the offer follows the same facts as the Report.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping

from armylists.rules import Book, Roster
from armylists.rules.native.army import Army, Unit
from armylists.rules.native.book import Item, ItemAccess
from armylists.rules.checks import needed_equipment

LABELS = {"model": "", "champion": "Champion", "standard": "Standard Bearer"}


@dataclass(frozen=True)
class Offer:
    id: str
    name: str
    cost: int


@dataclass(frozen=True)
class Blocked:
    """An item of a category the model may take, that it may not take now, and why (shown greyed)."""
    id: str
    name: str
    cost: int
    reason: str


@dataclass(frozen=True)
class Carried:
    id: str
    name: str
    cost: int | None  # None: not an item of the book


@dataclass(frozen=True)
class BearerChoices:
    """One model of a unit that may carry items: what it carries and what it may still take."""
    kind: str  # model, champion, standard (the list document's items, champion_items, standard_items)
    label: str
    allowance: int | None  # None: no points cap
    spent: int
    carried: tuple[Carried, ...]
    offers: tuple[tuple[str, tuple[Offer, ...]], ...]  # (category name, items), in the system's order
    note: str = ""
    allowed: bool = True  # False: it carries items it may not take at all (only removing them is offered)
    blocked: tuple[tuple[str, tuple[Blocked, ...]], ...] = ()  # (category name, items), in the system's order

    @property
    def left(self) -> int | None:
        return None if self.allowance is None else self.allowance - self.spent

    @property
    def offer_count(self) -> int:
        return sum(len(items) for _, items in self.offers)


def rule_params(book: Book, composition: str | None) -> dict[str, Mapping[str, Any]]:
    """The first rule of each type the list is checked by, so the offer follows the same settings."""
    found: dict[str, Mapping[str, Any]] = {}
    for rule in book.rules_for(composition):
        found.setdefault(rule.type, rule.params)
    return found


def item_choices(book: Book, roster: Roster, unit_id: str, army: Army | None = None) -> list[BearerChoices]:
    """The unit's item bearers (its model, champion, standard bearer) with what each may take."""
    army = army or Army(book, roster)
    unit = next((u for u in army.units if u.id == unit_id), None)
    if unit is None:
        return []
    params = rule_params(book, army.composition)
    taken = _taken_elsewhere(army, params)
    ru = unit.roster
    entry = unit.entry
    bearers = []
    # Allowances the book gives per composition: the allied units' composition is the contingent's.
    composition = army.allies_composition if unit.allied else army.composition

    access = entry.items.in_composition(composition) if entry.items else None
    if access is not None or ru.items:
        if access is not None:
            allowance = access.allowance
            for oid in unit.options:
                option = entry.options[oid]
                if option.item_allowance is not None:
                    allowance = option.item_allowance
            access = access.with_allowance(allowance)
        bearers.append(_bearer(book, army, unit, "model", entry.name, ru.items, access, unit.is_bsb, params, taken))

    command = entry.command
    champion = command.get("champion") if "champion" in ru.command else None
    if (champion is not None and champion.items is not None) or ru.champion_items:
        bearers.append(_bearer(book, army, unit, "champion", "Champion", ru.champion_items,
                               champion.items.in_composition(composition) if champion and champion.items else None,
                               False, params, taken))

    standard = command.get("standard") if "standard" in ru.command else None
    note = ""
    std_access = standard.items.in_composition(composition) if standard and standard.items else None
    if std_access is None and standard is not None and standard.veteran and ru.veteran_standard:
        cap = params.get("veteran_standard", {}).get("max_item_points")
        standards = frozenset(c.id for c in book.system.item_categories.values() if c.standard)
        std_access = ItemAccess(cap, standards)
        note = "Veteran Standard Bearer"
    if std_access is not None or ru.standard_items:
        bearers.append(_bearer(book, army, unit, "standard", note or "Standard Bearer", ru.standard_items,
                               std_access, False, params, taken))
    return bearers


def _taken_elsewhere(army: Army, params: Mapping[str, Any]) -> set[str]:
    """Items already in the army that may be taken only once (by identity: a variant counts as its original)."""
    if "items_once_per_army" not in params:
        return set()
    return {item.identity for bearer in army.all_bearers() for item in bearer.items if not item.repeatable}


def _bearer(book: Book, army: Army, unit: Unit, kind: str, label: str, ids: tuple[str, ...],
            access: ItemAccess | None, is_bsb: bool, params: Mapping[str, Any], taken: set[str]) -> BearerChoices:
    category = unit.category
    carried = tuple(
        Carried(iid, book.items[iid].name, book.items[iid].price_for(category)) if iid in book.items
        else Carried(iid, iid, None) for iid in ids)
    spent = sum(c.cost or 0 for c in carried)
    if access is None:
        return BearerChoices(kind, label, None, spent, carried, (), "may not take magical items", allowed=False)
    system = army.system
    carried_items = [book.items[c.id] for c in carried if c.cost is not None]
    full: set[str] = set()  # categories the model carries as many of as it may (one, or a rune's three)
    if "items_one_per_category" in params:
        counts = Counter(i.category for i in carried_items)
        full = {c for c, n in counts.items() if n >= system.item_categories[c].max_per_model}
    left = None if access.allowance is None else access.allowance - spent
    # What is left of each kind's own cap (a champion's 25 points of each kind of rune), master runes counted in.
    kind_left = {kind: cap - sum(i.price_for(category) for i in carried_items
                                 if kind in (i.category, system.item_categories[i.category].counts_toward))
                 for kind, cap in access.category_allowance.items()}
    # The Battle Standard Bearer may exceed the allowance with a Magical Standard that is its only item.
    beyond = bool(params.get("item_allowance", {}).get("bsb_standard_beyond_allowance")) and is_bsb
    by_category: dict[str, list[Offer]] = {}
    blocked: dict[str, list[Blocked]] = {}
    unit_name = system.budget_unit
    for item in book.items.values():
        reason = _why_not(item, unit, kind, access, is_bsb, army)
        if reason == OUT_OF_REACH:
            continue  # a category this model never takes: not listed at all
        cost = item.price_for(category)
        standard = system.item_categories[item.category].standard
        kinds = (item.category, system.item_categories[item.category].counts_toward)
        if reason:
            pass
        elif item.identity in taken:
            reason = "already taken in the army (one of each per army)"
        elif item.category in full:
            reason = f"already carries one of the {system.item_categories[item.category].name}"
        elif left is not None and cost > left and not (beyond and standard and not carried_items):
            reason = f"costs {cost} {unit_name}; {max(left, 0)} {unit_name} of the allowance left"
        elif any(cost > kind_left[k] for k in kinds if k in kind_left):
            reason = f"over the {system.item_categories[item.category].name.lower()} allowance"
        if reason:
            blocked.setdefault(item.category, []).append(Blocked(item.id, item.name, cost, reason))
        else:
            by_category.setdefault(item.category, []).append(Offer(item.id, item.name, cost))
    offers = tuple((cat.name, tuple(sorted(by_category[cat.id], key=lambda o: (-o.cost, o.name))))
                   for cat in system.item_categories.values() if cat.id in by_category)
    greyed = tuple((cat.name, tuple(sorted(blocked[cat.id], key=lambda o: (-o.cost, o.name))))
                   for cat in system.item_categories.values() if cat.id in blocked)
    return BearerChoices(kind, label, access.allowance, spent, carried, offers, blocked=greyed)


OUT_OF_REACH = "out of reach"  # not a category the model may take at all: not listed


def _why_not(item: Item, unit: Unit, kind: str, access: ItemAccess, is_bsb: bool, army: Army) -> str:
    """Why the model may not take the item, in a player's words ("Wizards only"), by the engine's item
    eligibility (checks.items.item_eligibility) asked before it is chosen; "" when it may."""
    cat = army.system.item_categories[item.category]
    limits = item.restrictions
    if cat.standard:
        if not (kind == "standard" or is_bsb):
            return OUT_OF_REACH
    elif kind == "standard" and access.categories is None:
        return OUT_OF_REACH
    if access.categories is not None and item.category not in access.categories and not (cat.standard and is_bsb):
        return OUT_OF_REACH
    if access.book_only and item.common:
        return OUT_OF_REACH
    wizard = bool(unit.wizard_level)
    if (cat.wizards_only or limits.get("wizards_only")) and not wizard:
        return "Wizards only"
    if limits.get("not_wizards") and wizard:
        return "not for Wizards"
    if cat.wizard_needs_armour and wizard and not unit.armour_access:
        return "a Wizard without armour may not take it"
    if limits.get("on_foot") and not unit.on_foot:
        return "on foot only"
    allowed_types = limits.get("troop_types")
    if allowed_types and unit.troop_type.id not in allowed_types:
        names = [army.system.troop_types[t].name if t in army.system.troop_types else t for t in allowed_types]
        return f"{', '.join(names)} only"
    if limits.get("not_large_target") and unit.large_target:
        return "not for a Large Target"
    if limits.get("army_without_wizards") and army.has_wizards:
        return "only in an army without Wizards"
    needs = needed_equipment(item, army.system.item_categories)
    if needs and unit.equipment.isdisjoint(needs):
        return f"needs {' or '.join(sorted(n.replace('-', ' ') for n in needs))}"
    return ""


def who_may_take(item: Item, system_troop_types: Mapping[str, Any]) -> str:
    """Who the item is for, as its restrictions say: "Wizards only", "on foot", or ""."""
    limits = item.restrictions
    words = []
    if limits.get("wizards_only"):
        words.append("Wizards only")
    if limits.get("not_wizards"):
        words.append("not Wizards")
    if limits.get("on_foot"):
        words.append("on foot")
    if limits.get("troop_types"):
        words.append(", ".join(system_troop_types[t].name if t in system_troop_types else t
                               for t in limits["troop_types"]))
    if limits.get("not_large_target"):
        words.append("not Large Targets")
    return "; ".join(words)
