"""Options only for models of some profile values (`hasStat`, FORMAT.md item 8): New Recruit's data offers an
item to models of some Heights only (`{global: {Hgt: {values: ["1", "2"]}}}`, or `{excluded: ["5"]}`). The
Height is the unit's own (its node's `height`, else its profile's in unitstats.json), whatever it rides:
measured, New Recruit's lists give an Eternity Gem (Height 1 to 3) to Vampire Counts on a Monstrous Revenant
(Height 4) twenty times, a Supernatural Dexterity (not Height 4 or 5) to a Forest Prince on a Forest Dragon
(docs/import-nr-t9a.md). Other stats (`{defense: {Re: "5"}, type: ">"}`) are not read: named.

`conv` is the army.py ArmyConverter converting the unit (its Height, its limits).
"""
from __future__ import annotations

from armylists.importers.nr_t9a.limits import slug


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


def height_rule(conv, option: dict, stat) -> str | None:
    """A unit limit: the option at most 0 times where the unit's Height is not one the `hasStat` allows.
    Returns the tag the option carries, or a "not checked" tag for another stat."""
    heights = stat.get("global", {}).get("Hgt") if isinstance(stat, dict) and set(stat) == {"global"} else None
    if not isinstance(heights, dict) or set(stat["global"]) != {"Hgt"} or len(heights) != 1 \
            or not isinstance(next(iter(heights.values())), list) or set(heights) - {"values", "excluded"} \
            or conv.unit_height is None:
        return conv.limits.not_understood("option hasStat")
    listed = {str(h) for h in next(iter(heights.values()))}
    if (str(conv.unit_height) in listed) == ("values" in heights):
        return None  # the unit's Height allows it
    words = ", ".join(sorted(listed))
    tag = "hs-" + slug(f"{conv.eid}-{option['id']}", 76)
    conv.limits.add({"label": f"{option['name']} (a model of Height {words})" if "values" in heights else
                     f"{option['name']} (not a model of Height {words})", "count": [tag], "scope": "unit",
                     "entries": [conv.eid], "max": 0})
    return tag
