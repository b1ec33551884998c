"""Options only for models of some profile values (`hasStat`, FORMAT.md item 8): New Recruit's data offers an
item to models of some Heights only (`{global: {Hgt: {values: ["1", "2"]}}}`, or `{excluded: ["5"]}`). A
model's Height is its unit's (its node's `height`, else its profile's in unitstats.json), or with a mount the
mount's where that is greater (a character on a dragon is as tall as the dragon); an option's `override`
setting another `hasStat` where the unit has an option is read too (Vampire Counts' Eternity Gem: any Height
on a Monstrous Revenant, `hasStat: {}`). Other stats (`{defense: {Re: "5"}, type: ">"}`) are not read: named.

`conv` is the converter's state (state.py) at the unit: its Height, its mounts' Heights, its limits.
"""
from __future__ import annotations

from armylists.importers.nr_t9a.limits import condition_refs, ref_tag, slug, unit_holds
from armylists.importers.nr_t9a.state import ConverterState


def height_of(node: dict, profiles: dict) -> int | None:
    """A unit's (or a mount's) Height: its node's `height`, else its profile's in unitstats.json."""
    value = node.get("height")
    if value is None:
        profile = profiles.get(node.get("unit_id"))
        value = profile.get("height") if isinstance(profile, dict) else None
    return int(value) if isinstance(value, (int, str)) and str(value).isdigit() and len(str(value)) < 4 else None


def army_profiles(unitstats, army: str) -> dict:
    """unit_id -> profile of one army in unitstats.json (`units` by the army's short code)."""
    units = unitstats.get("units") if isinstance(unitstats, dict) else None
    found = units.get(army) if isinstance(units, dict) else None
    return found if isinstance(found, dict) else {}


def stat_override(override: dict) -> bool:
    """An option's `override` that sets its `hasStat` where the unit has an option: read by height_rule."""
    changes = override.get("options")
    return set(override) == {"hasOption", "options"} and isinstance(changes, dict) and set(changes) == {"hasStat"}


def _allowed(stat) -> tuple[set[str], bool] | None:
    """(the Heights named, whether they are the allowed ones) of a Height `hasStat`; ({}, False): any Height."""
    if stat == {}:
        return set(), False
    heights = stat.get("global", {}).get("Hgt") if isinstance(stat, dict) and set(stat) == {"global"} else None
    if not isinstance(heights, dict) or set(stat["global"]) != {"Hgt"} or len(heights) != 1 \
            or not isinstance(next(iter(heights.values())), list) or set(heights) - {"values", "excluded"}:
        return None
    return {str(h) for h in next(iter(heights.values()))}, "values" in heights


def height_rule(conv: ConverterState, option: dict, stat, overrides: list[dict]) -> str | None:
    """A unit limit: the option at most 0 times where the model's Height (with the mount it takes) is not
    one the `hasStat` allows, or an override's where its condition holds. Returns the tag the option
    carries, or a "not checked" tag for another stat or a unit of no known Height."""
    rule = _allowed(stat)
    others = [(_allowed(o["options"]["hasStat"]), condition_refs(o["hasOption"])) for o in overrides]
    if rule is None or conv.unit_height is None or any(r is None or len(c) != 1 or c[0][1].get("amount", 1) != 1
                                                       for r, c in others):
        return conv.limits.not_understood("option hasStat")

    def fits(height: int, allowed: tuple[set[str], bool]) -> bool:
        return (str(height) in allowed[0]) == allowed[1]
    base = conv.unit_height
    heights = [(None, base)] + [(tag, max(base, h)) for tag, h in conv.mount_heights.items()]
    if all(fits(h, rule) for _, h in heights):
        return None
    tag = "hs-" + slug(f"{conv.eid}-{option['id']}", 76)
    words = ", ".join(sorted(rule[0]))
    label = f"{option['name']} (a model of Height {words})" if rule[1] else f"{option['name']} (not a model of Height {words})"
    mods = [{"target": "max", "op": "set", "value": 0 if not fits(h, rule) else -1,
             "when": unit_holds([mount])}
            for mount, h in heights[1:] if fits(h, rule) != fits(base, rule)]
    for allowed, conds in others:  # in order: where the unit has the override's option, its stat instead
        when = unit_holds({ref_tag(r) for r in conds[0][0]})
        for mount, h in heights:
            cond = when if mount is None else {"all": [when, unit_holds([mount])]}
            if mount is None:
                mods.append({"target": "max", "op": "set", "value": -1 if fits(base, allowed) else 0, "when": cond})
            elif fits(h, allowed) != fits(base, allowed):
                mods.append({"target": "max", "op": "set", "value": -1 if fits(h, allowed) else 0, "when": cond})
    limit = {"label": label, "count": [tag], "scope": "unit", "entries": [conv.eid], "max": -1 if fits(base, rule) else 0}
    if mods:
        limit["modifiers"] = mods
    conv.limits.add(limit)
    return tag
