"""Increment and decrement where a number is not a number: BattleScribe does the arithmetic on a name
that reads as a number (the suite's modifier-increment-name, modifier-decrement-name) and leaves a
value it cannot read as a number as it was, the modifier ignored, not refused (issue "BattleScribe
semantics, round 2", part 4). A `set` of a number field to a word stays not understood.
"""
from __future__ import annotations

import pytest

from armylists.rules.battlescribe import Roster, add_force, evaluate, select
from tests.battlescribe.test_battlescribe_tree import game, pts


def one(entry: dict):
    roster = Roster(game([entry]))
    selection = select(roster, add_force(roster, "fe"), entry["id"])
    return selection, evaluate(roster)


def modified(name: str, *modifiers: dict, **extra) -> dict:
    return {"id": "se-unit", "name": name, "type": "unit", "modifiers": list(modifiers), **extra}


class TestNames:
    @pytest.mark.parametrize("kind", ["decrement", "increment"])
    def test_a_name_that_is_no_number_is_left_as_it_is(self, kind):
        selection, result = one(modified("Unit", {"type": kind, "field": "name", "value": "3"}))
        assert selection.state.name == "Unit"
        assert result.unsupported == [] and result.legal is True

    def test_a_value_that_is_no_number_leaves_a_numeric_name(self):
        selection, result = one(modified("10", {"type": "decrement", "field": "name", "value": "many"}))
        assert selection.state.name == "10"
        assert result.unsupported == [] and result.legal is True

    def test_the_others_still_apply_around_an_ignored_one(self):
        selection, _result = one(modified("Unit", {"type": "decrement", "field": "name", "value": "1"},
                                          {"type": "append", "field": "name", "value": "(Veteran)"}))
        assert selection.state.name == "Unit (Veteran)"

    def test_a_name_a_set_made_a_number_is_counted_down(self):
        selection, _result = one(modified("Unit", {"type": "set", "field": "name", "value": "10"},
                                          {"type": "decrement", "field": "name", "value": "3", "repeats": [
                                              {"value": 1, "repeats": 1, "field": "selections", "scope": "force",
                                               "childId": "se-unit"}]}))
        assert selection.state.name == "7"


class TestNumbers:
    @pytest.mark.parametrize("kind", ["decrement", "increment"])
    def test_a_cost_changed_by_a_word_keeps_its_value(self, kind):
        selection, result = one(modified("Unit", {"type": kind, "field": "pts", "value": "lots"}, costs=pts(25)))
        assert selection.state.costs == {"pts": 25.0} and result.costs == {"pts": 25.0}
        assert result.unsupported == []

    def test_a_constraint_decremented_by_a_word_keeps_its_value(self):
        data = game([{"id": "se-unit", "name": "Unit", "type": "unit", "constraints": [
            {"id": "con-max", "type": "max", "value": 1, "field": "selections", "scope": "force"}],
            "modifiers": [{"type": "decrement", "field": "con-max", "value": "a few"}]}])
        roster = Roster(data)
        force = add_force(roster, "fe")
        select(roster, force, "se-unit")
        assert evaluate(roster).errors == []
        select(roster, force, "se-unit")
        result = evaluate(roster)
        assert [(e.constraint_id, e.message) for e in result.errors] == [
            ("con-max", "Unit has 1 too many selections of Unit (maximum 1)")]
        assert result.unsupported == []

    def test_a_cost_set_to_a_word_is_not_understood(self):
        _selection, result = one(modified("Unit", {"type": "set", "field": "pts", "value": "free"}, costs=pts(25)))
        assert result.unsupported == ["modifier value 'free' is not a number in a modifier of Book > Unit"]
        assert result.legal is None
