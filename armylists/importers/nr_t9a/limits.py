"""New Recruit's conditions (`armyHasNotOption`, `armyHasOption`, `leafMaxCost`, category percents) as
the engine's `tally_limit` params, and the constructs the importer does not understand, counted.

Every ref of New Recruit's data becomes a tag (`ref_tag`) on the entry or option that carries it, so an
army-wide count of a ref is a tally of its tag (docs/rule-types.md, `tally_limits`).

The converter's state (state.py) holds three things of this module: the `Limits` it gathers, the
`RarityRules` the data's rule text gives (rarity.py reads them), and the `Alternatives` some refs count as
where the army has an option (weights.py finds them).
"""
from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

GROUP_ANY = 99  # a group with a minimum and no maximum (army.py)

UNCHECKED_TAG = "nr-unchecked-"
ONCE = 0  # `per_points` of a rarity taken once per army, whatever the limit


def slug(text: str, limit: int = 80) -> str:
    """A lowercase id: "Prince's Dragon (Hand Weapon)" -> "princes-dragon-hand-weapon", cut to `limit`
    with a short hash of the whole where it is longer."""
    text = re.sub(r"['’`]", "", str(text))
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    out = re.sub(r"[^a-z0-9]+", "-", text).strip("-") or "x"
    if len(out) > limit:
        out = out[:limit - 9].rstrip("-") + "-" + hashlib.sha1(out.encode()).hexdigest()[:8]
    return out


def is_choice(node: dict) -> bool:
    """An option node (`check`, `numeric`) rather than a group. A node without a `type` is a group
    (FORMAT.md), but one with nothing under it and a price or a mount to bring is a choice: Infernal Dwarves'
    Bull of Shamut and its other mounts, untyped in every commit, are priced by New Recruit as taken
    (docs/import-nr-t9a.md)."""
    if not node.get("name"):
        return False
    if "type" not in node:
        return not node.get("options") and not node.get("optionsDict") and ("cost" in node or "refopt" in node)
    return node["type"] in ("check", "numeric")


def listed(value) -> list[dict]:
    """An `override`: a list of objects, or (in older data) one object."""
    items = value if isinstance(value, list) else [value] if value else []
    return [o for o in items if isinstance(o, dict)]


def norm_ref(ref: str) -> str:
    """A category ref compared loosely: the data writes one `sunnas_fury` in one place, `sunnasFury` in another."""
    return re.sub(r"[^a-z0-9]", "", str(ref).lower())


def percent_of(value: float) -> float | int:
    """A fraction of the data (0.25) as a percent (25)."""
    p = round(float(value) * 100, 4)
    return int(p) if p.is_integer() else p


def scaled_size(size: dict, mult: str) -> dict:
    """The unit's size with its maximum multiplied, fractions rounded up (Fresh Meat, 1.2: 10-24 models, 10-29)."""
    return {"min": size["min"], "max": max(size["max"], math.ceil(Fraction(mult) * size["max"]))}


def ref_tag(ref: str) -> str:
    return "r-" + slug(ref, 78)


def refs_of(node: dict) -> list[str]:
    """A node's refs as strings; `{ref, amount}` refs (a fraction of a count) are named, not counted."""
    out = []
    for r in node.get("refs") or []:
        if isinstance(r, str):
            out.append(r)
        elif isinstance(r, dict) and isinstance(r.get("ref"), str):
            out.append(r["ref"])
    return out


def all_refs(data) -> set[str]:
    """Every ref any node below `data` carries (its army tree and pools), walked without recursion."""
    found, todo = set(), [data]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            found.update(refs_of(node))
            todo.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            todo.extend(v for v in node if isinstance(v, (dict, list)))
    return found


def condition_refs(value) -> list[tuple[list[str], dict]]:
    """`hasOption` and its kin: a string, a list of strings and objects `{refs, amount, ...}`, or one
    object; as (refs, the object's other keys) pairs, one per condition (all must hold)."""
    if value is None:
        return []
    items = value if isinstance(value, list) else [value]
    out = []
    for item in items:
        if isinstance(item, str):
            out.append(([item], {}))
        elif isinstance(item, dict):
            refs = item.get("refs", [])
            refs = [refs] if isinstance(refs, str) else [r for r in refs if isinstance(r, str)]
            out.append((refs, {k: v for k, v in item.items() if k != "refs"}))
    return out


def army_gates(overrides: list[dict]) -> tuple[list[dict], list[dict]]:
    """A node's `override`s split: those that replace its `armyHasNotOption` where the army has an option
    (Orcs and Goblins with Darrmu: Git Launchers at most 2, not 1), and the others."""
    gates, rest = [], []
    for o in overrides:
        changes = o.get("options") if isinstance(o.get("options"), dict) else {}
        if set(o) == {"armyHasOption", "options"} and set(changes) == {"armyHasNotOption"} \
                and condition_refs(o["armyHasOption"]):
            gates.append(o)
        else:
            rest.append(o)
    return gates, rest


def _count(value) -> int | None:
    """A whole number of the data (not a flag), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _refs(value) -> list[str]:
    """A list of ref strings of the data (`amountRefs`), else []."""
    return [r for r in value if isinstance(r, str)] if isinstance(value, list) else []


def unit_holds(tags, amount: int = 1) -> dict:
    """A modifier's condition: the unit holds `amount` (1) of the options (or is the entry) tagged `tags`."""
    return {"tally": {"count": sorted(tags), "scope": "unit"}, "is": "atLeast", "value": amount}


def unit_condition(value) -> dict | None:
    """`hasOption` as a modifier's condition on the unit: it holds `amount` (1) of each pair's refs, all
    pairs; None where a pair says more than refs and a whole `amount` (the caller names the construct)."""
    whens = []
    for refs, keys in condition_refs(value):
        amount = keys.get("amount", 1)
        if not refs or set(keys) - {"amount"} or type(amount) is not int:
            return None
        whens.append(unit_holds({ref_tag(r) for r in refs}, amount))
    return None if not whens else whens[0] if len(whens) == 1 else {"all": whens}


def army_condition(value) -> dict:
    """`armyHasOption` as a modifier's condition: the army holds `amount` (1) of the refs, each pair."""
    conds = [{"tally": {"count": sorted({ref_tag(r) for r in refs})}, "is": "atLeast", "value": keys.get("amount", 1)}
             for refs, keys in condition_refs(value) if refs]
    return conds[0] if len(conds) == 1 else {"all": conds}


def gated(limit: dict, when: dict | None, unless: list[dict]) -> dict:
    """The limit only where `when` holds (its bounds none elsewhere), and none where any of `unless` does."""
    limit = {k: v for k, v in limit.items() if k != "id"}
    mods = list(limit.get("modifiers", ()))
    if when is not None:
        mods = [{"target": "max", "op": "set", "value": limit.get("max", -1), "when": when}] + \
               [{**m, "when": {"all": [when, m["when"]]} if "when" in m else when} for m in mods]
        limit["max"] = -1
    if unless:
        mods.append({"target": "max", "op": "set", "value": -1,
                     "when": unless[0] if len(unless) == 1 else {"any": unless}})
    if mods:
        limit["modifiers"] = mods
    return limit


class Limits:
    """The army-wide limits gathered while converting one army, each once, and what was left unread."""

    def __init__(self, unit_max=(), words=None):
        self.limits: dict[str, dict] = {}
        # refs -> what carries them in a player's words ("a Runic Smith", "General"): the converter gives
        # groups.ref_words over its army; without one the refs themselves (issue 40: "needs general_envy").
        self.words = words or (lambda refs: " or ".join(refs))
        self.unchecked: Counter = Counter()  # construct -> how many nodes use it
        self.unchecked_tags: dict[str, str] = {}  # tag -> construct, for the "not checked" warnings
        # The army's `useunitmax` refs: a unit counts its largest selection of one, not their sum (a High
        # Elf Commander's Queen's Companion, five Queen's Bows, and his own Longbow count five).
        self.unit_max = frozenset(ref_tag(r) for r in unit_max if isinstance(r, str))

    def add(self, limit: dict) -> None:
        if "what" not in limit and self.unit_max and set(limit["count"]) <= self.unit_max:
            limit = {**limit, "what": "largest"}
        key = hashlib.sha1(repr(sorted(limit.items())).encode()).hexdigest()[:10]
        if key not in self.limits:
            self.limits[key] = {"id": f"nr-{key}", **limit}

    def not_understood(self, construct: str, count: int = 1) -> str:
        """Counts a construct the importer does not check and returns the tag its nodes carry, so a list
        taking one is told that it was not checked (a warning, never a silent pass)."""
        self.unchecked[construct] += count
        tag = UNCHECKED_TAG + slug(construct, 60)
        self.unchecked_tags[tag] = construct
        return tag

    def army_has_not(self, value, own_refs: list[str], own_tag: str, name: str, overrides: list[dict] = ()
                     ) -> list[str]:
        """`armyHasNotOption` on a node (or the army): for a ref the node carries, the army holds at most
        `amount` of it (1 for a plain ref), `perPoints` making that amount per so many points of the limit
        (rounded up), `armyPercent`/`cost` a share or a number of points; for a ref it does not
        carry, the node is refused once the army holds `amount` of that ref. `overrides`: the node's
        `override`s that replace its `armyHasNotOption` where the army has an option (`army_gates`): each
        one's limits hold where its condition does, the node's own where none does. Returns the tags of
        constructs not understood."""
        whens = [army_condition(o["armyHasOption"]) for o in overrides]
        extra = self._army_has_not(value, own_refs, own_tag, name, None, whens)
        for o, when in zip(overrides, whens):
            extra += self._army_has_not(o["options"]["armyHasNotOption"], own_refs, own_tag, name, when, [])
        return extra

    def _army_has_not(self, value, own_refs, own_tag, name, when: dict | None, unless: list[dict]) -> list[str]:
        kept, self.limits = self.limits, {}
        try:
            extra = self._limits_of(value, own_refs, own_tag, name)
            made = list(self.limits.values())
        finally:
            self.limits = kept
        for limit in made:
            self.add(gated(limit, when, unless))
        return extra

    def _limits_of(self, value, own_refs: list[str], own_tag: str, name: str) -> list[str]:
        extra = []
        for refs, keys in condition_refs(value):
            if not refs:
                continue
            amount = keys.get("amount", 1)
            # `armyPercent` and `cost` both true: `amount` is a percent of the points (Orcs and Goblins' Darrmu).
            share = keys.get("armyPercent") is True and keys.get("cost") is True
            known = {"amount", "perPoints", "roundUp", "armyPercent", "cost", "parentMult", "armyTypeMult"}
            known |= {"lenient"} if share and keys.get("lenient") is True else set()
            known |= {"extra"} if "perPoints" in keys and _count(keys.get("extra")) else set()
            known |= {"amountRefs"} if _refs(keys.get("amountRefs")) else set()
            unknown = sorted(set(keys) - known)
            # each model counted, or the army type's multiplier: neither is read (false: the default here)
            unknown += [k for k in ("parentMult", "armyTypeMult") if keys.get(k)]
            if unknown:
                extra.append(self.not_understood("armyHasNotOption." + "/".join(unknown)))
            if not isinstance(amount, (int, float)):
                extra.append(self.not_understood("armyHasNotOption.amount (not a number)"))
                continue
            tags = sorted({ref_tag(r) for r in refs})
            label = self.words(refs)
            if share and keys.get("lenient") is True and own_tag is not None:
                # The node refused once the refs' points pass `amount` percent of the limit (`lenient`: reaching
                # it is allowed): with a Darrmu General, Orcs at most 10% (docs/import-nr-t9a.md).
                when = {"tally": {"count": [own_tag]}, "is": "atLeast", "value": 1}
                self.add({"label": f"{label} (points, with {name})", "count": tags, "what": "points", "percent": True,
                          "max": -1, "modifiers": [{"target": "max", "op": "set", "value": amount, "when": when}]})
            elif share or isinstance(keys.get("armyPercent"), bool) or isinstance(keys.get("cost"), bool):
                extra.append(self.not_understood("armyHasNotOption.armyPercent/cost"))
            elif "armyPercent" in keys:
                self.add({"label": f"{label} (points)", "count": tags, "what": "points", "percent": True,
                           "max": round(float(keys["armyPercent"]) * 100, 4)})
            elif "cost" in keys:
                self.add({"label": f"{label} (points)", "count": tags, "what": "points", "max": keys["cost"]})
            elif own_refs and set(refs) & set(own_refs) or own_tag is None:
                # The node's own bound, where the node is taken: other nodes carrying the ref bound it
                # otherwise (a Runic Smith's Ancient Grudge: 3 grudges in the army; a Thane's: 6; a King
                # is a grudge and bounds none).
                mine = [] if own_tag is None else [{"target": "max", "op": "set", "value": -1, "when": {
                    "tally": {"count": [own_tag]}, "is": "lessThan", "value": 1}}]
                if "perPoints" in keys:
                    # Rounded up, `roundUp` or not: measured on the 2025-2026 lists, rounding down refused 55
                    # lists of 3,065 that New Recruit took (docs/import-nr-t9a.md).
                    repeat = {"limit": True, "per": keys["perPoints"], "round_up": True}
                    # `extra`: so many besides (Warriors of the Dark Gods' Legendary Beasts under a Feldrak General)
                    self.add({"label": f"{label} per {keys['perPoints']} points", "count": tags,
                              "max": _count(keys.get("extra")) or 0,
                               "modifiers": [{"target": "max", "op": "increment", "value": amount,
                                              "repeat": repeat}] + mine})
                elif _refs(keys.get("amountRefs")):
                    # `amount` for each of `amountRefs` in the army (Undying Dynasties' Longbows: one per Pharaoh)
                    per = {"tally": {"count": sorted({ref_tag(r) for r in _refs(keys["amountRefs"])})}, "per": 1}
                    self.add({"label": f"{label} per {self.words(_refs(keys['amountRefs']))}", "count": tags, "max": 0,
                              "modifiers": [{"target": "max", "op": "increment", "value": amount, "repeat": per}] + mine})
                else:
                    self.add({"label": label, "count": tags, "max": amount, **({"modifiers": mine} if mine else {})})
            else:
                when = {"tally": {"count": tags}, "is": "atLeast", "value": amount}
                self.add({"label": f"{name} (not with {label})", "count": [own_tag], "max": -1,
                           "modifiers": [{"target": "max", "op": "set", "value": 0, "when": when}]})
        return extra

    def army_has(self, value, own_tag: str, name: str) -> None:
        """`armyHasOption`: the node only where the army holds `amount` (1) of one of the refs."""
        for refs, keys in condition_refs(value):
            if not refs:
                continue
            amount = keys.get("amount", 1)
            when = {"tally": {"count": sorted({ref_tag(r) for r in refs})}, "is": "lessThan", "value": amount}
            self.add({"label": f"{name} (needs {self.words(refs)} in the army)", "count": [own_tag], "max": -1,
                       "modifiers": [{"target": "max", "op": "set", "value": 0, "when": when}]})

    def allowance(self, entry: str, tag: str, points: int, label: str, overrides: list[tuple[dict, int]]) -> None:
        """`leafMaxCost`: the unit's options tagged `tag` cost at most `points` (an override sets another
        amount where its condition on the unit holds: (condition, points))."""
        limit = {"label": label, "count": [tag], "what": "points", "scope": "unit", "entries": [entry], "max": points}
        if overrides:
            limit["modifiers"] = [{"target": "max", "op": "set", "value": value, "when": when}
                                  for when, value in overrides]
        self.add(limit)

    def category_points(self, tag: str, name: str, low: float | None, high: float | None) -> None:
        """An army's own category (The Menagerie): the points of the units and options tagged with it,
        as a percent of the limit."""
        limit: dict = {"label": name, "count": [tag], "what": "points", "percent": True}
        if high is not None:
            limit["max"] = round(high * 100, 4)
        if low is not None:
            limit["min"] = round(low * 100, 4)
        self.add(limit)

    def rules(self) -> list[dict]:
        rules = []
        if self.limits:
            rules.append({"id": "nr-limits", "type": "tally_limits", "params": {"limits": list(self.limits.values())},
                          "source": "New Recruit's data: armyHasNotOption, armyHasOption, leafMaxCost, maxPercent"})
        if self.unchecked_tags:
            rules.append({"id": "nr-not-checked", "type": "tally_limits", "severity": "warning",
                          "source": "constructs of New Recruit's data the importer does not check",
                          "params": {"limits": [
                              {"id": f"nr-not-checked-{i}", "label": f"{construct} (a rule of New Recruit's data "
                                                                     f"that is not checked here)",
                               "count": [tag], "max": 0}
                              for i, (tag, construct) in enumerate(sorted(self.unchecked_tags.items()))]}})
        return rules


@dataclass(frozen=True)
class RarityRules:
    """How often a rarity may be taken and what one unit may cost, as the data's rule text of a date says
    (rarity.read_rules); empty where it says nothing."""

    per_points: dict[str, int] = field(default_factory=dict)  # rarity -> Army Points per one taken (ONCE: one)
    unit_cost_cap: int | None = None  # no unit costs more, unless its entry or mount says another

    def shifted(self, rarity, steps) -> str | None:
        """The rarity `steps` along the text's scale, from the least rare (a `rarityModifier`: Vampire
        Covenant's Shrieking Horror, Rare, is Extraordinary where a character rides one, +1; Vermin Swarm's
        Legionary Drill Team Uncommon under a Stygian Overseer, -1); None off the scale or for no number."""
        scale = sorted(self.per_points, key=lambda r: (self.per_points[r] == ONCE, self.per_points[r]))
        if rarity not in scale or type(steps) is not int or not 0 <= scale.index(rarity) + steps < len(scale):
            return None
        return scale[scale.index(rarity) + steps]

    def bound(self, rarity) -> dict | None:
        """A `tally_limit`'s bounds for one rarity: {max} or {max: 0, modifiers: [+1 per so many points]}."""
        per = self.per_points.get(rarity) if isinstance(rarity, str) else None
        if per is None:
            return None
        if per == ONCE:
            return {"max": 1}
        return {"max": 0, "modifiers": [{"target": "max", "op": "increment", "value": 1,
                                         "repeat": {"limit": True, "per": per, "round_up": True}}]}


class Alternatives:
    """The refs counted otherwise where the army has an option, and what each counts there (found by
    weights.ref_weights while the army's units are read, then `split` once all are)."""

    def __init__(self):
        self.found: dict[str, tuple[str, object]] = {}  # alternative tag -> (the ref's tag, the army's condition)

    def tag(self, tag: str, condition) -> str:
        key = slug("-".join(sorted(r for refs, _ in condition_refs(condition) for r in refs)), 30)
        alt = f"{tag}.if-{key}"
        self.found.setdefault(alt, (tag, condition))
        return alt

    def split(self, entries: list[dict], limits: Limits) -> None:
        """Every entry and option counting a ref counts its alternative too (at its weight, unless its own
        override gave another or took the ref away: `_no_alt`), and each army limit of the ref is made twice
        (`gated`)."""
        nodes = entries + [o for e in entries for o in e.get("options", ())]
        for alt, (tag, _) in self.found.items():
            for node in nodes:
                for key in ("tags", "model_tags"):
                    have = node.get(key) or []
                    if tag in have and alt not in have and alt not in node.get("_no_alt", ()):
                        node[key] = sorted(set(have) | {alt})
                        weight = (node.get("tag_weights") or {}).get(tag)
                        if weight is not None:
                            node["tag_weights"] = {**node["tag_weights"], alt: weight}
        for node in nodes:
            node.pop("_no_alt", None)
        made = {}
        for key, limit in limits.limits.items():
            alts = [(alt, tag, cond) for alt, (tag, cond) in self.found.items() if tag in limit["count"]]
            if not alts or limit.get("scope") == "unit":
                made[key] = limit
                continue
            whens = [army_condition(cond) for _, _, cond in alts]
            made[key] = {"id": limit["id"], **gated(limit, None, whens)}
            for (alt, tag, _), when in zip(alts, whens):
                other = {**limit, "count": sorted((set(limit["count"]) - {tag}) | {alt})}
                made[key + "-" + slug(alt, 20)] = {"id": f"{limit['id']}-{slug(alt, 30)}", **gated(other, when, [])}
        limits.limits = made
