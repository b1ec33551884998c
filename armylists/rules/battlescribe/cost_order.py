"""The order costs are computed in where a cost modifier reads other selections' costs, and its loops.

BattleScribe's pass reads whatever cost a selection has at that moment: its value from the pass before,
or nothing for one added since (battlescribe-spec docs/cost-field-repeat-algorithm.md). Its prices then
depend on the order the entries were added in, and where two entries read each other's costs they grow
with every action (New Recruit's fixed point grows without end). The suite expects neither: a cost is
read once it is final, and a modifier that feeds on itself is reported and not applied
(modifier-repeat-cost-self-reference, its main expectation). So, after evaluate.py's main pass:

1. each selection's cost modifiers whose conditions or repeats count a cost type are asked which
   selections' costs they read: every such query of the modifier, whatever the others answer (what a
   count reads depends on its scope, the ids and the categories, never on the costs themselves);
2. the readers and what they read are a graph; its strongly connected components (Tarjan's) are the
   loops: a component of several selections, or one reading itself;
3. components are computed in order, what is read before its readers; in a loop the modifiers that read
   into their own component are left out, the others apply, and the loop is one error;
4. names, hidden flags and messages whose conditions read costs are computed again from the final costs.

A fixed number of steps, each selection's costs computed once more at most: it always ends, and a
roster evaluated twice gives the same prices.
"""
from __future__ import annotations

from armylists.rules.battlescribe.effective import Effective, effective
from armylists.rules.battlescribe.plans import plan
from armylists.rules.battlescribe.queries import (COST_READS, Context, Unsupported, ancestor_count,
                                                  query_value)
from armylists.rules.battlescribe.tree import Roster, Selection

def _reads(queries: tuple[dict, ...], ctx: Context) -> set[Selection]:
    """The selections whose costs these queries count, where `ctx` stands."""
    token = COST_READS.set(set())
    try:
        for query in queries:
            try:
                if query.get("scope") == "ancestor":
                    ancestor_count(query, ctx)
                else:
                    query_value(query, ctx)
            except Unsupported:
                continue   # named by the evaluation itself
        return COST_READS.get() or set()
    finally:
        COST_READS.reset(token)


def _components(nodes: list[Selection], edges: dict[Selection, set[Selection]]) -> list[list[Selection]]:
    """Tarjan's strongly connected components, each after every component it reads (iterative)."""
    position = {node: i for i, node in enumerate(nodes)}
    index: dict[Selection, int] = {}
    low: dict[Selection, int] = {}
    stack: list[Selection] = []
    on_stack: set[Selection] = set()
    out: list[list[Selection]] = []
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root], key=position.__getitem__)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child], key=position.__getitem__))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member is node:
                        break
                out.append(sorted(component, key=position.__getitem__))
    return out


def _loop_text(component: list[Selection], fields: list[str]) -> str:
    names: list[str] = []
    for selection in component:
        if selection.state.name not in names:
            names.append(selection.state.name)
    what = " and ".join(fields)
    if len(names) == 1:
        return f"{names[0]}: its {what} modifier counts its own {what}; not applied"
    listed = ", ".join(names[:-1]) + f" and {names[-1]}"
    return f"{listed}: their {what} modifiers count each other's {what}; not applied"


def order_costs(roster: Roster, cost_types: set[str], unsupported: list[str],
                messages: dict[str, list[tuple[str, str]]]) -> list[tuple[str, str]]:
    """Steps 1-4 above over the states of the main pass; the loops found, as (uid, text) of the first
    selection of each. `messages` (per selection uid) is updated where a name's conditions read costs."""
    selections = list(roster.all_selections())
    readers: dict[Selection, list[tuple[dict, set[Selection]]]] = {}
    state_readers: list[Selection] = []
    for selection in selections:
        found = plan(roster.game, selection.option)
        if found.state_reads_costs:
            state_readers.append(selection)
        if found.cost_readers:
            ctx = _context(roster, selection)
            readers[selection] = [(m, _reads(queries, ctx)) for m, queries in found.cost_readers]
    if not readers and not state_readers:
        return []
    nodes = [s for s in selections if s in readers]
    edges = {s: {t for _m, read in readers[s] for t in read if t in readers} for s in nodes}
    loops: list[tuple[str, str]] = []
    for component in _components(nodes, edges):
        members = set(component)
        looping = {id(m) for s in component for m, read in readers[s] if read & members}
        if looping:
            fields = sorted({m["field"] for s in component for m, read in readers[s] if id(m) in looping})
            loops.append((component[0].uid, _loop_text(component, fields)))
        for selection in component:
            eff = _effective(roster, selection, cost_types, unsupported, looping)
            selection.state.costs = {t: v * selection.number for t, v in eff.costs.items()}
    for selection in state_readers:
        eff = _effective(roster, selection, cost_types, unsupported, frozenset())
        selection.state.name, selection.state.hidden = eff.name, eff.hidden
        messages[selection.uid] = list(eff.messages)
    return loops


def _context(roster: Roster, selection: Selection) -> Context:
    return Context(roster, selection, selection.parent, selection.option)


def _effective(roster: Roster, selection: Selection, cost_types: set[str], unsupported: list[str],
               left_out) -> Effective:
    return effective(_context(roster, selection), selection.option.sources, cost_types, unsupported,
                     selection.option.group_nodes,
                     keep=lambda m: m.get("field") != "category" and id(m) not in left_out)

