"""One evaluation of a roster: every selection's costs, name, hidden flag and categories, the roster's
costs per cost type, and its errors; what was not understood is listed in `unsupported`.

`refresh` computes every state from the roster as it stands: the categories first, then BattleScribe's
pass (docs/cost-field-repeat-algorithm.md of the suite: force by force, each selection's children before
the selection), then the costs that read other costs in the order cost_order.py decides, a loop
reported and left out. The actions refresh after every change, as BattleScribe does; `evaluate` reads
the last refresh (or refreshes) and validates.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from armylists.rules.battlescribe.cost_order import order_costs
from armylists.rules.battlescribe.effective import effective, for_state, is_category
from armylists.rules.battlescribe.plans import plan
from armylists.rules.battlescribe.queries import COUNTS, Context, Unsupported, counting
from armylists.rules.battlescribe.tree import Roster, Selection, State
from armylists.rules.battlescribe.validation import Error, Validator


@dataclass
class Result:
    costs: dict[str, float]
    errors: list[Error]
    unsupported: list[str] = field(default_factory=list)
    messages: list[tuple[str, str, str]] = field(default_factory=list)   # (severity, owner uid, text)

    @property
    def legal(self) -> bool | None:
        """True or False only where every construct was understood; None otherwise (never a guess)."""
        if self.unsupported:
            return None
        return not self.errors and not any(m[0] == "error" for m in self.messages)

    @property
    def warnings(self) -> list[str]:
        return [text for severity, _uid, text in self.messages if severity in ("warning", "info")]


def refresh(roster: Roster, unsupported: list[str] | None = None,
            messages: list[tuple[str, str, str]] | None = None) -> None:
    """Every state from the roster as it stands: the selections' categories first (top down, so a
    condition on a category of the selection itself or of what it is in reads the categories it has
    now), then BattleScribe's pass (children first) for names, hidden flags and costs, then the costs
    that read other costs in their order, loops left out (cost_order.py)."""
    unsupported = [] if unsupported is None else unsupported
    first_unsupported = len(unsupported)
    roster.fresh = True
    cost_types = {c["id"] for c in roster.game.cost_types}
    categorise(roster, unsupported)
    found: dict[str, list[tuple[str, str]]] = {}
    with counting():   # from here to the end of the refresh only costs, names and hidden flags change
        for force in roster.all_forces():
            eff = effective(Context(roster, force, force.parent), (force.entry,), cost_types, unsupported)
            force.state = State(name=eff.name, hidden=eff.hidden)
            for selection in force.selections:
                _refresh_selection(roster, selection, cost_types, unsupported, found)
        roster.loops = order_costs(roster, cost_types, unsupported, found)
    said = [(severity, selection.uid, text) for selection in roster.all_selections()
            for severity, text in found.get(selection.uid, ())]
    said += [("cycle", uid, text) for uid, text in roster.loops]
    roster.found = (tuple(said), tuple(unsupported[first_unsupported:]))
    if messages is not None:
        messages.extend(said)


def categorise(roster: Roster, unsupported: list[str]) -> None:
    """The refresh's first pass alone: every selection's categories, top down, from the roster as it stands."""
    cost_types = {c["id"] for c in roster.game.cost_types}
    token = COUNTS.set(None)   # the categories change in this pass: counts walk the tree as it stands
    try:
        for selection in roster.all_selections():
            _categories(roster, selection, cost_types, unsupported)
    finally:
        COUNTS.reset(token)


def _categories(roster: Roster, selection: Selection, cost_types, unsupported) -> None:
    """A selection's categories: its links', then its category modifiers' (which see these)."""
    option = selection.option
    found = plan(roster.game, option)
    selection.state.categories, selection.state.primary = found.categories, found.primary
    _categories_problem(found, unsupported)
    if found.changes_categories:
        ctx = Context(roster, selection, selection.parent, option)
        eff = effective(ctx, option.sources, cost_types, unsupported, option.group_nodes, keep=is_category)
        selection.state.categories, selection.state.primary = tuple(eff.categories), eff.primary


def _categories_problem(found, unsupported: list[str]) -> None:
    if found.categories_read_costs:   # categories come before costs: what it would read is not known yet
        unsupported.append(f"a category modifier counting a cost in a modifier of {found.categories_read_costs}")


def _refresh_selection(roster, selection: Selection, cost_types, unsupported, found) -> None:
    for child in selection.children:
        _refresh_selection(roster, child, cost_types, unsupported, found)
    ctx = Context(roster, selection, selection.parent, selection.option)
    eff = effective(ctx, selection.option.sources, cost_types, unsupported, selection.option.group_nodes,
                    keep=for_state)
    number = selection.number
    selection.state = State(name=eff.name, hidden=eff.hidden,
                            costs={t: v * number for t, v in eff.costs.items()},
                            categories=selection.state.categories, primary=selection.state.primary)
    found[selection.uid] = list(eff.messages)


def _found(roster: Roster, unsupported: list[str], messages: list) -> None:
    """What the last refresh found: kept by it, unless a name, hidden flag or message of a selection reads
    a cost (plans.py), which the refresh may have read before the cost was final; then found again."""
    if roster.found is None or any(plan(roster.game, s.option).state_reads_costs for s in roster.all_selections()):
        _collect(roster, unsupported, messages)
        return
    said, refused = roster.found
    messages.extend(said)
    unsupported.extend(refused)


def _collect(roster: Roster, unsupported: list[str], messages: list) -> None:
    """What the last refresh found that is not kept on the states: messages and unsupported constructs."""
    cost_types = {c["id"] for c in roster.game.cost_types}
    for force in roster.all_forces():
        effective(Context(roster, force, force.parent), (force.entry,), cost_types, unsupported)
    for selection in roster.all_selections():
        _categories_problem(plan(roster.game, selection.option), unsupported)
        ctx = Context(roster, selection, selection.parent, selection.option)
        eff = effective(ctx, selection.option.sources, cost_types, unsupported, selection.option.group_nodes)
        messages.extend((severity, selection.uid, text) for severity, text in eff.messages)
    messages.extend(("cycle", uid, text) for uid, text in roster.loops)


def _loop_errors(roster: Roster, messages: list[tuple[str, str, str]]) -> list[Error]:
    """A cost modifier counting its own cost, or a modifier adding an error: one error per entry and
    message, on its first selection (constraint id "cycle" or "error")."""
    out: dict[tuple[str, str], Error] = {}
    for severity, uid, text in messages:
        selection = roster.by_uid.get(uid)
        if severity not in ("cycle", "error") or not isinstance(selection, Selection):
            continue
        key = (selection.option.entry["id"], text)
        out.setdefault(key, Error("selection", frozenset(selection.option.ids), key[0], severity, text,
                                  where=selection.uid))
    return list(out.values())


def totals(roster: Roster) -> dict[str, float]:
    """The roster's costs: every cost type of the data, the sum of every selection's own costs."""
    out = {c["id"]: 0.0 for c in roster.game.cost_types}
    for selection in roster.all_selections():
        for type_id, value in selection.state.costs.items():
            out[type_id] = out.get(type_id, 0.0) + value
    return out


def evaluate(roster: Roster) -> Result:
    """Costs, errors and what was not understood, for the roster as it stands."""
    unsupported: list[str] = []
    messages: list[tuple[str, str, str]] = []
    try:
        refreshed = not roster.fresh
        if refreshed:
            refresh(roster, unsupported, messages)
        with counting(costs_fixed=True):   # nothing changes the tree, nor its costs, while it is judged
            if not refreshed:   # the last action refreshed: a second pass would read its own new values
                _found(roster, unsupported, messages)
            costs = totals(roster)
            errors = Validator(roster, unsupported).run(costs)
            errors += _loop_errors(roster, messages)
    except Unsupported as exc:
        unsupported.append(str(exc))
        costs, errors = totals(roster), []
    return Result(costs, errors, sorted(set(unsupported)), messages)
