"""Our system's system-wide rules reach imported BattleScribe books through the one bridge
(armylists/rules/bridges/: the tree projected onto our army, tree_army.py, and our native checks run on
it, systems.py), by rules_data/battlescribe_systems.yaml: The 9th Age v0.11 (BSData, ../shared/external/battlescribe/)
lists built with the evaluator's actions, checked by rules_data/t9a-0.11's rules, each at its boundary.

- 000:L79-80 "An army may fall below the limit only by 20 points or less."
- 000:L95-96 "One Character in the army must be named the General ... An Army can only have one General."
- 000:L2843 "All Magical Items have the rule One per Army: they cannot be duplicated within an army."
"""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from armylists.importers.battlescribe.plain import plain_document
from armylists.importers.battlescribe.sources import read_sources
from armylists.rules.battlescribe import GameData, Roster, add_force, evaluate, select, set_cost_limit
from armylists.rules.bridges.systems import MAPPING_FILE, load_mappings, system_violations
from armylists.rules.errors import RulesDataError
from armylists.rules.reading.loader import load_system_part

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules_data"
T9A = ROOT.parent / "shared" / "external" / "battlescribe" / "the-9th-age-0.11"
STANDARD = "5374616e6461726423232344415441232323"   # the force entry "Standard (1500-3999pts)"

needs_data = pytest.mark.skipif(not T9A.is_dir(), reason="../shared/external/battlescribe/the-9th-age-0.11 is absent")


@pytest.fixture(scope="module")
def game() -> GameData:
    documents = read_sources([str(T9A / "Fantasy Battles The 9th Age.gst"), str(T9A / "Orcs and Goblins.cat")])
    return GameData([plain_document(d) for d in documents])


@pytest.fixture(scope="module")
def t9a():
    mapping = load_mappings(RULES).find({"id": "7e6fb76e-1bec-b992-2c43-e797a6758b13"})
    return load_system_part(RULES / mapping.system, RULES)[0], mapping


def option(roster, container, name):
    return next(o.entry_id for o in roster.options(container) if o.entry.get("name") == name)


def build(game, *, general=True, items=(), second_general=False):
    """An Orc Warlord (the General unless told), an Orc Chief, a unit of Orcs; `items`: (character index,
    item name) under each character's "Magic Items" upgrade."""
    roster = Roster(game)
    force = add_force(roster, STANDARD, next(iter(game.catalogues)))
    characters = [select(roster, force, option(roster, force, name)) for name in ("Orc Warlord", "Orc Chief")]
    select(roster, force, option(roster, force, "Orcs"))
    for who in ([0] if general else []) + ([1] if second_general else []):
        select(roster, characters[who], option(roster, characters[who], "Army General"))
    holders = {}
    for who, item in items:
        if who not in holders:
            holders[who] = select(roster, characters[who], option(roster, characters[who], "Magic Items"))
        select(roster, holders[who], option(roster, holders[who], item))
    return roster


def judged(roster, t9a, under: int):
    """The roster at a points limit `under` points above its total: (our violations, the data's errors)."""
    system, mapping = t9a
    total = evaluate(roster).costs["points"]
    set_cost_limit(roster, "pts", total + under)
    result = evaluate(roster)
    ours = [(v.code, v.message, v.rule, v.source) for v in system_violations(roster, result, system, mapping)]
    return ours, [e.message for e in result.errors]


@needs_data
class TestT9aV011Parity:
    def test_it_allows_an_army_20_pts_under_its_limit(self, game, t9a):
        ours, _errors = judged(build(game), t9a, 20)
        assert [v for v in ours if v[0] == "points.under_limit"] == []

    def test_it_refuses_an_army_21_pts_under_its_limit(self, game, t9a):
        ours, _errors = judged(build(game), t9a, 21)
        roster_total = int(evaluate(build(game)).costs["points"])
        assert [v for v in ours if v[0] == "points.under_limit"] == [
            ("points.under_limit", f"Total {roster_total} pts is 21 pts under the {roster_total + 21} pts limit; "
                                   f"an army may be at most 20 pts under it.", "points-shortfall", "000:L78-80")]

    def test_it_refuses_one_magic_item_on_two_characters(self, game, t9a):
        # Plates of Tuktek carries no limit of its own in the catalogue: only our rule (000:L2843) says it.
        ours, errors = judged(build(game, items=[(0, "Plates of Tuktek"), (1, "Plates of Tuktek")]), t9a, 0)
        assert [v for v in ours if v[0] == "items.duplicate"] == [
            ("items.duplicate", "Plates of Tuktek is taken 2 times (Orc Warlord, Orc Chief); each magical item may "
                                "be taken once per army.", "items-once-per-army", "000:L2843")]
        assert not [e for e in errors if "Plates of Tuktek" in e]

    def test_it_allows_the_item_once(self, game, t9a):
        ours, _errors = judged(build(game, items=[(0, "Plates of Tuktek"), (1, "Dusk Stone")]), t9a, 0)
        assert [v for v in ours if v[0] == "items.duplicate"] == []

    def test_it_says_an_item_the_catalogue_limits_once(self, game, t9a):
        # Dusk Stone is "maxInRoster 1" in the catalogue (a 1.x limit counted at any depth): the data's error,
        # and not ours again.
        ours, errors = judged(build(game, items=[(0, "Dusk Stone"), (1, "Dusk Stone")]), t9a, 0)
        assert [v for v in ours if v[0] == "items.duplicate"] == []
        assert [e for e in errors if "Dusk Stone" in e] == ["Dusk Stone has 1 too many selections of Dusk Stone "
                                                            "(maximum 1)"]

    def test_it_refuses_a_list_with_no_general(self, game, t9a):
        ours, errors = judged(build(game, general=False), t9a, 0)
        assert [v for v in ours if v[0].startswith("general.")] == [
            # the native check's words: the Characters (Lords and Heroes, by the mapping's categories) who may be
            # it; the data gives no Leadership our rules read
            ("general.missing", "No General is named; one Character must be: Orc Warlord Ld unknown, Orc Chief Ld "
                                "unknown.", "general", "000:L94-97, L2019-2027, L2631-2632")]
        assert not [e for e in errors if "General" in e]   # the catalogue does not say it

    def test_it_accepts_one_general(self, game, t9a):
        ours, _errors = judged(build(game), t9a, 0)
        assert [v for v in ours if v[0].startswith("general.")] == []

    def test_it_says_two_battle_standard_bearers_once(self, game, t9a):
        # "Battle Standard Bearer" is maxInRoster 1 in the catalogue: its error, not ours as well (000:L2037).
        roster = build(game)
        force = roster.forces[0]
        chiefs = [force.selections[1], select(roster, force, option(roster, force, "Orc Chief"))]
        for chief in chiefs:   # a Hero's option (a Lord may not carry the Battle Standard)
            select(roster, chief, option(roster, chief, "Battle Standard Bearer"))
        ours, errors = judged(roster, t9a, 0)
        assert [v for v in ours if v[0] == "bsb.max"] == []
        assert [e for e in errors if "Battle Standard" in e] == [
            "Battle Standard Bearer has 1 too many selections of Battle Standard Bearer (maximum 1)"]

    def test_the_catalogues_own_category_bounds_are_checked_and_not_said_again(self, game, t9a):
        # 1.x keeps them on the force type's categories (Lords at most 35%, Core at least 25% of the
        # limit, 000:L84-90): the evaluator reads them as category links, so ours stand aside. The Warlord's
        # 130 of 245 pts is 53.06% (18.06 over 35); the Orcs' 60 is 24.49% (0.51 short of 25).
        ours, errors = judged(build(game), t9a, 0)
        assert [v for v in ours if v[0].startswith("category.")] == []
        assert [e for e in errors if e.startswith(("Lords", "Core"))] == [
            "Lords has 18.06% too many pts of Lords (maximum 35%)", "Core must have 0.51% more pts of Core (minimum 25%)"]

    def test_it_counts_units_by_the_datas_troop_types(self, game, t9a):
        # 000:L91-93: a Warband (at most 1500 pts: here 245) has at least 3 units that are not Characters; the
        # data's profiles say each unit's Type (the mapping's troop_types); the catalogue does not say this rule
        ours, errors = judged(build(game), t9a, 0)
        assert [v[:2] for v in ours if v[0] == "units.min"] == [
            ("units.min", "The army has 1 unit that are not Characters; a Warband (245 pts) needs at least 3.")]
        assert not [e for e in errors if "units" in e.lower()]

    def test_it_says_the_rules_it_cannot_check_and_which_the_data_says(self, game, t9a):
        # One of a Kind and One per Army are tags of our books the data does not carry. The mapping's data_says
        # (item allowances, one item per category, the Veteran Standard...) are the catalogue's own
        # constraints: not said again.
        ours, _errors = judged(build(game), t9a, 0)
        assert [(v[0], v[2]) for v in ours if v[0] == "system.rule_unchecked"] == [
            ("system.rule_unchecked", "one-of-a-kind"), ("system.rule_unchecked", "one-per-army")]
        assert [v[1] for v in ours if v[2] == "one-of-a-kind"] == [
            "The 9th Age: Fantasy Battles v0.11.9.3 rule one-of-a-kind could not be checked on this list of Orcs and "
            "Goblins (a BattleScribe roster): the data carries no tag one-of-a-kind."]

    def test_it_says_two_generals_once(self, game, t9a):
        # "Army General" and the "General" under it are maxInRoster 1 in the catalogue: its errors, not ours
        # as well (000:L96).
        ours, errors = judged(build(game, second_general=True), t9a, 0)
        assert [v for v in ours if v[0].startswith("general.")] == []
        assert [e for e in errors if "General" in e] == [
            "Army General has 1 too many selections of Army General (maximum 1)",
            "General has 1 too many selections of General (maximum 1)"]


class TestMappingFile:
    def test_it_maps_each_game_system_of_the_data_by_id_and_by_name(self):
        mappings = load_mappings(RULES)
        assert [(m.battlescribe_id, m.system) for m in mappings.systems] == [
            ("7e6fb76e-1bec-b992-2c43-e797a6758b13", "t9a-0.11"), ("aa64-1e8e-66fc-9abf", "t9a-2"),
            ("sys-31d1-bf57-53ea-ad55", "the-old-world"), ("9481a749-7900-614b-1695-bdc2899069c1", "mordheim")]
        assert mappings.find({"id": "elsewhere", "name": "Warhammer The Old World"}).system == "the-old-world"
        assert mappings.find({"id": "elsewhere", "name": "Another game"}) is None

    def test_its_categories_are_categories_of_the_system_they_name(self):
        for mapping in load_mappings(RULES).systems:
            system = load_system_part(RULES / mapping.system, RULES)[0]
            assert set(mapping.categories.values()) <= set(system.category_names), mapping.system

    def test_what_it_says_the_data_says_are_rules_of_the_system_and_its_troop_types_are_the_systems(self):
        for mapping in load_mappings(RULES).systems:
            system = load_system_part(RULES / mapping.system, RULES)[0]
            assert set(mapping.data_says) <= {r.id for r in system.rules}, mapping.system
            assert set(mapping.troop_types.values()) <= set(system.troop_types), mapping.system

    def test_it_names_the_mordheim_leaders_as_our_tag_leader(self):
        mapping = load_mappings(RULES).find({"id": "9481a749-7900-614b-1695-bdc2899069c1"})
        assert {"Mercenary Captain", "Witch Hunter Captain", "Vampire", "Orc Boss"} <= mapping.names_of_tag("leader")
        assert mapping.categories == {"Heroes": "heroes", "Henchmen": "henchmen", "Hired Swords": "hired-swords",
                                      "Dramatis Personae": "hired-swords"}

    @pytest.mark.parametrize("change, path", [
        (lambda d: d["systems"][0].update(system="warhammer-40k"), ("systems", 0, "system")),
        (lambda d: d["systems"][1].update(generals=["General"]), ("systems", 1)),
        (lambda d: d["systems"][2].pop("battlescribe_id"), ("systems", 2)),
        (lambda d: d["systems"][3]["tags"].update(leader="Leader"), ("systems", 3, "tags", "leader")),
        (lambda d: d["systems"][0]["troop_types"].pop("characteristic"), ("systems", 0, "troop_types")),
        (lambda d: d["systems"][0]["data_says"].update({"unit-size": 1}), ("systems", 0, "data_says", "unit-size")),
    ])
    def test_it_refuses_a_bad_file_naming_where(self, tmp_path, change, path):
        data = yaml.safe_load((RULES / MAPPING_FILE).read_text(encoding="utf-8"))
        broken = copy.deepcopy(data)
        change(broken)
        (tmp_path / MAPPING_FILE).write_text(yaml.safe_dump(broken), encoding="utf-8")
        with pytest.raises(RulesDataError) as refused:
            load_mappings(tmp_path)
        assert refused.value.path == path
        assert refused.value.source == f"{tmp_path.name}/{MAPPING_FILE}"


class TestCategoryBounds:
    """Our category bounds reach an imported book only where its catalogue bounds none of that category:
    the sample catalogue (tests/battlescribe/battlescribe_samples.py) bounds Characters at 40% and leaves Core free;
    mapped onto the-old-world, whose Core is at least 25% and Characters at most 50% of the limit
    (rules_data/the-old-world/system.yaml, Grand Army composition)."""

    @pytest.fixture
    def checked(self, tmp_path):
        from armylists.rules.bridges.systems import SystemMapping

        from tests.battlescribe.battlescribe_samples import GST, catalogue

        (tmp_path / "test.gst").write_text(GST)
        (tmp_path / "knights.cat").write_text(catalogue())
        game = GameData([plain_document(d) for d in read_sources([str(tmp_path)])])
        system = load_system_part(RULES / "the-old-world", RULES)[0]
        def checked(limit: int, captains: int = 0, bsb: frozenset = frozenset()):
            mapping = SystemMapping("sys-1", "Test Battles", "the-old-world", battle_standard=bsb,
                                    categories={"Core": "core", "Characters": "characters"})
            roster = Roster(game)
            force = add_force(roster, "force-1", "cat-1")
            select(roster, force, "knights")                 # 10 + 3 Knights at 20: 70 pts of Core
            for _ in range(captains):
                select(roster, force, "captain")             # 100 pts of Characters each
            set_cost_limit(roster, "pts-1", limit)
            result = evaluate(roster)
            ours = [(v.code, v.message) for v in system_violations(roster, result, system, mapping)]
            # the sample's data names no Special, Rare... of ours, no troop types, no magic items: those rules
            # are said unchecked (test_it_says_what_it_cannot_check), not judged here
            return ([v for v in ours if v[0] != "system.rule_unchecked"], [e.message for e in result.errors],
                    [v[1] for v in ours if v[0] == "system.rule_unchecked"])
        return checked

    def test_exactly_25_percent_of_core_passes(self, checked):
        assert checked(280)[0] == []                          # 70 of 280 is 25%

    def test_one_point_less_than_25_percent_fails(self, checked):
        assert checked(281)[0] == [
            ("category.min_percent", "Core: 70 pts is 24.9% of 281; at least 25% (71 pts) is required.")]

    def test_one_battle_standard_bearer_passes(self, checked):
        # the sample's Captain stands for a Battle Standard Bearer the catalogue does not limit
        # (the-old-world: "one-battle-standard", at most 1, 001:L2135)
        assert checked(280, captains=1, bsb=frozenset({"Captain"}))[0] == []

    def test_a_second_battle_standard_bearer_fails(self, checked):
        ours, _errors, _ = checked(280, captains=2, bsb=frozenset({"Captain"}))
        assert ours == [("bsb.max", "2 Battle Standard Bearers (Captain (General), Captain (General)); an army may "
                                    "include at most 1.")]

    def test_it_says_what_it_cannot_check(self, checked):
        prefix = "Warhammer: The Old World rule "
        suffix = " could not be checked on this list of Test Knights (a BattleScribe roster): "
        assert checked(280)[2] == [prefix + rule + suffix + why + "." for rule, why in [
            ("special-maximum", "the data has no category our rules call special"),
            ("rare-maximum", "the data has no category our rules call rare"),
            ("mercenaries-maximum", "the data has no category our rules call mercenaries"),
            ("allies-maximum", "the data has no category our rules call allies"),
            ("minimum-units", "the data names no troop type of ours for Knights"),
            ("general", "the data names no General our rules know of"),
            ("one-battle-standard", "the data names no Battle Standard Bearer our rules know of"),
            ("items-once-per-army", "its data marks no magic items"),
            ("items-one-per-type", "its type items_one_per_category reads what a BattleScribe roster does not "
                                   "carry in our terms"),
            ("item-allowance", "its type item_allowance reads what a BattleScribe roster does not carry in our terms"),
            ("item-eligibility", "its type item_eligibility reads what a BattleScribe roster does not carry in our "
                                 "terms"),
            ("wizards-without-armour", "its type wizard_armour reads what a BattleScribe roster does not carry in "
                                       "our terms"),
            ("lores", "its type wizard_paths reads what a BattleScribe roster does not carry in our terms"),
            ("unit-size", "its type unit_size reads what a BattleScribe roster does not carry in our terms"),
            ("unit-options", "its type unit_options reads what a BattleScribe roster does not carry in our terms")]]

    def test_a_bound_the_catalogue_carries_is_said_by_the_catalogue_alone(self, checked):
        ours, errors, _ = checked(280, captains=2)           # Characters 200 of 280: over ours and theirs
        assert ours == []
        # (the sample's Knights are 0-2, none at a limit of 1000 or less: the data's own error besides)
        assert [e for e in errors if e.startswith("Characters")] == [
            "Characters has 31.43% too many pts of Characters (maximum 40%)"]


T9A_2 = ROOT.parent / "shared" / "external" / "battlescribe" / "the-9th-age-2nd"


@pytest.mark.skipif(not T9A_2.is_dir(), reason="../shared/external/battlescribe/the-9th-age-2nd is absent")
def test_t9a_2nd_edition_data_says_its_general_itself_and_ours_adds_nothing():
    from armylists.rules.battlescribe import deselect

    documents = read_sources([str(T9A_2 / "2nd-theNinthAge-FantasyBattles.gst"), str(T9A_2 / "2nd-orcsAndGoblins.cat")])
    game = GameData([plain_document(d) for d in documents])
    mapping = load_mappings(RULES).find(game.system)
    system = load_system_part(RULES / mapping.system, RULES)[0]
    roster = Roster(game)
    force = add_force(roster, next(f for f, (entry, _doc) in game.forces.items() if entry["name"] == "Orcs and Goblins"),
                      next(iter(game.catalogues)))
    warlord = select(roster, force, option(roster, force, "Orc Warlord"))   # "Army General" comes with it
    result = evaluate(roster)
    assert (mapping.system, system_violations(roster, result, system, mapping)) == ("t9a-2", [])
    deselect(roster, next(c for c in warlord.children if c.option.entry["name"] == "Army General"))
    result = evaluate(roster)
    assert system_violations(roster, result, system, mapping) == []
    assert [e.message for e in result.errors if "General" in e.message] == [
        "Roster must have 1 more selections of Army General (minimum 1)",
        "Orc Warlord must have 1 more selections of Army General (minimum 1)"]
