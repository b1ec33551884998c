"""What the options inside a unit of a roster tree read of the rest of the roster (rules/battlescribe/reach.py,
worked out once per game data), for the editor's answer to an edit (lists/trees/tree_changes.py); and the
tree an action leaves, which an edit's answer reads (tree_lists.with_tree). Small data of their own."""
from __future__ import annotations

from armylists.rules.battlescribe import Roster, add_force, evaluate, select, set_cost_limit, set_count
from armylists.rules.battlescribe.document import document_tree, tree_roster
from armylists.rules.battlescribe.reach import reach
from armylists.rules.reading.roster import Roster as Document
from tests.battlescribe.test_battlescribe_tree import game, pts


def test_reach_names_what_an_option_inside_a_unit_reads_beyond_it():
    """The banner's price reads the army's Grunts (a threshold: at least 10) and its own unit's Lord (inside);
    the charm is 0-1 per army (a constraint counted in the roster); the Lord's own price reads the force,
    which is its card's own state, not an offer."""
    data = game([
        {"id": "se-lord", "name": "Lord", "type": "unit", "costs": pts(50),
         "modifiers": [{"type": "increment", "field": "pts", "value": 1, "repeats": [
             {"value": 1, "repeats": 1, "field": "selections", "scope": "force", "childId": "se-grunt"}]}],
         "selectionEntries": [
             {"id": "se-banner", "name": "Banner", "type": "upgrade", "costs": pts(10), "modifiers": [
                 {"type": "set", "field": "pts", "value": 5, "conditions": [
                     {"type": "atLeast", "value": 10, "scope": "roster", "childId": "se-grunt",
                      "includeChildSelections": True}]},
                 {"type": "set", "field": "hidden", "value": True, "conditions": [
                     {"type": "atLeast", "value": 1, "scope": "parent", "childId": "se-lord"}]}]},
             {"id": "se-charm", "name": "Charm", "type": "upgrade", "constraints": [
                 {"id": "one-charm", "type": "max", "value": 1, "scope": "roster", "shared": True,
                  "includeChildSelections": True}]}]},
        {"id": "se-grunt", "name": "Grunt", "type": "model", "costs": pts(1)}])
    found = reach(data)
    assert (found.ids, found.thresholds, found.cost_ids, found.levels, found.everything) == (
        frozenset({"se-charm"}), (("se-grunt", "atLeast", 10.0, False),), frozenset(), (), False)


def test_a_tree_built_from_the_document_an_action_wrote_is_the_tree_the_action_left():
    """with_tree keeps the acted tree as the new document's (the edit's answer reads it): the same states
    and verdict as building it from that document."""
    data = game([{"id": "se-boss", "name": "Boss", "type": "unit", "costs": pts(50),
                  "modifiers": [{"type": "increment", "field": "pts", "value": 5, "repeats": [
                      {"value": 2, "repeats": 1, "field": "selections", "scope": "force", "childId": "se-grunt",
                       "roundUp": True}]}],
                  "constraints": [{"id": "one-boss", "type": "max", "value": 1, "scope": "roster", "shared": True}]},
                 {"id": "se-grunt", "name": "Grunt", "type": "model", "costs": pts(1)}])
    acted = Roster(data)
    force = add_force(acted, "fe")
    select(acted, force, "se-boss"), select(acted, force, "se-boss")
    set_count(acted, select(acted, force, "se-grunt"), 3)
    set_cost_limit(acted, "pts", 1000)
    forces, limit, others = document_tree(acted)
    built = tree_roster(data, Document(system="s", book="b", book_version="1", points_limit=limit,
                                       forces=forces, cost_limits=others))

    def states(tree):
        return [(s.uid, s.number, s.state.name, s.state.costs) for s in tree.all_selections()]
    assert states(built) == states(acted)
    assert [(e.constraint_id, e.message) for e in evaluate(built).errors] == \
        [(e.constraint_id, e.message) for e in evaluate(acted).errors] == [
            ("one-boss", "Boss has 1 too many selections of Boss (maximum 1)")]
    assert evaluate(built).costs == evaluate(acted).costs == {"pts": 50 * 2 + 2 * 10 + 3}
