"""How often a unit or an option may be taken (its `rarity`), and how much one unit may cost (`maxUnitCost`),
as New Recruit's T9A data states them: the bounds are read from the data's own rule text, not written here.

The text (ruledefs.json `rulebook-build_an_army`, its section on rarity, from 2025) gives each rarity a number
of Army Points per one taken, fractions rounded up (Regular one per 500 points, Rare one per 2500...; a
Legendary one once whatever the size), and from 2024-12 until 2026-01 a cap on what any one unit may cost
(600 points), which an entry's or a mount's `maxUnitCost` replaces. Where the text of a date states none
of this, nothing is bounded by it (docs/import-nr-t9a.md, "Rarity and the unit cost cap").

`conv` is the converter's state (state.py: its limits, its mounts, the rule text's rarities).
"""
from __future__ import annotations

import html
import re

from armylists.importers.nr_t9a.limits import (ONCE, RarityRules, army_condition, condition_refs, listed, slug,
                                                unit_condition, unit_holds)
from armylists.importers.nr_t9a.state import ConverterState

RULE_ID = "rulebook-build_an_army"
RULE_NUMBER_CHARS = 9  # a number of the text is read up to so many characters ("1,000"); a longer one is none
_PER = re.compile(r"([A-Z][a-z]+)\s*:\s*these\s+(?:unit\s+entries|items)\s+are\s+limited\s+to\s+a\s+maximum\s+of\s+"
                  rf"(?:1|one|once)\s+per\s+(\d[\d,]{{0,{RULE_NUMBER_CHARS - 1}}})\s+army\s+points", re.I)
_ONCE = re.compile(r"([A-Z][a-z]+)\s*:\s*these\s+items\s+can\s+only\s+(?:ever\s+)?be\s+taken\s+once\s+per\s+army", re.I)
_CAP = re.compile(r"(?:no\s+unit\s+can\s+have\s+a\s+points\s+cost\s+above|a\s+unit\s+can\s+cost\s+no\s+more\s+tha[nt]?)"
                  rf"\s+(\d[\d,]{{0,{RULE_NUMBER_CHARS - 1}}})\b", re.I)


def read_rules(ruledefs) -> RarityRules:
    """The rarities and the general unit cost cap the data's rule text states (none where it states none)."""
    rules = ruledefs.get("rules") if isinstance(ruledefs, dict) else None
    rule = rules.get(RULE_ID) if isinstance(rules, dict) else None
    text = rule.get("def") if isinstance(rule, dict) else None
    if not isinstance(text, str):
        return RarityRules()
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", text[:200_000])))
    per = {m.group(1).title(): int(m.group(2).replace(",", "")) for m in _PER.finditer(text)}
    per = {k: v for k, v in per.items() if v > 0}
    per.update({m.group(1).title(): ONCE for m in _ONCE.finditer(text)})
    cap = _CAP.search(text)
    return RarityRules(per, int(cap.group(1).replace(",", "")) if cap else None)


def rarity_override(override: dict) -> bool:
    """An `override` that sets a unit's rarity where the army holds some option (Orcs and Goblins' units
    under a Darrmu General; Mammoth Hunters with a Wildheart): read here, as a modifier of the bound."""
    changes = override.get("options")
    if set(override) == {"armyHasOption", "increment"}:  # a step of its rarity (RarityRules.shifted)
        changes = override["increment"]
        return isinstance(changes, dict) and set(changes) == {"rarityModifier"} and bool(
            condition_refs(override["armyHasOption"]))
    return (set(override) == {"armyHasOption", "options"} and isinstance(changes, dict)
            and set(changes) == {"rarity"} and bool(condition_refs(override["armyHasOption"])))


def rarity_limit(conv: ConverterState, node: dict, tag: str, name: str, overrides: list[dict], what: str = "unit",
                 lifted: list[dict] = ()) -> str | None:
    """An army-wide limit on the selections tagged `tag` (a unit entry, or what shares the node's
    `sharedRarity`) by the node's rarity and the rarity overrides' under their conditions; none where one of
    the node's `lifted` overrides gives it an `armyHasNotOption` of its own (Orcs and Goblins' Headhunters
    under a Darrmu: at most 6, though Uncommon). Returns the tag the node carries, or a "not checked" tag
    where its rarity is one the rule text does not give."""
    rules = conv.rarity_rules
    written, step = node.get("rarity"), node.get("rarityModifier") or 0
    rarity = rules.shifted(written, step)
    base = rules.bound(rarity)
    if base is None:
        return conv.limits.not_understood(f"{what} rarity") if written not in (None, "") else None
    key = node.get("sharedRarity")
    if isinstance(key, str) and key:
        tag, name = "rs-" + slug(key, 76), key
    limit = {"label": f"{name} ({rarity})", "count": [tag], "what": "units", **base}  # a unit counts once
    mods = list(base.get("modifiers", ()))
    for o in overrides:
        other = rules.bound(o["options"]["rarity"] if "options" in o else
                            rules.shifted(written, step + o["increment"]["rarityModifier"]))
        if other is None:
            return conv.limits.not_understood(f"{what} override (rarity)")
        when = army_condition(o["armyHasOption"])
        mods.append({"target": "max", "op": "set", "value": other["max"], "when": when})
        mods += [{**m, "when": when} for m in other.get("modifiers", ())]
    mods += [{"target": "max", "op": "set", "value": -1, "when": army_condition(o["armyHasOption"])} for o in lifted]
    if mods:
        limit["modifiers"] = mods
    conv.limits.add(limit)
    return tag


def unit_cost_limit(conv: ConverterState, unit: dict, own_tag: str, entries: list[str],
                    raised: list[tuple[str, int, dict | None]]) -> bool:
    """A unit's points at most its `maxUnitCost`, else the rule text's general cap; `raised`: (tag, points,
    condition) of its options that allow another (a mount's `maxUnitCost`: a character on a Griffon up to 700).
    Returns whether a limit was made (the entry then carries `own_tag`)."""
    if conv.rarity_rules.unit_cost_cap is None:
        return False  # the text states no such rule: New Recruit's 2026 lists exceed the data's maxUnitCost freely
    cap = unit.get("maxUnitCost")
    cap = cap if isinstance(cap, int) and not isinstance(cap, bool) else conv.rarity_rules.unit_cost_cap
    limit = {"label": f"{unit['name']} (points of the unit)", "count": [own_tag], "what": "points",
             "scope": "unit", "entries": entries, "max": cap}
    if raised:
        limit["modifiers"] = [{"target": "max", "op": "set", "value": points,
                               "when": unit_holds([tag]) if when is None else {"all": [unit_holds([tag]), when]}}
                              for tag, points, when in sorted(raised, key=lambda x: x[1])]  # the highest last wins
    conv.limits.add(limit)
    return True


def cap_raises(conv: ConverterState, node: dict, oid: str) -> set[str]:
    """An option's (or its mount's) `maxUnitCost`: with it the unit may cost so much (`conv.raised_caps`,
    bounded by unit_cost_limit), and more where an override says so where the unit has an option (Kingdom
    of Equitaine's Fey Steed and Hippogriff: 700, 800 with Sainted; the override is read: `conv.consumed`).
    The tag the option carries, if any."""
    cap = node.get("maxUnitCost", conv.mounts.get(node.get("refopt"), {}).get("maxUnitCost"))
    if not isinstance(cap, int) or isinstance(cap, bool):
        return set()
    tag = "muc-" + slug(f"{conv.eid}-{oid}", 76)
    conv.raised_caps.append((tag, cap, None))
    for o in listed(node.get("override")):
        value = o["options"].get("maxUnitCost") if isinstance(o.get("options"), dict) else None
        when = unit_condition(o.get("hasOption"))
        if set(o) == {"hasOption", "options"} and set(o["options"]) == {"maxUnitCost"} and type(value) is int \
                and when is not None:
            conv.raised_caps.append((tag, value, when))
            conv.consumed.add(id(o))
    return {tag}


# -- Special Items (the pools' options) ------------------------------------------------------------

def item_bound(conv: ConverterState, rarity) -> dict | None:
    """A pool item's bounds by its rarity: the rule text's, or where the data of the date has no such text
    (2024), nr_t9a.yaml's `rarity_max` (`conv.rarity_max`), measured on the lists (docs/import-nr-t9a.md)."""
    if conv.rarity_rules.per_points:
        return conv.rarity_rules.bound(rarity)
    most = conv.rarity_max.get(rarity) if isinstance(rarity, str) else None
    return None if most is None else {"max": most}


def _looseness(conv: ConverterState, rarity) -> float | None:
    """How loose a rarity's bound is, to compare two (None: no bound)."""
    bound = item_bound(conv, rarity)
    if bound is None:
        return None
    if "modifiers" in bound:  # one per so many points: the fewer points, the looser
        return 1 + 1 / bound["modifiers"][0]["repeat"]["per"]
    return bound["max"] if not conv.rarity_rules.per_points else 1


def shared_loosest(conv: ConverterState, pools: dict[str, list[dict]]) -> dict[str, str | None]:
    """Item name -> the rarity bounding a `shared` item: one defined both in the army's pool and in an
    included file (Orcs and Goblins' Banner of Courage: 20 pts and Legendary in the army's, 0 pts and
    Uncommon in special.json) is one item, taken as often as its loosest definition allows (None: no
    bound; measured: docs/import-nr-t9a.md)."""
    found: dict[str, tuple[float | None, str | None]] = {}
    for items in pools.values():
        for item in items:
            if item.get("shared") and item.get("name"):
                loose = _looseness(conv, item.get("rarity"))
                known = found.get(item["name"], (0, None))
                if known[0] is not None and (loose is None or loose > known[0]):
                    found[item["name"]] = (loose, item.get("rarity") if loose is not None else None)
    return {name: rarity for name, (_, rarity) in found.items()}


def item_rarity(conv: ConverterState, node: dict, overrides: list[dict], lifted: list[dict]) -> set[str]:
    """An option's `rarity` as an army-wide limit: a pool item's (or its `shared` bound) on the item by
    name; another option's (Ambush, Extraordinary Specimen; a mount's, from the unit its `refopt` brings) on
    the unit entry's option (a Rare Ambush: two Wildhorn Herds and two Longhorn Herds may take it), or on all
    that share its `sharedRarity`, with `overrides` setting another rarity where the army has some option,
    `lifted` (rarity_limit) lifting it. The tags the option gets."""
    rarity = node.get("rarity")
    if node.get("rarityModifier"):  # a step of the unit's rarity (Vampire Counts' Shrieking Horror): not read
        return {conv.limits.not_understood("option rarityModifier")}
    if id(node) not in conv.pool_items or node.get("sharedRarity"):
        source = node if rarity or node.get("sharedRarity") else conv.mounts.get(node.get("refopt"), node)
        if source is not node:
            overrides = [o for o in listed(source.get("override")) if rarity_override(o)]
            lifted = []
        tag = "ro-" + slug(f"{conv.eid}-{source.get('name', '')}", 76)
        return {t for t in [rarity_limit(conv, source, tag, source.get("name", ""), overrides, "option", lifted)] if t}
    if node.get("shared") and node.get("name") in conv.shared_max:
        rarity = conv.shared_max[node["name"]]
    bound = item_bound(conv, rarity)
    if bound is not None:
        key = node.get("name", "")  # one item by name, whatever weapon it is on (refs are shared)
        tag = "rar-" + slug(key, 76)
        label = f"{key} ({rarity})" if not node.get("shared") else f"{key} (shared)"
        conv.limits.add({"label": label, "count": [tag], "what": "units", **bound})  # three runes of one kind: once
        return {tag}
    if node.get("shared") or rarity is None or rarity in ("Regular", "Common") and not conv.rarity_rules.per_points:
        return set()  # a shared item one of whose definitions has no bound; a rarity the data of 2024 left free
    return {conv.limits.not_understood("option rarity")}
