"""BattleScribe data evaluated by BattleScribe's own semantics, over a roster tree.

    game = GameData([system, *catalogues])           # plain dicts of importers/battlescribe/plain.py
    roster = Roster(game)                             # roster -> forces -> selections -> children
    force = add_force(roster, "fe-patrol")            # auto-selects what a minimum asks for
    select(roster, force, "se-unit")                  # or place(roster, force, "el-x::se-y", 3): as saved
    result = evaluate(roster)                         # costs, names, hidden, errors, unsupported

Pure Python, no Django: `data` indexes the game system and catalogues and expands what may be
selected where (entry links, groups, shared entries, catalogue links); `tree` is the roster and its
actions; `queries` counts selections, forces and costs in a scope and decides conditions and repeats;
`effective` applies modifiers; `validation` turns constraints, hidden entries and cost limits into
errors (`categories`: a force's categories and every category entry's limits; `errors`: the Error),
each also in a player's words (`words`: the entry, the numbers and which condition made the
bound what it is; the unit cards' reasons come from it too); `evaluate` puts them together (its
refresh: the categories, BattleScribe's pass, then `cost_order`: costs that read other costs in the order
of what they read, a loop reported and left out; `plans` reads what each option's modifiers ask of it
once per game data, and `compiled` makes its modifiers' conditions functions once per game data, both
kept on the GameData). What is not understood is named in `Result.unsupported`, and a
result with anything unsupported is never called legal. `document` maps a list document kept as a
roster tree (rules/reading/selection_tree.py) to and from the evaluator's roster and its verdict to our Report;
`packed` is how a game system's or catalogue's data is stored (MessagePack, zlib). `profiles` gives
the profiles and rules of what a unit holds after their modifiers (the editor's card, the PDF), `sheet`
a unit as a printed roster describes it.
"""
from __future__ import annotations

from armylists.rules.battlescribe.actions import (add_force, deselect, duplicate, duplicate_force,
                                                  place, remove_force, select, set_cost_limit, set_count)
from armylists.rules.battlescribe.data import GameData, GameDataError
from armylists.rules.battlescribe.evaluate import Result, evaluate
from armylists.rules.battlescribe.tree import Force, Roster, RosterError, Selection

__all__ = ["add_force", "remove_force", "select", "deselect", "set_count", "duplicate", "duplicate_force",
           "set_cost_limit", "place",
           "GameData", "GameDataError", "Roster", "RosterError", "Force", "Selection", "Result", "evaluate"]
