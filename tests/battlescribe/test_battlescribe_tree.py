"""The BattleScribe tree evaluator (armylists/rules/battlescribe/) on small data of its own.

The data is written in the battlescribe-spec YAML form as Python dicts and goes the whole way: built
as .gst/.cat XML, read by the importer's plain reader, evaluated. Nothing here reads ../shared.
"""
from __future__ import annotations

import pytest

from armylists.rules.battlescribe import (GameData, Roster, add_force, deselect, evaluate, place, select,
                                          set_cost_limit, set_count)
from tests.battlescribe.spec.setup_xml import plain_setup

PTS = {"id": "pts", "name": "pts"}


def pts(value):
    return [{"name": "pts", "typeId": "pts", "value": value}]


def game(entries, shared=(), categories=(), force_links=(), cost_types=(PTS,)):
    return GameData(plain_setup({
        "gameSystem": {"id": "gs", "name": "Test", "costTypes": list(cost_types),
                       "categoryEntries": list(categories),
                       "forceEntries": [{"id": "fe", "name": "Army", "categoryLinks": list(force_links)}]},
        "catalogues": [{"id": "cat", "name": "Book", "selectionEntries": list(entries),
                        "sharedSelectionEntries": list(shared)}],
    }))


def errors(result):
    return sorted((e.owner_type, e.source_id, e.constraint_id, e.message) for e in result.errors)


class TestCosts:
    def test_it_multiplies_costs_by_number_and_keeps_fractions_and_negatives(self):
        data = game([{"id": "se-squad", "name": "Squad", "type": "unit", "costs": pts(10),
                      "selectionEntries": [
                          {"id": "se-trooper", "name": "Trooper", "type": "model", "costs": pts(2.5)},
                          {"id": "se-discount", "name": "Discount", "type": "upgrade", "costs": pts(-4)}]}])
        roster = Roster(data)
        force = add_force(roster, "fe")
        squad = select(roster, force, "se-squad")
        set_count(roster, select(roster, squad, "se-trooper"), 3)
        select(roster, squad, "se-discount")
        result = evaluate(roster)
        assert result.costs == {"pts": 10 + 7.5 - 4}
        assert [(s.state.name, s.number, s.state.costs) for s in squad.children] == [
            ("Trooper", 3, {"pts": 7.5}), ("Discount", 1, {"pts": -4.0})]
        assert result.legal is True

    def test_it_applies_a_cost_modifier_per_repeat_rounded_up(self):
        data = game([{"id": "se-boss", "name": "Boss", "type": "unit", "costs": pts(50),
                      "modifiers": [{"type": "increment", "field": "pts", "value": 5, "repeats": [
                          {"value": 2, "repeats": 1, "field": "selections", "scope": "force",
                           "childId": "se-grunt", "roundUp": True}]}]},
                     {"id": "se-grunt", "name": "Grunt", "type": "model", "costs": pts(1)}])
        roster = Roster(data)
        force = add_force(roster, "fe")
        boss = select(roster, force, "se-boss")
        for _ in range(3):
            select(roster, force, "se-grunt")
        assert boss.state.costs == {"pts": 60.0}          # 3 grunts per 2, rounded up: twice +5
        assert evaluate(roster).costs == {"pts": 63.0}

    def test_it_reports_a_cost_limit_exceeded(self):
        roster = Roster(game([{"id": "se-a", "name": "A", "type": "unit", "costs": pts(30)}]))
        force = add_force(roster, "fe")
        set_cost_limit(roster, "pts", 50)
        select(roster, force, "se-a")
        assert evaluate(roster).errors == []
        select(roster, force, "se-a")
        assert errors(evaluate(roster)) == [("roster", "costLimits", "pts", "Roster has 10 too many pts (limit 50)")]


class TestConstraints:
    def test_it_words_a_maximum_and_a_minimum(self):
        data = game([{"id": "se-hq", "name": "Captain", "type": "unit",
                      "categoryLinks": [{"id": "cl-1", "targetId": "cat-hq", "primary": True}],
                      "constraints": [{"id": "con-min", "type": "min", "value": 1, "scope": "force"},
                                      {"id": "con-max", "type": "max", "value": 2, "scope": "roster"}]}],
                    categories=[{"id": "cat-hq", "name": "HQ"}],
                    force_links=[{"id": "cl-fe", "targetId": "cat-hq", "name": "HQ"}])
        roster = Roster(data)
        force = add_force(roster, "fe")
        assert [s.state.name for s in force.selections] == ["Captain"]    # the minimum selected it
        deselect(roster, force.selections[0])
        assert errors(evaluate(roster)) == [
            ("force", "se-hq", "con-min", "Army must have 1 more selections of Captain (minimum 1)")]
        for _ in range(3):
            select(roster, force, "se-hq")
        result = evaluate(roster)
        assert errors(result) == [
            ("selection", "se-hq", "con-max", "Captain has 1 too many selections of Captain (maximum 2)")]
        assert result.legal is False

    def test_it_counts_a_percentage_of_the_roster(self):
        data = game([{"id": "se-lord", "name": "Lord", "type": "unit", "costs": pts(300),
                      "constraints": [{"id": "con-25", "type": "max", "value": 25, "field": "pts",
                                       "scope": "roster", "percentValue": True, "shared": True}]},
                     {"id": "se-troop", "name": "Troop", "type": "unit", "costs": pts(100)}])
        roster = Roster(data)
        force = add_force(roster, "fe")
        select(roster, force, "se-lord")
        for _ in range(9):
            select(roster, force, "se-troop")
        assert evaluate(roster).errors == []                  # 300 of 1200: exactly 25%
        deselect(roster, force.selections[-1])
        assert errors(evaluate(roster)) == [
            ("selection", "se-lord", "con-25",
             "Lord has 2.27% too many pts of Lord (maximum 25%)")]

    def test_it_reports_a_hidden_entry_still_selected(self):
        data = game([{"id": "se-secret", "name": "Secret", "type": "unit", "hidden": True}])
        roster = Roster(data)
        force = add_force(roster, "fe")
        select(roster, force, "se-secret")
        assert errors(evaluate(roster)) == [
            ("selection", "se-secret", "hidden", "Army cannot have any selections of Secret (hidden)")]


class TestTree:
    def test_it_builds_ids_through_links_and_selects_a_groups_default(self):
        data = GameData(plain_setup({
            "gameSystem": {"id": "gs", "costTypes": [PTS], "forceEntries": [{"id": "fe", "name": "Army"}]},
            "catalogues": [{"id": "cat", "selectionEntries": [
                {"id": "se-unit", "name": "Unit", "type": "unit", "entryLinks": [
                    {"id": "el-arms", "name": "Arms", "targetId": "sseg-arms", "type": "selectionEntryGroup"}]}],
                "sharedSelectionEntryGroups": [{
                    "id": "sseg-arms", "name": "Arms", "defaultSelectionEntryId": "se-sword",
                    "constraints": [{"id": "con-one", "type": "min", "value": 1}],
                    "selectionEntries": [{"id": "se-sword", "name": "Sword", "costs": pts(3)},
                                         {"id": "se-axe", "name": "Axe", "costs": pts(4)}]}]}],
        }))
        roster = Roster(data)
        unit = select(roster, add_force(roster, "fe"), "se-unit")
        assert [(c.entry_id, c.option.group_id, c.number) for c in unit.children] == [
            ("el-arms::se-sword", "el-arms::sseg-arms", 1)]
        assert evaluate(roster).costs == {"pts": 3.0}

    def test_it_names_what_it_does_not_understand_and_calls_nothing_legal(self):
        data = game([{"id": "se-a", "name": "A", "type": "unit", "costs": pts(10), "modifiers": [
            {"type": "multiply", "field": "pts", "value": 2}]}])
        roster = Roster(data)
        select(roster, add_force(roster, "fe"), "se-a")
        result = evaluate(roster)
        assert result.unsupported == ["modifier type 'multiply' on a number in a modifier of Book > A"]
        assert result.legal is None

    @pytest.mark.parametrize("kind, value, expected", [("set", "Hero", "Hero"), ("append", "(General)", "Lord (General)")])
    def test_it_applies_a_name_modifier_under_a_condition(self, kind, value, expected):
        data = game([{"id": "se-lord", "name": "Lord", "type": "unit", "modifiers": [
            {"type": kind, "field": "name", "value": value,
             "conditions": [{"type": "atLeast", "value": 1, "scope": "force", "childId": "se-banner"}]}]},
            {"id": "se-banner", "name": "Banner", "type": "upgrade"}])
        roster = Roster(data)
        force = add_force(roster, "fe")
        lord = select(roster, force, "se-lord")
        assert lord.state.name == "Lord"
        select(roster, force, "se-banner")
        assert lord.state.name == expected


class TestRealDataConstructs:
    def test_it_measures_limit_fields_against_the_rosters_cost_limit(self):
        data = game([{"id": "se-lord", "name": "Lord", "type": "unit", "costs": pts(600), "constraints": [
            {"id": "con-lords", "type": "max", "value": 25, "field": "limit::pts", "scope": "roster",
             "percentValue": True, "shared": True}]}])
        roster = Roster(data)
        select(roster, add_force(roster, "fe"), "se-lord")
        assert evaluate(roster).unsupported == [
            "a percentage of the pts limit, which the roster does not set (con-lords)"]
        set_cost_limit(roster, "pts", 2000)
        assert errors(evaluate(roster)) == [
            ("selection", "se-lord", "con-lords", "Lord has 5% too many pts of Lord (maximum 25%)")]
        set_cost_limit(roster, "pts", 2400)
        assert evaluate(roster).errors == []

    def test_it_hides_the_entries_of_a_hidden_group(self):
        data = game([{"id": "se-unit", "name": "Unit", "type": "unit", "selectionEntryGroups": [
            {"id": "seg-magic", "name": "Magic", "modifiers": [
                {"type": "set", "field": "hidden", "value": True,
                 "conditions": [{"type": "lessThan", "value": 1, "scope": "parent", "childId": "se-wizard"}]}],
             "selectionEntries": [{"id": "se-spell", "name": "Spell"}]},
        ], "selectionEntries": [{"id": "se-wizard", "name": "Wizard"}]}])
        roster = Roster(data)
        unit = select(roster, add_force(roster, "fe"), "se-unit")
        select(roster, unit, "se-spell")
        assert errors(evaluate(roster)) == [
            ("selection", "se-spell", "hidden", "Unit cannot have any selections of Spell (hidden)")]
        select(roster, unit, "se-wizard")
        assert evaluate(roster).errors == []

    def test_it_reports_a_cost_that_counts_itself_and_leaves_it_unmodified(self):
        data = game([{"id": "se-unit", "name": "Unit", "type": "unit", "costs": pts(100), "modifiers": [
            {"type": "increment", "field": "pts", "value": 10, "repeats": [
                {"value": 50, "repeats": 1, "field": "pts", "scope": "force", "childId": "se-unit"}]}]}])
        roster = Roster(data)
        force = add_force(roster, "fe")
        select(roster, force, "se-unit")
        select(roster, force, "se-unit")
        result = evaluate(roster)
        assert result.costs == {"pts": 200.0}
        assert errors(result) == [("selection", "se-unit", "cycle", "Unit: its pts modifier counts its own pts; not applied")]

    def test_it_refuses_entries_that_require_each_other_without_end(self):
        from armylists.rules.battlescribe import RosterError
        data = GameData(plain_setup({
            "gameSystem": {"id": "gs", "costTypes": [PTS], "forceEntries": [{"id": "fe", "name": "Army"}]},
            "catalogues": [{"id": "cat", "selectionEntries": [
                {"id": "se-root", "name": "Root", "type": "unit", "entryLinks": [
                    {"id": "el-loop", "targetId": "sse-loop", "type": "selectionEntry"}]}],
                "sharedSelectionEntries": [{"id": "sse-loop", "name": "Loop", "constraints": [
                    {"id": "con-one", "type": "min", "value": 1}], "entryLinks": [
                    {"id": "el-again", "targetId": "sse-loop", "type": "selectionEntry"}]}]}],
        }))
        roster = Roster(data)
        with pytest.raises(RosterError, match="selections nested deeper than 40: entries that require each other"):
            select(roster, add_force(roster, "fe"), "se-root")

    def test_it_checks_a_roster_as_saved_without_adding_anything(self):
        data = game([{"id": "se-squad", "name": "Squad", "type": "unit", "costs": pts(20), "selectionEntries": [
            {"id": "se-sarge", "name": "Sergeant", "constraints": [{"id": "con-sarge", "type": "min", "value": 1}]},
            {"id": "se-gun", "name": "Gun", "collective": True, "costs": pts(2)}]}])
        roster = Roster(data)
        force = add_force(roster, "fe")
        squad = place(roster, force, "se-squad")
        assert squad.children == []                       # placed: no Sergeant added
        place(roster, squad, "se-gun", 2)
        result = evaluate(roster)
        assert result.costs == {"pts": 24.0}
        assert errors(result) == [
            ("selection", "se-sarge", "con-sarge", "Squad must have 1 more selections of Sergeant (minimum 1)")]
