"""Rule types about magical items: once per army, allowances, who may take what."""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Iterator

from armylists.rules.report import Violation
from armylists.rules.checks.registry import check, per_unit, violation

if TYPE_CHECKING:
    from armylists.rules.native.army import Army, Bearer, Unit
    from armylists.rules.native.book import Rule


# --- magical items ----------------------------------------------------------------------------

@check("items_once_per_army")
def items_once_per_army(army: "Army", rule: "Rule") -> Iterator[Violation]:
    holders: dict[str, list["Bearer"]] = {}
    for unit in army.units:
        for bearer in unit.bearers:
            for item in bearer.items:
                if not item.repeatable:
                    holders.setdefault(item.identity, []).append(bearer)
    for identity, bearers in holders.items():
        if len(bearers) > 1:
            where = ", ".join(b.unit.describe() for b in bearers)
            yield violation(rule, "items.duplicate",
                            f"{army.book.items[identity].name} is taken {len(bearers)} times ({where}); "
                            f"each magical item may be taken once per army.", bearers[1].unit)


@check("items_one_per_category")
@per_unit
def items_one_per_category(army: "Army", rule: "Rule", unit: "Unit") -> Iterator[Violation]:
    """A model carries one item of each category, or as many as the category's `max_per_model` (runes: 3),
    counting with it the items of categories that `counts_toward` it (master runes on the same runic
    item); and where a category allows several, an item with its own `max_per_model` at most that often
    (a rune inscribed once on an item, or up to three times)."""
    categories = army.system.item_categories
    for bearer in unit.bearers:
        if len(bearer.items) < 2:
            continue
        who = f"{bearer.label} ({bearer.unit.id})"
        counts = Counter(item.category for item in bearer.items)
        for cat, n in counts.items():
            most = categories[cat].max_per_model
            if n > most:
                names = ", ".join(i.name for i in bearer.items if i.category == cat)
                may = "one item of each category" if most == 1 else f"at most {most} {categories[cat].name}"
                yield violation(rule, "items.same_category",
                                f"{who} carries {n} {categories[cat].name} ({names}); a model may carry {may}.",
                                bearer.unit)
        for root in {categories[c].counts_toward for c in counts} - {None}:
            pooled = [i for i in bearer.items if root in (i.category, categories[i.category].counts_toward)]
            most = categories[root].max_per_model
            if len(pooled) > most and counts.get(root, 0) <= most:
                kinds = " and ".join(sorted({categories[i.category].name for i in pooled}))
                yield violation(rule, "items.same_category",
                                f"{who} carries {len(pooled)} {kinds} ({', '.join(i.name for i in pooled)}); "
                                f"a model may carry at most {most} {categories[root].name} in all.", bearer.unit)
        for iid, n in Counter(i.id for i in bearer.items).items():
            item = next(i for i in bearer.items if i.id == iid)
            if item.max_per_model is not None and n > item.max_per_model \
                    and categories[item.category].max_per_model > 1:
                yield violation(rule, "items.same_item",
                                f"{who} carries {item.name} {n} times; at most "
                                f"{'once' if item.max_per_model == 1 else f'{item.max_per_model} times'} on one model.",
                                bearer.unit)


@check("item_allowance", bsb_standard_beyond_allowance={"type": "boolean"},
       standard_outside_allowance_tag={"type": "string"})
@per_unit
def item_allowance(army: "Army", rule: "Rule", unit: "Unit") -> Iterator[Violation]:
    """The points of each model's items within its allowance. With `bsb_standard_beyond_allowance` (The
    9th Age) the BSB's Magical Standard may exceed it if it is the model's only item; with
    `standard_outside_allowance_tag` (The Old World) a BSB whose entry or option carries the tag buys its
    magic standard outside the allowance, and its other items must fit the allowance. Where the access
    caps a kind of item (`category_allowance`: a champion's 25 points of each kind of rune), the points of
    that kind, with the items of the categories that `counts_toward` it (master runes), within the cap."""
    if not unit.bearers:
        return
    standards = {c.id for c in army.system.item_categories.values() if c.standard}
    beyond = rule.params.get("bsb_standard_beyond_allowance", False)
    outside_tag = rule.params.get("standard_outside_allowance_tag")
    for bearer in unit.bearers:
        access = bearer.access
        if access is None or not bearer.items:
            continue
        if access.category_allowance:
            yield from _category_allowance(army, rule, bearer)
        if access.allowance is None:
            continue
        spent = bearer.points()
        if spent <= access.allowance:
            continue
        banner = sum(i.price_for(unit.category) for i in bearer.items if i.category in standards)
        if outside_tag and bearer.is_bsb and outside_tag in unit.tags and banner:  # without one: the plain message
            if spent - banner > access.allowance:
                yield violation(rule, "items.allowance",
                                f"{bearer.label} ({bearer.unit.id}) has {spent - banner} pts of magical items besides "
                                f"its Battle Standard ({banner} pts, outside the allowance); its allowance is "
                                f"{access.allowance} pts.", bearer.unit)
            continue
        # The Battle Standard Bearer's Magical Standard may exceed the allowance if it is the
        # model's only item (000:L2044-2047).
        if beyond and bearer.is_bsb and all(i.category in standards for i in bearer.items):
            continue
        extra = ""
        if beyond and bearer.is_bsb and any(i.category in standards for i in bearer.items):
            extra = " A Battle Standard Bearer may exceed it only with a Magical Standard and no other item."
        yield violation(rule, "items.allowance",
                        f"{bearer.label} ({bearer.unit.id}) has {spent} pts of magical items; "
                        f"its allowance is {access.allowance} pts.{extra}", bearer.unit)


def _category_allowance(army: "Army", rule: "Rule", bearer: "Bearer") -> Iterator[Violation]:
    categories = army.system.item_categories
    access = bearer.access
    for kind, cap in access.category_allowance.items():
        pooled = [i for i in bearer.items if kind in (i.category, categories[i.category].counts_toward)]
        prices = [i.price_for(bearer.unit.own_category) for i in pooled]
        if sum(prices) <= cap:
            continue
        name = categories[kind].name
        others = sorted({categories[i.category].name for i in pooled if i.category != kind})
        included = f", {' and '.join(others)} included" if others else ""
        within = f" within its {access.allowance}-pt allowance" if access.allowance is not None else ""
        yield violation(rule, "items.category_allowance",
                        f"{bearer.label} ({bearer.unit.id}) has {sum(prices)} pts of {name} "
                        f"({', '.join(f'{i.name} {p} pts' for i, p in zip(pooled, prices))}){included}; "
                        f"at most {cap} pts of {name}{within}.", bearer.unit)


def needed_equipment(item: Any, categories: Any) -> tuple[str, ...]:
    """The mundane equipment one of which the item's bearer must carry: the item's own `needs_equipment`
    restriction, else its category's, else that of the category it `counts_toward` (a master rune's runic item)."""
    cat = categories[item.category]
    needs = item.restrictions.get("needs_equipment") or cat.needs_equipment
    if not needs and cat.counts_toward:
        needs = categories[cat.counts_toward].needs_equipment
    return tuple(needs)


def _reads_army(rule: "Rule", unit: "Unit") -> bool:
    """Whether the unit carries an item whose eligibility depends on the rest of the list."""
    return any("only_in_modes" in item.restrictions or "army_without_wizards" in item.restrictions
               for bearer in unit.bearers for item in bearer.items)


@check("item_eligibility")
@per_unit(needs_army=_reads_army)
def item_eligibility(army: "Army", rule: "Rule", unit: "Unit") -> Iterator[Violation]:
    categories = army.system.item_categories
    for bearer in unit.bearers:
        who = f"{bearer.label} ({unit.id})"
        for item in bearer.items:
            cat = categories[item.category]
            limits = item.restrictions
            access = bearer.access
            if access is None:
                yield violation(rule, "items.not_allowed", f"{who} cannot take magical items ({item.name}).", unit)
                continue
            if cat.standard:
                if not (bearer.kind == "standard" or bearer.is_bsb):
                    yield violation(rule, "items.standard_bearers_only",
                                    f"{item.name} is a Magical Standard; only a Standard Bearer or the Battle "
                                    f"Standard Bearer may carry one, not {who}.", unit)
                    continue
            elif access.categories is None and bearer.kind == "standard":
                yield violation(rule, "items.category_not_allowed",
                                f"{who} may carry only a Magical Standard, not {item.name}.", unit)
                continue
            if access.categories is not None and item.category not in access.categories and not (
                    cat.standard and bearer.is_bsb):
                yield violation(rule, "items.category_not_allowed",
                                f"{who} may not take {cat.name} ({item.name}).", unit)
            if access.book_only and item.common:
                yield violation(rule, "items.not_allowed",
                                f"{who} may take only its own book's items, not {item.name}.", unit)
            if (cat.wizards_only or limits.get("wizards_only")) and not unit.wizard_level:
                yield violation(rule, "items.wizards_only", f"{item.name} is for Wizards only; {who} is not one.", unit)
            if limits.get("not_wizards") and unit.wizard_level:
                yield violation(rule, "items.not_wizards", f"{item.name} may not be taken by a Wizard ({who}).", unit)
            if cat.wizard_needs_armour and unit.wizard_level and not unit.armour_access:
                yield violation(rule, "items.wizard_armour",
                                f"{who} is a Wizard without mundane armour or the option to buy it, so it "
                                f"cannot take {cat.name} ({item.name}).", unit)
            if limits.get("on_foot") and not unit.on_foot:
                yield violation(rule, "items.on_foot",
                                f"{item.name} is for models on foot only; {who} is {unit.troop_type.name}.", unit)
            allowed_types = limits.get("troop_types")
            if allowed_types and unit.troop_type.id not in allowed_types:
                names = ", ".join(army.system.troop_types[t].name for t in allowed_types)
                yield violation(rule, "items.troop_type",
                                f"{item.name} is for {names} only; {who} is {unit.troop_type.name}.", unit)
            if limits.get("not_large_target") and unit.large_target:
                yield violation(rule, "items.large_target",
                                f"{item.name} cannot be taken by a Large Target ({who}).", unit)
            needs = needed_equipment(item, categories)
            if needs and unit.equipment.isdisjoint(needs):
                yield violation(rule, "items.needs_equipment",
                                f"{item.name} ({cat.name}) needs its bearer to carry one of: "
                                f"{', '.join(e.replace('-', ' ') for e in needs)}; {who} carries none.", unit)
            if "only_in_modes" in limits and not set(army.roster.modes).intersection(limits["only_in_modes"]):
                names = " or ".join(army.system.modes[m].name for m in limits["only_in_modes"])
                yield violation(rule, "items.mode_only",
                                f"{item.name} is for {names} games only, and this list does not play {names} "
                                f"({who}).", unit)
            if limits.get("army_without_wizards") and army.has_wizards:
                wizards = ", ".join(u.describe() for u in army.units if u.wizard_level)
                yield violation(rule, "items.army_has_wizards",
                                f"{item.name} may only be taken in an army with no Wizards; this one has {wizards}.",
                                unit)


@check("unique_item_sets", categories={"$ref": "#/$defs/slugs", "required": True},
       label={"type": "string", "required": True})
def unique_item_sets(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """No two models carry the same combination of items of one of `categories` (with the categories that
    `counts_toward` it): each model's items of such a category are one item (a runic weapon), and no two
    such items in the army may be alike ("no two runic items with the same combination of runes")."""
    categories = army.system.item_categories
    roots = set(rule.params["categories"])
    seen: dict[tuple, "Bearer"] = {}
    for bearer in army.all_bearers():
        kinds: dict[str, list] = {}
        for item in bearer.items:
            root = categories[item.category].counts_toward or item.category
            if root in roots:
                kinds.setdefault(root, []).append(item)
        for root, items in kinds.items():
            key = (root, tuple(sorted(i.id for i in items)))
            first = seen.setdefault(key, bearer)
            if first is not bearer:
                names = ", ".join(i.name for i in sorted(items, key=lambda i: i.id))
                yield violation(rule, "items.same_combination",
                                f"{bearer.label} ({bearer.unit.id}) carries the same {categories[root].name} as "
                                f"{first.label} ({first.unit.id}): {names}; no two {rule.params['label']}s in the "
                                f"army may be alike.", bearer.unit)


@check("veteran_standard", categories={"$ref": "#/$defs/slugs", "required": True},
       max_item_points={"type": "integer", "minimum": 0, "required": True})
@per_unit
def veteran_standard(army: "Army", rule: "Rule", unit: "Unit") -> Iterator[Violation]:
    cap = rule.params["max_item_points"]
    if not unit.roster.veteran_standard:
        return
    part = unit.entry.command.get("standard")
    if "standard" not in unit.roster.command:
        yield violation(rule, "veteran_standard.no_standard",
                        f"{unit.describe()} has a Veteran Standard Bearer but no Standard Bearer.", unit)
    elif part is None or not part.veteran or unit.category not in rule.params["categories"]:
        yield violation(rule, "veteran_standard.not_allowed",
                        f"{unit.describe()} may not upgrade its Standard Bearer to the Veteran Standard Bearer; "
                        f"only some {', '.join(army.category_name(c) for c in rule.params['categories'])} "
                        f"units may.", unit)
    for bearer in unit.bearers:
        if bearer.veteran and bearer.points() > cap:
            yield violation(rule, "veteran_standard.item_points",
                            f"The Veteran Standard Bearer of {unit.describe()} carries a {bearer.points()}-pt "
                            f"Magical Standard; it may take one worth up to {cap} pts.", unit)


