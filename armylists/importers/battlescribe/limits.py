"""BattleScribe constraints, modifiers and conditions as `tally_limit` rules (rules/checks/tallies.py).

Selections are counted by tags the book carries: `bs-<id>` on an entry or option for its own id (a
link's target id too), its groups and its categories; `bs-type-<type>` for its type; `bs-any` on
everything. Scopes fold into the two our lists have: the army (roster, force) and the unit (parent,
self, ancestor, root entry, an entry's id). What has no such form is counted in `Coverage.unchecked`
with its kind and where it is, never dropped.
"""
from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from dataclasses import dataclass, field
from typing import Any

from armylists.importers.battlescribe.names import slug
from armylists.rules.battlescribe.categories import category_constraint_problem
from armylists.rules.battlescribe.data import limited_categories
from armylists.rules.battlescribe.effective import gated, group_problem, modifier_problem, query_problem

ARMY_SCOPES = {"roster", "force", "primary-catalogue", "primary-force"}
COMPARISONS = {"equalTo", "notEqualTo", "atLeast", "atMost", "greaterThan", "lessThan"}
NAME_FIELDS = {"name", "annotation", "description", "page", "publicationId"}


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


class Unmapped(Exception):
    """A constraint, condition or modifier with no form in our rule types; the message is its kind."""


@dataclass
class Coverage:
    """What a book's constraints and modifiers became: counted once per XML element.

    `unchecked` is what the book's own rules (the flattened shape) do not check, which the stored book
    lists. The import report's figures are what the tree evaluator, which judges every imported book's
    lists, does not evaluate: `judge(element, constraint ids)` gives its reason, in its own words
    (rules/battlescribe/effective.py), or None where it evaluates the element."""
    constraints: set[int] = field(default_factory=set)
    constraints_checked: set[int] = field(default_factory=set)
    modifiers: set[int] = field(default_factory=set)
    modifiers_checked: set[int] = field(default_factory=set)
    display: set[int] = field(default_factory=set)  # modifiers that change only names and profiles
    unchecked: Counter = field(default_factory=Counter)  # (kind, where) -> how many
    missed: set[int] = field(default_factory=set)
    judge: Any = None
    not_evaluated: Counter = field(default_factory=Counter)  # (the evaluator's reason, where) -> how many
    evaluated: set[int] = field(default_factory=set)  # elements not mapped that the tree evaluator evaluates

    def miss(self, kind: str, where: str, element: dict | None = None, constraint_ids: frozenset = frozenset()) -> None:
        """Note what was not mapped, once per XML element (a shared entry is met once per unit linking it)."""
        if element is not None:
            if id(element) in self.missed:
                return
            self.missed.add(id(element))
        reason = self.judge(element, constraint_ids) if element is not None and self.judge is not None else kind
        if reason is None:
            self.evaluated.add(id(element))
        else:
            self.not_evaluated[(reason, where)] += 1
        self.unchecked[(kind, where)] += 1

    def category_entries(self, documents: list[dict], costs: set[str]) -> None:
        """The constraints of the category entries a force of the book sees (its catalogue, then its game
        system and the catalogues it links: `documents`, nearest first) and their modifiers, which the
        tree evaluator checks in each force (rules/battlescribe/categories.py): counted in the report,
        each checked where the evaluator evaluates it and else named with its reason. The book's own
        rules map none of them (a force entry's category links are mapped in `force_rules`)."""
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
                if m.get("field") == "name":
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

    def figures(self) -> dict[str, Any]:
        """The import report's: checked by the book's rules or by the tree evaluator; `unchecked`, what neither does."""
        return {"constraints": {"total": len(self.constraints),
                                "checked": len(self.constraints_checked | (self.evaluated & self.constraints))},
                "modifiers": {"total": len(self.modifiers),
                              "checked": len(self.modifiers_checked | (self.evaluated & self.modifiers)),
                              "display_only": len(self.display)},
                "unchecked": [{"kind": k, "where": w, "count": n} for (k, w), n in sorted(self.not_evaluated.items())]}


def scope_of(scope: str) -> str:
    return "roster" if scope in ARMY_SCOPES else "unit"


def comparison(kind: str) -> str:
    if kind not in COMPARISONS:
        raise Unmapped(f"condition type {kind!r}")
    return kind


def measured(c: dict, ctx: Any) -> dict:
    """A condition's or repeat's field, child and scope as a tally or the points limit."""
    fieldname = c["field"]
    if fieldname.startswith("limit::"):
        return {"limit": True}
    if c.get("percent"):
        raise Unmapped("condition on a percentage of selections")
    what = "selections" if fieldname == "selections" else "points"
    if what == "points" and fieldname not in ctx.costs:
        raise Unmapped(f"condition on field {fieldname!r}")
    return {"tally": {"count": [child_tag(c["child"])], "what": what, "scope": scope_of(c["scope"])}}


def condition(c: dict, ctx: Any) -> dict:
    if c["type"] in ("instanceOf", "notInstanceOf"):
        if c["child"] in ctx.forces:  # which force (our composition; "" the first) the list is
            found: dict = {"composition": [ctx.forces[c["child"]]]}
        else:  # the selection is (inside) an entry or of a category
            found = {"tally": {"count": [child_tag(c["child"])], "scope": "unit"}, "is": "atLeast", "value": 1}
        return {"not": found} if c["type"] == "notInstanceOf" else found
    return {**measured(c, ctx), "is": comparison(c["type"]), "value": c["value"]}


def condition_group(group: dict, ctx: Any) -> dict | None:
    parts = [condition(c, ctx) for c in group["conditions"]]
    parts += [g for g in (condition_group(x, ctx) for x in group["groups"]) if g is not None]
    if not parts:
        return None
    if group["type"] not in ("and", "or"):
        raise Unmapped(f"condition group type {group['type']!r}")
    if len(parts) == 1:
        return parts[0]
    return {"all" if group["type"] == "and" else "any": parts}


def repeat(r: dict, ctx: Any) -> dict:
    if r["value"] <= 0:
        raise Unmapped("repeat every 0")
    out = {**measured({**r, "percent": False}, ctx), "per": r["value"], "times": max(1, r["repeats"])}
    if r.get("percent"):  # every `value` percent of the points limit, which only points can be counted in
        if "tally" not in out or out["tally"].get("what") != "points":
            raise Unmapped("repeat per a percentage of selections")
        out["percent"] = True
    if r.get("round_up"):
        out["round_up"] = True
    return out


def bound_modifier(m: dict, target: str, ctx: Any) -> dict:
    """`ctx` knows the forces (`forces`: BattleScribe id -> composition) and the cost types (`costs`)."""
    """A modifier of a constraint's value as a tally_limit modifier."""
    if m["type"] not in ("set", "increment", "decrement"):
        raise Unmapped(f"{m['type']} of a limit")
    try:
        value = float(m["value"])
    except ValueError:
        raise Unmapped("limit set to a non-number") from None
    out: dict[str, Any] = {"target": target, "op": m["type"], "value": int(value) if value.is_integer() else value}
    when = condition_group(m["when"], ctx)
    if when is not None:
        out["when"] = when
    if m["repeats"]:
        if len(m["repeats"]) > 1:
            raise Unmapped("several repeats on one modifier")
        out["repeat"] = repeat(m["repeats"][0], ctx)
    return out


def constraint_rule(c: dict, count: list[str], label: str, scope: str, entries: list[str], per_model: bool,
                    modifiers: list[dict], cost_types: set[str]) -> dict:
    """One constraint, with the modifiers of its value, as the params of a tally_limit rule."""
    fieldname = c["field"]
    params: dict[str, Any] = {"label": label, "count": count}
    if fieldname == "selections":
        if c["percent"]:
            raise Unmapped("constraint on a percentage of selections")
    elif fieldname.startswith("limit::") or fieldname in cost_types:
        params["what"] = "points"
        if c["percent"]:
            params["percent"] = True
    else:
        raise Unmapped(f"constraint on field {fieldname!r}")
    if scope == "unit":
        params["scope"] = "unit"
        params["entries"] = sorted(set(entries))
    if per_model:
        params["per_model"] = True
    value = c["value"]
    params[c["type"]] = int(value) if float(value).is_integer() else value
    if modifiers:
        params["modifiers"] = modifiers
    return params


def number_of(value: str) -> float:
    try:
        return float(value)
    except ValueError:
        return 0.0


def static_truth(group: dict, ancestry: frozenset[str]) -> bool | None:
    """Whether a condition group holds for every selection inside `ancestry` (the ids of the entries,
    links and categories a selection sits in); None when it depends on the list."""
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


def lifted_minimum(hidden_by_default: bool, hiding: list[dict], once: "Once", ctx: Any) -> dict | None:
    """hidden_minimum's change for one selection: hidden by default or not, and its hidden modifiers."""
    shown, hidden = [], []
    for m in hiding:
        if m["type"] != "set" or m["repeats"]:
            raise Unmapped(f"{m['type']} of hidden")
        (hidden if m["value"].lower() == "true" else shown).append(once.when(m["when"], ctx))
    if None in hidden or (hidden_by_default and not shown):
        return {"target": "min", "op": "set", "value": 0}  # hidden always
    cases = list(hidden)
    if hidden_by_default:  # hidden unless a condition shows it
        cases.append({"not": shown[0]} if len(shown) == 1 else {"not": {"any": shown}}
                     if None not in shown else None)
    cases = [c for c in cases if c is not None]
    if not cases:
        return None
    return {"target": "min", "op": "set", "value": 0, "when": cases[0] if len(cases) == 1 else {"any": cases}}


def shown_where(hidden: list[dict], once: "Once", ctx: Any) -> list[dict]:
    """availability's modifiers of the limit, from the node's hidden modifiers."""
    modifiers = []
    for m in hidden:
        if m["type"] != "set" or m["repeats"]:
            raise Unmapped(f"{m['type']} of hidden")
        when = once.when(m["when"], ctx)
        change = {"target": "max", "op": "set", "value": 0 if m["value"].lower() == "true" else -1}
        if when is not None:
            change["when"] = when
        modifiers.append(change)
    return modifiers


class Once:
    """A book's modifiers and conditions converted once per XML element, the answer then shared: a shared
    entry is met once per unit that links it (New Recruit's Old World magic items, hundreds of times),
    each time with the same elements. Keyed by the element's id, the element kept with the answer so
    that the id stays its own; an Unmapped is kept as its message and raised anew each time. `ctx` (the
    BookMaker: its forces and cost types) is passed, never kept, so nothing here points back to it."""

    def __init__(self) -> None:
        self.found: dict[tuple, tuple] = {}

    def answer(self, key: tuple, element: Any, make) -> Any:
        hit = self.found.get(key)
        if hit is None:
            try:
                hit = (element, make(), None)
            except Unmapped as exc:
                hit = (element, None, str(exc))
            self.found[key] = hit
        if hit[2] is not None:
            raise Unmapped(hit[2])
        return hit[1]

    def when(self, group: dict, ctx: Any) -> dict | None:
        """condition_group(group, ctx)."""
        return self.answer(("when", id(group)), group, lambda: condition_group(group, ctx))

    def bound(self, m: dict, target: str, ctx: Any) -> dict:
        """bound_modifier(m, target, ctx)."""
        return self.answer(("bound", id(m), target), m, lambda: bound_modifier(m, target, ctx))


class Shared:
    """What the books of one run share: the conversions of modifiers and conditions (Once) of the books
    whose forces and cost types are the same, since a catalogue linked by every other (the Old World's
    magic items) is met again in each; and equal lists of option ids (`requires`) as one list (read, never changed)."""

    def __init__(self) -> None:
        self.conversions: dict[tuple, Once] = {}
        self.lists: dict[tuple, list] = {}

    def once(self, forces: dict[str, str], costs: set[str]) -> Once:
        key = (tuple(forces.items()), frozenset(costs))
        found = self.conversions.get(key)
        if found is None:
            found = self.conversions[key] = Once()
        return found

    def list(self, items: list) -> list:
        return self.lists.setdefault(tuple(items), items)


class Rules(dict):
    """A book's limits by rule id ("bs-<slug of the key>", "-2", "-3"... for other limits under one key)."""

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[str, set[str]] = {}  # rule id -> its entries, as a set (sorted into it by `done`)
        self.touched: list[str] | None = None  # while recorded: the ids of the rules with entries added to

    def add(self, key: str, params: dict) -> None:
        """One rule per limit; where a shared entry's limit reads the same in several units, one rule
        lists them all, and where a link gives it other modifiers, that is a rule of its own."""
        base = "bs-" + slug(key)
        rid, n = base, 1
        while rid in self:
            found = self[rid]
            if _same_but_entries(found, params):
                if "entries" in found:
                    self.add_entries(rid, params["entries"])
                return
            n += 1
            rid = f"{base}-{n}"
        self[rid] = params
        if "entries" in params and self.touched is not None:
            self.touched.append(rid)

    def add_entries(self, rid: str, entries: list[str]) -> None:
        """More entries for a rule: the first rule `add` found the same but for its entries stays the first
        (rules only gain entries), so the same limit met again in another unit goes straight to it."""
        known = self.entries.get(rid)
        if known is None:
            known = self.entries[rid] = set(self[rid]["entries"])
        known.update(entries)
        if self.touched is not None:
            self.touched.append(rid)

    def done(self) -> None:
        """Each merged rule's entries, sorted (once, not at every unit that adds one)."""
        for rid, known in self.entries.items():
            self[rid]["entries"] = sorted(known)


def _same_but_entries(a: dict, b: dict) -> bool:
    """Whether two rules' params are equal but for their entries (without making the two dicts that says)."""
    for key, value in a.items():
        if key != "entries" and (key not in b or b[key] != value):
            return False
    return len(a) - ("entries" in a) == len(b) - ("entries" in b)
