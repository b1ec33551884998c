"""Counts within one unit: the groups an option node's children form, their bounds and the overrides that
change them, and a unit's own amount of a ref (`conv`: the converter's state, state.py, at the unit).

A node's `maxSize`/`minSize` bound how many of its children a unit takes (a group of the entry); an
`override` may set another bound where the unit has an option, has none, or the army has one (the Paths:
two with the Essence of a Free Mind; Undying Dynasties' units under a Terracotta Army: one choice of the
group at least). Such a bound is a count of the group's options in each unit (`group_bounds`).
"""
from __future__ import annotations

from armylists.importers.nr_t9a.limits import GROUP_ANY, condition_refs, listed, ref_tag, slug, unit_condition, unit_holds
from armylists.importers.nr_t9a.state import ConverterState

# Keys an override may set that no price, bound or condition depends on: its texts and display.
DISPLAY_KEYS = frozenset({"optionsLabel", "rules", "loses_rules", "logo", "description", "hide", "hidden",
                          "collapsible", "parsername"})
CONDITIONS = ("hasOption", "hasNotOption", "armyHasOption")  # what a group bound's override may be under


def inert_override(override: dict, node: dict) -> bool:
    """An override that changes nothing a list's price or legality depends on: a condition with no change
    (Shinobi's), texts and display only (Skeleton Chariots' Barrow Legion rule), clearing a condition the
    node does not have (Eye of the Gorgon's `hasNotOption: []`), or moving a unit to the category its own
    `category` names (Vermin Swarm's Plague Cultists with Plague Flails, 2026: in the Core container, `category`
    special; New Recruit lists all 15 such units of the tournament lists in Core and counts them there)."""
    if set(override) & {"push", "increment"}:
        return False
    changes = override.get("options", {})
    if not isinstance(changes, dict):
        return False
    return all(k in DISPLAY_KEYS or v in ([], None) and not node.get(k)
               or k == "replaceCategory" and v == node.get("category") for k, v in changes.items())


def size_override(override: dict) -> bool:
    """An override that sets a node's group bounds (and display) only: read where the group is made."""
    changes = override.get("options")
    return (isinstance(changes, dict) and not set(override) & {"push", "increment"}
            and bool({"maxSize", "minSize"} & set(changes)) and set(changes) <= {"maxSize", "minSize"} | DISPLAY_KEYS)


def make_group(conv: ConverterState, node: dict, unchecked, parent: str | None, name: str
               ) -> tuple[str | None, str | None]:
    """(the group the node's children form or None where they are free choices, the "not checked" tag of
    a bound the importer cannot read or `unchecked`)."""
    # `minSinze` (misspelt, once) is not read: New Recruit ignores it (Seekers priced without Vanguard)
    high, low = node.get("maxSize"), node.get("minSize")
    overrides = [o for o in listed(node.get("override")) if not inert_override(o, node)]
    sizes = [o["options"] for o in overrides if isinstance(o.get("options"), dict)
             and {"maxSize", "minSize"} & set(o["options"])]
    if high is None and not low and (not sizes or any("maxSize" in x for x in sizes)):
        if sizes:
            unchecked = _unread(conv, parent, "group size override (no bounds of its own)")
        return None, unchecked
    gid = f"g{len(conv.groups) + 1}"
    group: dict = {"name": name or "choice", "max": max(1, int(high)) if high is not None else GROUP_ANY}
    if sizes:
        # A bound an override changes where some option is taken: the loosest is the group's, the
        # override's checked per unit (group_bounds), or where it says more, named as not checked.
        # (maxSize -1: no bound; Ogre Khans' Hoardmaster carries every close combat weapon)
        group["max"] = max([group["max"]] + [GROUP_ANY if int(x.get("maxSize", 0) or 0) < 0 else
                                             int(x.get("maxSize", 0) or 0) for x in sizes])
        low = min([int(low or 0)] + [int(x.get("minSize", low or 0) or 0) for x in sizes])
        if not group_bounds(conv, gid, name or "choice", node, overrides, parent):
            unchecked = _unread(conv, parent, "group size override")
    if low and parent is None:
        group["min"] = int(low)
    conv.groups[gid] = group
    return gid, unchecked


def _unread(conv: ConverterState, parent: str | None, construct: str) -> str:
    """The "not checked" tag of a group bound not read, on the group's options (the caller's) and on the
    option the group is under, or the unit: a list taking none of the group's options (a minimum) is told."""
    tag = conv.limits.not_understood(construct)
    holder = next((o["tags"] for o in conv.options if o["id"] == parent), None) if parent else None
    if holder is not None:
        holder.add(tag)
    else:
        conv.entry_tags.append(tag)
    return tag


def close_group(conv: ConverterState, gid: str | None) -> None:
    """Once a group's options are made: their count in all (group_count) and an override's bounds
    (group_bound_tags)."""
    if gid:
        group_count(conv, gid)
        group_bound_tags(conv, gid)


def group_count(conv: ConverterState, gid: str) -> None:
    """A group whose options may be taken several times (`numeric` runes): its `maxSize` bounds how many
    are taken in all (Armour Runes: three, of one rune or of several), as a count of the unit's options."""
    members = [o for o in conv.options if o.get("group") == gid]
    high = conv.groups[gid]["max"]
    if high >= GROUP_ANY or not any(o.get("max", 1) > 1 for o in members):
        return
    tag = f"gs-{slug(conv.eid, 60)}-{gid}"
    for o in members:
        o["tags"].add(tag)
    conv.limits.add({"label": f"{conv.eid}: {conv.groups[gid]['name']}", "count": [tag], "scope": "unit",
                     "entries": [conv.eid], "max": high})


def group_bounds(conv: ConverterState, gid: str, name: str, node: dict, overrides: list[dict],
                 parent: str | None) -> bool:
    """A group's `maxSize` or `minSize` that an override changes where the unit has an option, has none, or
    the army has one: a count of the group's options in the unit, bounded by the group's own and by each
    override's where all its conditions hold, in order; a minimum on a group under an option, where the unit
    has that option too (a Strigoi General takes one of the Strigoi's powers). False (the caller names the
    construct) where an override says anything else."""
    mods, held = [], None  # held: the condition that the option the group is under is taken
    elsewhere = {"cost"} if node is conv.number else set()  # the Number's price: variants.with_option's
    for o in overrides:
        changes = {k: v for k, v in (o.get("options") or {}).items() if k not in DISPLAY_KEYS | elsewhere} \
            if isinstance(o.get("options"), dict) else {}
        if not {"maxSize", "minSize"} & set(changes):
            continue
        keys = set(o) - {"options"}
        if set(changes) - {"maxSize", "minSize"} or not keys or keys - set(CONDITIONS) \
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in changes.values()):
            return False
        whens = []
        for key in sorted(keys):
            for refs, extra in condition_refs(o[key]):
                amount = extra.get("amount", 1)
                amount = int(amount) if isinstance(amount, str) and amount.isdigit() and len(amount) < 4 else amount  # "1"
                if not refs or not isinstance(amount, int) or set(extra) - {"amount"}:
                    return False
                tally = {"count": sorted({ref_tag(r) for r in refs}), **({} if key == "armyHasOption" else {"scope": "unit"})}
                whens.append({"tally": tally, "is": "lessThan" if key == "hasNotOption" else "atLeast", "value": amount})
        if not whens:
            return False
        if "minSize" in changes and parent is not None:
            held = held or _parent_held(conv, parent, gid)
            whens.insert(0, held)
        when = whens[0] if len(whens) == 1 else {"all": whens}
        mods += [{"target": "max" if k == "maxSize" else "min", "op": "set",
                  "value": max(-1, v) if k == "maxSize" else max(0, v), "when": when} for k, v in sorted(changes.items())]
    tag = f"gb-{slug(conv.eid, 60)}-{gid}"
    high, low = node.get("maxSize"), node.get("minSize")
    limit = {"label": f"{conv.eid}: {name}", "count": [tag], "scope": "unit", "entries": [conv.eid],
             "max": int(high) if isinstance(high, int) and high >= 0 else -1, "modifiers": mods}
    if parent is None and isinstance(low, int) and low > 0 and any(m["target"] == "min" and m["value"] < low for m in mods):
        limit["min"] = low  # the group's own minimum, which an override lowers (make_group leaves it here)
    conv.limits.add(limit)
    conv.bounded_groups[gid] = (tag, limit)
    return True


def _parent_held(conv: ConverterState, parent: str, gid: str) -> dict:
    """The condition that the unit has the option `parent` (tagged for it)."""
    tag = f"gp-{slug(conv.eid, 60)}-{gid}"
    next(o for o in conv.options if o["id"] == parent)["tags"].add(tag)
    return unit_holds([tag])


def group_bound_tags(conv: ConverterState, gid: str) -> None:
    """The tag of group_bounds' count on the group's options, once they are made; a minimum above their number
    is all of them (Ogre Khans' Hoardmaster: "at least 4" of three close combat weapons, the Hand Weapon
    besides, as New Recruit's lists take him)."""
    if gid in conv.bounded_groups:
        tag, limit = conv.bounded_groups[gid]
        members = [o for o in conv.options if o.get("group") == gid]
        for o in members:
            o["tags"].add(tag)
        priced_otherwise = {v for variants in conv.prices.values() for v in variants}  # one choice at two prices
        choices = sum(1 for o in members if o["id"] not in priced_otherwise)
        for m in limit["modifiers"]:
            if m["target"] == "min":
                m["value"] = min(m["value"], choices)


def unit_amount(conv: ConverterState, option: dict, refs: list[str], amount) -> None:
    """`hasNotOption: {refs, amount}` on an option carrying one of the refs (a Vampire's Blood Powers:
    not once the model has two): the options of the unit with this condition are at most `amount`. On an
    option without the refs (Infernal Dwarves' own Shield Breaker among the Keys to the Citadel, whose
    enchantments hold `weaponEnchantUni`): where it is taken, the unit's other options carrying them are
    fewer than `amount`."""
    if not isinstance(amount, (int, float)):
        option["tags"].add(conv.limits.not_understood("hasNotOption amount (not a number)"))
        return
    if not {ref_tag(r) for r in refs} & option["tags"]:  # its own refs and those its group gives it
        own = "hl-" + slug(f"{conv.eid}-{option['id']}", 77)
        option["tags"].add(own)
        conv.limits.add({"label": f"{conv.eid}: {' or '.join(refs)} beside {option['name']}",
                         "count": sorted({ref_tag(r) for r in refs}), "scope": "unit", "entries": [conv.eid],
                         "modifiers": [{"target": "max", "op": "set", "value": amount - 1, "when": unit_holds([own])}]})
        return
    tag = "hn-" + slug(f"{conv.eid}-{'-'.join(sorted(refs))}-{amount}", 77)
    option["tags"].add(tag)
    conv.limits.add({"label": f"{conv.eid}: {' or '.join(refs)}", "count": [tag], "scope": "unit",
                     "entries": [conv.eid], "max": amount})


def size_tag(ref: str) -> str:
    """The tag a unit's size ("Number") ref gives each model, for the unit's own conditions (the army's limits
    count the ref's own tag, which each model carries too: army.py)."""
    return "sz-" + slug(ref, 77)


def unheld_condition(conv: ConverterState, option: dict, refs: list[str], keys: dict, own_tag: str) -> bool:
    """`hasOption` of refs that no option of the unit carries, nor the unit. Where they are its size's (the
    "Number"'s refs, counted once a model: the entry's `model_tags`, `size_tag`), the option needs `amount` models (a
    Knight Banneret: eight knights); where another unit or option of the army carries them, it never holds in
    this unit (a Spell Scroll needs a `wizard`, a Sheltering Standard `tag_Light Armour`, a Battleline Hero
    the General): the option is refused. False where neither (a ref nothing carries: the caller names it)."""
    amount = keys.get("amount", 1)
    if not isinstance(amount, int) or isinstance(amount, bool) or set(keys) - {"amount"}:
        return False
    if set(refs) <= conv.size_refs:
        if amount > 1:
            option["tags"].add(own_tag)
            when = {"tally": {"count": sorted({size_tag(r) for r in refs}), "scope": "unit"}, "is": "lessThan", "value": amount}
            conv.limits.add({"label": f"{option['name']} (at least {amount} models)", "count": [own_tag], "scope": "unit",
                             "max": -1, "modifiers": [{"target": "max", "op": "set", "value": 0, "when": when}]})
        return True
    if set(refs) & conv.army_refs:
        option["tags"].add(own_tag)
        conv.limits.add({"label": f"{option['name']} ({needs_words(conv, refs)})", "count": [own_tag], "max": 0})
        return True
    return False


def not_condition(conv: ConverterState, option: dict, node: dict, refs: list[str], own_tag: str) -> list[str]:
    """`hasNotOption` of `refs` (no `amount`): the ids of the unit's other options carrying them, which the
    option excludes. Where the unit itself carries one (a Banner of Becalming: not for a `core_unit`), the
    option is refused in this unit, except where an override clearing the condition holds (Dread Elves' Eye
    of the Gorgon on a Core unit with Dancers of Yema); it had been allowed. Where nothing of the unit carries
    them, such an override changes nothing. Either way the override is read (`conv.consumed`)."""
    ids = sorted({i for r in refs for i in conv.by_ref.get(r, ()) if i != option["id"]})
    own = set(refs) & set(conv.unit_refs)
    lifts = []  # an override lifting an exclusion of other options (`ids`) is not read: left to be named
    for o in listed(node.get("override")) if not ids else ():
        when = unit_condition(o.get("hasOption"))
        if set(o) == {"hasOption", "options"} and o["options"] == {"hasNotOption": []} and when is not None:
            lifts.append(when)
            conv.consumed.add(id(o))
    if own:
        option["tags"].add(own_tag)
        conv.limits.add({"label": f"{option['name']} (not for {ref_words(conv, sorted(own), by_unit=False)})", "count": [own_tag],
                         "scope": "unit", "max": 0,
                         **({"modifiers": [{"target": "max", "op": "set", "value": -1, "when": w} for w in lifts]}
                            if lifts else {})})
    return ids


def condition_swaps(conv: ConverterState, option: dict, node: dict, own_tag: str, overrides: list[dict]) -> list[dict]:
    """An override setting the option's `hasOption` where the unit has another option (High Elves' Royal
    Huntsman, which needs Light Troops or a Lion Chariot: on Light Troops, a Great Weapon): where that
    condition holds, the option needs the new one too, a per-unit count. Read only where the condition
    itself meets the option's own `hasOption` (so "instead" and "too" are one). The overrides not read."""
    own = condition_refs(node.get("hasOption"))
    rest = []
    for o in overrides:
        swap = o["options"].get("hasOption") if set(o) == {"hasOption", "options"} and isinstance(o.get("options"), dict) \
            and set(o["options"]) == {"hasOption"} else None
        when, needs = unit_condition(o.get("hasOption")), unit_condition(swap)
        met = all(any(set(refs) <= set(mine) and keys.get("amount", 1) >= mk.get("amount", 1)
                      for refs, keys in condition_refs(o["hasOption"])) for mine, mk in own) if when else False
        if when is None or needs is None or not met:
            rest.append(o)
            continue
        option["tags"].add(own_tag)
        names = " and ".join("/".join(refs) for refs, _ in condition_refs(swap))
        conv.limits.add({"label": f"{option['name']} (needs {names} there)", "count": [own_tag], "scope": "unit",
                         "max": -1, "modifiers": [{"target": "max", "op": "set", "value": 0,
                                                   "when": {"all": [when, {"not": needs}]}}]})
    return rest


# --- refs in a player's words (issue 40 item 6: "needs runic_smith" named the data's ref, not the unit) ----

def ref_words(conv: ConverterState, refs: list[str], by_unit: bool = True, army: bool = False) -> str:
    """What carries `refs` as a player names it: the one unit that does ("a Runic Smith", unless not
    `by_unit`: the unit itself, where a unit's own ref refuses an option), the category all the units that
    do are in ("Core units"), for an `army`-wide count the one option of one unit ("a Kuulima's Deceiver
    with General": Daemon Legions' `generalEnvy`), the one option ("General", an item of a pool); else the
    ref in words ("core unit", "light armour" for `tag_Light Armour`). A unit's "Number" carrying a ref is
    the unit (its models)."""
    carriers = _carriers(conv)
    words = []
    for ref in refs:
        found = carriers.get(ref, ())
        units = {name for kind, name, _, _ in found if kind in ("unit", "models")}
        options = {name for kind, name, _, _ in found if kind == "option"}
        cats = {cat for kind, _, cat, _ in found if kind in ("unit", "models")}
        holders = {unit for kind, _, _, unit in found if kind == "option"}
        if len(units) == 1 and not options and by_unit:
            words.append(_a(next(iter(units))))
        elif len(units) > 1 and not options and len(cats) == 1 and next(iter(cats)):
            words.append(f"{next(iter(cats))} units")
        elif army and len(options) == 1 and not units and len(holders) == 1 and next(iter(holders)):
            words.append(f"{_a(next(iter(holders)))} with {next(iter(options))}")
        elif len(options) == 1 and not {kind for kind, _, _, _ in found if kind == "unit"}:
            words.append(next(iter(options)))  # the option, wherever it is (some units' models besides)
        else:
            words.append(plain_ref(ref))
    return " or ".join(dict.fromkeys(words))


def needs_words(conv: ConverterState, refs: list[str]) -> str:
    """`only for a Runic Smith` where a unit carries the refs, else `needs a wizard in the unit`."""
    carriers = _carriers(conv)
    if all(carriers.get(r) and all(kind in ("unit", "models") for kind, _, _, _ in carriers[r]) for r in refs):
        return f"only for {ref_words(conv, refs)}"
    return f"needs {ref_words(conv, refs)} in the unit"


def plain_ref(ref: str) -> str:
    """A ref in words: `tag_Light Armour` -> "light armour", `core_unit` -> "core unit"."""
    text = ref[4:] if ref.startswith("tag_") else ref
    return " ".join(text.replace("_", " ").replace("-", " ").split()).lower() or ref


def _a(name: str) -> str:
    """A unit's name with its article: "a Runic Smith", "an Omen of Savar"; none for a plural ("Gorgons")."""
    if name.endswith("s"):
        return name
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


def _carriers(conv: ConverterState) -> dict[str, list[tuple[str, str, str]]]:
    """ref -> (unit, models (its "Number") or option, its name, the unit's category's name, the unit's
    name) of every named node of the army's tree and its pools carrying it; read once per army."""
    found = conv.__dict__.get("_ref_carriers")
    if found is None:
        found = conv.__dict__["_ref_carriers"] = {}
        data = getattr(conv, "data", None) or {}
        for root in listed(data.get("army")):
            for category in listed(root.get("options") if isinstance(root, dict) else None):
                if isinstance(category, dict):
                    _walk(category, str(category.get("name") or ""), found)
        # the items of the pools (magic items, runes), which the army's tree pulls in by `optionsDict`
        _walk({"options": [i for items in (getattr(conv, "pools", None) or {}).values() for i in listed(items)]}, "", found)
    return found


def _walk(node: dict, category: str, found: dict, unit: str = "") -> None:
    for child in listed(node.get("options")):
        if not isinstance(child, dict):
            continue
        name = child.get("name")
        kind = "unit" if "unit_id" in child else "option"
        models = bool(node.get("addToUnitSize") and unit)  # the unit's "Number": its refs are the unit's models'
        if models:
            kind, name = "models", unit
        if isinstance(name, str) and name.strip():
            refs = child.get("refs")
            for ref in refs if isinstance(refs, list) else [refs] if refs else []:
                if models and isinstance(ref, dict):
                    continue  # so many of a ref a model (Gorgons' `shots`, two each) is not the models
                ref = ref.get("ref") if isinstance(ref, dict) else ref
                if isinstance(ref, str):
                    found.setdefault(ref, []).append((kind, name.strip(), category, unit))
        _walk(child, category, found, str(name or "").strip() if "unit_id" in child else unit)
