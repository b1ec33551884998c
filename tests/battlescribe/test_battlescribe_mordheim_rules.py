"""Mordheim's founding rules reach BSData's warbands through the one bridge (issue 36): the tree is projected
onto our army (armylists/rules/bridges/tree_army.py) by rules_data/battlescribe_systems.yaml (Heroes,
Henchmen, Hired Swords as our categories; the warbands' leaders as our tag `leader`), and
rules_data/mordheim/system.yaml's rules run there as our native checks (bridges/systems.py).

- warband-minimum: "at least three warriors" (heroes and henchmen, models), Mordheim rulebook, Recruiting
  a warband;
- one-leader: exactly one leader, Mordheim rulebook, Recruiting a warband.

Real data: ../shared/external/battlescribe/mordheim (BSData/mordheim b18aa66); a small game system of our
own, under Mordheim's id, where the catalogue does not say the leader rule itself.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from armylists.importers.battlescribe.plain import plain_document
from armylists.importers.battlescribe.sources import read_sources
from armylists.rules.battlescribe import GameData, Roster, add_force, deselect, evaluate, select, set_cost_limit, set_count
from armylists.rules.battlescribe.document import tree_report
from armylists.rules.bridges.systems import load_mappings, system_violations
from armylists.rules.reading.loader import load_system_part

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules_data"
MORDHEIM = ROOT.parent / "shared" / "external" / "battlescribe" / "mordheim"
WARBAND = "7451d7da-3cc0-0299-775b-2f48162a731d"    # Mordheim.gst's force entry "Warband"
MINIMUM = ("count.min", "Warband: 1 model taken; at least 3.", "warband-minimum",
           "Mordheim rulebook, Recruiting a warband: at least three warriors (Hired Swords are not of the warband)")

needs_data = pytest.mark.skipif(not MORDHEIM.is_dir(), reason="../shared/external/battlescribe/mordheim is absent")


@pytest.fixture(scope="module")
def mordheim():
    mapping = load_mappings(RULES).find({"id": "9481a749-7900-614b-1695-bdc2899069c1"})
    return load_system_part(RULES / mapping.system, RULES)[0], mapping


@pytest.fixture(scope="module")
def reikland():
    return GameData([plain_document(d) for d in read_sources(
        [str(MORDHEIM / name) for name in ("Mordheim.gst", "Reiklanders.cat", "data.cat", "Characters.cat")])])


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mordheim")
    (folder / "mordheim.gst").write_text(GST)
    (folder / "warband.cat").write_text(CAT)
    return GameData([plain_document(d) for d in read_sources([str(folder)])])


def named(roster, container, name: str) -> str:
    return next(o.entry_id for o in roster.options(container)
                if ((o.link or {}).get("name") or o.entry.get("name")) == name)


def ours(roster, mordheim):
    system, mapping = mordheim
    result = evaluate(roster)
    return [(v.code, v.message, v.rule, v.source) for v in system_violations(roster, result, system, mapping)], \
        [e.message for e in result.errors]


@needs_data
class TestReiklandFounding:
    """Reiklanders.cat: the Mercenary Captain (Heroes, type model) comes with the warband (minInRoster 1);
    Warriors are a henchmen group (Henchmen, type unit) of 1-5 Warriors models at 25 gc."""

    def warband(self, game, warriors: int = 0) -> Roster:
        roster = Roster(game)
        set_cost_limit(roster, "points", 500)
        force = add_force(roster, WARBAND, next(c for c, d in game.catalogues.items() if d["name"] == "Reiklanders (1a)"))
        if warriors:
            group = select(roster, force, named(roster, force, "Warriors"))
            set_count(roster, next(c for c in group.children if c.option.entry.get("type") == "model"), warriors)
        return roster

    def test_a_captain_alone_is_not_a_warband(self, reikland, mordheim):
        roster = self.warband(reikland)
        assert [s.state.name for s in roster.forces[0].selections] == ["Mercenary Captain", "Grade"]
        assert ours(roster, mordheim) == ([MINIMUM], [])     # the data itself says nothing

    def test_a_captain_and_two_warriors_are_a_legal_founding_warband(self, reikland, mordheim):
        assert ours(self.warband(reikland, warriors=2), mordheim) == ([], [])

    def test_a_captain_and_one_warrior_are_one_short(self, reikland, mordheim):
        violations, _ = ours(self.warband(reikland, warriors=1), mordheim)
        assert violations == [("count.min", "Warband: 2 models taken; at least 3.") + MINIMUM[2:]]

    def test_the_report_of_a_captain_alone_is_not_legal_and_says_why(self, reikland, mordheim):
        system, mapping = mordheim
        report = tree_report(self.warband(reikland), "bs-mordheim", "bs-reiklanders", "10",
                             lambda tree, result: system_violations(tree, result, system, mapping))
        assert (report.valid, [(v.code, v.message) for v in report.violations]) == (False, [MINIMUM[:2]])

    def test_a_warband_without_its_leader_hears_it_once_from_the_catalogue(self, reikland, mordheim):
        # the catalogue's own Mercenary Captain is minInRoster 1: that says "one leader", ours not again
        roster = self.warband(reikland, warriors=3)
        deselect(roster, roster.forces[0].selections[0])
        violations, errors = ours(roster, mordheim)
        assert violations == []
        assert errors == ["Heroes must have 1 more selections of Heroes (minimum 1)",
                          "Roster must have 1 more selections of Mercenary Captain (minimum 1)"]


GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="9481a749-7900-614b-1695-bdc2899069c1" name="Mordheim" revision="1" battleScribeVersion="2.03"
    xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="points" name=" gc" defaultCostLimit="-1"/></costTypes>
  <categoryEntries>
    <categoryEntry id="heroes" name="Heroes"/>
    <categoryEntry id="henchmen" name="Henchmen"/>
    <categoryEntry id="troop" name="Troop"/>
  </categoryEntries>
  <forceEntries>
    <forceEntry id="warband" name="Warband">
      <categoryLinks>
        <categoryLink id="l-heroes" name="Heroes" targetId="heroes"/>
        <categoryLink id="l-henchmen" name="Henchmen" targetId="henchmen"/>
        <categoryLink id="l-troop" name="Troop" targetId="troop"/>
      </categoryLinks>
    </forceEntry>
  </forceEntries>
</gameSystem>
"""

CAT = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-m" name="Test Warband" revision="1" battleScribeVersion="2.03"
    gameSystemId="9481a749-7900-614b-1695-bdc2899069c1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="captain" name="Mercenary Captain" type="model">
      <categoryLinks><categoryLink id="c-1" targetId="heroes" primary="true"/></categoryLinks>
      <costs><cost name=" gc" typeId="points" value="60"/></costs>
    </selectionEntry>
    <selectionEntry id="warriors" name="Warriors" type="unit">
      <categoryLinks><categoryLink id="c-2" targetId="henchmen" primary="true"/></categoryLinks>
      <selectionEntries>
        <selectionEntry id="warrior" name="Warrior" type="model">
          <costs><cost name=" gc" typeId="points" value="25"/></costs>
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>
    <selectionEntry id="chief" name="Chief" type="model">
      <categoryLinks><categoryLink id="c-4" targetId="heroes" primary="true"/></categoryLinks>
      <selectionEntries>
        <selectionEntry id="leader" name="Leader" type="upgrade">
          <constraints>
            <constraint id="c-leader-min" type="min" field="selections" scope="parent" value="1"/>
            <constraint id="c-leader-max" type="max" field="selections" scope="parent" value="1"/>
          </constraints>
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>
    <selectionEntry id="trooper" name="Trooper" type="model">
      <categoryLinks><categoryLink id="c-3" targetId="troop" primary="true"/></categoryLinks>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""


class TestSmallWarband:
    """Our own small data under Mordheim's game system id: no constraint on the Mercenary Captain, so our
    one-leader rule is the one that says it; a category the mapping does not name (Troop) is counted in
    none of ours."""

    def warband(self, game, captains: int, warriors: int = 0, troopers: int = 0, chiefs: int = 0) -> Roster:
        roster = Roster(game)
        set_cost_limit(roster, "points", 500)
        force = add_force(roster, "warband", "cat-m")
        for _ in range(captains):
            select(roster, force, "captain")
        for _ in range(chiefs):
            select(roster, force, "chief")     # with its Leader (at least 1 in it)
        if warriors:
            group = select(roster, force, "warriors")
            set_count(roster, group.children[0] if group.children else select(roster, group, "warrior"), warriors)
        for _ in range(troopers):
            select(roster, force, "trooper")
        return roster

    def test_no_leader_is_said_by_our_rule(self, small, mordheim):
        violations, _ = ours(self.warband(small, 0, warriors=3), mordheim)
        assert [v[:3] for v in violations] == [("count.min", "Leader: 0 units taken; at least 1.", "one-leader")]

    def test_two_leaders_are_one_too_many(self, small, mordheim):
        violations, _ = ours(self.warband(small, 2, warriors=1), mordheim)
        assert [v[:3] for v in violations] == [("count.max", "Leader: 2 units taken; at most 1.", "one-leader")]

    def test_one_leader_and_two_warriors_pass_at_exactly_three(self, small, mordheim):
        assert ours(self.warband(small, 1, warriors=2), mordheim)[0] == []

    def test_a_model_of_a_category_not_mapped_is_no_warrior(self, small, mordheim):
        violations, _ = ours(self.warband(small, 1, warriors=1, troopers=3), mordheim)
        assert [v[:2] for v in violations] == [("count.min", "Warband: 2 models taken; at least 3.")]

    def test_a_hero_with_the_datas_leader_upgrade_is_the_leader(self, small, mordheim):
        # BSData links data.cat's "Leader" upgrade (1 in its parent) on each warband's leader: the mapping's
        # `leader` names it, so a leader of any name is ours
        assert ours(self.warband(small, 0, warriors=2, chiefs=1), mordheim)[0] == []
        violations, _ = ours(self.warband(small, 1, warriors=1, chiefs=1), mordheim)
        assert [v[:3] for v in violations] == [("count.max", "Leader: 2 units taken; at most 1.", "one-leader")]
