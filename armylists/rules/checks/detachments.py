"""Rule types about units that accompany another unit of the list: a Detachment and its regiment.

A unit of the list document may name the unit it accompanies (`accompanies`: that unit's id). The
Old World's Detachments accompany a Regimental Unit (001:L2517-2521, the Detachment special rule), at
most two to a regiment in the Empire's lists (Old World Builder's `maxDetachments`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from armylists.rules.report import Violation
from armylists.rules.native.selection import predicate
from armylists.rules.checks.registry import BOUND, SELECTOR, check, resolve_bound, violation

if TYPE_CHECKING:
    from armylists.rules.native.army import Army
    from armylists.rules.native.book import Rule


@check("accompanies", select={**SELECTOR, "required": True}, parent={**SELECTOR, "required": True},
       max={**BOUND, "required": True}, label={"type": "string", "required": True},
       parent_label={"type": "string", "required": True})
def accompanies(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """Each unit matching `select` that names the unit it accompanies names a unit of the list matching
    `parent` (a Regimental Unit that is not itself a Detachment), and no such unit is accompanied by more
    than `max` of them. A unit that names none is left to the army-wide count (a `ratio` rule)."""
    is_one, is_parent = predicate(rule.params["select"]), predicate(rule.params["parent"])
    by_id = {u.id: u for u in army.units}
    label, parent_label = rule.params["label"], rule.params["parent_label"]
    taken: dict[str, list] = {}
    for unit in army.units:
        target = unit.roster.accompanies
        if target is None or not is_one(unit):
            continue
        parent = by_id.get(target)
        if parent is None:
            yield violation(rule, "accompanies.unknown",
                            f"{unit.describe()} accompanies {target!r}, which is not a unit of this list.", unit)
        elif parent is unit or not is_parent(parent):
            yield violation(rule, "accompanies.not_allowed",
                            f"{unit.describe()} accompanies {parent.describe()}, which is not a {parent_label}.", unit)
        else:
            taken.setdefault(parent.id, []).append(unit)
    most = resolve_bound(rule.params["max"], army)
    for parent_id, units in taken.items():
        if most is not None and len(units) > most:
            yield violation(rule, "accompanies.max",
                            f"{by_id[parent_id].describe()} is accompanied by {len(units)} {label}; at most {most}.",
                            units[most])
