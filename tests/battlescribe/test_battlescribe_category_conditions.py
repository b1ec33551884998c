"""instanceOf a category (of the selection itself, of what it is in): a selection's categories are known
before any condition is asked of it, so a name set under such a condition is right at the first
evaluation (evaluate.py: the categories' pass before the main one).

Shaped like the suite's condition-instance-of-* scenarios, with a category's id as `childId`
(docs/nr-behavioral-differences.md, "instanceOf Scope Limitations": a CategoryEntry id works in scope
self, parent and ancestor).
"""
from __future__ import annotations

from armylists.rules.battlescribe import GameData, Roster, add_force, evaluate, select
from tests.battlescribe.spec.setup_xml import plain_setup
from tests.battlescribe.test_battlescribe_tree import game

HERO = [{"id": "cat-hero", "name": "Hero"}, {"id": "cat-mount", "name": "Mount"}]
FORCE_LINKS = [{"id": "cl-fe-hero", "targetId": "cat-hero", "name": "Hero"}]


def named_if(scope: str, value: str, category: str = "cat-hero", kind: str = "instanceOf") -> list[dict]:
    return [{"type": "set", "field": "name", "value": value, "conditions": [
        {"type": kind, "value": 1, "field": "selections", "scope": scope, "childId": category}]}]


def hero(modifiers=(), children=(), **extra) -> dict:
    return {"id": "se-hero", "name": "Hero", "type": "unit", "modifiers": list(modifiers),
            "categoryLinks": [{"id": "cl-hero", "targetId": "cat-hero", "name": "Hero", "primary": True}],
            "selectionEntries": list(children), **extra}


def names(selection) -> list[str]:
    return [s.state.name for s in selection.walk()]


class TestInstanceOfACategory:
    def test_a_name_under_its_own_category_is_set_when_it_is_selected(self):
        roster = Roster(game([hero(named_if("self", "Named Hero"))], categories=HERO, force_links=FORCE_LINKS))
        unit = select(roster, add_force(roster, "fe"), "se-hero")
        result = evaluate(roster)
        assert names(unit) == ["Named Hero"]
        assert result.errors == [] and result.unsupported == []

    def test_a_name_under_the_category_of_what_it_is_in_is_set_when_it_is_selected(self):
        data = game([hero(children=[
            {"id": "se-sword", "name": "Sword", "modifiers": named_if("parent", "Hero's Sword")},
            {"id": "se-gem", "name": "Gem", "modifiers": named_if("ancestor", "Hero's Gem")}])],
            categories=HERO, force_links=FORCE_LINKS)
        roster = Roster(data)
        unit = select(roster, add_force(roster, "fe"), "se-hero")
        select(roster, unit, "se-sword")
        assert names(unit) == ["Hero", "Hero's Sword"]
        select(roster, unit, "se-gem")
        assert names(unit) == ["Hero", "Hero's Sword", "Hero's Gem"]

    def test_not_instance_of_a_category_it_has_leaves_the_name(self):
        roster = Roster(game([hero(named_if("self", "Not a Hero", kind="notInstanceOf"))],
                             categories=HERO, force_links=FORCE_LINKS))
        unit = select(roster, add_force(roster, "fe"), "se-hero")
        evaluate(roster)
        assert names(unit) == ["Hero"]

    def test_a_category_a_modifier_adds_is_seen_by_a_condition_on_what_it_holds(self):
        data = game([hero(modifiers=[{"type": "add", "field": "category", "value": "cat-mount"}],
                          children=[{"id": "se-saddle", "name": "Saddle",
                                     "modifiers": named_if("parent", "Mounted Saddle", "cat-mount")}])],
                    categories=HERO, force_links=FORCE_LINKS)
        roster = Roster(data)
        unit = select(roster, add_force(roster, "fe"), "se-hero")
        select(roster, unit, "se-saddle")
        assert unit.state.categories == ("cat-hero", "cat-mount")
        assert names(unit) == ["Hero", "Mounted Saddle"]

    def test_a_category_of_a_link_counts_for_its_target(self):
        data = GameData(plain_setup({
            "gameSystem": {"id": "gs", "categoryEntries": HERO,
                           "forceEntries": [{"id": "fe", "name": "Army", "categoryLinks": FORCE_LINKS}]},
            "catalogues": [{"id": "cat", "entryLinks": [
                {"id": "el-hero", "type": "selectionEntry", "targetId": "sse-hero", "name": "Hero",
                 "categoryLinks": [{"id": "cl-el", "targetId": "cat-hero", "name": "Hero", "primary": True}]}],
                "sharedSelectionEntries": [{"id": "sse-hero", "name": "Hero", "type": "unit",
                                            "modifiers": named_if("self", "Linked Hero")}]}]}))
        roster = Roster(data)
        unit = select(roster, add_force(roster, "fe"), "el-hero")
        assert names(unit) == ["Linked Hero"]

    def test_a_category_of_the_group_it_is_in_counts_for_it(self):
        data = game([{"id": "se-unit", "name": "Unit", "type": "unit", "selectionEntryGroups": [
            {"id": "seg-heroic", "name": "Heroic Options",
             "categoryLinks": [{"id": "cl-seg", "targetId": "cat-hero", "name": "Hero"}],
             "selectionEntries": [{"id": "se-banner", "name": "Banner", "modifiers": named_if("self", "Hero Banner")}]}]}],
            categories=HERO, force_links=FORCE_LINKS)
        roster = Roster(data)
        unit = select(roster, add_force(roster, "fe"), "se-unit")
        select(roster, unit, "se-banner")
        assert names(unit) == ["Unit", "Hero Banner"]

    def test_an_entry_the_force_selects_by_itself_is_named_at_once(self):
        roster = Roster(game([hero(named_if("self", "Named Hero"), constraints=[
            {"id": "con-one", "type": "min", "value": 1, "field": "selections", "scope": "force"}])],
            categories=HERO, force_links=FORCE_LINKS))
        force = add_force(roster, "fe")
        assert [names(s) for s in force.selections] == [["Named Hero"]]

    def test_a_category_modifier_counting_a_cost_is_not_understood(self):
        """Categories come before costs (a cost's count reads categories): such a modifier would read a
        cost not computed yet, so the list is not called legal on a guess."""
        roster = Roster(game([hero(modifiers=[{"type": "add", "field": "category", "value": "cat-mount",
                                               "conditions": [{"type": "atLeast", "value": 10, "field": "pts",
                                                               "scope": "force", "childId": "any"}]}])],
                             categories=HERO, force_links=FORCE_LINKS))
        select(roster, add_force(roster, "fe"), "se-hero")
        result = evaluate(roster)
        assert result.unsupported == ["a category modifier counting a cost in a modifier of Book > Hero"]
        assert result.legal is None

    def test_the_import_report_names_it_unchecked_too(self):
        from armylists.rules.battlescribe.effective import modifier_problem
        modifier = {"type": "add", "field": "category", "value": "cat-mount", "when": {"type": "and", "conditions": [
            {"type": "atLeast", "value": 10, "field": "pts", "scope": "force", "child": "any"}]}}
        assert modifier_problem(modifier, {"pts"}, set()) == "a category modifier counting a cost"
        assert modifier_problem({**modifier, "when": {}}, {"pts"}, set()) is None
