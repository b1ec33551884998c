"""How much a node counts toward the army's limits of a ref: New Recruit's `{ref, amount}` refs (Ogre Khans'
Bombardiers count five Hired Guns, a Vermin Swarm option half a model of small arms fire), as the engine's
`tag_weights`; and where an `override` gives the node other refs while the army has an option (High Elves
in a Dragon army: a Phoenix counts two Ancient Allies, a dragon one, the other way round otherwise), a tag
of its own for the ref's count there, and each limit of that ref made twice: on the usual count where the
army lacks the option, on the other where it has it (limits.py: `Alternatives.split`).

`conv` is the converter's state (state.py: its limits, the overrides it has read).
"""
from __future__ import annotations

import math

from armylists.importers.nr_t9a.limits import condition_refs, listed, ref_tag
from armylists.importers.nr_t9a.state import ConverterState

MAX_WEIGHT = 1000  # a weight read (the data's largest is 10); past it, or not a positive number: named


def _weights(conv: ConverterState, refs) -> dict[str, float] | None:
    """tag -> weight of a `refs` list (a plain ref: 1); None for one that is not a list."""
    if not isinstance(refs, list):
        return None
    found = {}
    for r in refs:
        if isinstance(r, str):
            found[ref_tag(r)] = 1
        elif isinstance(r, dict) and isinstance(r.get("ref"), str):
            amount = r.get("amount", 1)
            if type(amount) in (int, float) and 0 < amount <= MAX_WEIGHT and math.isfinite(amount):
                found[ref_tag(r["ref"])] = amount
            else:
                conv.limits.not_understood("ref amount")
                found[ref_tag(r["ref"])] = 1
    return found


def ref_weights(conv: ConverterState, tags, *nodes: dict) -> dict:
    """The nodes' weighted refs as {"tag_weights": {...}} (empty where all weigh one). An override setting
    the node's refs where the army has an option: the refs whose weight it changes get a tag of their own
    with the override's weight, added to `tags` (a list or set), and the override is read (`conv.consumed`);
    any other override of refs leaves each ref counted once, named where the node is read."""
    weights, dropped = {}, []
    for node in nodes:
        own = _weights(conv, node.get("refs") or []) or {}
        overrides = [o for o in listed(node.get("override")) if "refs" in (o.get("options") or {})]
        if overrides and not all(set(o) == {"armyHasOption", "options"} and set(o["options"]) == {"refs"}
                                 and condition_refs(o["armyHasOption"]) and _weights(conv, o["options"]["refs"]) is not None
                                 for o in overrides):
            continue
        weights.update({t: w for t, w in own.items() if w != 1})
        for o in overrides:
            other = _weights(conv, o["options"]["refs"])
            for tag in sorted(set(own) | set(other)):
                if own.get(tag, 0) != other.get(tag, 0):
                    alt = conv.alternatives.tag(tag, o["armyHasOption"])
                    if other.get(tag):
                        weights[alt] = other[tag]
                        if isinstance(tags, set):
                            tags.add(alt)
                        else:
                            tags.append(alt)
                    else:  # the override takes the ref away: the node does not count there (Alternatives.split)
                        dropped.append(alt)
            conv.consumed.add(id(o))
    return {**({"tag_weights": weights} if weights else {}), **({"_no_alt": dropped} if dropped else {})}
