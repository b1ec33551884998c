"""What of a catalogue's constraints and modifiers the tree evaluator, which judges every list of an
imported book, evaluates: counted once per XML element for the import report and the stored book.

Lists of imported BattleScribe books are roster trees judged by BattleScribe's own semantics
(rules/battlescribe/); the converted book (books.py) only names, prices and tags the entries, so a
constraint or modifier is checked exactly where the evaluator evaluates it, and else named with the
evaluator's own reason (rules/battlescribe/effective.py). Also the tags the converter gives entries
(`bs-<id>`, which the bridge to our system's rules and the flattened lists' conversion find them by) and
the static reading of a cost modifier's conditions the book's prices use.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from armylists.rules.battlescribe.categories import category_constraint_problem
from armylists.rules.battlescribe.data import limited_categories
from armylists.rules.battlescribe.effective import (constraint_problem, gated, group_problem, modifier_problem,
                                                    query_problem)

ARMY_SCOPES = {"roster", "force", "primary-catalogue", "primary-force"}
NAME_FIELDS = ("name",)


@lru_cache(maxsize=1 << 16)  # a catalogue's ids are met once per unit that links them: thousands of times
def tag(bs_id: str) -> str:
    """A BattleScribe id as a tag slug: "cd6f-3e17-F9CC" -> "bs-cd6f-3e17-f9cc"."""
    return "bs-" + (re.sub(r"[^a-z0-9]+", "-", bs_id.lower()).strip("-") or "x")


@lru_cache(maxsize=1 << 16)
def child_tag(child: str) -> str:
    if child in ("any", ""):
        return "bs-any"
    if child in ("model", "unit", "upgrade", "mount", "crew"):
        return "bs-type-" + child
    return tag(child)


def scope_of(scope: str) -> str:
    """The army (roster, force) or the unit (parent, self, ancestor, an entry's id)."""
    return "roster" if scope in ARMY_SCOPES else "unit"


def number_of(value: str) -> float:
    try:
        return float(value)
    except ValueError:
        return 0.0


def static_truth(group: dict, ancestry: frozenset[str]) -> bool | None:
    """Whether a condition group holds for every selection inside `ancestry` (the ids of the entries,
    links and categories a selection sits in); None when it depends on the list. The book's shown prices
    apply the cost modifiers that hold so; the tree evaluator computes every cost of a list itself."""
    results = []
    for c in group["conditions"]:
        if c["type"] not in ("instanceOf", "notInstanceOf") or scope_of(c["scope"]) != "unit":
            return None
        inside = c["child"] in ancestry
        results.append(inside if c["type"] == "instanceOf" else not inside)
    for g in group["groups"]:
        found = static_truth(g, ancestry)
        if found is None:
            return None
        results.append(found)
    if not results:
        return True
    return any(results) if group["type"] == "or" else all(results)


@dataclass
class Coverage:
    """The constraints and modifiers of one book, each judged once by the tree evaluator's own test.

    `costs` are the book's cost types and `budget` the one its points are read in (a modifier of another
    cost type, or of one of the profiles' `characteristics`, changes only what is shown: display)."""
    costs: frozenset[str]
    budget: str = "points"
    characteristics: frozenset[str] = frozenset()
    constraints: set[int] = field(default_factory=set)
    modifiers: set[int] = field(default_factory=set)
    display: set[int] = field(default_factory=set)  # modifiers that change only names and profiles
    evaluated: set[int] = field(default_factory=set)
    not_evaluated: Counter = field(default_factory=Counter)  # (the evaluator's reason, where) -> how many

    def node(self, node: dict) -> None:
        """A selection entry's, group's or category link's constraints and modifiers (met once per unit
        linking it: each element counted once)."""
        ids = {c["id"] for c in node["constraints"]}
        for c in node["constraints"]:
            if id(c) not in self.constraints:
                self.constraints.add(id(c))
                self._judged(id(c), constraint_problem(c, set(self.costs)), c.get("where", node.get("where", "")))
        for m in node["modifiers"]:
            if id(m) in self.modifiers:
                continue
            self.modifiers.add(id(m))
            if (m["field"] in NAME_FIELDS or m["type"] in ("append", "prepend") or m["field"] in self.characteristics
                    or (m["field"] in self.costs and m["field"] not in (self.budget, "points", "pts"))):
                self.display.add(id(m))
            self._judged(id(m), modifier_problem(m, set(self.costs), ids), m.get("where", node.get("where", "")))

    def miss(self, kind: str, where: str) -> None:
        """What the data holds that no list can be judged by (a link to nothing, one that loops), in words."""
        self.not_evaluated[(kind, where)] += 1

    def category_entries(self, documents: list[dict]) -> None:
        """The constraints of the category entries a force of the book sees (its catalogue, then its game
        system and the catalogues it links: `documents`, nearest first) and their modifiers, which the
        tree evaluator checks in each force (rules/battlescribe/categories.py)."""
        costs = set(self.costs)
        for category in limited_categories(documents):
            ids = {c["id"] for c in category["constraints"]}
            for c in category["constraints"]:
                if id(c) not in self.constraints:
                    self.constraints.add(id(c))
                    self._judged(id(c), category_constraint_problem(c, category["id"], costs), c.get("where", ""))
            for m, gates, repeat_lists in gated(category):
                if id(m) in self.modifiers:
                    continue
                self.modifiers.add(id(m))
                if m.get("field") in NAME_FIELDS:
                    self.display.add(id(m))
                found = modifier_problem(m, costs, ids) or next(
                    (p for p in [*(group_problem(g, costs) for g in gates),
                                 *(query_problem(r, costs, repeat=True) for rs in repeat_lists for r in rs)] if p), None)
                self._judged(id(m), found, m.get("where", ""))

    def _judged(self, key: int, reason: str | None, where: str) -> None:
        if reason is None:
            self.evaluated.add(key)
        else:
            self.not_evaluated[(reason, where)] += 1

    def unchecked(self) -> list[str]:
        """The stored book's list of what its lists are not checked by, in the evaluator's words."""
        return [f"Not checked, {kind}: {where}" + (f" ({n} times)" if n > 1 else "")
                for (kind, where), n in sorted(self.not_evaluated.items())]

    def figures(self) -> dict[str, Any]:
        """The import report's: constraints and modifiers, and of them those the evaluator checks."""
        return {"constraints": {"total": len(self.constraints), "checked": len(self.evaluated & self.constraints)},
                "modifiers": {"total": len(self.modifiers), "checked": len(self.evaluated & self.modifiers),
                              "display_only": len(self.display)},
                "unchecked": [{"kind": k, "where": w, "count": n} for (k, w), n in sorted(self.not_evaluated.items())]}
