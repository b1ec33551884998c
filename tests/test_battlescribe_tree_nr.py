"""The tree evaluator on the constructs New Recruit's Old World data uses (issue 21): counts in scope
ancestor, `floor`/`ceil` modifiers. Small data of its own, as tests/test_battlescribe_tree.py."""
from __future__ import annotations

import pytest

from armylists.rules.battlescribe import Roster, add_force, evaluate, select, set_count
from tests.test_battlescribe_tree import errors, game


class TestRounding:
    @pytest.mark.parametrize("kind, expected", [
        ("floor", [("selection", "se-a", "con-a", "A has 1 too many selections of A (maximum 2)")]),
        ("ceil", [])])
    def test_it_rounds_a_constraints_value(self, kind, expected):
        data = game([{"id": "se-a", "name": "A", "type": "unit", "constraints": [
            {"id": "con-a", "type": "max", "value": 1, "field": "selections", "scope": "force", "shared": True}],
            "modifiers": [{"type": "set", "field": "con-a", "value": 2.5},
                          {"type": kind, "field": "con-a", "value": 1}]}])
        roster = Roster(data)
        unit = select(roster, add_force(roster, "fe"), "se-a")
        set_count(roster, unit, 3)
        result = evaluate(roster)
        assert result.unsupported == []
        assert errors(result) == expected


class TestAncestorCounts:
    def test_it_holds_a_count_where_an_element_above_holds_it(self):
        data = game([{"id": "se-unit", "name": "Unit", "type": "unit", "selectionEntries": [
            {"id": "se-flag", "name": "Flag", "type": "upgrade"},
            {"id": "se-gear", "name": "Gear", "type": "upgrade", "selectionEntries": [
                {"id": "se-item", "name": "Item", "type": "upgrade", "hidden": True, "modifiers": [
                    {"type": "set", "field": "hidden", "value": False, "conditions": [
                        {"type": "atLeast", "value": 1, "field": "selections", "scope": "ancestor",
                         "childId": "se-flag", "shared": True}]}]}]}]}])
        roster = Roster(data)
        unit = select(roster, add_force(roster, "fe"), "se-unit")
        select(roster, select(roster, unit, "se-gear"), "se-item")
        result = evaluate(roster)
        assert result.unsupported == []
        assert errors(result) == [("selection", "se-item", "hidden", "Gear cannot have any selections of Item (hidden)")]
        select(roster, unit, "se-flag")
        assert errors(evaluate(roster)) == []
