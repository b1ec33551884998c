"""Rule types about the whole army: points, category percentages, duplicates, unit counts, roles."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from armylists.rules.report import Violation
from armylists.rules.native.selection import predicate
from armylists.rules.checks.registry import BOUND, SELECTOR, band_phrase, bound_phrase, check, percent, plural, resolve_bound, violation

if TYPE_CHECKING:
    from armylists.rules.native.army import Army, Unit
    from armylists.rules.native.book import Rule


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
    limit = army.limit
    low, high = rule.params.get("min"), rule.params.get("max")
    if (low is None or points * 100 >= low * limit) and (high is None or points * 100 <= high * limit):
        return  # the common case, before any message is worded
    name = " + ".join(army.category_name(c) for c in cats)
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
    exempt = rule.params.get("exempt_tags", ())
    seen: dict[str, list["Unit"]] = {}
    for unit in army.units:
        if unit.category in limits and (not exempt or unit.tags.isdisjoint(exempt)):
            entry = unit.entry.id
            if entry in seen:
                seen[entry].append(unit)
            else:
                seen[entry] = [unit]
    bounds: dict[str, int | None] = {}
    for units in seen.values():
        if len(units) < 2:
            continue  # taken once: within any limit a book gives
        first = units[0]
        if first.category not in bounds:
            bounds[first.category] = resolve_bound(limits[first.category], army)
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
    for unit in army.select(rule.params.get("select", {})):
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

    # Most units are not Characters: they are passed over before any reason is worded.
    eligible = [u for u in army.units if u.character and why_not(u) is None]
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


