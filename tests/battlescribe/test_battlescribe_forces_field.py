"""Constraints on the `forces` field (docs/constraint-field-forces.md of the battlescribe-spec suite):
what they count, where their errors attach, and that auto-selection passes them over.

BattleScribe counts forces of the entry holding the constraint, in the element of its scope (the
roster's forces, or a force's own child forces); on a selection entry the count is always 0, so a
minimum is always broken and a maximum never. A broken limit is owned by the element of its scope, as
a minimum of selections is (the roster for scope roster, the force for scope force).
"""
from __future__ import annotations

from armylists.rules.battlescribe import GameData, Roster, add_force, evaluate, select
from tests.battlescribe.spec.setup_xml import plain_setup
from tests.battlescribe.test_battlescribe_tree import game


def owned(result) -> list[tuple]:
    return sorted((e.owner_type, tuple(sorted(e.owner_ids)), e.source_id, e.constraint_id, e.message)
                  for e in result.errors)


def forces_min(scope: str, value: int = 1, entry_type: str = "model") -> dict:
    return {"id": "se-scout", "name": "Scout", "type": entry_type, "constraints": [
        {"id": "con-forces", "type": "min", "value": value, "field": "forces", "scope": scope}]}


def patrols(constraint: dict, child_forces=()) -> GameData:
    return GameData(plain_setup({
        "gameSystem": {"id": "gs", "forceEntries": [
            {"id": "fe-patrol", "name": "Patrol", "constraints": [constraint],
             "forceEntries": list(child_forces)}]},
        "catalogues": [{"id": "cat", "selectionEntries": [{"id": "se-unit", "name": "Unit A", "type": "unit"}]}],
    }))


class TestOnASelectionEntry:
    def test_a_minimum_is_not_auto_selected_and_its_error_is_the_rosters(self):
        roster = Roster(game([forces_min("roster")]))
        force = add_force(roster, "fe")
        result = evaluate(roster)
        assert force.selections == []
        assert owned(result) == [("roster", (), "se-scout", "con-forces",
                                  "Roster must have 1 more forces of Scout (minimum 1)")]

    def test_selecting_it_by_hand_counts_no_force(self):
        roster = Roster(game([forces_min("roster")]))
        force = add_force(roster, "fe")
        select(roster, force, "se-scout")
        result = evaluate(roster)
        assert len(force.selections) == 1
        assert [(e.owner_type, e.constraint_id) for e in result.errors] == [("roster", "con-forces")]

    def test_in_scope_force_the_error_is_the_forces(self):
        roster = Roster(game([forces_min("force", 2, "unit")]))
        add_force(roster, "fe")
        assert owned(evaluate(roster)) == [("force", ("fe",), "se-scout", "con-forces",
                                            "Army must have 2 more forces of Scout (minimum 2)")]

    def test_a_maximum_counts_nothing_and_holds(self):
        data = game([{"id": "se-scout", "name": "Scout", "type": "unit", "constraints": [
            {"id": "con-forces", "type": "max", "value": 0, "field": "forces", "scope": "roster"}]}])
        roster = Roster(data)
        select(roster, add_force(roster, "fe"), "se-scout")
        assert evaluate(roster).errors == []


class TestOnAForceEntry:
    def test_in_scope_roster_each_force_of_the_entry_gives_the_roster_an_error(self):
        roster = Roster(patrols({"id": "con-max", "type": "max", "value": 1, "field": "forces", "scope": "roster"}))
        add_force(roster, "fe-patrol")
        assert evaluate(roster).errors == []
        add_force(roster, "fe-patrol")
        assert owned(evaluate(roster)) == [
            ("roster", (), "fe-patrol", "con-max", "Roster has 1 too many forces of Patrol (maximum 1)")] * 2

    def test_in_scope_force_it_counts_the_forces_child_forces_and_the_error_is_the_forces(self):
        roster = Roster(patrols({"id": "con-min", "type": "min", "value": 1, "field": "forces", "scope": "force"}))
        add_force(roster, "fe-patrol")
        add_force(roster, "fe-patrol")
        assert owned(evaluate(roster)) == [
            ("force", ("fe-patrol",), "fe-patrol", "con-min", "Patrol must have 1 more forces of Patrol (minimum 1)")] * 2

    def test_in_scope_force_neither_the_other_forces_nor_child_forces_of_other_entries_count(self):
        nested = {"id": "con-max", "type": "max", "value": 0, "field": "forces", "scope": "force"}
        roster = Roster(patrols(nested, child_forces=[{"id": "fe-outriders", "name": "Outriders"}]))
        patrol = add_force(roster, "fe-patrol")
        add_force(roster, "fe-patrol")
        add_force(roster, "fe-outriders", parent=patrol)
        assert evaluate(roster).errors == []

    def test_a_child_force_entrys_limit_in_scope_roster_is_the_rosters(self):
        child = {"id": "fe-allies", "name": "Allies", "constraints": [
            {"id": "con-allies", "type": "max", "value": 1, "field": "forces", "scope": "roster",
             "includeChildForces": True}]}
        roster = Roster(patrols({"id": "con-any", "type": "max", "value": -1, "field": "forces", "scope": "roster"},
                                child_forces=[child]))
        patrol = add_force(roster, "fe-patrol")
        add_force(roster, "fe-allies", parent=patrol)
        assert evaluate(roster).errors == []
        add_force(roster, "fe-allies", parent=patrol)
        assert owned(evaluate(roster)) == [
            ("roster", (), "fe-allies", "con-allies", "Roster has 1 too many forces of Allies (maximum 1)")]
