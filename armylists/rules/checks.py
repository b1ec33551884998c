"""The rule types: one small function per type, registered in CHECKS.

A rule in the data (`{id, type, params, source}`) names one of these by `type`. Each function reads the
resolved `Army` and yields `Violation`s whose message names the numbers. Bounds are inclusive and
percentages are compared in integers (`points * 100` against `percent * limit`), so "at most 25%"
passes at exactly 25% and fails one point above. See docs/rule-types.md for every type's parameters.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Callable, Iterator

from .report import Violation
from .selection import ONE_OR_MANY, SELECTOR_SCHEMA, predicate, select

if TYPE_CHECKING:  # the registry is imported by the loader, which army.py depends on
    from .army import Army, Bearer, Unit
    from .book import Rule

Check = Callable[["Army", "Rule"], Iterator[Violation]]
CHECKS: dict[str, Check] = {}

BOUND = {"$ref": "#/$defs/bound"}
DEFS = {
    "bound": {
        "oneOf": [
            {"type": "integer", "minimum": 0},
            {"type": "object", "additionalProperties": False, "required": ["by_band"],
             "properties": {"by_band": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}}},
            {"type": "object", "additionalProperties": False, "required": ["per_points", "each"],
             "properties": {"per_points": {"type": "integer", "minimum": 1}, "each": {"type": "integer", "minimum": 0},
                            "above": {"type": "integer", "minimum": 0}, "base": {"type": "integer", "minimum": 0},
                            "plus": {"type": "object", "additionalProperties": False,
                                     "required": ["select", "each", "label"],
                                     "properties": {"select": {"$ref": "#/$defs/selector"},
                                                    "each": {"type": "integer", "minimum": 1},
                                                    "label": {"type": "string"}}}}},
        ]
    },
    "slugs": {"type": "array", "items": {"type": "string"}},
    "selector": SELECTOR_SCHEMA,
    "one_or_many": ONE_OR_MANY,
}
SELECTOR = {"$ref": "#/$defs/selector"}


def check(name: str, **params: Any) -> Callable[[Check], Check]:
    """Register a rule type; `params` is the JSON Schema of its parameters (checked at load time)."""
    def register(fn: Check) -> Check:
        fn.params_schema = {  # type: ignore[attr-defined]
            "type": "object", "additionalProperties": False, "properties": params,
            "required": [k for k, v in params.items() if v.pop("required", False)], "$defs": DEFS,
        }
        CHECKS[name] = fn
        return fn
    return register


def per_unit(fn: Callable[["Army", "Rule", "Unit"], Iterator[Violation]]) -> Check:
    """A rule about one unit at a time, whose answer depends on nothing else in the list.

    Its violations are kept with the unit; units are shared between reports (army.py), so re-checking
    a list after an edit runs it again only for the unit that changed.
    """
    def run(army: "Army", rule: "Rule") -> Iterator[Violation]:
        for unit in army.units:
            kept = unit.memo.get(id(rule))
            if kept is None or kept[0] is not rule:  # the rule is kept too, so its id is not reused
                if len(unit.memo) > 64:  # rules made per request (event rules) must not pile up
                    unit.memo.clear()
                kept = unit.memo[id(rule)] = (rule, tuple(fn(army, rule, unit)))
            yield from kept[1]
    run.__doc__ = fn.__doc__
    run.per_unit = fn  # type: ignore[attr-defined]  # the engine runs these together, unit by unit
    return run


def violation(rule: "Rule", code: str, message: str, unit: "Unit | None" = None) -> Violation:
    return Violation(code=code, message=message, severity=rule.severity,
                     unit=unit.id if unit is not None else None, rule=rule.id, source=rule.source)


def resolve_bound(bound: Any, army: "Army") -> int | None:
    """A bound as data: a number, one per size band, or `each` per `per_points` of the limit."""
    if bound is None or isinstance(bound, int):
        return bound
    if "by_band" in bound:
        return bound["by_band"].get(army.band.id) if army.band else None
    steps = max(0, army.limit - bound.get("above", 0)) // bound["per_points"]
    plus = bound.get("plus")  # "and 0-1 more per Troll Hag": so many more per unit matching its selector
    more = plus["each"] * len(select(army.units, plus["select"])) if plus else 0
    return bound.get("base", 0) + steps * bound["each"] + more


def bound_phrase(bound: Any, army: "Army") -> str:
    """How a bound came to be, for messages: "(1 per 1000 pts of the 2400-pt limit)"."""
    if isinstance(bound, dict) and "per_points" in bound:
        above = f" above {bound['above']}" if bound.get("above") else ""
        base = f"{bound['base']} + " if bound.get("base") else ""
        plus = bound.get("plus")
        more = f", and {plus['each']} more per {plus['label']} ({len(select(army.units, plus['select']))})" if plus else ""
        return f" ({base}{bound['each']} per {bound['per_points']} pts{above} of the {army.limit}-pt limit{more})"
    if isinstance(bound, dict) and "by_band" in bound:
        return f" in {band_phrase(army)}"
    return ""


def percent(points: int, limit: int, bound: int | None = None) -> str:
    """One decimal, or two when one would round onto the bound it breaks (25.04% is not 25.0%)."""
    value = points * 100 / limit
    text = f"{value:.1f}"
    if bound is not None and float(text) == bound and points * 100 != bound * limit:
        text = f"{value:.2f}"
    return text + "%"


def band_phrase(army: "Army") -> str:
    return f"a {army.band.name} ({army.limit} pts)" if army.band else f"a {army.limit}-pt army"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# --- points ------------------------------------------------------------------------------------

@check("points_limit")
def points_limit(army: "Army", rule: "Rule") -> Iterator[Violation]:
    unit_name = army.system.budget_unit
    if army.total > army.limit:
        yield violation(rule, "points.over_limit",
                        f"Total {army.total} {unit_name} is {army.total - army.limit} {unit_name} over the "
                        f"{army.limit} {unit_name} limit.")


@check("points_shortfall", max_under={"type": "integer", "minimum": 0, "required": True})
def points_shortfall(army: "Army", rule: "Rule") -> Iterator[Violation]:
    under = army.limit - army.total
    if under > rule.params["max_under"]:
        unit_name = army.system.budget_unit
        yield violation(rule, "points.under_limit",
                        f"Total {army.total} {unit_name} is {under} {unit_name} under the {army.limit} {unit_name} "
                        f"limit; an army may be at most {rule.params['max_under']} {unit_name} under it.")


@check("category_percent", categories={"$ref": "#/$defs/slugs", "required": True},
       min={"type": "integer", "minimum": 0, "maximum": 100}, max={"type": "integer", "minimum": 0, "maximum": 100})
def category_percent(army: "Army", rule: "Rule") -> Iterator[Violation]:
    cats = rule.params["categories"]
    points = sum(army.category_points.get(c, 0) for c in cats)
    name = " + ".join(army.category_name(c) for c in cats)
    limit = army.limit
    low, high = rule.params.get("min"), rule.params.get("max")
    if low is not None and points * 100 < low * limit:
        need = -(-low * limit // 100)
        yield violation(rule, "category.min_percent",
                        f"{name}: {points} pts is {percent(points, limit, low)} of {limit}; "
                        f"at least {low}% ({need} pts) is required.")
    if high is not None and points * 100 > high * limit:
        allowed = high * limit // 100
        yield violation(rule, "category.max_percent",
                        f"{name}: {points} pts is {percent(points, limit, high)} of {limit}; "
                        f"at most {high}% ({allowed} pts).")


# --- how many of what --------------------------------------------------------------------------

@check("duplicates", limits={"type": "object", "additionalProperties": BOUND, "required": True},
       exempt_tags={"$ref": "#/$defs/slugs"})
def duplicates(army: "Army", rule: "Rule") -> Iterator[Violation]:
    limits = rule.params["limits"]
    exempt = frozenset(rule.params.get("exempt_tags", ()))
    seen: dict[str, list["Unit"]] = {}
    for unit in army.units:
        if unit.category in limits and exempt.isdisjoint(unit.tags):
            seen.setdefault(unit.entry.id, []).append(unit)
    bounds = {category: resolve_bound(bound, army) for category, bound in limits.items()}
    for units in seen.values():
        first = units[0]
        most = bounds[first.category]
        if most is not None and len(units) > most:
            yield violation(rule, "duplicates.max",
                            f"{first.name} is taken {len(units)} times; {army.category_name(first.category)} "
                            f"units may each be taken at most {most} times in {band_phrase(army)}.", units[most])


@check("each_entry_max", max={**BOUND, "required": True}, select=SELECTOR, unless=SELECTOR,
       label={"type": "string"})
def each_entry_max(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """Each entry at most `max` times among the units matching `select` (default: all), leaving out the
    units matching `unless`: an event's "0-3 of any unit not otherwise limited" is
    `{max: 3, unless: {tag: own-limit}}`."""
    most = resolve_bound(rule.params["max"], army)
    skip = predicate(rule.params["unless"]) if "unless" in rule.params else None
    seen: dict[str, list["Unit"]] = {}
    for unit in select(army.units, rule.params.get("select", {})):
        if skip is None or not skip(unit):
            seen.setdefault(unit.entry.id, []).append(unit)
    label = rule.params.get("label", "each unit")
    for units in seen.values():
        if most is not None and len(units) > most:
            yield violation(rule, "each_entry.max",
                            f"{units[0].name} is taken {len(units)} times; {label}: at most {plural(most, 'time')}"
                            f"{bound_phrase(rule.params['max'], army)}.", units[most])


@check("min_units", min={**BOUND, "required": True}, war_machines_as_one={"type": "boolean"},
       exclude_troop_types={"$ref": "#/$defs/slugs"})
def min_units(army: "Army", rule: "Rule") -> Iterator[Violation]:
    least = resolve_bound(rule.params["min"], army)
    excluded = set(rule.params.get("exclude_troop_types", []))
    as_one = rule.params.get("war_machines_as_one", False)
    count, machines = 0, 0
    for unit in army.units:
        if unit.character or unit.troop_type.id in excluded:
            continue
        if as_one and unit.war_machine:
            machines += 1
        else:
            count += 1
    count += 1 if machines else 0
    if least is not None and count < least:
        how = "; all War Machines count as one" if as_one and machines > 1 else ""
        yield violation(rule, "units.min",
                        f"The army has {plural(count, 'unit')} that are not Characters{how}; "
                        f"{band_phrase(army)} needs at least {least}.")


@check("role_max", role={"enum": ["bsb"], "required": True}, max={**BOUND, "required": True})
def role_max(army: "Army", rule: "Rule") -> Iterator[Violation]:
    bearers = [u for u in army.units if u.is_bsb]
    most = resolve_bound(rule.params["max"], army)
    if most is not None and len(bearers) > most:
        names = ", ".join(u.describe() for u in bearers)
        yield violation(rule, "bsb.max",
                        f"{len(bearers)} Battle Standard Bearers ({names}); an army may include at most {most}.",
                        bearers[most])


@check("tag_max", tag={"type": "string", "required": True}, label={"type": "string"},
       max={**BOUND, "required": True}, code={"type": "string"})
def tag_max(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """Each thing (entry, option, mount, Veteran Standard) carrying the tag, at most `max` times."""
    tag = rule.params["tag"]
    label = rule.params.get("label", tag)
    code = rule.params.get("code") or tag.replace("-", "_") + ".max"
    most = resolve_bound(rule.params["max"], army)
    taken: dict[str, list[tuple["Unit", str]]] = {}
    for unit in army.units:
        for t, key, name in unit.tagged:
            if t == tag:
                taken.setdefault(key, []).append((unit, name))
    for found in taken.values():
        if most is not None and len(found) > most:
            unit, name = found[most]
            yield violation(rule, code,
                            f"{name} is {label} and is taken {len(found)} times; at most {most} in {band_phrase(army)}.",
                            unit)


@check("general", ineligible_tags={"$ref": "#/$defs/slugs"}, bsb_may_be_general={"type": "boolean"},
       bsb_general_tag={"type": "string"}, highest_leadership={"type": "boolean"})
def general(army: "Army", rule: "Rule") -> Iterator[Violation]:
    ineligible = set(rule.params.get("ineligible_tags", []))
    bsb_ok = rule.params.get("bsb_may_be_general", False)
    bsb_tag = rule.params.get("bsb_general_tag")  # an entry that says its BSB may be the General (001:L3795)

    def why_not(unit: "Unit") -> str | None:
        if not unit.character:
            return f"{unit.describe()} is not a Character"
        if unit.is_bsb and not bsb_ok and not (bsb_tag and bsb_tag in unit.tags):
            return f"{unit.describe()} is the Battle Standard Bearer"
        barred = ineligible & unit.tags
        if barred:
            return f"{unit.describe()} has {', '.join(sorted(barred)).replace('-', ' ').title()}"
        return None

    eligible = [u for u in army.units if why_not(u) is None]
    named = [u for u in army.units if u.general]
    if not named:
        if eligible:
            choices = ", ".join(f"{u.describe()} Ld {'unknown' if u.leadership is None else u.leadership}"
                                for u in eligible)
            message = f"No General is named; one Character must be: {choices}."
        else:
            message = "No General is named, and the list has no Character who may be the General."
        yield violation(rule, "general.missing", message)
        return
    if len(named) > 1:
        yield violation(rule, "general.multiple",
                        f"{len(named)} units are named General ({', '.join(u.describe() for u in named)}); "
                        f"an army has exactly one.", named[1])
    for unit in named:
        reason = why_not(unit)
        if reason:
            yield violation(rule, "general.not_eligible", f"{reason} and cannot be the General.", unit)
    # Highest Leadership (001:L3779-3783), compared only between known values: a Character whose book
    # gives no Leadership (no profile with an Ld) is left out of the comparison, and when the named
    # General's own Leadership is unknown nothing is compared, so a missing value never makes a list
    # illegal (the book's `unchecked:` names the entries without one). Ties let the player choose.
    if rule.params.get("highest_leadership", True) and len(named) == 1 and not why_not(named[0]) \
            and named[0].leadership is not None:
        chosen = named[0]
        best = max((u for u in eligible if u.leadership is not None), key=lambda u: u.leadership)
        if best.leadership > chosen.leadership:
            yield violation(rule, "general.not_highest_leadership",
                            f"The General {chosen.describe()} has Leadership {chosen.leadership}, but "
                            f"{best.describe()} has {best.leadership}; the General must be the eligible "
                            f"Character with the highest Leadership.", chosen)


# --- magical items ----------------------------------------------------------------------------

@check("items_once_per_army")
def items_once_per_army(army: "Army", rule: "Rule") -> Iterator[Violation]:
    holders: dict[str, list["Bearer"]] = {}
    for bearer in army.all_bearers():
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
        if outside_tag and bearer.is_bsb and outside_tag in unit.tags:
            banner = sum(i.price_for(unit.category) for i in bearer.items if i.category in standards)
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


@check("item_eligibility")
def item_eligibility(army: "Army", rule: "Rule") -> Iterator[Violation]:
    categories = army.system.item_categories
    for bearer in army.all_bearers():
        unit = bearer.unit
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
def veteran_standard(army: "Army", rule: "Rule") -> Iterator[Violation]:
    cap = rule.params["max_item_points"]
    for unit in army.units:
        if not unit.roster.veteran_standard:
            continue
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


# --- Wizards ----------------------------------------------------------------------------------

@check("wizard_paths", only_with_choice={"type": "boolean"})
def wizard_paths(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """Each Wizard notes its Path on the list; with `only_with_choice`, only where it has more than one."""
    book = army.book
    auto = rule.params.get("only_with_choice", False)
    for unit in army.units:
        chosen = unit.roster.path
        if not unit.wizard_level:
            if chosen:
                yield Violation("wizard.path_not_wizard", f"{unit.describe()} is not a Wizard but has a Path noted.",
                                "warning", unit.id, rule.id, rule.source)
            continue
        allowed = unit.entry.paths or book.paths
        if chosen in allowed or unit.frees_path or (auto and not chosen and len(allowed) == 1):
            continue
        names = ", ".join(book.paths.get(p, army.system.paths.get(p, p)) for p in allowed) or "none"
        if not chosen:
            yield violation(rule, "wizard.path_missing",
                            f"{unit.describe()} is a Level {unit.wizard_level} Wizard with no Path on the list; "
                            f"choose one of: {names}.", unit)
        else:
            yield violation(rule, "wizard.path_not_allowed",
                            f"{unit.describe()} may not use {chosen!r}; its Paths are: {names}.", unit)


# --- the army book's own unit rules -------------------------------------------------------------

@check("unit_size")
@per_unit
def unit_size(army: "Army", rule: "Rule", unit: "Unit") -> Iterator[Violation]:
    """The entry's size bounds, or an option's while it is taken (a Detachment: 5 to 9 models)."""
    least, most = unit.size_bounds
    if unit.size < least:
        yield violation(rule, "unit.size_min",
                        f"{unit.describe()} has {plural(unit.size, 'model')}; at least {least}{_as(unit)}.", unit)
    elif most is not None and unit.size > most:
        yield violation(rule, "unit.size_max",
                        f"{unit.describe()} has {plural(unit.size, 'model')}; at most {most}{_as(unit)}.", unit)


def _as(unit: "Unit") -> str:
    """" as a Detachment": the option that set the unit's size bounds, if one did."""
    for oid in reversed(list(unit.options)):  # the last one taken sets them, as in army.py
        option = unit.entry.options[oid]
        if option.size is not None:
            return f" as a {option.name}"
    return ""


@check("unit_options")
@per_unit
def unit_options(army: "Army", rule: "Rule", unit: "Unit") -> Iterator[Violation]:
    entry = unit.entry
    if not (unit.options or entry.option_minimums or entry.options_per_models or entry.mount_required
            or (unit.mount and unit.mount.requires)):
        return
    chosen = set(unit.options).union(unit.roster.command)
    if unit.mount is not None:
        chosen.add(unit.mount.mount.id)
    by_group: dict[str, list[str]] = {}
    for oid, count in unit.options.items():
        option = entry.options[oid]
        if count > option.max:
            yield violation(rule, "options.max",
                            f"{unit.describe()} takes {option.name} {count} times; at most {option.max}.", unit)
        elif option.max_per_models and count > unit.size // option.max_per_models:
            yield violation(rule, "options.max_per_models",
                            f"{unit.describe()} takes {option.name} {plural(count, 'time')}; at most "
                            f"{unit.size // option.max_per_models} with {plural(unit.size, 'model')} "
                            f"(1 per {option.max_per_models}).", unit)
        if option.group:
            by_group.setdefault(option.group, []).append(option.name)
        for need in option.requires:
            if need not in chosen:
                yield violation(rule, "options.requires",
                                f"{unit.describe()}: {option.name} requires {_option_name(entry, need)}.", unit)
        if option.requires_any and not chosen.intersection(option.requires_any):
            names = " or ".join(_option_name(entry, o) for o in option.requires_any)
            yield violation(rule, "options.requires", f"{unit.describe()}: {option.name} requires {names}.", unit)
        for bar in option.excludes:
            if bar in chosen:
                yield violation(rule, "options.excludes",
                                f"{unit.describe()}: {option.name} cannot be taken with {_option_name(entry, bar)}.",
                                unit)
    for option in entry.options_per_models:
        count, least = unit.options.get(option.id, 0), unit.size // option.min_per_models
        if count < least:
            yield violation(rule, "options.min_per_models",
                            f"{unit.describe()} takes {option.name} {plural(count, 'time')}; at least {least} "
                            f"with {plural(unit.size, 'model')} (1 per {option.min_per_models}).", unit)
    for gid, names in by_group.items():
        group = entry.groups[gid]
        if len(names) > group.max:
            yield violation(rule, "options.group_max",
                            f"{unit.describe()}: {', '.join(names)} are alternatives ({group.name}); "
                            f"choose at most {group.max}.", unit)
    for group in entry.option_minimums:
        if len(by_group.get(group.id, ())) < group.min:
            yield violation(rule, "options.group_min",
                            f"{unit.describe()} must choose at least {group.min} of {group.name}.", unit)
    if unit.mount is not None:
        for need in unit.mount.requires:
            if need not in chosen:
                yield violation(rule, "options.requires",
                                f"{unit.describe()}: {unit.mount.mount.name} requires {_option_name(entry, need)}.",
                                unit)
    elif entry.mount_required:
        yield violation(rule, "mount.required", f"{unit.describe()} must ride one of its mounts.", unit)


def _option_name(entry: Any, oid: str) -> str:
    if oid in entry.options:
        return entry.options[oid].name
    if oid in entry.mounts:
        return entry.mounts[oid].mount.name
    return f"a {oid}" if oid in entry.command else oid


# --- counting selections: 0-X per 1000 points, requires, forbids, one X per Y --------------------

# What a count rule counts, as its messages say it.
AMOUNT_WORDS = {"units": "units", "models": "models", "points": "points", "wizard_levels": "Wizard levels"}


def _amount(units: list["Unit"], what: str) -> int:
    if what == "wizard_levels":
        return sum(u.wizard_level for u in units)
    if what == "models":
        return sum(u.size for u in units)
    if what == "points":
        return sum(u.points for u in units)
    return len(units)


def limited_by_rules(army: "Army", tag: str) -> list["Unit"]:
    """The units that a rule of the list's system, book or composition carrying `tag` selects (its
    `select`), counting the rules a chosen mode sets aside: Battle March's "only one 0-X per 1000 points
    choice" counts what the book's per-1000 limits would count, option and item limits included."""
    tests = [predicate(r.params["select"]) for r in army.book.rules_for(army.composition)
             if tag in r.tags and "select" in r.params]
    return [u for u in army.units if any(test(u) for test in tests)]


def measure_count(army: "Army", rule: "Rule") -> tuple[list["Unit"], int, int | None, int | None]:
    """A count rule's matching units, their amount and its bounds for this army (the Report shows them)."""
    chosen = select(army.units, rule.params.get("select", {}))
    if "rules_tagged" in rule.params:
        limited = set(limited_by_rules(army, rule.params["rules_tagged"]))
        chosen = [u for u in chosen if u in limited]
    return (chosen, _amount(chosen, rule.params.get("what", "units")),
            resolve_bound(rule.params.get("min"), army), resolve_bound(rule.params.get("max"), army))


@check("count", select=SELECTOR, rules_tagged={"type": "string"}, label={"type": "string", "required": True},
       min=BOUND, max=BOUND, what={"enum": list(AMOUNT_WORDS)})
def count(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """How many units (models, points) match a selector: "0-1 per 1000 points", "at least 1"; with
    `rules_tagged`, only the units some rule carrying that tag selects ("one 0-X per 1000 choice")."""
    what = AMOUNT_WORDS[rule.params.get("what", "units")]
    chosen, n, least, most = measure_count(army, rule)
    label = rule.params["label"]
    if most is not None and n > most:
        names = f" ({', '.join(u.describe() for u in chosen)})" if "rules_tagged" in rule.params else ""
        yield violation(rule, "count.max",
                        f"{label}: {n} {what} taken{names}; at most {most}{bound_phrase(rule.params['max'], army)}.",
                        chosen[-1] if chosen else None)
    if least is not None and n < least:
        yield violation(rule, "count.min",
                        f"{label}: {n} {what} taken; at least {least}{bound_phrase(rule.params['min'], army)}.")


@check("requires", **{"if": {**SELECTOR, "required": True}}, needs={**SELECTOR, "required": True},
       label={"type": "string", "required": True}, count={"type": "integer", "minimum": 1})
def requires(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """Units matching `if` need `count` (default 1) other units matching `needs` in the army."""
    least = rule.params.get("count", 1)
    causes = select(army.units, rule.params["if"])
    if not causes:
        return
    needed = select(army.units, rule.params["needs"])
    for unit in causes:
        if len(needed) - (unit in needed) < least:  # a unit never satisfies its own need
            yield violation(rule, "requires.missing",
                            f"{unit.describe()} needs {rule.params['label']} in the army.", unit)


@check("forbids", **{"if": {**SELECTOR, "required": True}}, forbids={**SELECTOR, "required": True},
       reason={"type": "string", "required": True})
def forbids(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """While any unit matches `if`, no other unit may match `forbids`."""
    causes = select(army.units, rule.params["if"])
    if not causes:
        return
    for unit in select(army.units, rule.params["forbids"]):
        if unit not in causes or len(causes) > 1:
            yield violation(rule, "forbids.present",
                            f"{unit.describe()} cannot be taken: {rule.params['reason']}.", unit)


@check("ratio", select={**SELECTOR, "required": True}, per={**SELECTOR, "required": True},
       each={"type": "integer", "minimum": 1}, label={"type": "string", "required": True},
       per_label={"type": "string", "required": True})
def ratio(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """At most `each` units matching `select` for every unit matching `per` ("one X per Y")."""
    chosen = select(army.units, rule.params["select"])
    bases = select(army.units, rule.params["per"])
    most = rule.params.get("each", 1) * len(bases)
    if len(chosen) > most:
        yield violation(rule, "ratio.max",
                        f"{rule.params['label']}: {len(chosen)} taken; at most {rule.params.get('each', 1)} per "
                        f"{rule.params['per_label']}, and the army has {len(bases)}.", chosen[most])


# --- what one model may carry -------------------------------------------------------------------

@check("tagged_options_max", limits={"type": "object", "additionalProperties": {"type": "integer", "minimum": 0},
                                     "required": True},
       labels={"type": "object", "additionalProperties": {"type": "string"}})
def tagged_options_max(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """Per model, at most N chosen options carrying a tag ("two close combat weapons, one shield")."""
    limits, labels = rule.params["limits"], rule.params.get("labels", {})
    for unit in army.units:
        models = [dict(m) for m in unit.roster.model_options] or [dict(unit.roster.options)]
        for number, chosen in enumerate(models, start=1):
            for tag, most in limits.items():
                names = [unit.entry.options[o].name for o, n in chosen.items()
                         if o in unit.entry.options and tag in unit.entry.options[o].tags for _ in range(n)]
                if len(names) > most:
                    who = unit.describe() if len(models) == 1 else f"model {number} of {unit.describe()}"
                    yield violation(rule, "options.tag_max",
                                    f"{who} carries {len(names)} {labels.get(tag, tag)} ({', '.join(names)}); "
                                    f"at most {most}.", unit)


@check("uniform_options", categories={"$ref": "#/$defs/slugs", "required": True})
def uniform_options(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """Every model of a unit in these categories carries the same options (a Mordheim henchman group)."""
    for unit in army.units:
        models = unit.roster.model_options
        if unit.category not in rule.params["categories"] or len(models) < 2:
            continue
        first = dict(models[0])
        differ = [n for n, m in enumerate(models[1:], start=2) if dict(m) != first]
        if differ:
            yield violation(rule, "options.not_uniform",
                            f"{unit.describe()}: every model of the group must carry the same equipment; "
                            f"model {', '.join(map(str, differ))} differs from model 1.", unit)
        if len(models) != unit.size:
            yield violation(rule, "options.model_count",
                            f"{unit.describe()} has {unit.size} models but equipment for {len(models)}.", unit)


# --- limits on single units, the game size, and Wizards' armour (The Old World) -------------------

@check("unit_max_percent", max={"type": "integer", "minimum": 0, "maximum": 100},
       max_by_category={"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 100}},
       exempt_tags={"$ref": "#/$defs/slugs"})
def unit_max_percent(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """No single unit worth more than a share of the points limit (per category where given)."""
    exempt = set(rule.params.get("exempt_tags", []))
    by_category = rule.params.get("max_by_category", {})
    for unit in army.units:
        most = by_category.get(unit.category, rule.params.get("max"))
        if most is None or exempt & unit.tags or unit.points * 100 <= most * army.limit:
            continue
        yield violation(rule, "unit.max_percent",
                        f"{unit.describe()} is worth {unit.points} pts, {percent(unit.points, army.limit, most)} of "
                        f"{army.limit}; a single {army.category_name(unit.category)} choice may be worth at most "
                        f"{most}% ({most * army.limit // 100} pts).", unit)


@check("unit_models_share", max={"type": "integer", "minimum": 1, "maximum": 100, "required": True})
def unit_models_share(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """No unit holds more than a share of all the army's models."""
    total = sum(u.size for u in army.units)
    most = rule.params["max"]
    for unit in army.units:
        if unit.size * 100 > most * total:
            yield violation(rule, "unit.models_share",
                            f"{unit.describe()} has {unit.size} of the army's {total} models "
                            f"({percent(unit.size, total, most)}); a unit may hold at most {most}%.", unit)


@check("limit_range", min={"type": "integer", "minimum": 0}, max={"type": "integer", "minimum": 0})
def limit_range(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """The game size a rule set is made for (Battle March: 500 to 750 points)."""
    low, high = rule.params.get("min"), rule.params.get("max")
    if (low is not None and army.limit < low) or (high is not None and army.limit > high):
        span = f"{low} to {high}" if low is not None and high is not None else f"at most {high}" if low is None \
            else f"at least {low}"
        yield violation(rule, "points.limit_range",
                        f"The points limit is {army.limit} pts; these rules are for games of {span} pts.")


@check("wizard_armour", allowed_tag={"type": "string"}, item_categories={"$ref": "#/$defs/slugs"})
def wizard_armour(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """Wizards wear no armour and carry no shield, mundane (the system's `armour`) or magic (items of
    `item_categories`), unless their entry or an option carries `allowed_tag`; magic armour made for
    Wizards (an item restricted `wizards_only`: the Armour of Tarnus) they may wear."""
    allowed = rule.params.get("allowed_tag")
    armour = army.system.armour
    magic = set(rule.params.get("item_categories", []))
    for unit in army.units:
        if not unit.wizard_level or (allowed and allowed in unit.tags):
            continue
        worn = sorted(armour & unit.equipment)
        worn += [i.name for b in unit.bearers for i in b.items
                 if i.category in magic and not i.restrictions.get("wizards_only")]
        if worn:
            yield violation(rule, "wizard.armour",
                            f"{unit.describe()} is a Wizard and may not wear armour or carry a shield "
                            f"({', '.join(w.replace('-', ' ') for w in worn)}).", unit)
