"""What an option's modifiers ask of a refresh, read once per game data (every refresh asks it of
every selection): the categories its links give it and whether a modifier changes them (evaluate.py's
categories pass), and which of its modifiers count a cost (cost_order.py).

Kept on the `GameData` (its `memo`: gone with it), by option, the option held beside its plan so that an id
is never taken for another option's.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from armylists.rules.battlescribe.data import GameData, GroupStep, Option
from armylists.rules.battlescribe.queries import Match
from armylists.rules.battlescribe.effective import constraint_problem, cost_queries, gated, linked_categories, queries_of

STATE_FIELDS = {"name", "hidden", "error", "warning", "info"}   # what a refresh keeps, besides costs


@dataclass(frozen=True)
class Plan:
    categories: tuple[str, ...]           # its category links' targets (entry, link, groups)
    primary: str | None
    changes_categories: bool              # a modifier of its `category`
    categories_read_costs: str | None     # where a modifier of its `category` counts a cost
    cost_readers: tuple[tuple[dict, tuple[dict, ...]], ...]   # cost modifiers, with their queries of a cost
    state_reads_costs: bool               # a modifier of its name, hidden flag or messages counts a cost
    categories_count: bool = False        # a condition or repeat of a `category` modifier counts (not instanceOf)


def plan(game: GameData, option: Option) -> Plan:
    per_game = game.memo.setdefault("plans", {})
    found = per_game.get(id(option))
    if found is None or found[0] is not option:
        found = per_game[id(option)] = (option, _plan(option, {c["id"] for c in game.cost_types}))
    return found[1]


def _plan(option: Option, cost_types: set[str]) -> Plan:
    categories, primary = linked_categories(option.sources, option.group_nodes)
    changes, readers, state, category_costs, counting = False, [], False, None, False
    for source in option.sources:
        for modifier, gates, repeat_lists in gated(source):
            changes = changes or modifier.get("field") == "category"
            if modifier.get("field") == "category":
                counting = counting or any(q.get("type") not in ("instanceOf", "notInstanceOf")
                                           for q in queries_of(gates, repeat_lists))
            found = cost_queries(queries_of(gates, repeat_lists), cost_types)
            if not found:
                continue
            if modifier.get("field") == "category":
                category_costs = category_costs or source.get("where", source.get("id"))
            elif modifier.get("field") in cost_types:
                readers.append((modifier, found))
            elif modifier.get("field") in STATE_FIELDS:
                state = True
    return Plan(tuple(categories), primary, changes, category_costs, tuple(readers), state, counting)


# --- which limits can fail where nothing they count is selected --------------------------------

KNOWN_SCOPES = ("parent", "force", "roster", "self", "root-entry", "primary-category", "primary-catalogue")


def only_caps(game: GameData, sources: tuple[dict, ...]) -> bool:
    """True where every constraint of `sources` is a maximum of a field and scope the validator reads:
    counted over no selection, such a limit holds whatever its modifiers make of its value (0 is at most
    any bound; a negative bound is none), so an entry or group none of whose selections is in the
    roster need not be judged at all (validation.py). A minimum, or anything the validator would name
    unsupported, is never passed over this way."""
    per_game = game.memo.setdefault("caps", {})
    key = tuple(map(id, sources))
    found = per_game.get(key)
    if found is None or any(a is not b for a, b in zip(found[0], sources)):
        cost_types = {c["id"] for c in game.cost_types}
        found = per_game[key] = (sources, all(_a_cap(c, game, cost_types)
                                              for s in sources for c in s.get("constraints", [])))
    return found[1]


def _a_cap(constraint: dict, game: GameData, cost_types: set[str]) -> bool:
    scope = constraint.get("scope", "parent")
    known = scope in KNOWN_SCOPES or scope in game.categories or scope in game.by_id or scope in game.forces
    return constraint.get("type") == "max" and known and constraint_problem(constraint, cost_types) is None


# --- what a container's limits are, made once per book ---------------------------------------------

@dataclass(frozen=True)
class EntryLimits:
    """An entry a container offers that has constraints (the first option of its composite id)."""
    option: Option
    caps: bool                       # only_caps: passed over while none of the entry is selected
    local: bool                      # ... and each counts in its container alone (scope parent or self)
    fixed: bool                      # no modifier changes a bound: judged by its counts alone first
    holders: tuple[dict, ...]        # the node holding each constraint, in the constraints' order
    collective: bool
    stated: tuple = ()               # where fixed: each constraint with its bound as stated (`_stated`)


@dataclass(frozen=True)
class GroupLimits:
    """A group a container offers that has constraints."""
    step: GroupStep
    sources: tuple[dict, ...]        # the group, then the link that reached it
    outer: tuple[dict, ...]          # the groups it sits in, outermost first (validation: hidden with them)
    caps: bool
    local: bool
    fixed: bool
    holders: tuple[dict, ...]
    all_collective: bool
    stated: tuple = ()


@dataclass(frozen=True)
class ContainerLimits:
    """A container's entries and groups with limits (in the data's order), and which of the entries are
    judged whatever the roster holds (`always`: their indices) or only where one of the entry is selected
    below the container (`local_caps`) or anywhere in the roster (`wide_caps`), by the entry's id."""
    entries: tuple[EntryLimits, ...]
    groups: tuple[GroupLimits, ...]
    always: tuple[int, ...]
    local_caps: dict[str, tuple[int, ...]]
    wide_caps: dict[str, tuple[int, ...]]


def container_limits(game: GameData, options: list[Option], groups: list[GroupStep]) -> ContainerLimits:
    """The entries and groups of a container (GameData's lists for a force's root or a selection's
    children) whose constraints the validator judges, in the data's order, with what does not depend on
    the roster worked out once: which can only cap, the holders, the members' collective flags."""
    per_game = game.memo.setdefault("containers", {})
    key = (id(options), id(groups))
    found = per_game.get(key)
    if found is None or found[0] is not options or found[1] is not groups:
        entries, limits = _container_limits(game, options, groups)
        local: dict[str, list[int]] = {}
        wide: dict[str, list[int]] = {}
        for i, entry in enumerate(entries):
            if entry.caps:
                (local if entry.local else wide).setdefault(entry.option.entry["id"], []).append(i)
        made = ContainerLimits(entries, limits, tuple(i for i, e in enumerate(entries) if not e.caps),
                               {k: tuple(v) for k, v in local.items()}, {k: tuple(v) for k, v in wide.items()})
        found = per_game[key] = (options, groups, made)
    return found[2]


def _container_limits(game: GameData, options: list[Option], groups: list[GroupStep]):
    seen: set[str] = set()
    entries = []
    firsts = [o for i, o in enumerate(options) if o.entry_id not in {p.entry_id for p in options[:i]}]
    # a shared constraint several of the container's entries reach is judged once, by the first that is
    # not hidden (validation.py): its bound is known only there, so none of them is judged ahead by counts
    keys = Counter((s.get("id"), c.get("id")) for o in firsts for s in o.sources for c in s.get("constraints", []))
    for option in options:
        if option.entry_id in seen:
            continue
        seen.add(option.entry_id)
        if not any(s.get("constraints") for s in option.sources):
            continue
        caps = only_caps(game, option.sources)
        alone = all(keys[(s.get("id"), c.get("id"))] == 1 for s in option.sources for c in s.get("constraints", []))
        fixed = alone and _fixed(option.sources)
        holders = tuple(s for s in option.sources for _c in s.get("constraints", []))
        base, composite = Match("entry", option.entry["id"]), Match("composite", option.entry_id)
        entries.append(EntryLimits(option, caps, _local(option.sources), fixed, holders,
                                   bool(option.entry.get("collective") or (option.link or {}).get("collective")),
                                   _stated(holders, base, composite) if fixed else ()))
    limits = []
    for step in groups:
        if step.group_id in seen:
            continue
        seen.add(step.group_id)
        sources = (step.node,) if step.link is None else (step.node, step.link)
        if not any(s.get("constraints") for s in sources):
            continue
        members = [o for o in options if any(g.group_id == step.group_id for g in o.groups)]
        fixed = _fixed(sources)
        holders = tuple(s for s in sources for _c in s.get("constraints", []))
        limits.append(GroupLimits(
            step, sources, _outer_groups(step, members), only_caps(game, sources), _local(sources),
            fixed, holders,
            bool(members) and all(o.entry.get("collective") or (o.link or {}).get("collective") for o in members),
            _stated(holders, Match("group", step.node["id"]), Match("group_id", step.group_id)) if fixed else ()))
    return tuple(entries), tuple(limits)


def _stated(holders: tuple[dict, ...], shared: Match, unshared: Match) -> tuple:
    """The constraints of a fixed limit as validation.Validator._within reads them, each node once: the
    constraint, its bound as stated (a negative one, no bound, left out), its field, its scope and what it
    counts (the entry's or group's own id where shared, else the composite id)."""
    found = []
    for source in {id(h): h for h in holders}.values():
        for constraint in source.get("constraints", []):
            value = float(constraint["value"])
            if value < 0:
                continue
            found.append((constraint, value, constraint.get("field") or "selections", constraint.get("scope", "parent"),
                          shared if constraint.get("shared", True) else unshared))
    return tuple(found)


FIXED_SCOPES = ("parent", "force", "roster", "self")


def _fixed(sources: tuple[dict, ...]) -> bool:
    """No modifier of the entry (or link, or group) changes a bound of its constraints, each a minimum or
    maximum counting selections or a cost in its container, its force, the roster or each selection, not
    as a percentage: where every count is within its bound as the data states it, no constraint can fail,
    hidden or not (validation.py judges the rest as before)."""
    ids = {c.get("id") for s in sources for c in s.get("constraints", [])}
    if any(modifier.get("field") in ids for s in sources for modifier, _g, _r in gated(s)):
        return False
    return all(c.get("type") in ("min", "max") and (c.get("scope") or "parent") in FIXED_SCOPES and not c.get("percent")
               and not str(c.get("field", "")).startswith("limit::") and (c.get("field") or "selections") != "forces"
               for s in sources for c in s.get("constraints", []))


def _local(sources: tuple[dict, ...]) -> bool:
    """Every constraint counts in the container it is judged in (its selections, or with
    includeChildSelections what is below them), or in each selection itself."""
    return all((c.get("scope") or "parent") in ("parent", "self") and not c.get("include_child_forces")
               for s in sources for c in s.get("constraints", []))


def _outer_groups(step: GroupStep, members: list[Option]) -> tuple[dict, ...]:
    """The groups (and group links) `step` sits in, outermost first, as its members reach it."""
    for option in members:
        for i, group in enumerate(option.groups):
            if group.group_id == step.group_id:
                return tuple(n for g in option.groups[:i] for n in (g.node, g.link) if n is not None)
    return ()
