"""Constraints on category entries (rules/battlescribe/categories.py): New Recruit's Old World data keeps its
"0-1 X or Y per 1,000 points" limits on hidden categories that several units link to (or that a modifier
adds to a unit), and its "at least 3 units" on a category of the game system. Each is evaluated in every
force whose catalogue sees the category, over the selections that carry it, hidden or not, with its
modifiers and repeats; the import report counts them.

Small catalogues of our own shaped like each case, then the shared data (High Elf Realms at the head of
../shared/external/battlescribe/the-old-world-nr, built with the evaluator's actions)."""
from __future__ import annotations

from pathlib import Path

import pytest

from armylists.importers.battlescribe import convert, read_sources, report_data
from armylists.importers.battlescribe.plain import plain_document
from armylists.rules.battlescribe import GameData, Roster, add_force, evaluate, select, set_cost_limit, set_count
from armylists.rules.battlescribe.document import UNSUPPORTED, judged
from tests.battlescribe.spec.setup_xml import document_xml
from tests.battlescribe.test_battlescribe_tree import PTS, game, pts

OLD_WORLD = Path(__file__).resolve().parents[2].parent / "shared" / "external" / "battlescribe" / "the-old-world-nr"
OPEN_WAR = "8214-cf48-b1cd-5f5e"   # the game system's force entry "1. Open War"
PER_1000 = {"type": "increment", "field": "con-kp", "value": 1, "repeats": [
    {"value": 1000, "repeats": 1, "field": "limit::pts", "scope": "roster", "childId": "any", "shared": True}]}


def king_or_priest(**constraint) -> dict:
    """"0-1 King or Priest per 1,000 points": a hidden category, at most 0 in the force, +1 per 1000 pts of
    the limit (the shape of the Old World's 164 such categories)."""
    return {"id": "cat-kp", "name": "0-1 King or Priest per 1,000 points", "hidden": True,
            "constraints": [{"id": "con-kp", "type": "max", "value": 0, "field": "selections", "scope": "force",
                             "shared": True, "includeChildSelections": True, **constraint}],
            "modifiers": [PER_1000]}


def carrying(entry_id: str, name: str, cost: int = 100, **more) -> dict:
    return {"id": entry_id, "name": name, "type": "unit", "costs": pts(cost),
            "categoryLinks": [{"id": f"cl-{entry_id}", "targetId": "cat-kp", "primary": False}], **more}


ENTRIES = [carrying("se-king", "King"), carrying("se-priest", "Priest", 80),
           {"id": "se-spears", "name": "Spearmen", "type": "unit", "costs": pts(60)}]


def army(data, *names: str, limit: float = 2000):
    roster = Roster(data)
    force = add_force(roster, "fe")
    set_cost_limit(roster, "pts", limit)
    for name in names:
        select(roster, force, name)
    return roster, force


def said(roster) -> list[tuple[str, str]]:
    return [(i.code, i.message) for i in judged(roster)[1]]


def owned(result) -> list[tuple]:
    return [(e.owner_type, sorted(e.owner_ids), e.source_id, e.constraint_id, e.message) for e in result.errors]


class TestCarriedCategories:
    def test_it_counts_every_unit_linking_the_category_and_says_the_limit_in_a_players_words(self):
        data = game(ENTRIES, categories=[king_or_priest()])
        roster, _ = army(data, "se-king", "se-priest", "se-spears")
        assert said(roster) == []
        roster, _ = army(data, "se-king", "se-priest", "se-priest")
        result = evaluate(roster)
        assert (result.unsupported, result.legal) == ([], False)
        assert owned(result) == [("category", ["cat-kp"], "cat-kp", "con-kp",
                                  "0-1 King or Priest per 1,000 points has 1 too many selections of 0-1 King or "
                                  "Priest per 1,000 points (maximum 2)")]
        assert said(roster) == [("bs.constraint.max",
                                 "0-1 King or Priest per 1,000 points: 3 taken; at most 2 (1 per 1000 pts of the limit).")]

    def test_the_bound_follows_the_points_limit(self):
        roster, _ = army(game(ENTRIES, categories=[king_or_priest()]), "se-king", "se-priest", limit=1500)
        assert said(roster) == [("bs.constraint.max",
                                 "0-1 King or Priest per 1,000 points: 2 taken; at most 1 (1 per 1000 pts of the limit).")]
        set_cost_limit(roster, "pts", 1999)
        assert said(roster)[0][1].endswith("2 taken; at most 1 (1 per 1000 pts of the limit).")
        set_cost_limit(roster, "pts", 2000)
        assert said(roster) == []

    def test_a_repeat_on_the_forces_points_is_said_so(self):
        """The Old World's second modifier: outside the named force entries, +1 per 1000 pts in the force."""
        category = king_or_priest()
        category["modifiers"] = [{"type": "increment", "field": "con-kp", "value": 1, "repeats": [
            {"value": 1000, "repeats": 1, "field": "pts", "scope": "force", "childId": "any", "shared": True,
             "includeChildSelections": True}]}]
        host = {"id": "se-host", "name": "Host", "type": "unit", "costs": pts(900)}
        roster, _ = army(game(ENTRIES + [host], categories=[category]), "se-host", "se-king", "se-king")
        assert said(roster) == [("bs.constraint.max",
                                 "0-1 King or Priest per 1,000 points: 2 taken; at most 1 (1 per 1000 pts in force).")]

    def test_a_category_a_modifier_adds_counts_in_the_force_by_scope_parent(self):
        """Beastmen's "0-1 unit of Bestigors in your army may have the Stubborn special rule": scope parent
        (the force the category stands in), the category added to the unit when it takes the upgrade."""
        stubborn = {"id": "cat-stubborn", "name": "0-1 unit may be Stubborn", "hidden": True, "constraints": [
            {"id": "con-stubborn", "type": "max", "value": 1, "field": "selections", "scope": "parent", "shared": True}]}
        unit = {"id": "se-herd", "name": "Herd", "type": "unit", "costs": pts(50),
                "selectionEntries": [{"id": "se-rule", "name": "Stubborn", "type": "upgrade"}],
                "modifiers": [{"type": "add", "field": "category", "value": "cat-stubborn", "conditions": [
                    {"type": "atLeast", "value": 1, "field": "selections", "scope": "self", "childId": "se-rule",
                     "shared": True}]}]}
        roster, force = army(game([unit], categories=[stubborn]), "se-herd", "se-herd")
        assert said(roster) == []
        for herd in force.selections:
            select(roster, herd, "se-rule")
        assert said(roster) == [("bs.constraint.max", "0-1 unit may be Stubborn: 2 taken; at most 1.")]

    @pytest.mark.parametrize("children, expected", [
        (True, [("bs.constraint.max", "0-1 King or Priest per 1,000 points: 3 taken; at most 2 (1 per 1000 pts "
                                      "of the limit).")]),
        (False, [])])
    def test_what_a_child_carries_counts_with_include_child_selections(self, children, expected):
        mount = {"id": "se-lord", "name": "Lord", "type": "unit", "costs": pts(90),
                 "selectionEntries": [carrying("se-beast", "Beast", 10, type="model")]}
        data = game(ENTRIES + [mount], categories=[king_or_priest(includeChildSelections=children)])
        roster, force = army(data, "se-king", "se-priest", "se-lord")
        select(roster, force.selections[-1], "se-beast")
        assert said(roster) == expected

    def test_shared_false_counts_by_the_category_as_new_recruit_does(self):
        roster, _ = army(game(ENTRIES, categories=[king_or_priest(shared=False)]), "se-king", "se-priest", "se-king")
        assert said(roster)[0][1].startswith("0-1 King or Priest per 1,000 points: 3 taken; at most 2")

    def test_a_minimum_asks_for_what_no_selection_carries_yet(self):
        """The Old World's "Units (not including ...)": at least 3 in each force, on a hidden category of
        the game system that each unit entry links."""
        units = {"id": "cat-units", "name": "Units", "hidden": True, "constraints": [
            {"id": "con-units", "type": "min", "value": 3, "field": "selections", "scope": "force", "shared": True,
             "includeChildSelections": True}]}
        squad = {"id": "se-squad", "name": "Squad", "type": "unit", "costs": pts(50),
                 "categoryLinks": [{"id": "cl-squad", "targetId": "cat-units"}]}
        data = game([squad, ENTRIES[0]], categories=[units])
        roster, force = army(data, "se-king")
        assert said(roster) == [("bs.constraint.min", "Units: 0 taken; at least 3.")]
        for _ in range(3):
            select(roster, force, "se-squad")
        assert said(roster) == []

    def test_a_renamed_category_is_said_by_its_new_name(self):
        category = king_or_priest()
        category["modifiers"] = [PER_1000, {"type": "set", "field": "name", "value": "0-2 King or Priest per 1,000 points",
                                            "conditions": [{"type": "atLeast", "value": 1, "field": "selections",
                                                            "scope": "force", "childId": "se-spears", "shared": True}]}]
        roster, _ = army(game(ENTRIES, categories=[category]), "se-spears", "se-king", "se-king", "se-king")
        assert said(roster) == [("bs.constraint.max",
                                 "0-2 King or Priest per 1,000 points: 3 taken; at most 2 (1 per 1000 pts of the limit).")]

    def test_a_scope_it_does_not_understand_is_never_called_legal(self):
        roster, _ = army(game(ENTRIES, categories=[king_or_priest(scope="se-king")]), "se-spears")
        result = evaluate(roster)
        assert (result.legal, result.unsupported) == (None, ["scope 'se-king' of a category's constraint (con-kp)"])
        assert said(roster) == [("bs.unsupported", UNSUPPORTED)]

    def test_a_category_the_force_entry_links_still_counts_its_primary_selections(self):
        """Characters, Core, Rare: the force's own categories hold the selections whose primary category
        they are (unchanged)."""
        core = {"id": "cat-core", "name": "Core", "constraints": [
            {"id": "con-core", "type": "max", "value": 1, "field": "selections", "scope": "parent", "shared": True}]}
        link = {"id": "cl-fe-core", "targetId": "cat-core"}
        entry = {"id": "se-a", "name": "A", "type": "unit", "costs": pts(10),
                 "categoryLinks": [{"id": "cl-a", "targetId": "cat-core", "primary": True}]}
        extra = {"id": "se-b", "name": "B", "type": "unit", "costs": pts(10),
                 "categoryLinks": [{"id": "cl-b", "targetId": "cat-core", "primary": False}]}
        roster, _ = army(game([entry, extra], categories=[core], force_links=[link]), "se-a", "se-b")
        assert said(roster) == []
        roster, _ = army(game([entry, extra], categories=[core], force_links=[link]), "se-a", "se-a")
        assert said(roster) == [("bs.constraint.max", "Core: 2 taken; at most 1.")]


class TestImportReport:
    def files(self, tmp_path, scope: str = "force") -> Path:
        setup = {"gameSystem": {"id": "gs", "name": "Test", "costTypes": [PTS], "categoryEntries": [
            king_or_priest(scope=scope)], "forceEntries": [{"id": "fe", "name": "Army"}]},
            "catalogues": [{"id": "cat", "name": "Book", "selectionEntries": ENTRIES}]}
        (tmp_path / "test.gst").write_bytes(document_xml("gameSystem", setup["gameSystem"], "gs"))
        (tmp_path / "book.cat").write_bytes(document_xml("catalogue", setup["catalogues"][0], "gs"))
        return tmp_path

    def test_it_counts_a_category_entrys_constraint_and_modifiers_as_checked(self, tmp_path):
        report = report_data(convert(read_sources([str(self.files(tmp_path))])))
        book = report["books"][0]
        assert (book["constraints"], book["modifiers"], book["unchecked"]) == (
            {"total": 1, "checked": 1}, {"total": 1, "checked": 1, "display_only": 0}, [])

    def test_it_names_what_the_evaluator_does_not_evaluate(self, tmp_path):
        book = report_data(convert(read_sources([str(self.files(tmp_path, scope="se-king"))])))["books"][0]
        assert (book["constraints"], book["unchecked"]) == (
            {"total": 1, "checked": 0},
            [{"kind": "scope 'se-king' of a category's constraint", "where": "Test > 0-1 King or Priest per 1,000 points",
              "count": 1}])


@pytest.fixture(scope="module")
def old_world():
    if not OLD_WORLD.is_dir():
        pytest.skip("../shared/external/battlescribe/the-old-world-nr is absent")
    return GameData([plain_document(d) for d in read_sources([str(OLD_WORLD)])])


def named(roster, container, name: str) -> str:
    return next(o.entry_id for o in roster.options(container)
                if ((o.link or {}).get("name") or o.entry.get("name")) == name)


class TestOldWorldHighElves:
    """High Elf Realms.cat: "0-1 High Elf Prince or Archmage per 1,000 points" (hidden, at most 0 in the
    force, +1 per 1000 pts of the limit in Open War), linked by the Prince's and the Archmage's entries."""

    def army(self, game, princes: int):
        catalogue = next(c for c, d in game.catalogues.items() if d["name"] == "High Elf Realms")
        roster = Roster(game)
        set_cost_limit(roster, "points", 2000)
        force = add_force(roster, OPEN_WAR, catalogue)
        chosen = [select(roster, force, named(roster, force, "Prince")) for _ in range(princes)]
        general = chosen[0].children[0]
        select(roster, general, named(roster, general, "General"))
        for name in ("Lothern Sea Guard", "Elven Spearmen", "Elven Spearmen"):   # Core 520 of 2000 pts
            unit = select(roster, force, named(roster, force, name))
            set_count(roster, unit.children[0], 20)
        return roster

    def test_two_princes_at_2000_pts_are_legal(self, old_world):
        roster = self.army(old_world, 2)
        assert (evaluate(roster).legal, said(roster)) == (True, [])

    def test_three_princes_at_2000_pts_are_not(self, old_world):
        roster = self.army(old_world, 3)
        result = evaluate(roster)
        assert (result.legal, result.unsupported) == (False, [])
        assert said(roster) == [("bs.constraint.max", "0-1 High Elf Prince or Archmage per 1,000 points: 3 taken; "
                                                      "at most 2 (1 per 1000 pts of the limit).")]
