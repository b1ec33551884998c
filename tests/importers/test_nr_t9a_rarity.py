"""How often a unit or an option of New Recruit's T9A data may be taken (`rarity`) and what one unit may cost
(`maxUnitCost`), as the data's own rule text states them (armylists/importers/nr_t9a/rarity.py;
docs/import-nr-t9a.md "Rarity and the unit cost cap").

ruledefs.json's `rulebook-build_an_army` (from 2025) makes each rarity one per so many Army Points,
fractions rounded up (Regular 500, Ordinary 750 from 2026-04, Common 1000, Uncommon 1500, Rare 2500,
Extraordinary 5000; Legendary once), and until 2026-01 caps a unit's cost at 600 points unless its entry
(or mount) says otherwise. The text is read from the bundle in ../shared/external/new-recruit-t9a at run
time; the small armies below are in the data's shape.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from armylists.importers.nr_t9a.army import ArmyConverter
from armylists.importers.nr_t9a.limits import ONCE, RarityRules
from armylists.importers.nr_t9a.rarity import read_rules
from armylists.importers.nr_t9a.summary import read_list
from armylists.rules import parse_roster, validate
from armylists.rules.reading.loader import build_book, load_system_part

from tests.importers.nr_summaries import BUNDLE, needs_data, summary

ROOT = Path(__file__).resolve().parents[2]
SYSTEM, _, _ = load_system_part(ROOT / "rules_data" / "t9a-2", ROOT / "rules_data")
CATEGORIES = frozenset(c.id for c in SYSTEM.categories)
TEXT_2025 = RarityRules({"Regular": 500, "Common": 1000, "Uncommon": 1500, "Rare": 2500, "Extraordinary": 5000,
                         "Legendary": ONCE}, 600)  # what read_rules finds at 3b19b9b (below)
TEXT_2026 = RarityRules({**TEXT_2025.per_points, "Ordinary": 750})  # at b543015: no general cap


@lru_cache(maxsize=None)
def _source():
    from armylists.importers.nr_t9a import open_source
    return open_source(BUNDLE)


@needs_data
@pytest.mark.parametrize("commit, expected", [
    ("adc9120", RarityRules()),  # 2024-09-23: the text states neither
    ("3b19b9b", TEXT_2025),  # 2025-01-14
    ("02a076d", TEXT_2025),  # 2026-01-01: the cap's last version
    ("b543015", TEXT_2026),  # 2026-04-10: Ordinary, and no general cap
])
def test_the_bounds_are_read_from_the_datas_rule_text(commit, expected):
    snapshot = _source().at(commit)
    assert read_rules(snapshot.json("ruledefs.json")) == expected


@pytest.mark.parametrize("ruledefs", [None, [], {"rules": []}, {"rules": {"rulebook-build_an_army": {"def": 5}}},
                                      {"rules": {"rulebook-build_an_army": {"def": "Rare: these items are limited to "
                                                                                  "a maximum of 1 per 0 Army Points"}}},
                                      # past Python's 4,300 digits an int() raises: such numbers are not read
                                      {"rules": {"rulebook-build_an_army": {"def": "Rare: these items are limited to a "
                                       f"maximum of 1 per {'9' * 5000} Army Points; no unit can have a points cost "
                                       f"above {'9' * 5000} points"}}},
                                      {"rules": {"rulebook-build_an_army": {"def": "Rare: these items are limited to a "
                                       "maximum of 1 per ,, Army Points; no unit can have a points cost above ,"}}}])
def test_a_text_that_states_nothing_usable_bounds_nothing(ruledefs):
    assert read_rules(ruledefs) == RarityRules()


# -- the limits, on a small army in the data's shape -----------------------------------------------------

def option(name, cost=0, **extra):
    return {"type": "check", "name": name, "cost": cost, **extra}


GENERAL = {"optionsLabel": "Leadership", "maxSize": 1, "options": [
    option("General", refs=["army_general"]), option("Tribe Leader", refs=["tribe_leader"])]}
AMBUSH = option("Ambush", 20, rarity="Rare", refs=["ambush"])


def unit(name, cost, rarity=None, options=(), **extra):
    node = {"name": name, "unit_id": name.lower().replace(" ", "_"), "cost": cost, "refs": [name.lower()],
            "options": list(options), **extra}
    return {**node, "rarity": rarity} if rarity else node


def convert(rules: RarityRules, special=(), characters=(), mounts=()):
    cats = [{"name": "Characters", "refs": ["perso"], "maxPercent": 0.4,
             "options": [unit("Chief", 100, options=[GENERAL]), *characters]},
            {"name": "Core", "refs": ["base"], "options": [unit("Herd", 100, options=[AMBUSH])]},
            {"name": "Special", "refs": ["special"], "options": list(special)},
            {"name": "Mounts", "refs": ["mounts"], "invisible": True, "options": list(mounts)}]
    data = {"name": "Test Army", "short": "ta", "version": "1", "army": [{"name": "Army", "options": cats}]}
    book, report = ArmyConverter(data, {}, "2025-06-01", CATEGORIES, rarity_rules=rules).convert()
    return build_book(book, SYSTEM, {}, "test army"), report


def errors(book, units, limit=4500):
    doc = {"format": "armylist/1", "system": "t9a-2", "book": book.id, "book_version": book.version,
           "points_limit": limit, "units": [{"id": f"u{i}", **u} for i, u in enumerate(units)]}
    report = validate(book, parse_roster(doc))
    return [v.message for v in report.violations if v.severity == "error" and v.code == "tally.max"]


CHIEF = {"entry": "chief", "general": True, "options": {"general": 1}}
GIANT = unit("Giant", 200, "Rare")


class TestUnitRarity:
    @pytest.mark.parametrize("limit, most", [(2500, 1), (2501, 2), (5000, 2), (5001, 3)])
    def test_a_rare_unit_is_one_per_2500_points_rounded_up(self, limit, most):
        book, _ = convert(TEXT_2025, special=[GIANT])
        assert errors(book, [CHIEF] + [{"entry": "giant"}] * most, limit) == []
        assert errors(book, [CHIEF] + [{"entry": "giant"}] * (most + 1), limit) == [
            f"Giant (Rare): {most + 1} units with it in the army; at most {most}."]

    def test_a_legendary_unit_is_once_whatever_the_limit(self):
        book, _ = convert(TEXT_2025, special=[unit("Idol", 200, "Legendary")])
        assert errors(book, [CHIEF, {"entry": "idol"}], 10000) == []
        assert errors(book, [CHIEF, {"entry": "idol"}, {"entry": "idol"}], 10000) == [
            "Idol (Legendary): 2 units with it in the army; at most 1."]

    def test_an_override_sets_another_rarity_where_the_army_has_an_option(self):
        # Orcs and Goblins: a Giant is Uncommon (3 at 4500) under a Tribe Leader, Rare (2) otherwise.
        giant = {**GIANT, "override": [{"armyHasOption": [{"refs": ["tribe_leader"], "amount": 1}],
                                        "options": {"rarity": "Uncommon"}}]}
        book, report = convert(TEXT_2025, special=[giant])
        three = [{"entry": "giant"}] * 3
        assert errors(book, [CHIEF] + three) == ["Giant (Rare): 3 units with it in the army; at most 2."]
        leader = {**CHIEF, "options": {"tribe-leader": 1}}
        assert errors(book, [leader] + three) == []
        assert errors(book, [leader] + three + [{"entry": "giant"}]) == [
            "Giant (Rare): 4 units with it in the army; at most 3."]
        assert "unit override (rarity)" not in report.unchecked

    def test_a_rarity_modifier_steps_along_the_texts_scale_where_the_army_has_an_option(self):
        # Vermin Swarm's Legionary Drill Team (vs.json): Rare, `rarityModifier: 0`, and `increment:
        # {rarityModifier: -1}` under a Stygian Overseer: one step less rare, Uncommon (3 at 4500, not 2);
        # Vampire Covenant's Shrieking Horror +1 where a character rides a gigantic mount: Extraordinary (1).
        # Named "not checked" on every such list before (87 Vermin Swarm, 41 Vampire Covenant lists).
        team = {**GIANT, "rarityModifier": 0, "override": [
            {"armyHasOption": [{"refs": ["tribe_leader"], "amount": 1}], "increment": {"rarityModifier": -1}}]}
        horror = {**unit("Horror", 300, "Rare"), "override": [
            {"armyHasOption": [{"refs": ["tribe_leader"], "amount": 1}], "increment": {"rarityModifier": 1}}]}
        book, report = convert(TEXT_2025, special=[team, horror])
        assert not [c for c in report.unchecked if "override" in c or "rarity" in c]
        leader = {**CHIEF, "options": {"tribe-leader": 1}}
        assert errors(book, [CHIEF] + [{"entry": "giant"}] * 3) == ["Giant (Rare): 3 units with it in the army; at most 2."]
        assert errors(book, [leader] + [{"entry": "giant"}] * 3) == []
        assert errors(book, [leader] + [{"entry": "giant"}] * 4) == ["Giant (Rare): 4 units with it in the army; at most 3."]
        assert errors(book, [CHIEF] + [{"entry": "horror"}] * 2) == []
        assert errors(book, [leader] + [{"entry": "horror"}] * 2) == [
            "Horror (Rare): 2 units with it in the army; at most 1."]

    def test_a_step_off_the_scale_is_named(self):
        assert (TEXT_2025.shifted("Legendary", 1), TEXT_2025.shifted("Regular", -1), TEXT_2025.shifted("Rare", 1),
                TEXT_2025.shifted("Rare", "1")) == (None, None, "Extraordinary", None)
        book, report = convert(TEXT_2025, special=[{**GIANT, "rarity": "Legendary", "rarityModifier": 1}])
        assert report.unchecked["unit rarity"] == 1

    def test_an_override_giving_the_unit_a_limit_of_its_own_lifts_the_rarity(self):
        # Orcs and Goblins' Headhunters under a Darrmu: "at most 6" (armyHasNotOption), though Uncommon.
        giant = {**GIANT, "armyHasNotOption": [{"refs": ["giant"], "amount": 2}],
                 "override": [{"armyHasOption": [{"refs": ["tribe_leader"], "amount": 1}],
                               "options": {"armyHasNotOption": [{"refs": ["giant"], "amount": 6}]}}]}
        book, _ = convert(TEXT_2025, special=[giant])
        leader = {**CHIEF, "options": {"tribe-leader": 1}}
        assert errors(book, [leader] + [{"entry": "giant"}] * 6) == []
        assert errors(book, [leader] + [{"entry": "giant"}] * 7) == ["a Giant: 7 taken in the army; at most 6."]

    def test_a_unit_without_a_rarity_is_not_bounded_by_one(self):
        # Measured: the 2025 text calls units outside Core Common, but New Recruit's lists take five Nomarchs at
        # 4,000 pts (Common: 4) where the data gives the unit no rarity (docs/import-nr-t9a.md).
        book, _ = convert(TEXT_2025, special=[unit("Nomarch", 90)])
        assert errors(book, [CHIEF] + [{"entry": "nomarch"}] * 5, 4000) == []

    def test_a_unit_and_a_mount_sharing_a_rarity_count_together(self):
        # High Elves' Sky Sloop: a unit, and a mount a character rides, one Rare between them.
        sloop = unit("Sky Sloop", 200, "Rare", sharedRarity="skysloop")
        mount = unit("Sky Sloop Mount", 0, "Rare", sharedRarity="skysloop", invisible=True)
        rider = unit("Captain", 80, options=[{"optionsLabel": "Mount", "maxSize": 1, "options": [
            option("Sky Sloop", 150, refopt="sky_sloop_mount")]}])
        book, _ = convert(TEXT_2025, special=[sloop], characters=[rider], mounts=[mount])
        two = [{"entry": "sky-sloop"}, {"entry": "captain", "options": {"sky-sloop": 1}}]
        assert errors(book, [CHIEF] + two) == []
        assert errors(book, [CHIEF] + two + [{"entry": "sky-sloop"}]) == [
            "skysloop (Rare): 3 units with it in the army; at most 2."]

    def test_a_rarity_the_text_does_not_give_is_named_not_checked(self):
        book, report = convert(TEXT_2025, special=[unit("Kraken", 300, "Ordinary")])  # Ordinary: 2026's only
        assert report.unchecked["unit rarity"] == 1
        assert errors(book, [CHIEF] + [{"entry": "kraken"}] * 9) == []


class TestOptionRarity:
    def test_an_options_rarity_bounds_it_in_each_unit_entry(self):
        # Beast Herds' Ambush (Rare) on Wildhorn and Longhorn Herds: two of each, as a 2026 list takes it (below).
        other = unit("Longhorns", 120, options=[AMBUSH])
        book, _ = convert(TEXT_2025, special=[other])
        ambush = [{"entry": "herd", "size": 1, "options": {"ambush": 1}}] * 2 + [
            {"entry": "longhorns", "options": {"ambush": 1}}] * 2
        assert errors(book, [CHIEF] + ambush) == []
        assert errors(book, [CHIEF] + ambush + [{"entry": "herd", "options": {"ambush": 1}}]) == [
            "Ambush (Rare): 3 units with it in the army; at most 2."]

    def test_a_mounts_rarity_bounds_the_option_that_brings_it(self):
        wyvern = unit("Wyvern Mount", 0, "Extraordinary", invisible=True)
        rider = unit("Warlord", 100, options=[{"optionsLabel": "Mount", "maxSize": 1, "options": [
            option("Wyvern", 150, refopt="wyvern_mount")]}])
        book, _ = convert(TEXT_2025, characters=[rider], mounts=[wyvern])
        one = {"entry": "warlord", "options": {"wyvern": 1}}
        assert errors(book, [CHIEF, one], 5000) == []
        assert errors(book, [CHIEF, one, one], 5000) == ["Wyvern Mount (Extraordinary): 2 units with it in the army; at most 1."]
        assert errors(book, [CHIEF, one, one], 5001) == []


class TestUnitCostCap:
    def test_no_unit_costs_more_than_the_texts_cap(self):
        giants = unit("Giant", 200, options=[{"addToUnitSize": True, "minSize": 1, "maxSize": 9,
                                              "options": [{"type": "numeric", "name": "Number", "cost": 100}]}])
        book, _ = convert(TEXT_2025, special=[giants])
        assert errors(book, [CHIEF, {"entry": "giant", "size": 4}]) == []  # 200 + 400 = 600
        assert errors(book, [CHIEF, {"entry": "giant", "size": 5}]) == [
            "Giant (points of the unit): 700 pts in Giant (u1); at most 600 pts."]

    def test_an_entrys_or_its_mounts_maxunitcost_replaces_the_cap(self):
        griffon = unit("Griffon Mount", 0, invisible=True, maxUnitCost=700)
        lord = unit("Lord", 400, maxUnitCost=650, options=[
            option("Relic", 100), option("Charm", 50), option("Blade", 10),
            {"optionsLabel": "Mount", "maxSize": 1, "options": [option("Griffon", 190, refopt="griffon_mount")]}])
        book, report = convert(TEXT_2025, characters=[lord], mounts=[griffon])
        assert errors(book, [CHIEF, {"entry": "lord", "options": {"relic": 1, "charm": 1}}]) == []  # 550
        assert errors(book, [CHIEF, {"entry": "lord", "options": {"relic": 1, "charm": 1, "blade": 1, "griffon": 1}}]) == [
            "Lord (points of the unit): 750 pts in Lord (u1); at most 700 pts."]
        assert errors(book, [CHIEF, {"entry": "lord", "options": {"relic": 1, "blade": 1, "griffon": 1}}]) == []  # 700
        assert errors(book, [CHIEF, {"entry": "lord", "options": {"relic": 1, "charm": 1, "griffon": 1}}]) == [
            "Lord (points of the unit): 740 pts in Lord (u1); at most 700 pts."]
        assert "option maxUnitCost" not in report.unchecked and "unit maxUnitCost" not in report.unchecked

    def test_an_override_raises_a_mounts_cap_where_the_unit_has_an_option(self):
        # Kingdom of Equitaine's Duke on a Fey Steed (koe.json, 2025): `maxUnitCost: 700`, 800 where the unit
        # has Sainted (an override, named "not checked" on 58 lists before).
        lord = unit("Lord", 400, options=[
            option("Sainted", 95, refs=["sainted"]), option("Relic", 100), option("Charm", 5), option("Pin", 1),
            {"optionsLabel": "Mount", "maxSize": 1, "options": [option("Fey Steed", 200, maxUnitCost=700, override=[
                {"hasOption": [{"refs": ["sainted"], "amount": 1}], "options": {"maxUnitCost": 800}}])]}])
        book, report = convert(TEXT_2025, characters=[lord])
        assert "option override" not in report.unchecked
        steed = {"fey-steed": 1, "relic": 1}
        assert errors(book, [CHIEF, {"entry": "lord", "options": steed}]) == []  # 700
        assert errors(book, [CHIEF, {"entry": "lord", "options": {**steed, "pin": 1}}]) == [
            "Lord (points of the unit): 701 pts in Lord (u1); at most 700 pts."]
        sainted = {**steed, "sainted": 1, "charm": 1}
        assert errors(book, [CHIEF, {"entry": "lord", "options": sainted}]) == []  # 800
        assert errors(book, [CHIEF, {"entry": "lord", "options": {**sainted, "pin": 1}}]) == [
            "Lord (points of the unit): 801 pts in Lord (u1); at most 800 pts."]

    def test_without_the_texts_rule_maxunitcost_bounds_nothing(self):
        # 2026 text: no general cap; New Recruit's lists take a Maw of Akaan (maxUnitCost 650) at 820 (below).
        lord = unit("Lord", 400, maxUnitCost=650, options=[option("Relic", 300)])
        book, _ = convert(TEXT_2026, characters=[lord])
        assert errors(book, [CHIEF, {"entry": "lord", "options": {"relic": 1}}]) == []


class TestHeights:
    """`hasStat` (profiles.py): an item for models of some Heights only; a mount taller than its rider
    decides, unless an override of the item lifts it where the unit has that mount."""
    GEM = option("Eternity Gem", 40, hasStat={"global": {"Hgt": {"values": ["1", "2", "3"]}}})
    SLEEVES = option("Long Sleeves", 5, hasStat={"global": {"Hgt": {"excluded": ["5"]}}})
    # Vampire Counts' Eternity Gem: any Height where the Count rides a Monstrous Revenant (`hasStat: {}`).
    LIFTED = {**GEM, "name": "Grave Gem", "override": [
        {"hasOption": [{"refs": ["revenant_mount"], "amount": 1}], "options": {"hasStat": {}}}]}

    def convert(self, heights: dict):
        count = unit("Count", 200, options=[self.GEM, self.SLEEVES, self.LIFTED, {
            "optionsLabel": "Mount", "maxSize": 1, "options": [option("Revenant", 200, refopt="revenant_mount"),
                                                               option("Dragon", 300, refopt="dragon_mount")]}])
        giant = unit("Giant", 250, options=[self.GEM, self.SLEEVES])
        mounts = [{**unit("Revenant Mount", 0, invisible=True), "refs": ["revenant_mount"]},
                  unit("Dragon Mount", 0, invisible=True)]
        cats = [{"name": "Characters", "refs": ["perso"], "maxPercent": 0.4,
                 "options": [unit("Chief", 100, options=[GENERAL]), count]},
                {"name": "Special", "refs": ["special"], "options": [giant]},
                {"name": "Mounts", "refs": ["mounts"], "invisible": True, "options": mounts}]
        data = {"name": "Test Army", "short": "ta", "version": "1", "army": [{"name": "Army", "options": cats}]}
        profiles = {uid: {"height": h} for uid, h in heights.items()}  # unitstats.json's `units.ta`
        book, report = ArmyConverter(data, {}, "2025-06-01", CATEGORIES, profiles=profiles).convert()
        return build_book(book, SYSTEM, {}, "test army"), report

    HEIGHTS = {"count": "1", "giant": "5", "revenant_mount": "4", "dragon_mount": "5"}

    def test_an_item_for_some_heights_is_refused_to_a_taller_unit(self):
        book, report = self.convert(self.HEIGHTS)
        assert errors(book, [CHIEF, {"entry": "giant", "options": {"eternity-gem": 1}}]) == [
            "Eternity Gem (a model of Height 1, 2, 3): 1 taken in Giant (u1); at most 0."]
        assert errors(book, [CHIEF, {"entry": "giant", "options": {"long-sleeves": 1}}]) == [
            "Long Sleeves (not a model of Height 5): 1 taken in Giant (u1); at most 0."]
        assert "option hasStat" not in report.unchecked

    def test_a_taller_mount_decides(self):
        book, _ = self.convert(self.HEIGHTS)
        on_foot = {"entry": "count", "options": {"eternity-gem": 1, "long-sleeves": 1}}
        assert errors(book, [CHIEF, on_foot]) == []
        revenant = {"entry": "count", "options": {"eternity-gem": 1, "long-sleeves": 1, "revenant": 1}}
        assert errors(book, [CHIEF, revenant]) == [
            "Eternity Gem (a model of Height 1, 2, 3): 1 taken in Count (u1); at most 0."]  # Height 4
        dragon = {"entry": "count", "options": {"long-sleeves": 1, "dragon": 1}}
        assert errors(book, [CHIEF, dragon]) == ["Long Sleeves (not a model of Height 5): 1 taken in Count (u1); at most 0."]

    def test_an_override_lifts_it_where_the_unit_has_an_option(self):
        book, report = self.convert(self.HEIGHTS)
        assert errors(book, [CHIEF, {"entry": "count", "options": {"grave-gem": 1, "revenant": 1}}]) == []
        assert errors(book, [CHIEF, {"entry": "count", "options": {"grave-gem": 1, "dragon": 1}}]) == [
            "Grave Gem (a model of Height 1, 2, 3): 1 taken in Count (u1); at most 0."]
        assert "option override" not in report.unchecked

    def test_a_unit_without_a_known_height_is_named_not_checked(self):
        book, report = self.convert({"count": "1"})
        assert report.unchecked["option hasStat"] == 2  # the Giant's two items
        assert errors(book, [CHIEF, {"entry": "giant", "options": {"eternity-gem": 1}}]) == []


# -- real lists, with the data of their date ---------------------------------------------------------

@lru_cache(maxsize=None)
def books_of(day: str):
    from armylists.importers.nr_t9a import check, convert as convert_all
    conversion = convert_all(_source().at(day), ["bh.json", "dl.json", "ong.json"], CATEGORIES)
    return check(conversion, SYSTEM)


WINTER_SIESTA = "6965dc6ceb6b7c443cbe5608"


@needs_data
@pytest.mark.parametrize("tournament, number, day, limit, what", [
    # The 9th Age: Mists of Montecorto (2026-01-24): two Wildhorn and two Longhorn Herds with Ambush (Rare).
    ("6951f3ca00268f6db5333730", 3, "2026-01-24", 4500, {("Wildhorn Herd", 455), ("Longhorn Herd", 426)}),
    # UK Masters 2026 (2026-01-24): a Maw of Akaan of 820 pts, its maxUnitCost 650, the cap gone from the text.
    ("696101fae0278e9a105aee40", 5, "2026-01-24", 4000, {("Maw of Akaan", 820)}),
    # Winter Siesta Tournament (2026-01-26), under a Darrmu General: four Goblin Demagogues (Uncommon: 3;
    # Regular under a Darrmu: 8), six Gogtuk Initiates with Headhunter (Uncommon; Ordinary and "at most 6"),
    # seven Mad Gits (Uncommon; Regular), two Guardian Behemoths (Extraordinary: 1; Rare: 2).
    (WINTER_SIESTA, 99, "2026-01-26", 4000, {("Gogtuk Initiate", 55), ("Mad Git", 55), ("Guardian Behemoth", 375)}),
])
def test_real_lists_are_new_recruits_to_the_point_and_legal(tournament, number, day, limit, what):
    line = summary(tournament, number)
    book = books_of(day)[line["army"].lower()]  # the data of the last commit before the day
    reading = read_list(line, book, limit)
    assert [(r.name, r.priced, r.cause) for r in reading.units] == [(r.name, r.cost, "") for r in reading.units]
    assert what <= {(r.name, r.cost) for r in reading.units}
    report = validate(book, parse_roster(reading.document))
    assert [v.message for v in report.violations if v.severity == "error"] == []


@needs_data
def test_the_same_list_without_its_darrmu_breaks_the_rarities_the_darrmu_loosened():
    book = books_of("2026-01-26")["ong"]
    document = read_list(summary(WINTER_SIESTA, 99), book, 4000).document
    for u in document["units"]:  # the General's "Darrmu and Goblin Gardens" left out
        u["options"] = {k: n for k, n in u.get("options", {}).items() if not k.startswith("darrmu")}
    report = validate(book, parse_roster(document))
    assert sorted(v.message for v in report.violations if v.severity == "error") == [
        "Goblin Demagogue (Uncommon): 4 units with it in the army; at most 3.",
        "Guardian Behemoth (Extraordinary): 2 units with it in the army; at most 1.",
        "Headhunter (Uncommon): 6 units with it in the army; at most 3.",
        "Mad Git (Uncommon): 7 units with it in the army; at most 3."]
