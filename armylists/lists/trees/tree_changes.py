"""What each unit card of a roster tree shows, and what every card depends on, for the editor to answer an
edit with the cards it changed (editor/changes.py asks the list's kind, lists/kinds.py).

A card is a root selection: every selection in it with its evaluated state (name, hidden flag, costs,
categories, number), its Report line and its violations. Every card also offers what may be selected in
it, and an offer may read the rest of the roster (a magic item 0-1 per army, an option per 1,000 points
of the army): what those reads count (rules/battlescribe/reach.py, worked out once per game data) is part
of what every card depends on, with the units' order and categories, the forces and the list's limits.
When that changes, every card is drawn again.
"""
from __future__ import annotations

import math
from collections import Counter

from armylists.lists.trees.tree_lists import evaluated, remembered
from armylists.rules import Report, Roster
from armylists.rules.battlescribe.queries import COMPARE, ids_of
from armylists.rules.battlescribe.reach import reach


def tree_cards(roster: Roster, report: Report) -> tuple[tuple, dict[str, tuple]]:
    """(what every card depends on, each card's state by unit id). Kept with the document and its Report
    (tree_lists.remembered): an edit's cards before are those the request that saved the document made."""
    made = remembered(roster, ("cards", id(report)), lambda _tree: (report, _tree_cards(roster, report)))
    return made[1] if made[0] is report else _tree_cards(roster, report)   # an id the memo had for another


def _tree_cards(roster: Roster, report: Report) -> tuple[tuple, dict[str, tuple]]:
    tree = evaluated(roster)
    wide = reach(tree.game)
    lines = {line.id: line for line in report.units}
    problems: dict[str, list] = {}
    for v in report.violations:
        if v.unit:
            problems.setdefault(v.unit, []).append((v.code, v.severity, v.message))
    cards, order = {}, []
    for force in tree.all_forces():
        for unit in force.selections:
            line = lines.get(unit.uid)
            order.append((force.uid, unit.uid, line.category if line else None))
            cards[unit.uid] = (tuple((s.uid, s.entry_id, s.number, s.state.name, s.state.hidden,
                                      tuple(sorted(s.state.costs.items())), s.state.categories)
                                     for s in unit.walk()), line, tuple(problems.get(unit.uid, ())))
    counted = {key for key, *_rest in wide.thresholds} | wide.ids
    places = [*tree.all_forces(), tree]   # each force, and the roster: a read's scope is one of them
    counts = {(id(place), roots): Counter() for place in places for roots in (True, False)}
    costs: Counter = Counter()
    for force in tree.all_forces():
        for selection in force.walk_selections():
            found = ids_of(selection, True) | ids_of(selection, False)
            for key in found & counted:
                for roots in (False, True) if selection.parent is force else (False,):
                    counts[(id(force), roots)][key] += selection.number
                    counts[(id(tree), roots)][key] += selection.number
            for key in found & wide.cost_ids:
                for type_id, value in selection.state.costs.items():
                    costs[(key, type_id)] += value
    read = []
    for table in counts.values():   # what the reads see: the counts, else the comparisons' outcomes
        read.append(tuple(table[key] for key in sorted(wide.ids)))
        read.append(tuple(_outcome(table[key], comparison, value, round_up)
                          for key, comparison, value, round_up in wide.thresholds))
    shared = (tuple(order), roster.points_limit, tuple(sorted(tree.cost_limits.items())),
              tuple((f.uid, f.entry_id, f.state.name, f.state.hidden) for f in tree.all_forces()),
              tuple(read), tuple(sorted(costs.items())), _levels(tree, wide.levels),
              _everything(tree) if wide.everything else None)
    return shared, cards


def _outcome(count: float, comparison: str, value: float, round_up: bool):
    if comparison:
        return COMPARE[comparison](count, value)
    return (math.ceil if round_up else math.floor)(count / value) if value > 0 else 0


def _levels(tree, levels) -> tuple:
    """What each read of a force's or the roster's whole cost gives: a repeat's multiple, a condition's truth."""
    out = []
    for scope, type_id, comparison, value, round_up in levels:
        places = [list(f.walk_selections()) for f in tree.all_forces()] if scope == "force" else \
            [list(tree.all_selections())]
        for selections in places:
            total = sum(s.state.costs.get(type_id, 0) for s in selections)
            out.append(_outcome(total, comparison if comparison in COMPARE else "", value, round_up)
                       if comparison in COMPARE or not comparison else total)
    return tuple(out)


def _everything(tree) -> tuple:
    return tuple((s.uid, s.number, tuple(sorted(s.state.costs.items()))) for s in tree.all_selections())
