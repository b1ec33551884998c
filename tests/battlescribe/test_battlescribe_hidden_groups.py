"""A group inside a hidden group is hidden with it, and so are its limits (issue 36 item 2).

BSData's Mordheim keeps a henchman group's Skills (a group of skill groups, "at least 2" on the inner one)
behind a group link that is hidden until the henchman is "Promoted" (Reiklanders.cat, the Warriors'
entry link `f740-69b8-4343-a1da`): while hidden, BattleScribe asks nothing of it (hidden-validation-
analysis.md of the behaviour suite: a hidden entry's constraints are not checked), so a founding warband
with henchmen can be legal; promoted, the inner group's minimum applies.
"""
from __future__ import annotations

from armylists.rules.battlescribe import GameData, Roster, add_force, evaluate, select
from tests.battlescribe.spec.setup_xml import plain_setup
from tests.battlescribe.test_battlescribe_tree import errors

SKILLS = {"id": "seg-skills", "name": "Skills", "selectionEntryGroups": [
    {"id": "seg-lists", "name": "Skill lists",
     "constraints": [{"id": "c-two", "type": "min", "value": 2, "field": "selections", "scope": "parent"}],
     "selectionEntries": [{"id": "se-combat", "name": "Combat Skills"}, {"id": "se-speed", "name": "Speed Skills"}]}]}


def henchmen(link_hidden: bool = True):
    """Henchmen with a Promoted upgrade and the Skills group linked, hidden until Promoted is taken."""
    return GameData(plain_setup({
        "gameSystem": {"id": "gs", "name": "Test", "costTypes": [{"id": "pts", "name": "pts"}],
                       "forceEntries": [{"id": "fe", "name": "Warband"}]},
        "catalogues": [{"id": "cat", "name": "Book", "sharedSelectionEntryGroups": [SKILLS], "selectionEntries": [
                 {"id": "se-henchmen", "name": "Henchmen", "type": "unit",
                  "selectionEntries": [{"id": "se-promoted", "name": "Promoted"}],
                  "entryLinks": [{"id": "el-skills", "name": "Skills", "type": "selectionEntryGroup",
                                  "targetId": "seg-skills", "hidden": link_hidden, "modifiers": [
                                      {"type": "set", "field": "hidden", "value": False, "conditions": [
                                          {"type": "equalTo", "value": 1, "field": "selections",
                                           "scope": "parent", "childId": "se-promoted"}]}]}]}]}],
    }))


def test_a_group_inside_a_hidden_group_link_asks_for_nothing():
    roster = Roster(henchmen())
    select(roster, add_force(roster, "fe"), "se-henchmen")
    assert errors(evaluate(roster)) == []


def test_once_shown_its_minimum_applies():
    roster = Roster(henchmen())
    unit = select(roster, add_force(roster, "fe"), "se-henchmen")
    select(roster, unit, "se-promoted")
    assert errors(evaluate(roster)) == [
        ("selection", "seg-lists", "c-two", "Henchmen must have 2 more selections of Skill lists (minimum 2)")]


def test_a_link_never_hidden_asks_for_it_at_once():
    roster = Roster(henchmen(link_hidden=False))
    select(roster, add_force(roster, "fe"), "se-henchmen")
    assert errors(evaluate(roster)) == [
        ("selection", "seg-lists", "c-two", "Henchmen must have 2 more selections of Skill lists (minimum 2)")]
