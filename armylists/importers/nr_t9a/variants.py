"""What New Recruit's `override`s change where a unit (or the army) has an option or so many models: an
entry of its own in another category (`replaceCategory`) or at another unit cost, model cost or size, and
a category's percent (`category_override`).
`conv` is the converter's state (state.py) at the unit: its options by ref, its categories, its limits."""
from __future__ import annotations

from armylists.importers.nr_t9a.groups import inert_override, size_override
from armylists.importers.nr_t9a.limits import (army_condition, army_gates, condition_refs, listed, norm_ref, ref_tag, refs_of,
                                                scaled_size, slug, unit_holds)
from armylists.importers.nr_t9a.state import ConverterState

# What an override may change in an entry of its own for units with one of their options (with_option).
VARIANT_KEYS = {"unit": {"cost", "replaceCategory"}, "size": {"minSize", "maxSize"},
                "number": {"cost", "minSize", "maxSize"}}  # the Number's own bounds are its children's: loosened


def with_option(conv: ConverterState, entry: dict, ref: str, changes: dict, sized: bool, ids: set) -> dict:
    """The unit as an override makes it where it has one of its options (Black Cloaks as Covert
    Operatives: another unit cost, model cost and minimum size): an entry of its own that requires an
    option carrying `ref`, while the unit's own entry refuses it."""
    variant = {**entry, "id": slug(f"{entry['id']}-with-{ref}"), "size": dict(entry["size"])}
    ids.add(variant["id"])
    for key, value in changes.items():
        if key == "unit.cost":
            variant["base_points" if sized else "points"] = int(value)
        elif key == "unit.replaceCategory":
            variant["category"] = conv.category(value) or variant["category"]
        elif key == "number.cost":
            variant["points"] = int(value)
        elif key in ("size.minSize", "size.maxSize"):
            variant["size"]["min" if key == "size.minSize" else "max"] = int(value)
    if variant["points"] < 0:
        variant["base_points"] = variant.get("base_points", 0) + variant["points"]
        variant["points"] = 0
    variant["size"]["max"] = max(variant["size"]["min"], variant["size"]["max"])
    tag = ref_tag(ref)
    conv.limits.add({"label": f"{variant['name']} with {ref}", "count": [tag], "scope": "unit",
                     "entries": [variant["id"]], "min": 1})
    conv.limits.add({"label": f"{entry['name']} with {ref} (priced otherwise)", "count": [tag], "scope": "unit",
                     "entries": [entry["id"]], "max": 0})
    return variant


def moved(conv: ConverterState, override: dict, entry: dict, size_group: dict | None, ids: set, entry_extra=()
          ) -> dict | None:
    """An entry for the unit in the category an override's `replaceCategory` moves it to (at the unit cost
    it may also set: Giant Rats), or None. The override's condition is `hasOption` (so many models, or one
    of its options) or `hasNotOption` (Saurian Raptor Packs are Core unless they take an option counting
    them as Special: the moved entry refuses those options, the unit's own requires one)."""
    changes = override.get("options") if isinstance(override.get("options"), dict) else {}
    target = changes.get("replaceCategory")
    key = "hasNotOption" if "hasNotOption" in override and "hasOption" not in override else "hasOption"
    conds = condition_refs(override.get(key))
    # `extraCategories` that the unit has already change nothing (Beast Herds' Feral Hounds repeat theirs)
    own = {norm_ref(c) for c in listed(entry_extra)}
    if target is None or set(override) != {key, "options"} or len(conds) != 1 or len(conds[0][0]) != 1 \
            or not set(changes) <= {"replaceCategory", "cost", "extraCategories"} \
            or not {norm_ref(c) for c in listed(changes.get("extraCategories"))} <= own:
        return None
    category = conv.category(target)
    if category is None:
        return None
    ref, amount = conds[0][0][0], conds[0][1].get("amount", 1)
    variant = {**entry, "id": slug(f"{entry['id']}-as-{category}"), "category": category}
    if "cost" in changes:
        variant["base_points" if size_group is not None else "points"] = int(changes["cost"])
    ids.add(variant["id"])
    number_refs = set()
    if size_group is not None:
        for number in size_group.get("options", []):
            number_refs.update(refs_of(number))
    if ref in number_refs and key == "hasOption":  # so many models or more
        low, high = entry["size"]["min"], entry["size"]["max"]
        if not low < amount <= high:
            return None
        variant["size"] = {"min": amount, "max": high}
        entry["size"] = {"min": low, "max": amount - 1}
        for number in size_group.get("options", []):  # the Number's price at so many models (Feral Hounds: 10)
            for o in listed(number.get("override")):
                if set(o) == {"hasOption", "options"} and condition_refs(o["hasOption"]) == conds \
                        and set(o.get("options") or {}) == {"cost"}:
                    variant["points"] = int(o["options"]["cost"])
                    conv.consumed.add(id(o))
        return variant
    if ref not in conv.by_ref or not isinstance(amount, int):
        return None
    tag = ref_tag(ref)
    moved_to, stays = (variant, entry) if key == "hasOption" else (entry, variant)
    conv.limits.add({"label": f"{moved_to['name']} in {moved_to['category']}: {ref}", "count": [tag],
                     "scope": "unit", "entries": [moved_to["id"]], "min": amount})
    conv.limits.add({"label": f"{stays['name']} in {stays['category']}: not {ref}", "count": [tag], "scope": "unit",
                     "entries": [stays["id"]], "max": amount - 1})
    return variant


def extra_by_option(conv: ConverterState, override: dict, tags: list) -> None:
    """`extraCategories` where the unit has an option: the option carries the category's tag."""
    for refs, _ in condition_refs(override.get("hasOption")):
        for ref in refs:
            for oid in conv.by_ref.get(ref, []):
                for option in conv.options:
                    if option["id"] == oid:
                        option.setdefault("tags", [])
                        extra = [conv.extra_cats[norm_ref(c)] for c in override["options"]["extraCategories"]
                                 if norm_ref(c) in conv.extra_cats]
                        option["tags"] = sorted(set(option["tags"]) | set(extra))


def category_override(conv: ConverterState, cat: dict, ours: str, ref: str, low, high) -> bool:
    """A category whose percent an `override` changes where the army has an option (Ogre Khans' Core
    at 20% with a Wildheart): the points of its units as a tally with that modifier. False where the
    override says something else."""
    modifiers = []
    for o in listed(cat.get("override")):
        conds = condition_refs(o.get("armyHasOption"))
        changes = o.get("options") if isinstance(o.get("options"), dict) else {}
        if set(o) != {"armyHasOption", "options"} or len(conds) != 1 or not changes or \
                not set(changes) <= {"minPercent", "maxPercent"}:
            return False
        when = {"tally": {"count": sorted(ref_tag(r) for r in conds[0][0])}, "is": "atLeast",
                "value": conds[0][1].get("amount", 1)}
        modifiers += [{"target": "min" if key == "minPercent" else "max", "op": "set",
                       "value": round(float(value) * 100, 4), "when": when} for key, value in changes.items()]
    tag = "cat-" + ours
    conv.extra_cats[norm_ref(ref)] = tag
    limit = {"label": cat.get("name", ours), "count": [tag], "what": "points", "percent": True}
    for key, value in (("min", low), ("max", high)):
        if value is not None:
            limit[key] = round(float(value) * 100, 4)
    limit["modifiers"] = modifiers
    conv.limits.add(limit)
    return True


PRICE_KEYS = {"cost", "hide", "countAsLeaf"}  # what an option's override of its price may also set (display, allowance)


def option_prices(conv: ConverterState, option: dict, node: dict, factor: float, allowance: str | None) -> bool:
    """An option priced otherwise where the unit has an option (a ref): the same option at that price, which
    requires that option while the option at its own price refuses it; True where every override of the
    node is such a price. The ref may be a child's: Daemon Legions' "Guiding Mirrored Scales" (60 pts) under
    "Mirrored Scales" (50 pts) sets its parent's cost to 0 (and out of the allowance: `countAsLeaf: false`),
    so the two cost 60, as the node's `guidingCost` says; the child then requires its parent at either
    price (`conv.prices`)."""
    overrides = listed(node.get("override"))
    costs = []
    for o in overrides:
        changes = o.get("options") if isinstance(o.get("options"), dict) else {}
        conds = condition_refs(o.get("hasOption")) if set(o) - {"push"} in ({"hasOption", "options"}, {"hasOption"}) \
            else []
        pushed = _pushed_refs(o)
        least = changes.get("minAmount", 0)
        if ("cost" in changes or pushed or least) and set(changes) <= PRICE_KEYS | {"minAmount"} and type(least) is int \
                and len(conds) == 1 and len(conds[0][0]) == 1 and conds[0][1].get("amount", 1) == 1 and pushed is not None:
            costs.append((conds[0][0][0], changes, pushed))
    if not overrides or len(costs) != len(overrides):
        return False
    for ref, changes, pushed in costs:
        # `push: {refs}`: the option carries more refs there (High Elves' Queen's Cavalier on a dragon: `dragon_army`)
        variant = {**option, "id": slug(f"{option['id']}-with-{ref}"), "tags": set(option["tags"]) | pushed,
                   "_when": ref}
        if "cost" in changes:
            price = max(0, int(round(float(changes["cost"] or 0) * factor)))
            variant["model_cost" if "model_cost" in option else "cost"] = price
        if changes.get("countAsLeaf") is False:
            variant["_leaf"] = False
        if changes.get("minAmount"):  # taken at least so often there (Ogre Khans' Hoardmaster: every weapon, free)
            tag = "ma-" + slug(f"{conv.eid}-{variant['id']}", 76)
            variant["tags"].add(tag)
            conv.limits.add({"label": f"{option['name']} (with {ref})", "count": [tag], "scope": "unit",
                             "entries": [conv.eid], "max": -1, "modifiers": [
                                 {"target": "min", "op": "set", "value": changes["minAmount"], "when": unit_holds([ref_tag(ref)])}]})
        conv.option_ids.add(variant["id"])
        conv.options.append(variant)
        conv.pending.append((variant, node, allowance))
        conv.prices.setdefault(option["id"], []).append(variant["id"])
        option.setdefault("_unless", []).append(ref)
    return True


def _pushed_refs(override: dict) -> set[str] | None:
    """The tags of the refs an override's `push: {refs: [...]}` adds (none without one); None for another push."""
    push = override.get("push")
    if push is None:
        return set()
    refs = push.get("refs") if isinstance(push, dict) and set(push) == {"refs"} else None
    if not isinstance(refs, list) or not refs or not all(isinstance(r, str) for r in refs):
        return None
    return {ref_tag(r) for r in refs}


def size_by_army(conv: ConverterState, entry: dict, override: dict) -> bool:
    """The unit's size bounds an override of its size group sets where the army has an option (Undying
    Dynasties under a Terracotta Army: a unit of at most 6): a per-unit count of its models (a tag of the
    entry's `model_tags`), bounded so where the army has the ref. False where the override says more."""
    changes = override.get("options") if isinstance(override.get("options"), dict) else {}
    if set(override) != {"armyHasOption", "options"} or not changes or set(changes) - {"minSize", "maxSize"} \
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in changes.values()) \
            or not condition_refs(override["armyHasOption"]):
        return False
    tag = "sm-" + slug(entry["id"], 77)
    entry["model_tags"] = sorted(set(entry.get("model_tags", ())) | {tag})
    when = army_condition(override["armyHasOption"])
    conv.limits.add({"label": f"{entry['name']} (models)", "count": [tag], "scope": "unit", "max": -1, "modifiers": [
        {"target": "max" if k == "maxSize" else "min", "op": "set", "value": v, "when": when} for k, v in sorted(changes.items())]})
    return True


def share_options(entry: dict, variants: list[dict], size_mults: dict[str, str]) -> None:
    """The entry's options, groups and tags in each variant that has none of its own; an option setting the
    unit's size from its maximum (`maxSizeMult`) from the variant's own bounds."""
    for variant in variants:
        variant.update({k: entry[k] for k in ("tags", "options", "groups", "discounts") if k in entry and k not in variant})
        if entry.get("model_tags"):  # its size's tags (groups.size_tag, size_by_army), made after some variants
            variant["model_tags"] = sorted(set(variant.get("model_tags", ())) | set(entry["model_tags"]))
        if size_mults and variant["size"] != entry["size"]:
            variant["options"] = [{**o, "size": scaled_size(variant["size"], size_mults[o["id"]])}
                                  if o["id"] in size_mults else o for o in variant["options"]]


def number_limits(conv: ConverterState, own_tag: str, name: str) -> list[str]:
    """The Number's `armyHasNotOption`: so many models of the unit in the army (Dread Elves' Gorgons at most
    4, Daemon Legions' Imps 40; its refs are the entry's `model_tags`, counted once a model), and its
    `override` of it where the army has an option (Iron Orc Chariots: 4 under a Tribe Leader, not 2). These
    had been passed over: the Number is read as the unit's size. The tags the entry carries for them."""
    number = conv.number or {}
    gates, _ = army_gates(listed(number.get("override")))
    if not number.get("armyHasNotOption") and not gates:
        return []
    conv.consumed.update(id(o) for o in gates)  # read here, not a variant's (override_variants)
    return [own_tag] + conv.limits.army_has_not(number.get("armyHasNotOption"), refs_of(number), own_tag, name, gates)


def override_variants(conv: ConverterState, unit: dict, entry: dict, size_group: dict | None, overrides: list[dict],
                      ids: set, tags: list) -> list[dict]:
    """The entries of its own a unit's `override`s make (another category at so many models or with an
    option: `moved`; another price or size with an option: `with_option`); an override that does anything
    else is named in `tags` as not checked, one adding categories through an option tags that option."""
    variants, by_option = [], {}
    number = None
    if size_group is not None:
        number = next((c for c in size_group.get("options", []) if c.get("type") == "numeric"), None)
    sources = [("unit", o) for o in overrides]
    sources += [("size", o) for o in listed((size_group or {}).get("override"))]
    sources += [("number", o) for o in listed((number or {}).get("override"))]
    for where, o in sources:
        if inert_override(o, unit if where == "unit" else size_group if where == "size" else number):
            continue  # it changes nothing a price or a bound depends on (groups.py)
        changes = o.get("options") if isinstance(o.get("options"), dict) else {}
        conds = condition_refs(o.get("hasOption"))
        single = (set(o) == {"hasOption", "options"} and len(conds) == 1 and len(conds[0][0]) == 1
                  and conds[0][1].get("amount", 1) == 1 and conds[0][0][0] in conv.by_ref)
        variant = moved(conv, o, entry, size_group, ids, unit.get("extraCategories")) if where == "unit" else None
        if id(o) in conv.consumed:  # the Number's price in a variant moved at so many models (moved)
            continue
        if variant is not None:
            variants.append(variant)
        elif where == "size" and size_by_army(conv, entry, o) or where == "unit" and size_override(o):
            continue  # a unit's own bounds are its direct choices' (read with them: army.entry, groups.make_group)
        elif where == "unit" and set(changes) <= {"extraCategories"} and set(o) == {"hasOption", "options"}:
            extra_by_option(conv, o, tags)
        elif single and set(changes) - ({"extraCategories"} if where == "unit" else set()) <= VARIANT_KEYS[where]:
            if "extraCategories" in changes:  # and a price (Mongrel Herds with Ambush: 45 pts, Ambush Predators)
                extra_by_option(conv, o, tags)
            slot = by_option.setdefault(conds[0][0][0], {})
            slot.update({f"{where}.{k}": v for k, v in changes.items() if k != "extraCategories"})
        elif set(o) == {"hasOption", "options"} and conds and not any(
                r in conv.by_ref or r in conv.unit_refs for refs, _ in conds for r in refs):
            continue  # no option of the unit carries the ref: it never holds (Shadow Riders take no banner)
        else:
            tags.append(conv.limits.not_understood(f"{where} override (" + "/".join(sorted(changes)) + ")"))
    for ref, changes in by_option.items():
        variants.append(with_option(conv, entry, ref, changes, size_group is not None, ids))
    return variants
