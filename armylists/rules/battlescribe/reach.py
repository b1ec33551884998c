"""What the options a unit's card offers may read beyond the unit, made once per game data: which ids are
counted (or whose costs are read) in a force, the roster, a category or above the unit, by a condition,
a repeat or a constraint of an entry or group that can be selected inside a unit. The editor answers an
edit of one unit with the cards whose selections, Report line or violations changed, and with every card
when something those reads count changed too (lists/trees/tree_changes.py): another unit's offers (an
option's price, whether it is hidden, how many may be taken) may have changed with it.

What is selected is drawn from its evaluated state, which the editor compares card by card, so only what
is offered and not selected needs this. Inside a unit, `self`, `parent`, `root-entry` and an entry by id
(the nearest selection above of that entry) stay in it; every other scope (force, roster, ancestor,
primary-category, primary-catalogue, a category or force entry by id) reaches beyond it. `instanceOf`
counts nothing, nor does the roster's limit (`limit::`, which the editor compares as a setting). A shared entry or group is read where a link inside a unit
reaches it (whether or not a root link reaches it too: the safe side).
"""
from __future__ import annotations

from dataclasses import dataclass
from weakref import WeakKeyDictionary

from armylists.rules.battlescribe.data import GameData
from armylists.rules.battlescribe.effective import gated, queries_of
from armylists.rules.battlescribe.queries import COMPARE

INSIDE = ("self", "parent", "root-entry")


@dataclass(frozen=True)
class Reach:
    ids: frozenset[str]          # ids whose selections are counted beyond a unit (entries, links, groups, categories)
    # ... where only a comparison's outcome matters: (id, comparison, value) of a condition, and
    # (id, "", step, round up) of a repeat, whose multiple is what matters
    thresholds: tuple[tuple[str, str, float, bool], ...]
    cost_ids: frozenset[str]     # ids whose costs are read beyond a unit
    # a cost of everything in a force or the roster read beyond a unit (the Old World's "per 1,000 points
    # of the army"): (scope, cost type, the condition's comparison or "" for a repeat, its value, round up)
    levels: tuple[tuple[str, str, str, float, bool], ...]
    everything: bool             # anything else counting every selection beyond a unit: every change counts


_REACH: WeakKeyDictionary[GameData, Reach] = WeakKeyDictionary()


def reach(game: GameData) -> Reach:
    found = _REACH.get(game)
    if found is None:
        found = _REACH[game] = _reach(game)
    return found


def _reach(game: GameData) -> Reach:
    cost_types = {c["id"] for c in game.cost_types}
    ids: set[str] = set()
    cost_ids: set[str] = set()
    thresholds: set[tuple[str, str, float, bool]] = set()
    levels: set[tuple[str, str, str, float, bool]] = set()
    flags = {"everything": False}

    def wide(scope: str | None) -> bool:
        # An entry's id names the nearest selection above of that entry: in the same unit (a force entry's or
        # a category's id names the force, or its selections of the category, beyond it).
        scope = scope or "parent"
        entry = scope in game.by_id and scope not in game.categories and scope not in game.forces
        return scope not in INSIDE and not entry

    def query(found: dict) -> None:
        field, scope, child = found.get("field") or "selections", found.get("scope") or "parent", found.get("child")
        if child in (None, "", "any"):
            if field in cost_types and scope in ("force", "roster") and not found.get("percent"):
                levels.add((scope, field, found.get("type") or "", float(found.get("value") or 0),
                            bool(found.get("round_up"))))
            else:
                flags["everything"] = True
        elif field in cost_types:
            cost_ids.add(child)
        elif field in ("selections", "") and (found.get("type") in COMPARE or not found.get("type")) \
                and not found.get("percent"):
            thresholds.add((child, found.get("type") or "", float(found.get("value") or 0),
                            bool(found.get("round_up"))))
        elif field in ("selections", ""):
            ids.add(child)
        else:
            flags["everything"] = True

    def node(item: dict) -> None:
        for _modifier, gates, repeats in gated(item):
            for found in queries_of(gates, repeats):
                if found.get("type") in ("instanceOf", "notInstanceOf") or not wide(found.get("scope")) \
                        or str(found.get("field", "")).startswith("limit::"):
                    continue
                query(found)
        for constraint in item.get("constraints", []):
            if wide(constraint.get("scope")):
                own = {x for x in (item.get("id"), item.get("target")) if x}
                (cost_ids if (constraint.get("field") or "selections") in cost_types else ids).update(own)

    targets: set[str] = set()   # what links inside a unit reach

    def walk(value, inside: bool) -> None:
        if isinstance(value, list):
            for item in value:
                walk(item, inside)
        elif isinstance(value, dict):
            if inside:
                node(value)
                if value.get("kind") == "link" and value.get("target"):
                    targets.add(value["target"])
            for key, inner in value.items():
                if key == "children":
                    walk(inner, True)
                elif isinstance(inner, (list, dict)) and key not in ("modifiers", "modifier_groups", "constraints",
                                                                      "shared"):
                    walk(inner, inside)

    shared = {key: node for doc in game.docs.values() for key, node in doc.get("shared", {}).items()}
    for doc in game.docs.values():
        walk(doc, False)
    for node_ in shared.values():   # a unit a root link reaches: what is below it is inside
        walk(node_, False)
    done: set[str] = set()
    while targets - done:   # a shared node a link inside a unit reaches is inside too, and what it links
        for key in sorted(targets - done):
            done.add(key)
            if key in shared:
                walk(shared[key], True)
    return Reach(frozenset(ids), tuple(sorted(thresholds)), frozenset(cost_ids), tuple(sorted(levels)),
                 flags["everything"])
