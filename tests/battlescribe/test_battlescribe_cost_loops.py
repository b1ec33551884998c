"""Costs whose modifiers read other selections' costs (cost_order.py): computed after what they read,
and a loop (a cost modifier reading, directly or through others, the cost it changes) an error, not
applied, whatever the order the entries were added in.

Small data in the battlescribe-spec YAML form, shaped like the suite's modifier-repeat-cost-* scenarios
(docs/cost-field-repeat-algorithm.md): "+10 pts per 50 pts of <entry> in the force".
"""
from __future__ import annotations

from armylists.rules.battlescribe import Roster, add_force, deselect, evaluate, select, set_count
from tests.battlescribe.test_battlescribe_tree import errors, game, pts


def per_pts_of(child: str, step: int = 50, scope: str = "force", **extra) -> list[dict]:
    return [{"type": "increment", "field": "pts", "value": 10, "repeats": [
        {"value": step, "repeats": 1, "field": "pts", "scope": scope, "childId": child, **extra}]}]


def unit(entry_id: str, name: str, base: float, modifiers=(), **extra) -> dict:
    return {"id": entry_id, "name": name, "type": "unit", "costs": pts(base), "modifiers": list(modifiers), **extra}


def costs(force) -> list[float]:
    return [s.state.costs.get("pts", 0.0) for s in force.selections]


class TestMutualReference:
    """A counts B's points and B counts A's: BattleScribe's single pass escalates with every action,
    New Recruit's fixed point without end; the loop is reported and neither modifier applied."""

    data = game([unit("se-a", "Alpha", 100, per_pts_of("se-b")), unit("se-b", "Beta", 100, per_pts_of("se-a"))])

    def test_it_applies_a_modifier_that_reads_nothing_looping(self):
        roster = Roster(self.data)
        force = add_force(roster, "fe")
        select(roster, force, "se-a")
        result = evaluate(roster)
        assert result.costs == {"pts": 100.0}
        assert result.errors == [] and result.legal is True

    def test_it_reports_the_loop_once_and_keeps_both_base_costs(self):
        roster = Roster(self.data)
        force = add_force(roster, "fe")
        select(roster, force, "se-a")
        select(roster, force, "se-b")
        result = evaluate(roster)
        assert result.costs == {"pts": 200.0}
        assert costs(force) == [100.0, 100.0]
        assert errors(result) == [("selection", "se-a", "cycle",
                                   "Alpha and Beta: their pts modifiers count each other's pts; not applied")]
        assert result.legal is False

    def test_it_does_not_grow_with_more_actions_or_evaluations(self):
        roster = Roster(self.data)
        force = add_force(roster, "fe")
        for entry in ("se-a", "se-b", "se-a"):
            select(roster, force, entry)
        for _ in range(3):
            result = evaluate(roster)
        assert result.costs == {"pts": 300.0}
        assert costs(force) == [100.0, 100.0, 100.0]
        assert [e.constraint_id for e in result.errors] == ["cycle"]

    def test_it_does_not_depend_on_the_order_the_entries_were_added_in(self):
        roster = Roster(self.data)
        force = add_force(roster, "fe")
        select(roster, force, "se-b")
        select(roster, force, "se-a")
        result = evaluate(roster)
        assert result.costs == {"pts": 200.0}
        assert errors(result) == [("selection", "se-b", "cycle",
                                   "Beta and Alpha: their pts modifiers count each other's pts; not applied")]

    def test_the_loop_ends_when_one_side_is_removed(self):
        roster = Roster(self.data)
        force = add_force(roster, "fe")
        select(roster, force, "se-a")
        beta = select(roster, force, "se-b")
        deselect(roster, beta)
        result = evaluate(roster)
        assert result.costs == {"pts": 100.0} and result.errors == []


class TestLoopsThroughOthers:
    def test_a_loop_of_three_is_one_error_and_a_reader_outside_it_reads_its_costs(self):
        data = game([unit("se-a", "Alpha", 100, per_pts_of("se-b")),
                     unit("se-b", "Beta", 100, per_pts_of("se-c")),
                     unit("se-c", "Gamma", 100, per_pts_of("se-a")),
                     unit("se-d", "Delta", 10, per_pts_of("se-a"))])   # reads into the loop, not part of it
        roster = Roster(data)
        force = add_force(roster, "fe")
        for entry in ("se-d", "se-a", "se-b", "se-c"):
            select(roster, force, entry)
        result = evaluate(roster)
        assert costs(force) == [30.0, 100.0, 100.0, 100.0]   # Delta: 10 + 10 x floor(100 / 50)
        assert result.costs == {"pts": 330.0}
        assert errors(result) == [("selection", "se-a", "cycle",
                                   "Alpha, Beta and Gamma: their pts modifiers count each other's pts; not applied")]

    def test_a_modifier_of_a_looping_entry_that_reads_outside_the_loop_still_applies(self):
        data = game([unit("se-a", "Alpha", 100, per_pts_of("se-b") + per_pts_of("se-x", step=20)),
                     unit("se-b", "Beta", 100, per_pts_of("se-a")),
                     unit("se-x", "Extra", 40)])
        roster = Roster(data)
        force = add_force(roster, "fe")
        for entry in ("se-a", "se-b", "se-x"):
            select(roster, force, entry)
        result = evaluate(roster)
        assert costs(force) == [120.0, 100.0, 40.0]           # Alpha: 100 + 10 x floor(40 / 20)
        assert [e.constraint_id for e in result.errors] == ["cycle"]


class TestSelfReference:
    """The suite's modifier-repeat-cost-self-reference, its main expectation: one error, base costs."""

    data = game([unit("se-unit", "Unit", 100, per_pts_of("se-unit"))])

    def test_one_two_and_three_instances_keep_their_base_cost_with_one_error(self):
        roster = Roster(self.data)
        force = add_force(roster, "fe")
        for number in (1, 2, 3):
            select(roster, force, "se-unit")
            result = evaluate(roster)
            assert result.costs == {"pts": 100.0 * number}
            assert errors(result) == [("selection", "se-unit", "cycle",
                                       "Unit: its pts modifier counts its own pts; not applied")]

    def test_a_cost_read_in_scope_self_of_what_a_selection_holds_is_no_loop(self):
        data = game([unit("se-squad", "Squad", 50, per_pts_of("se-model", step=100, scope="self"),
                          selectionEntries=[{"id": "se-model", "name": "Model", "type": "model",
                                             "costs": pts(100)}])])
        roster = Roster(data)
        squad = select(roster, add_force(roster, "fe"), "se-squad")
        set_count(roster, select(roster, squad, "se-model"), 3)
        result = evaluate(roster)
        assert squad.state.costs == {"pts": 80.0} and result.costs == {"pts": 380.0}
        assert result.errors == []


class TestReadingOrder:
    def test_a_cost_read_from_an_entry_added_later_is_its_cost_now(self):
        """BattleScribe's pass reads a selection added after the reader as it was before (0 for a new
        one) until the next action; computed after what it reads, the reader is right at once."""
        data = game([unit("se-reader", "Reader", 50, per_pts_of("se-model", step=100, includeChildSelections=True)),
                     {"id": "se-squad", "name": "Squad", "type": "unit", "selectionEntries": [
                         {"id": "se-model", "name": "Model", "type": "model", "costs": pts(200)}]}])
        roster = Roster(data)
        force = add_force(roster, "fe")
        reader = select(roster, force, "se-reader")
        squad = select(roster, force, "se-squad")
        select(roster, squad, "se-model")
        result = evaluate(roster)
        assert reader.state.costs == {"pts": 70.0}
        assert result.costs == {"pts": 270.0} and result.errors == []

    def test_a_chain_of_readers_is_computed_from_its_end(self):
        data = game([unit("se-c", "Third", 10, per_pts_of("se-b", step=10)),
                     unit("se-b", "Second", 10, per_pts_of("se-a", step=10)),
                     unit("se-a", "First", 20)])
        roster = Roster(data)
        force = add_force(roster, "fe")
        for entry in ("se-c", "se-b", "se-a"):
            select(roster, force, entry)
        result = evaluate(roster)
        # Second: 10 + 10 x floor(20 / 10) = 30; Third: 10 + 10 x floor(30 / 10) = 40
        assert costs(force) == [40.0, 30.0, 20.0]
        assert result.costs == {"pts": 90.0}

    def test_a_name_that_reads_a_cost_reads_the_final_one(self):
        data = game([{"id": "se-boss", "name": "Boss", "type": "unit", "costs": pts(10), "modifiers": [
                          {"type": "set", "field": "name", "value": "Rich Boss", "conditions": [
                              {"type": "atLeast", "value": 70, "field": "pts", "scope": "force",
                               "childId": "se-reader"}]}]},
                     unit("se-reader", "Reader", 50, per_pts_of("se-gold", step=10)),
                     unit("se-gold", "Gold", 20)])
        roster = Roster(data)
        force = add_force(roster, "fe")
        boss = select(roster, force, "se-boss")
        select(roster, force, "se-reader")
        select(roster, force, "se-gold")
        evaluate(roster)
        assert boss.state.name == "Rich Boss"
