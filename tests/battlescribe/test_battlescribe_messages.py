"""One message per broken rule, in a player's words (issue 22 item 4), for lists of imported BattleScribe
books judged by the tree evaluator (armylists/rules/battlescribe/; words in words.py, issues in
document.py's `judged`): the entry, how many in its scope, the bound, and which condition made the bound
what it is here; a rule said once however many constraints (or our system's rules) state it; what the
evaluator does not understand, one plain sentence and never a verdict of legal.

Real data: the 9th Age 2nd-edition catalogues (../shared/external/battlescribe/the-9th-age-2nd) and
T9A v0.11 (the-9th-age-0.11); small data of our own where no real data shows the case."""
from __future__ import annotations

from pathlib import Path

import pytest

from armylists.importers.battlescribe.plain import plain_document
from armylists.importers.battlescribe.sources import read_sources
from armylists.rules.battlescribe import GameData, Roster, add_force, deselect, place, select, set_cost_limit
from armylists.rules.battlescribe.document import UNSUPPORTED, judged
from armylists.rules.bridges.systems import load_mappings, system_violations
from armylists.rules.reading.loader import load_system_part
from tests.battlescribe.spec.setup_xml import plain_setup

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules_data"
SHARED = ROOT.parent / "shared" / "external" / "battlescribe"
T9A2, T9A011 = SHARED / "the-9th-age-2nd", SHARED / "the-9th-age-0.11"
POINTS = "24fd-8af8-0c78-001c"                      # the 2nd edition's "pts" cost type
HOLDS, DWARVES = "1332-e68c-203e-bad0", "041b-e72b-1f30-5a89"   # force entry "Dwarven Holds", its catalogue
CORE = ("bs.constraint.min", "Core: 0 pts, 0% of the 2000 pts limit; at least 25% (500 pts).")
NO_GENERAL = ("bs.constraint.min", "Army General: 0 taken in the army; at least 1.")


def read(*paths: Path) -> GameData:
    return GameData([plain_document(d) for d in read_sources([str(p) for p in paths])])


def named(roster, container, name: str) -> str:
    return next(o.entry_id for o in roster.options(container)
                if ((o.link or {}).get("name") or o.entry.get("name")) == name)


def said(roster) -> list[tuple[str, str]]:
    return [(i.code, i.message) for i in judged(roster)[1]]


def ours(roster, result) -> list[tuple[str, str]]:
    mapping = load_mappings(RULES).find(roster.game.system)
    system = load_system_part(RULES / mapping.system, RULES)[0]
    return [(v.code, v.message) for v in system_violations(roster, result, system, mapping)]


@pytest.fixture(scope="module")
def game():
    return read(T9A2 / "2nd-theNinthAge-FantasyBattles.gst", T9A2 / "2nd-dwarvenHolds.cat")


@pytest.mark.skipif(not T9A2.is_dir(), reason="../shared/external/battlescribe/the-9th-age-2nd is absent")
class TestDwarvenHoldsKing:
    """2nd-dwarvenHolds.cat: the King's "Runic Weapon Enchantments" group holds at most 3 (its own
    constraint), set to 0 by a modifier on the group's link when the King holds exactly 1 Great Weapon
    (2nd-dwarvenHolds.cat:52-58); Rune of Destruction is at most 1 in its parent and 1 in the roster."""

    def king(self, game, runes=(), great_weapon=False):
        roster = Roster(game)
        set_cost_limit(roster, POINTS, 2000)
        force = add_force(roster, HOLDS, DWARVES)
        king = select(roster, force, named(roster, force, "King"))   # with Plate Armour and a Hand Weapon
        if great_weapon:
            deselect(roster, next(c for c in king.children if c.state.name == "Hand Weapon"))
            select(roster, king, named(roster, king, "Great Weapon"))
        items = select(roster, king, named(roster, king, "Runic Special Items"))
        for rune in runes:
            select(roster, items, named(roster, items, rune))
        return roster

    def test_a_great_weapon_makes_the_enchantments_at_most_0_and_says_so(self, game):
        roster = self.king(game, ["Rune of Destruction", "Rune of Might"], great_weapon=True)
        assert said(roster) == [CORE, NO_GENERAL, (
            "bs.constraint.max", "Runic Weapon Enchantments: 2 taken in King; at most 0 with Great Weapon.")]

    def test_one_enchantment_with_a_great_weapon_is_over_and_none_is_not(self, game):
        assert said(self.king(game, ["Rune of Fury"], great_weapon=True)) == [CORE, NO_GENERAL, (
            "bs.constraint.max", "Runic Weapon Enchantments: 1 taken in King; at most 0 with Great Weapon.")]
        assert said(self.king(game, [], great_weapon=True)) == [CORE, NO_GENERAL]

    def test_without_a_great_weapon_three_pass_and_a_fourth_is_over_with_no_reason_given(self, game):
        three = ["Rune of Penetration", "Rune of Precision", "Rune of Fury"]
        assert said(self.king(game, three)) == [CORE, NO_GENERAL]
        assert said(self.king(game, three + ["Rune of Quickening"])) == [CORE, NO_GENERAL, (
            "bs.constraint.max", "Runic Weapon Enchantments: 4 taken in King; at most 3.")]

    def test_a_rune_limited_in_its_parent_and_in_the_army_is_said_once(self, game):
        """Rune of Smashing is at most 1 in its parent and at most 1 in the roster, counting children
        (2nd-dwarvenHolds.cat, its constraints 1320-... and 207d-...): two on one King break both."""
        rune = "Rune of Smashing (only on Foot)"
        roster = self.king(game, [rune, rune])
        assert sorted(e.constraint_id for e in judged(roster)[0].errors if "Smashing" in e.message) == [
            "1320-c8a5-dc5e-bc6e", "207d-c7f6-9003-4cfb"]
        assert said(roster) == [CORE, NO_GENERAL, ("bs.constraint.max", f"{rune}: 2 taken in King; at most 1.")]
        assert said(self.king(game, [rune])) == [CORE, NO_GENERAL]

    def test_no_general_is_said_once_by_the_data_and_not_again_by_our_system(self, game):
        roster = self.king(game)
        result, issues = judged(roster)
        assert [(i.code, i.message) for i in issues] == [CORE, NO_GENERAL]
        # rules_data/t9a-2's General rule does not say it again (the catalogue said it); its 40-point
        # shortfall rule, which the catalogue lacks, is ours to say.
        assert ours(roster, result) == [("points.under_limit", "Total 215 pts is 1785 pts under the 2000 pts "
                                                               "limit; an army may be at most 40 pts under it.")]

    def test_over_the_limit_is_said_as_our_books_say_it(self, game):
        roster = self.king(game)
        set_cost_limit(roster, POINTS, 200)
        assert said(roster) == [
            ("bs.cost_limit", "Total 215 pts is 15 pts over the 200 pts limit."),
            ("bs.constraint.max", "Characters: 215 pts, 107.5% of the 200 pts limit; at most 40% (80 pts)."),
            ("bs.constraint.min", "Core: 0 pts, 0% of the 200 pts limit; at least 25% (50 pts)."), NO_GENERAL]
        set_cost_limit(roster, POINTS, 215)   # exactly at the limit: not over
        assert [code for code, _m in said(roster)].count("bs.cost_limit") == 0

    def test_the_cards_and_the_report_give_the_same_reason(self, game):
        from armylists.lists.trees.tree_offers import unit_offers

        roster = self.king(game, ["Rune of Fury"], great_weapon=True)
        king = roster.forces[0].selections[0]
        offered = {o["name"]: o["unavailable"] for o in unit_offers(roster, king)}
        assert offered["Rune of Destruction"] == "not with Great Weapon"
        assert said(roster)[-1][1].endswith("at most 0 with Great Weapon.")


@pytest.mark.skipif(not T9A011.is_dir(), reason="../shared/external/battlescribe/the-9th-age-0.11 is absent")
def test_two_generals_in_t9a_v011_are_one_broken_rule():
    """Fantasy Battles The 9th Age.gst: "Army General" and the "General" it brings are each maxInRoster 1
    (000:L96, one General): two Army Generals break one rule, said once by the data, not by ours."""
    from tests.battlescribe.test_battlescribe_system_rules import build

    game = read(T9A011 / "Fantasy Battles The 9th Age.gst", T9A011 / "Orcs and Goblins.cat")
    roster = build(game, second_general=True)
    set_cost_limit(roster, "pts", 245)
    result, issues = judged(roster)
    assert sorted(e.message for e in result.errors if "General" in e.message) == [
        "Army General has 1 too many selections of Army General (maximum 1)",
        "General has 1 too many selections of General (maximum 1)"]
    assert [(i.code, i.message) for i in issues if "General" in i.message] == [
        ("bs.constraint.max", "Army General: 2 taken in the army; at most 1.")]
    assert [v for v in ours(roster, result) if v[0].startswith("general.")] == []
    one = build(game)
    set_cost_limit(one, "pts", 245)
    assert [i for i in judged(one)[1] if "General" in i.message] == []


PTS = {"id": "pts", "name": "pts"}


def small(entries, shared=()):
    return GameData(plain_setup({
        "gameSystem": {"id": "gs", "name": "Test", "costTypes": [PTS],
                       "forceEntries": [{"id": "fe", "name": "Army"}]},
        "catalogues": [{"id": "cat", "name": "Book", "selectionEntries": list(entries),
                        "sharedSelectionEntries": list(shared)}]}))


def at_least_one(cid: str) -> dict:
    return {"id": cid, "type": "min", "value": 1, "field": "selections", "scope": "parent", "shared": True}


class TestSmallData:
    def test_a_minimum_on_a_link_and_on_its_shared_entry_is_said_once(self):
        """A Knight's link to the shared Banner and the Banner itself each say "at least 1 in its parent"."""
        link = {"id": "el-banner", "name": "Banner", "type": "selectionEntry", "targetId": "se-banner",
                "constraints": [at_least_one("c-link")]}
        game = small([{"id": "se-knight", "name": "Knight", "type": "unit", "entryLinks": [link]}],
                     shared=[{"id": "se-banner", "name": "Banner", "type": "upgrade",
                              "constraints": [at_least_one("c-entry")]}])
        roster = Roster(game)
        knight = place(roster, add_force(roster, "fe"), "se-knight", 1)   # as saved: nothing added with it
        result, issues = judged(roster)
        assert sorted(e.constraint_id for e in result.errors) == ["c-entry", "c-link"]
        assert [(i.code, i.message) for i in issues] == [
            ("bs.constraint.min", "Banner: 0 taken in Knight; at least 1.")]
        select(roster, knight, "el-banner::se-banner")
        assert judged(roster)[1] == []

    def test_a_hidden_entry_taken_says_where_and_why(self):
        lance = {"id": "se-lance", "name": "Lance", "type": "upgrade", "modifiers": [
            {"type": "set", "field": "hidden", "value": True,
             "conditions": [{"type": "lessThan", "value": 1, "field": "selections", "scope": "parent",
                             "childId": "se-horse"}]}]}
        game = small([{"id": "se-knight", "name": "Knight", "type": "unit", "selectionEntries": [
            lance, {"id": "se-horse", "name": "Horse", "type": "upgrade"}]}])
        roster = Roster(game)
        force = add_force(roster, "fe")
        knight = place(roster, force, "se-knight", 1)
        place(roster, knight, "se-lance", 1)
        assert said(roster) == [("bs.hidden", "Lance: taken in Knight, where it is not available (without Horse).")]
        select(roster, knight, "se-horse")
        assert said(roster) == []

    def test_a_hidden_category_with_units_in_it_says_so(self):
        game = GameData(plain_setup({
            "gameSystem": {"id": "gs", "name": "Test", "costTypes": [PTS],
                           "categoryEntries": [{"id": "cat-secret", "name": "Secret Things"}],
                           "forceEntries": [{"id": "fe", "name": "Army", "categoryLinks": [
                               {"id": "cl-secret", "name": "Secret Things", "targetId": "cat-secret",
                                "hidden": True}]}]},
            "catalogues": [{"id": "cat", "name": "Book", "selectionEntries": [
                {"id": "se-spy", "name": "Spy", "type": "unit",
                 "categoryLinks": [{"id": "cl-spy", "targetId": "cat-secret", "primary": True}]}]}]}))
        roster = Roster(game)
        force = add_force(roster, "fe")
        assert said(roster) == []
        place(roster, force, "se-spy", 1)
        assert said(roster) == [("bs.hidden", "Secret Things: taken in the army, where it is not available.")]

    def test_a_collective_option_is_counted_and_said_per_model(self):
        """A Trooper (3 models) with Spears, collective, at most 1 in its parent: BattleScribe counts
        them per model of the parent (battlescribe-spec, collective groups): 3 pass, 6 are 2 per model."""
        game = small([{"id": "se-squad", "name": "Squad", "type": "unit", "selectionEntries": [
            {"id": "se-trooper", "name": "Trooper", "type": "model", "selectionEntries": [
                {"id": "se-spear", "name": "Spear", "type": "upgrade", "collective": True,
                 "constraints": [{"id": "c-spear", "type": "max", "value": 1, "field": "selections",
                                  "scope": "parent", "shared": True}]}]}]}])
        def squad(spears: int):   # as a saved roster holds them: the spears' number is the unit's total
            roster = Roster(game)
            unit = place(roster, add_force(roster, "fe"), "se-squad", 1)
            place(roster, place(roster, unit, "se-trooper", 3), "se-spear", spears)
            return roster
        assert said(squad(3)) == []
        assert said(squad(6)) == [("bs.constraint.max", "Spear: 2 per model in Squad; at most 1.")]

    def test_what_is_not_understood_is_one_plain_sentence_and_never_legal(self):
        game = small([{"id": "se-knight", "name": "Knight", "type": "unit", "constraints": [
            {"id": "c-odd", "type": "max", "value": 1, "field": "no-such-field", "scope": "force"}]}])
        roster = Roster(game)
        force = add_force(roster, "fe")
        select(roster, force, "se-knight")
        select(roster, force, "se-knight")
        result, issues = judged(roster)
        assert result.unsupported and result.legal is None
        assert [(i.code, i.message) for i in issues] == [("bs.unsupported", UNSUPPORTED)]
        assert UNSUPPORTED == "This list uses a rule of the data the site cannot check: see the book's page."
