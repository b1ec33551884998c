"""What an option's modifiers ask of a refresh, read once per game data (every refresh asks it of
every selection): the categories its links give it and whether a modifier changes them (evaluate.py's
categories pass), and which of its modifiers count a cost (cost_order.py).

Kept per `GameData` (weakly: gone with it), by option, the option held beside its plan so that an id
is never taken for another option's.
"""
from __future__ import annotations

from dataclasses import dataclass
from weakref import WeakKeyDictionary

from armylists.rules.battlescribe.data import GameData, Option
from armylists.rules.battlescribe.effective import cost_queries, gated, linked_categories, queries_of

STATE_FIELDS = {"name", "hidden", "error", "warning", "info"}   # what a refresh keeps, besides costs


@dataclass(frozen=True)
class Plan:
    categories: tuple[str, ...]           # its category links' targets (entry, link, groups)
    primary: str | None
    changes_categories: bool              # a modifier of its `category`
    categories_read_costs: str | None     # where a modifier of its `category` counts a cost
    cost_readers: tuple[tuple[dict, tuple[dict, ...]], ...]   # cost modifiers, with their queries of a cost
    state_reads_costs: bool               # a modifier of its name, hidden flag or messages counts a cost


_PLANS: WeakKeyDictionary[GameData, dict[int, tuple[Option, Plan]]] = WeakKeyDictionary()


def plan(game: GameData, option: Option) -> Plan:
    per_game = _PLANS.setdefault(game, {})
    found = per_game.get(id(option))
    if found is None or found[0] is not option:
        found = per_game[id(option)] = (option, _plan(option, {c["id"] for c in game.cost_types}))
    return found[1]


def _plan(option: Option, cost_types: set[str]) -> Plan:
    categories, primary = linked_categories(option.sources, option.group_nodes)
    changes, readers, state, category_costs = False, [], False, None
    for source in option.sources:
        for modifier, gates, repeat_lists in gated(source):
            changes = changes or modifier.get("field") == "category"
            found = cost_queries(queries_of(gates, repeat_lists), cost_types)
            if not found:
                continue
            if modifier.get("field") == "category":
                category_costs = category_costs or source.get("where", source.get("id"))
            elif modifier.get("field") in cost_types:
                readers.append((modifier, found))
            elif modifier.get("field") in STATE_FIELDS:
                state = True
    return Plan(tuple(categories), primary, changes, category_costs, tuple(readers), state)
