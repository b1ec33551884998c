"""Rules New Recruit's data names by a ref on an option node but does not carry (New Recruit applies them
in its own code), as our book's own constructs: `nr_t9a.yaml`'s `group_rules`, a ref -> what its rule text
says, with the rule text's id (ruledefs.json) as the source (docs/import-nr-t9a.md).

Infernal Dwarves' Overlord: the node "Keys to the Citadel" (ref `keys_to_the_citadel`) holds a group of
weapon enchantments per weapon; the rule text (`id-keys_to_the_citadel`) says the model buys enchantments
for two of its weapons and "the Points Cost of one of the Weapon Enchantments (the cheapest if applicable)
is halved, rounding fractions up": a `discount` of the entry over every option below the node (one
enchantment in all, whichever weapon carries it; book format, docs/book-format.md), and at least two of
them taken (a per-unit `tally_limit`). "At most two" is the data's own (`childrenOptions` replacing each
enchantment's "not with another enchantment" by "not once the unit holds two": army.py).
"""
from __future__ import annotations

from armylists.importers.nr_t9a.limits import refs_of, slug
from armylists.importers.nr_t9a.state import ConverterState


def group_rules(conv: ConverterState, node: dict, first: int, table: dict) -> None:
    """Where `node` carries a ref of `table`, the options made below it (conv.options from `first` on:
    the node itself where it is an option, its children, the pools it pulls in) are that rule's set."""
    for ref in refs_of(node):
        rule = table.get(ref)
        members = [o["id"] for o in conv.options[first:]]
        if rule is None or not members:
            continue
        name = str(node.get("name") or node.get("optionsLabel") or ref)[:80]
        source = f"New Recruit's data: ref {ref}; its rule text {rule['rule']} (ruledefs.json)"
        if "discount" in rule:
            conv.discounts.append({"name": name, "options": members, **rule["discount"], "source": source})
        if "min" in rule:  # the unit takes at least so many of them (the rule text's "must buy ... two")
            tag = "gr-" + slug(f"{conv.eid}-{ref}", 77)
            for option in conv.options[first:]:
                option["tags"].add(tag)
            conv.limits.add({"label": f"{name} ({rule['rule']})", "count": [tag], "scope": "unit",
                             "entries": [conv.eid], "min": rule["min"]})
