"""Counting in a scope, and the conditions and repeats built on it.

A condition, a repeat and a constraint all ask one question: in this scope (self, parent, ancestor,
force, roster, primary-category, primary-catalogue, or an entry, category or force entry by id), how
many selections (or forces, or how much of a cost type) of `childId` are there? `shared` decides whether
a selection reached through a link counts by its entry's own id (true) or only by the link path's id
(false, battlescribe-spec docs/shared-flag-semantics.md); `includeChildSelections` counts below the direct children,
`includeChildForces` counts child forces too. Costs read each selection's last evaluated state.
"""
from __future__ import annotations

import math
from collections import defaultdict
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Callable

from armylists.rules.battlescribe.data import Option
from armylists.rules.battlescribe.tree import Force, Roster, Selection

ANY = ("", "any", None)
COMPARE = {
    "lessThan": lambda a, b: a < b, "greaterThan": lambda a, b: a > b,
    "equalTo": lambda a, b: a == b, "notEqualTo": lambda a, b: a != b,
    "atLeast": lambda a, b: a >= b, "atMost": lambda a, b: a <= b,
}


# Where cost_order.py asks which selections' costs a query reads: the set they are added to, else None.
COST_READS: ContextVar[set | None] = ContextVar("cost_reads", default=None)


def cost_of(selection: Selection, field: str) -> float:
    """A selection's own cost of one type as last evaluated (noted where COST_READS asks)."""
    reads = COST_READS.get()
    if reads is not None:
        reads.add(selection)
    return selection.state.costs.get(field, 0)


@dataclass(frozen=True)
class Match:
    """Which selections a constraint counts (validation.py): by the entry's own id (`entry`: shared), by the
    composite id of the way it was reached (`composite`), by a group it sits in (`group`: the group's own
    id, shared; `group_id`: its composite id), by its primary category or any of its categories, or all."""
    by: str
    value: str | None = None

    def __call__(self, selection: Selection) -> bool:
        by, value = self.by, self.value
        if by == "all":
            return True
        if by == "category":
            return value in selection.state.categories
        if by == "primary":
            return value == selection.state.primary
        return (by, value) in selection.option.match_keys


class CountIndex:
    """Selection counts by id, per scope element, made once for a stretch of an evaluation where the tree's
    shape, numbers and categories stand still (evaluate.py: after the categories pass, and while
    validating): the thousands of conditions, repeats and constraints that count selections then read a
    table instead of walking the tree each time. Costs are indexed only where they stand still too
    (`costs_fixed`: while the tree is judged); a refresh changes them as it goes."""

    def __init__(self, costs_fixed: bool = False) -> None:
        self._tables: dict[tuple, dict[str | None, int]] = {}
        self.costs_fixed = costs_fixed
        self._totals: dict[tuple, float] = {}

    def total(self, element, field: str, child_forces: bool, chosen) -> float:
        """The whole cost of one type in `element` (count's childId any), once per element."""
        key = (element, field, child_forces)
        if key not in self._totals:
            self._totals[key] = sum(s.state.costs.get(field, 0) for s in chosen())
        return self._totals[key]

    def selections(self, element, child_id: str | None, shared: bool, child_selections: bool,
                   child_forces: bool) -> int:
        element, child_forces = _same_scope(element, child_forces)
        key = (element, shared, child_selections, child_forces)
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = _table(element, shared, child_selections, child_forces)
        return table.get(None if child_id in ANY else child_id, 0)

    def matching(self, element, match: Match, child_selections: bool, child_forces: bool) -> list[Selection]:
        """The selections in `element` that `match` picks, in the tree's order."""
        element, child_forces = _same_scope(element, child_forces)
        key = ("matching", element, child_selections, child_forces)
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = _members(element, child_selections, child_forces)
        return table.get(None if match.by == "all" else (match.by, match.value), [])

    def matching_number(self, element, match: Match, child_selections: bool, child_forces: bool) -> int:
        """The selections `matching` gives, counted by their numbers, once per element and match: a bound
        the data states (validation.py's `_within`) asks it of every container, and needs no list."""
        key = ("number", element, match.by, match.value, child_selections, child_forces)
        found = self._totals.get(key)
        if found is None:
            found = self._totals[key] = sum(s.number for s in self.matching(element, match, child_selections,
                                                                             child_forces))
        return found


def _same_scope(element, child_forces: bool):
    """The element and flag whose selections (selections_in) are those of `element`, one table for all of
    them: a roster of one force holds that force's selections, and where there is no child force, counting
    child forces counts nothing more (a roster and its only force were three tables of the whole tree)."""
    if isinstance(element, Roster) and len(element.forces) == 1:
        element = element.forces[0]
    if child_forces and isinstance(element, Force) and not element.forces:
        child_forces = False
    return element, child_forces


def _members(element, child_selections: bool, child_forces: bool) -> dict:
    table: defaultdict = defaultdict(list)
    everything = table[None]
    for selection in selections_in(element, child_selections, child_forces):
        everything.append(selection)
        state = selection.state
        for key in selection.option.match_keys:   # each once (the option's, made once per option)
            table[key].append(selection)
        table[("primary", state.primary)].append(selection)
        for category in (state.categories if len(state.categories) < 2 else dict.fromkeys(state.categories)):
            table[("category", category)].append(selection)
    return dict(table)


def _table(element, shared: bool, child_selections: bool, child_forces: bool) -> dict[str | None, int]:
    """Every id a selection in `element` may be counted by (`has_id`'s), with the numbers; None: all."""
    table: defaultdict[str | None, int] = defaultdict(int)
    for selection in selections_in(element, child_selections, child_forces):
        number = selection.number
        table[None] += number
        option = selection.option
        ids = option.ids if shared else option.own_ids
        for found in ids:
            table[found] += number
        for category in selection.state.categories:   # ids_of's union: each id once
            if category not in ids:
                ids = ids | {category}
                table[category] += number
    return dict(table)


COUNTS: ContextVar[CountIndex | None] = ContextVar("counts", default=None)


@contextmanager
def counting(costs_fixed: bool = False):
    """Selection counts read from one CountIndex until the block ends; the tree must not change in it (nor
    its costs, with `costs_fixed`)."""
    token = COUNTS.set(CountIndex(costs_fixed))
    try:
        yield
    finally:
        COUNTS.reset(token)


class Unsupported(Exception):
    """A construct the evaluator does not understand; the result names it instead of guessing."""


@dataclass
class Context:
    """Where a modifier, condition or constraint is evaluated: the selection (None for an option not
    yet selected) or force it belongs to, the container it sits in, and the option it was made from."""
    roster: Roster
    self: Selection | Force | None
    container: Selection | Force | Roster
    option: Option | None = None


@dataclass(frozen=True)
class CategoryScope:
    """A force's selections of one primary category (scope primary-category)."""
    force: Force
    category: str | None


def root_selection(element) -> Selection | None:
    """The selection at the root of the force that `element` sits in (scope root-entry)."""
    found = None
    while isinstance(element, Selection):
        found, element = element, element.parent
    return found


def primary_category(ctx: Context) -> str | None:
    root = root_selection(ctx.self) or root_selection(ctx.container)
    if root is not None:
        return root.state.primary
    if ctx.option is not None:   # an entry not selected yet: the primary its category links say
        return next((link["target"] for s in ctx.option.sources for link in s.get("category_links", [])
                     if link.get("primary")), None)
    return None


def force_of(element) -> Force | None:
    if isinstance(element, Selection):
        return element.force
    return element if isinstance(element, Force) else None


def ancestors(element):
    """The elements above `element`, nearest first, up to the roster."""
    while element is not None and not isinstance(element, Roster):
        element = element.parent
        if element is not None:
            yield element


def ids_of(element, shared: bool = True) -> set[str]:
    """Every id `childId` or a scope may name `element` by."""
    if isinstance(element, Selection):
        found = set(element.option.ids) if shared else {element.entry_id} | {
            g.group_id for g in element.option.groups}
        return found | set(element.state.categories)
    if isinstance(element, Force):
        return {element.entry_id, element.catalogue_id}
    return set()


def has_id(element, child_id: str | None, shared: bool = True) -> bool:
    """`child_id in ids_of(element, shared)`, without making the set (asked thousands of times per
    evaluation of a large roster)."""
    if isinstance(element, Selection):
        if shared:
            found = child_id in element.option.ids
        else:
            found = child_id == element.entry_id or any(g.group_id == child_id for g in element.option.groups)
        return found or child_id in element.state.categories
    if isinstance(element, Force):
        return child_id == element.entry_id or child_id == element.catalogue_id
    return False


def matches(selection: Selection, child_id: str | None, shared: bool) -> bool:
    return child_id in ANY or has_id(selection, child_id, shared)


def selections_in(element, child_selections: bool, child_forces: bool):
    """The selections counted in `element`: its direct ones, or all below it, with child forces or not."""
    if isinstance(element, Roster):
        for force in element.forces:
            yield from selections_in(force, child_selections, child_forces)
    elif isinstance(element, Force):
        for selection in element.selections:
            yield from (selection.walk() if child_selections else [selection])
        if child_forces:
            for force in element.forces:
                yield from selections_in(force, child_selections, True)
    elif isinstance(element, Selection):
        for child in element.children:
            yield from (child.walk() if child_selections else [child])
    elif isinstance(element, CategoryScope):
        for selection in element.force.selections:
            if element.category is not None and selection.state.primary == element.category:
                yield from (selection.walk() if child_selections else [selection])


def forces_in(element, child_forces: bool):
    direct = element.forces if isinstance(element, (Roster, Force)) else []
    for force in direct:
        yield force
        if child_forces:
            yield from forces_in(force, True)


def count(element, field: str, child_id: str | None, shared: bool, child_selections: bool,
          child_forces: bool, cost_types: set[str]) -> float:
    """How many selections (or forces, or how much of a cost type) of `child_id` `element` holds."""
    if element is None:
        return 0
    if field in ("selections", ""):
        index = COUNTS.get()
        if index is not None:
            return index.selections(element, child_id, shared, child_selections, child_forces)
        return sum(s.number for s in selections_in(element, child_selections, child_forces)
                   if matches(s, child_id, shared))
    if field == "forces":
        return sum(1 for f in forces_in(element, child_forces) if child_id in ANY or child_id == f.entry_id)
    if field in cost_types:
        reads = COST_READS.get()
        if child_id in ANY:
            def chosen():
                found = list(selections_in(element, True, child_forces or isinstance(element, Roster)))
                return found + [element] if isinstance(element, Selection) else found
            index = COUNTS.get()
            if reads is None and index is not None and index.costs_fixed:
                return index.total(element, field, child_forces, chosen)
            every = chosen()
            if reads is not None:
                reads.update(every)
            return sum(s.state.costs.get(field, 0) for s in every)
        units = [list(s.walk()) for s in selections_in(element, child_selections, child_forces)
                 if matches(s, child_id, shared)]
        if reads is not None:
            for unit in units:
                reads.update(unit)
        return sum(sum(d.state.costs.get(field, 0) for d in unit) for unit in units)
    raise Unsupported(f"field {field!r} (neither selections, forces nor a cost type)")


def scope_targets(scope: str, ctx: Context) -> list:
    """The elements a scope names from where `ctx` stands."""
    me = ctx.self
    here = me if me is not None else ctx.container
    if scope == "self":
        return [me] if me is not None else []
    if scope == "parent":
        return [me.parent] if me is not None else [ctx.container]
    if scope == "force":
        return [force_of(here) or force_of(ctx.container)]
    if scope == "roster":
        return [ctx.roster]
    if scope == "ancestor":
        raise Unsupported("scope 'ancestor' in a repeat (instanceOf and conditions are understood there)")
    if scope == "primary-catalogue":
        force = force_of(here)
        return [f for f in ctx.roster.all_forces() if force is not None and f.catalogue_id == force.catalogue_id]
    if scope == "primary-category":
        force = force_of(here) or force_of(ctx.container)
        return [CategoryScope(force, primary_category(ctx))] if force is not None else []
    if scope == "root-entry":
        root = root_selection(me) or root_selection(ctx.container)
        return [root] if root is not None else ([me] if me is not None else [])
    if scope in ctx.roster.game.categories:   # a category by id: the force's selections in it
        force = force_of(here) or force_of(ctx.container)
        return [CategoryScope(force, scope)] if force is not None else []
    for element in ([me] if me is not None else []) + [ctx.container, *ancestors(ctx.container)]:
        if has_id(element, scope):   # an entry or force entry by id: the nearest such element
            return [element]
    return []


def query_value(query: dict, ctx: Context) -> float:
    """A condition's or repeat's count in its scope (a percentage of the scope's total if percentValue)."""
    cost_types = ctx.roster.game.cost_type_ids
    reach = (query.get("shared", True), query.get("include_child_selections", False),
             query.get("include_child_forces", False))
    field = query.get("field", "selections")
    if field.startswith("limit::"):   # the roster's cost limit of that type (-1: none set)
        return ctx.roster.cost_limits.get(field.split("::", 1)[1], -1)
    targets = scope_targets(query.get("scope", ""), ctx)
    value = sum(count(t, field, query.get("child"), *reach, cost_types) for t in targets)
    if query.get("percent") and query.get("of_limit"):   # 1.x "percent": of the points limit (legacy.py)
        limit = ctx.roster.cost_limits.get(field, -1)
        return 100 * value / limit if limit > 0 else 0
    if query.get("percent"):
        total = sum(count(t, field, None, *reach, cost_types) for t in targets)
        return 100 * value / total if total else 0
    return value


def instance_of(query: dict, ctx: Context) -> bool:
    """Whether the element the instanceOf condition's scope names is (or holds) its childId: the test
    made once per game data (instance_test), asked here."""
    memo = ctx.roster.game.memo.setdefault("instance_of", {})
    found = memo.get(id(query))
    if found is None or found[0] is not query:
        found = memo[id(query)] = (query, instance_test(query))
    return found[1](ctx)


def instance_test(query: dict) -> Callable[[Context], bool]:
    """instanceOf as a function of the context, its dict read once: the one copy of its semantics, which
    compiled.py's gates call directly and instance_of asks. Its three common scopes are written out (the
    ancestor one is the commonest gate of all: has_id of each selection above, inline)."""
    child, scope = query.get("child"), query.get("scope", "")
    if scope == "ancestor":   # any element above it: its container and up
        def above(ctx: Context) -> bool:
            element = ctx.container
            while isinstance(element, Selection):
                if child in element.option.ids or child in element.state.categories:
                    return True
                element = element.parent
            while element is not None and not isinstance(element, Roster):
                if has_id(element, child):
                    return True
                element = element.parent
            return False
        return above
    if scope == "self":
        def itself(ctx: Context) -> bool:
            if ctx.self is None:
                return ctx.option is not None and child in ctx.option.ids
            return has_id(ctx.self, child)
        return itself
    if scope == "parent":
        def parent(ctx: Context) -> bool:
            found = ctx.self.parent if ctx.self is not None else ctx.container
            return not isinstance(found, Roster) and has_id(found, child)
        return parent

    def elsewhere(ctx: Context) -> bool:
        return any(has_id(t, child) and not isinstance(t, Roster) for t in scope_targets(scope, ctx))
    return elsewhere


def condition_holds(condition: dict, ctx: Context) -> bool:
    kind = condition.get("type")
    if kind == "instanceOf":
        return instance_of(condition, ctx)
    if kind == "notInstanceOf":
        return not instance_of(condition, ctx)
    if kind not in COMPARE:
        raise Unsupported(f"condition type {kind!r}")
    if not condition.get("child_given", True):
        return False   # no childId: BattleScribe's count is not a number, and no comparison holds
    if condition.get("scope") == "ancestor":
        return COMPARE[kind](ancestor_count(condition, ctx), condition.get("value", 0))
    return COMPARE[kind](query_value(condition, ctx), condition.get("value", 0))


def ancestor_count(condition: dict, ctx: Context) -> float:
    """A count in scope ancestor: every element above (its container and up to the outermost force) taken
    as one scope, each selection in it counted once. "At most 0 mounts or chariot crew in an ancestor"
    (the Old World's Cavalry Spear, hidden on foot) is false on a crewman of a chariot crew, though the
    crewman's own children hold none: asking each ancestor alone would hide it."""
    cost_types = ctx.roster.game.cost_type_ids
    field = condition.get("field", "selections")
    child, shared = condition.get("child"), condition.get("shared", True)
    children = condition.get("include_child_selections", False)
    seen: dict[int, Selection] = {}
    for element in [ctx.container, *ancestors(ctx.container)]:
        if isinstance(element, Roster):
            continue
        for selection in selections_in(element, children, condition.get("include_child_forces", False)):
            if matches(selection, child, shared):
                seen.setdefault(id(selection), selection)
    if field in ("selections", ""):
        return sum(s.number for s in seen.values())
    if field in cost_types:
        return sum(cost_of(d, field) for s in seen.values() for d in s.walk())
    raise Unsupported(f"field {field!r} in a count in scope 'ancestor'")


def group_holds(group: dict, ctx: Context) -> bool:
    """A condition group (the modifier's own conditions are an 'and' group): and / or. Where every
    condition in it is one the evaluator understands (`understood`, once per game data), it stops at the
    first that decides, as BattleScribe does; otherwise each is asked, so that what is not understood is
    named whatever the others say. Not while cost_order.py notes which costs the conditions read."""
    if COST_READS.get() is None and understood(ctx.roster.game, group):
        conditions, groups = group.get("conditions", ()), group.get("groups", ())
        if group.get("type", "and") == "or":
            if not conditions and not groups:
                return True
            return any(condition_holds(c, ctx) for c in conditions) or any(group_holds(g, ctx) for g in groups)
        return all(condition_holds(c, ctx) for c in conditions) and all(group_holds(g, ctx) for g in groups)
    results = [condition_holds(c, ctx) for c in group.get("conditions", [])]
    results += [group_holds(g, ctx) for g in group.get("groups", [])]
    if group.get("type", "and") == "or":
        return any(results) if results else True
    if group.get("type", "and") != "and":
        raise Unsupported(f"condition group type {group.get('type')!r}")
    return all(results)


def understood(game, group: dict) -> bool:
    """No condition of the group (nested) can raise Unsupported: known group and condition types, and
    counts of selections, forces or a cost type (limit:: of one), in a scope the count reads."""
    per_game = game.memo.setdefault("understood", {})
    found = per_game.get(id(group))
    if found is None or found[0] is not group:
        cost_types = {c["id"] for c in game.cost_types}
        found = per_game[id(group)] = (group, _understood_now(group, cost_types))
    return found[1]


def _understood_now(group: dict, cost_types: set[str]) -> bool:
    if group.get("type", "and") not in ("and", "or"):
        return False
    for condition in group.get("conditions", []):
        kind = condition.get("type")
        if kind in ("instanceOf", "notInstanceOf"):
            continue
        if kind not in COMPARE:
            return False
        field = condition.get("field", "selections")
        above = condition.get("scope") == "ancestor"   # ancestor_count: selections or a cost type only
        if not (field in ("selections", "") or field in cost_types
                or (not above and (field == "forces" or field.startswith("limit::")))):
            return False
    return all(_understood_now(inner, cost_types) for inner in group.get("groups", []))


def repeat_times(repeat: dict, ctx: Context) -> int:
    """How often a repeat applies: the count per `value`, rounded down (up with roundUp), times `repeats`."""
    step = repeat.get("value", 0)
    if step <= 0:
        return 0
    ratio = query_value(repeat, ctx) / step
    return int(math.ceil(ratio) if repeat.get("round_up") else math.floor(ratio)) * int(repeat.get("repeats", 1))
