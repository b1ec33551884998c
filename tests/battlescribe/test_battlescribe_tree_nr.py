"""The tree evaluator on the constructs New Recruit's Old World data uses (issue 21): counts in scope
ancestor, `floor`/`ceil` modifiers. Small data of its own, as tests/battlescribe/test_battlescribe_tree.py."""
from __future__ import annotations

import pytest

from armylists.importers.battlescribe.roster_tree import judged, read_tree, write_tree
from armylists.importers.battlescribe.rosters import parse_roster_file
from armylists.importers.battlescribe.sources import BattleScribeInputError
from armylists.rules.battlescribe import Roster, add_force, evaluate, select, set_cost_limit, set_count
from tests.battlescribe.test_battlescribe_tree import errors, game, pts


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


ROS = """<?xml version="1.0" encoding="UTF-8"?>
<roster id="r1" name="Test" gameSystemId="gs" gameSystemName="Test" gameSystemRevision="1"
        xmlns="http://www.battlescribe.net/schema/rosterSchema">
  <costLimits><costLimit name="pts" typeId="pts" value="{limit}"/></costLimits>
  <forces><force id="f1" name="Army" entryId="fe" catalogueId="cat" catalogueRevision="1" catalogueName="Book">
    <selections>
      <selection id="s1" name="Lord" entryId="se-lord" number="{lords}" type="unit">
        <selections><selection id="s2" name="Sword" entryId="se-sword" number="{lords}" type="upgrade"/></selections>
      </selection>
    </selections>
  </force></forces>
</roster>"""


class TestSavedRosters:
    def data(self):
        return game([{"id": "se-lord", "name": "Lord", "type": "unit", "costs": pts(100), "constraints": [
            {"id": "con-lord", "type": "max", "value": 1, "field": "selections", "scope": "roster", "shared": True}],
            "selectionEntries": [{"id": "se-sword", "name": "Sword", "type": "upgrade", "costs": pts(5)}]}])

    @pytest.mark.parametrize("limit, lords, codes, messages", [
        (200, 1, [], []),
        (300, 2, ["bs.constraint.max"], ["Lord: 2 taken in the army; at most 1."]),
        (100, 1, ["bs.cost_limit"], ["Total 105 pts is 5 pts over the 100 pts limit."]),
    ])
    def test_it_reads_a_ros_one_to_one_and_names_each_fault(self, limit, lords, codes, messages):
        root = parse_roster_file(ROS.format(limit=limit, lords=lords).encode(), "t.ros")
        roster = read_tree(root, self.data(), "t.ros")
        result, issues = judged(roster)
        assert result.costs == {"pts": 105 * lords}
        assert [i.code for i in issues] == codes
        assert [i.message for i in issues] == messages
        assert result.legal is (not codes)

    def test_it_refuses_an_entry_the_data_does_not_know(self):
        root = parse_roster_file(ROS.format(limit=200, lords=1).replace("se-sword", "se-axe").encode(), "t.ros")
        with pytest.raises(BattleScribeInputError) as exc:
            read_tree(root, self.data(), "t.ros")
        assert str(exc.value) == ("t.ros: <selection name='Sword' entryId='se-axe'>: is not a choice of Lord in Book (r1); "
                                  "import the catalogue revision the roster was made with")

    def test_it_writes_a_tree_that_reads_back_the_same(self):
        data = self.data()
        roster = Roster(data)
        lord = select(roster, add_force(roster, "fe"), "se-lord")
        select(roster, lord, "se-sword")
        set_count(roster, lord, 2)
        set_cost_limit(roster, "pts", 300)
        again = read_tree(parse_roster_file(write_tree(roster, "Test"), "t.ros"), data, "t.ros")
        assert [(s.entry_id, s.number, [(c.entry_id, c.number) for c in s.children])
                for s in again.forces[0].selections] == [("se-lord", 2, [("se-sword", 2)])]
        assert again.cost_limits == {"pts": 300}
        assert [i.code for i in judged(again)[1]] == ["bs.constraint.max"]
