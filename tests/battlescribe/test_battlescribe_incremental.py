"""An edit's verdict equals the verdict of the same roster judged from scratch (issue 37 item 3).

The evaluator keeps what an action's refresh found (the states, `Roster.found`) and judges from it; a
tree built from a list document (`tree_roster`) settles its states with one refresh and, where only
category modifiers read ahead, the categories pass alone run again (document.settle). Over many seeded
random edits of the six Old World example rosters (docs/examples/battlescribe/the-old-world-nr/), each
action's evaluation must give what the same roster gives when rebuilt from its document, and when every
state is refreshed again: costs, errors with their words, messages, what was not understood, and every
selection's state. Needs ../shared's Old World data; skipped without it.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "external" / "battlescribe" / "the-old-world-nr"
EXAMPLES = ROOT / "docs" / "examples" / "battlescribe" / "the-old-world-nr"
ARMIES = ("empire-of-man", "dwarfen-mountain-holds", "high-elf-realms", "kingdom-of-bretonnia",
          "orc-and-goblin-tribes", "warriors-of-chaos")
EDITS = 25   # per roster: 150 edits, each judged three ways

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not DATA.is_dir(), reason="../shared/external/battlescribe/the-old-world-nr is absent")]


@pytest.fixture(scope="module")
def game():
    from armylists.importers.battlescribe.plain import plain_document
    from armylists.importers.battlescribe.sources import read_sources
    from armylists.rules.battlescribe import GameData
    return GameData([plain_document(d) for d in read_sources([str(DATA)])])


def dump(roster, result) -> dict:
    """Everything a verdict says (as bench/battlescribe_golden.py writes it)."""
    return {"costs": result.costs, "errors": sorted(repr(e) for e in result.errors),
            "unsupported": result.unsupported, "messages": sorted(map(list, result.messages)),
            "legal": result.legal,
            "states": [(s.uid, s.state.name, s.state.hidden, sorted(s.state.costs.items()),
                        list(s.state.categories), s.state.primary) for s in roster.all_selections()]}


def from_document(game, tree):
    from armylists.rules.battlescribe.document import document_tree, tree_roster
    from armylists.rules.reading.roster import Roster as Document
    forces, limit, others = document_tree(tree)
    return tree_roster(game, Document(system="s", book="b", book_version="1", points_limit=limit or 0,
                                      forces=forces, cost_limits=others))


def edit(rng: random.Random, game, tree) -> str:
    """One action a player could take, chosen by `rng`: a count set, a unit duplicated, a selection
    removed or an option selected; what the roster refuses is tried again with another."""
    from armylists.rules.battlescribe import RosterError, deselect, duplicate, select, set_count
    selections = list(tree.all_selections())
    for _attempt in range(20):
        picked = rng.choice(selections)
        kind = rng.choice(("count", "count", "duplicate", "remove", "select"))
        try:
            if kind == "count":
                amount = max(1, picked.amount + rng.choice((-1, 1, 2)))
                set_count(tree, picked, amount)
                return f"{picked.uid} x{amount}"
            if kind == "duplicate" and picked.parent in tree.forces:
                duplicate(tree, picked)
                return f"duplicate {picked.uid}"
            if kind == "remove" and len(selections) > 10:
                deselect(tree, picked)
                return f"remove {picked.uid}"
            if kind == "select":
                options = game.child_options(picked.option)
                if options:
                    option = rng.choice(options)
                    select(tree, picked, option.entry_id)
                    return f"select {option.entry_id} in {picked.uid}"
        except RosterError:
            continue
    raise AssertionError("no edit could be made")


@pytest.mark.parametrize("army", ARMIES)
def test_it_gives_an_edits_verdict_as_a_roster_judged_from_scratch(game, army):
    from armylists.importers.battlescribe.roster_tree import read_tree
    from armylists.importers.battlescribe.rosters import parse_roster_file
    from armylists.rules.battlescribe import evaluate

    path = EXAMPLES / f"{army}-legal.ros"
    tree = read_tree(parse_roster_file(path.read_bytes(), path.name), game, path.name)
    first = evaluate(tree)
    assert first.legal is True, first.errors   # the example as written (test_battlescribe_old_world_rosters)
    rng = random.Random(f"incremental {army}")
    illegal = 0
    for step in range(EDITS):
        said = edit(rng, game, tree)
        after_edit = dump(tree, evaluate(tree))
        rebuilt = from_document(game, tree)
        assert dump(rebuilt, evaluate(rebuilt)) == after_edit, f"step {step}: {said}"
        tree.fresh = False   # every state refreshed again from the roster as it stands
        assert dump(tree, evaluate(tree)) == after_edit, f"step {step}: {said}"
        illegal += after_edit["legal"] is False
    assert illegal > 0   # the edits reach broken limits, not only legal rosters


@pytest.mark.parametrize("army", ARMIES)
def test_it_settles_an_example_document_as_two_whole_refreshes_do(game, army):
    """document.settle runs the categories pass again instead of a second refresh where only category
    modifiers read ahead (every Old World roster): the states are those two more refreshes give."""
    from armylists.importers.battlescribe.roster_tree import read_tree
    from armylists.importers.battlescribe.rosters import parse_roster_file
    from armylists.rules.battlescribe import evaluate
    from armylists.rules.battlescribe.evaluate import refresh

    path = EXAMPLES / f"{army}-legal.ros"
    tree = read_tree(parse_roster_file(path.read_bytes(), path.name), game, path.name)
    settled = from_document(game, tree)
    twice = from_document(game, tree)
    refresh(twice)
    refresh(twice)
    assert dump(settled, evaluate(settled)) == dump(twice, evaluate(twice))


class TestSettle:
    """A category modifier counting a category that a later selection carries: the first refresh's pass
    (top down) meets that selection before it has categories, so a tree built from its document needs
    the pass again (document.settle), and the categories it then gives need the whole second refresh."""

    def data(self):
        from tests.battlescribe.test_battlescribe_tree import game as test_game
        elite = {"type": "atLeast", "value": 1, "field": "selections", "scope": "force", "childId": "cat-elite",
                 "includeChildSelections": True}
        return test_game([
            {"id": "se-leader", "name": "Leader", "type": "unit", "costs": [{"typeId": "pts", "value": 10}],
             "modifiers": [{"type": "add", "field": "category", "value": "cat-led", "conditions": [elite]},
                           # its name reads the category the first modifier adds: known only after the pass
                           {"type": "set", "field": "name", "value": "Leader of the Elite", "conditions": [
                               {"type": "instanceOf", "value": 1, "field": "selections", "scope": "self",
                                "childId": "cat-led"}]}]},
            {"id": "se-guard", "name": "Guard", "type": "unit", "costs": [{"typeId": "pts", "value": 5}],
             "categoryLinks": [{"id": "cl-guard", "targetId": "cat-elite", "name": "Elite"}]}],
            categories=[{"id": "cat-elite", "name": "Elite"}, {"id": "cat-led", "name": "Led"}])

    def test_a_document_is_settled_with_the_categories_a_later_selection_gives(self):
        from armylists.rules.battlescribe import Roster, add_force, evaluate, select
        from armylists.rules.battlescribe.evaluate import refresh
        data = self.data()
        roster = Roster(data)
        force = add_force(roster, "fe")
        select(roster, force, "se-leader")
        select(roster, force, "se-guard")
        settled = from_document(data, roster)
        leader = settled.forces[0].selections[0]
        assert leader.state.categories == ("cat-led",)
        assert leader.state.name == "Leader of the Elite"   # the second refresh's, not the first's "Leader"
        again = from_document(data, roster)
        refresh(again)
        assert dump(settled, evaluate(settled)) == dump(again, evaluate(again))

    def test_a_document_whose_categories_stand_is_settled_by_one_refresh(self):
        from armylists.rules.battlescribe import Roster, add_force, evaluate, select
        from armylists.rules.battlescribe.evaluate import refresh
        data = self.data()
        roster = Roster(data)
        select(roster, add_force(roster, "fe"), "se-leader")   # no Guard: nothing to count, nothing changes
        settled = from_document(data, roster)
        assert settled.forces[0].selections[0].state.categories == ()
        assert settled.forces[0].selections[0].state.name == "Leader"
        again = from_document(data, roster)
        refresh(again)
        assert dump(settled, evaluate(settled)) == dump(again, evaluate(again))
