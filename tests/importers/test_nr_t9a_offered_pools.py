"""The pools New Recruit's editor offers though no army file pulls them in (issue 23; FORMAT.md item 9,
nr_t9a.yaml `offered_pools`, docs/import-nr-t9a.md "Leadership Skills").

special.json holds a `leadershipSkills` pool (from 2025-01 to 2025-09-18: Battleline Hero 30, General only;
Innovative Leader; Recruiting Officer, free) and a `recruitingOfficer` pool (Fresh Meat 35, for an army with a
Recruiting Officer: a fifth more models, rounded up, `maxSizeMult` 1.2; `maxUnitCost` 800). The data's rule text
(ruledefs.json `rulebook-leadership_skills`) says who takes them: "Battleline Hero, General only, 30";
"Recruiting Officer, free: any unit in your Army List that is not a single model unit may take ... Fresh
Meat (35 pts / unit)", "a unit entry with unit size 10-24 models increases the maximum ... to 10-29 models".
The real lists are read with the data of 0b0977b (2025-05-09), from ../shared/external/new-recruit-t9a at run
time, never copied here.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from armylists.importers.nr_t9a.army import ArmyConverter
from armylists.importers.nr_t9a.summary import read_list
from armylists.rules import parse_roster, validate
from armylists.rules.reading.loader import build_book, load_system_part

from tests.importers.nr_summaries import BUNDLE, needs_data, summary

ROOT = Path(__file__).resolve().parents[2]
SYSTEM, _, _ = load_system_part(ROOT / "rules_data" / "t9a-2", ROOT / "rules_data")
CATEGORIES = frozenset(c.id for c in SYSTEM.categories)
SKILLS_COMMIT = "0b0977b"  # 2025-05-09: special.json with both pools filled

# -- the mapping, on a small army in the data's shape ----------------------------------------------------

SKILLS = {"optionsLabel": "Leadership Skills", "refs": ["leadershipSkills"], "maxSize": 1, "options": [
    {"type": "check", "name": "Battleline Hero", "hasOption": ["army_general"], "cost": 30},
    {"type": "check", "name": "Recruiting Officer", "refs": ["recruiting_officer"], "cost": 0}]}
FRESH_MEAT = {"optionsLabel": "Recruiting Officer", "refs": ["recruitingOfficer"], "options": [
    {"type": "check", "name": "Fresh Meat", "cost": 35, "maxSizeMult": 1.2, "maxUnitCost": 800,
     "armyHasOption": ["recruiting_officer"], "refs": ["fresh_meat"]}]}


def small_army(pools=(SKILLS, FRESH_MEAT)):
    general = {"optionsLabel": "Leadership", "maxSize": 1, "options": [
        {"type": "check", "name": "General", "cost": 0, "refs": ["army_general"]}]}
    captain = {"name": "Captain", "unit_id": "captain", "cost": 100, "options": [general]}
    spears = {"name": "Spearmen", "unit_id": "spearmen", "cost": 100, "options": [
        {"addToUnitSize": True, "minSize": 10, "maxSize": 24,
         "options": [{"type": "numeric", "name": "Number", "cost": 10}]}]}
    cannon = {"name": "Cannon", "unit_id": "cannon", "cost": 200}
    cats = [{"name": "Characters", "refs": ["perso"], "maxPercent": 0.4, "options": [captain]},
            {"name": "Core", "refs": ["base"], "options": [spears]},
            {"name": "Special", "refs": ["special"], "options": [cannon]}]
    data = {"name": "Test Army", "short": "ta", "version": "1", "army": [{"name": "Army", "options": cats}]}
    pools = [dict(p) for p in pools]
    return ArmyConverter(data, {p["refs"][0]: p["options"] for p in pools}, "2025-05-09", CATEGORIES,
                         heads={p["refs"][0]: p for p in pools}).convert()


def offered(book: dict, eid: str) -> list[tuple]:
    entry = next(e for e in book["entries"] if e["id"] == eid)
    return [(o["name"], o["cost"], o.get("requires"), o.get("size"), o.get("item_pool")) for o in entry.get("options", ())
            if o.get("item_pool") in ("Leadership Skills", "Recruiting Officer")]


class TestTheMapping:
    def test_a_character_is_offered_one_leadership_skill_battleline_hero_for_the_general(self):
        book, report = small_army()
        assert offered(book, "captain") == [
            ("Battleline Hero", 30, ["general"], None, "Leadership Skills"),
            ("Recruiting Officer", 0, None, None, "Leadership Skills")]
        captain = book["entries"][0]
        skill_group = next(o["group"] for o in captain["options"] if o["name"] == "Battleline Hero")
        assert captain["groups"][skill_group] == {"name": "Leadership Skills", "max": 1}

    def test_a_unit_of_several_models_is_offered_fresh_meat_with_a_fifth_more_models_rounded_up(self):
        book, report = small_army()
        assert offered(book, "spearmen") == [("Fresh Meat", 35, None, {"min": 10, "max": 29}, "Recruiting Officer")]
        assert offered(book, "cannon") == []  # a single model unit
        assert "option maxUnitCost" not in report.unchecked  # a rule where the rule text states a cap (rarity.py)

    @pytest.mark.parametrize("mult", [1e300, 0.5, -5])
    def test_a_multiplier_out_of_reason_leaves_the_entrys_bounds_and_is_named(self, mult):
        fresh_meat = {**FRESH_MEAT, "options": [{**FRESH_MEAT["options"][0], "maxSizeMult": mult}]}
        book, report = small_army(pools=(SKILLS, fresh_meat))
        assert offered(book, "spearmen") == [("Fresh Meat", 35, None, None, "Recruiting Officer")]
        assert report.unchecked["option maxSizeMult outside 1 to 10"] == 1

    def test_a_multiplier_that_is_no_number_is_refused(self):
        fresh_meat = {**FRESH_MEAT, "options": [{**FRESH_MEAT["options"][0], "maxSizeMult": "x"}]}
        with pytest.raises(ValueError):  # the command's "Nothing imported." (exit 2), as any value it cannot read
            small_army(pools=(SKILLS, fresh_meat))

    def test_an_empty_pool_offers_nothing(self):
        # special.json from 2025-09-18: `leadershipSkills` with no options; `recruitingOfficer` gone from 2026.
        book, _ = small_army(pools=({**SKILLS, "options": []},))
        assert offered(book, "captain") == offered(book, "spearmen") == []


def judged(*units: dict):
    book = build_book(small_army()[0], SYSTEM, {}, "test army")
    doc = {"format": "armylist/1", "system": "t9a-2", "book": book.id, "book_version": book.version,
           "points_limit": 4500, "units": list(units)}
    report = validate(book, parse_roster(doc))
    return [(v.code, v.message) for v in report.violations if v.severity == "error"
            and v.code not in ("points.under_limit", "category.min_percent")], report


CAPTAIN = {"id": "c", "entry": "captain", "general": True, "options": {"general": 1}}


class TestTheRules:
    def test_battleline_hero_is_the_generals_and_costs_30(self):
        errors, report = judged({**CAPTAIN, "options": {"general": 1, "battleline-hero": 1}})
        assert (errors, report.units[0].points) == ([], 130)
        errors, _ = judged({"id": "c", "entry": "captain", "options": {"battleline-hero": 1}},
                           {"id": "d", "entry": "captain", "general": True, "options": {"general": 1}})
        assert [code for code, _ in errors] == ["options.requires"]

    def test_one_skill_a_character(self):
        errors, _ = judged({**CAPTAIN, "options": {"general": 1, "battleline-hero": 1, "recruiting-officer": 1}})
        assert [code for code, _ in errors] == ["options.group_max"]

    def test_fresh_meat_needs_a_recruiting_officer_in_the_army(self):
        errors, report = judged(CAPTAIN, {"id": "s", "entry": "spearmen", "size": 10, "options": {"fresh-meat": 1}})
        assert errors == [("tally.max", "Fresh Meat (needs Recruiting Officer in the army): 1 taken in the army; at most 0.")]
        assert report.units[1].points == 100 + 10 * 10 + 35
        errors, _ = judged({**CAPTAIN, "options": {"general": 1, "recruiting-officer": 1}},
                           {"id": "s", "entry": "spearmen", "size": 10, "options": {"fresh-meat": 1}})
        assert errors == []

    @pytest.mark.parametrize("size, fresh_meat, codes", [
        (24, False, []), (25, False, [("unit.size_max", "Spearmen (s) has 25 models; at most 24.")]),  # 10-24
        (29, True, []), (30, True, [("unit.size_max", "Spearmen (s) has 30 models; at most 29 as a Fresh Meat.")]),
        # with Fresh Meat 24 x 1.2 = 28.8, rounded up: 29
    ])
    def test_the_unit_size_at_its_bounds(self, size, fresh_meat, codes):
        spears = {"id": "s", "entry": "spearmen", "size": size, "options": {"fresh-meat": 1} if fresh_meat else {}}
        errors, _ = judged({**CAPTAIN, "options": {"general": 1, "recruiting-officer": 1}}, spears)
        assert errors == codes


def test_the_summary_reader_solves_a_size_only_fresh_meat_allows():
    # 100 + 10 a model: 29 Spearmen with Fresh Meat cost 100 + 290 + 35 = 425 (past the entry's 24).
    book = build_book(small_army()[0], SYSTEM, {}, "test army")
    line = {"army": "TA", "tournament": "t", "start": "2025-05-10", "points_per_category": {"Total": 555},
            "units": [{"name": "Captain", "cost": 100, "category": "Characters",
                       "options": [{"name": "General", "type": "Leadership"},
                                   {"name": "Recruiting Officer", "type": "Specialist Skill"}]},
                      {"name": "Spearmen", "cost": 425, "category": "Core",
                       "options": [{"name": "Fresh Meat", "type": "Other"}]}]}
    reading = read_list(line, book, 4500)
    assert [(r.name, r.size, r.priced, r.cause) for r in reading.units] == [
        ("Captain", 1, 100, ""), ("Spearmen", 29, 425, "")]
    report = validate(book, parse_roster(reading.document))
    assert [v.code for v in report.violations if v.severity == "error" and v.code != "points.under_limit"] == []


# -- real lists, with the data of their date ---------------------------------------------------------

@lru_cache(maxsize=None)
def books_of(commit: str):
    from armylists.importers.nr_t9a import check, convert, open_source
    source = open_source(BUNDLE)
    try:
        conversion = convert(source.at(commit), ["ud.json", "de.json", "dl.json"], CATEGORIES)
    finally:
        source.close()
    return check(conversion, SYSTEM)


@needs_data
@pytest.mark.parametrize("tournament, number, units", [
    # Karl-Franz-Cup 34 (2025-05-17, 4000 pts): a Pharaoh Recruiting Officer (380) and Tomb Reapers with
    # Fresh Meat (675 for 4); a Dread Prince General and Battleline Hero (670); a Pharaoh the same (470).
    ("673b78c2b802dbb5d1ab79d5", 19, {("Pharaoh", 380, "recruiting-officer"), ("Tomb Reapers", 675, "fresh-meat")}),
    ("673b78c2b802dbb5d1ab79d5", 8, {("Dread Prince", 670, "battleline-hero")}),
    ("673b78c2b802dbb5d1ab79d5", 13, {("Pharaoh", 470, "battleline-hero")}),
    # Master Blaster 2025 (2025-05-24, 4000 pts): a Miser of Sugulag Recruiting Officer (860), Hoarders with
    # Fresh Meat (657 for 6).
    ("67c083c28bbf0bd225128d13", 12, {("Miser of Sugulag", 860, "recruiting-officer"), ("Hoarders", 657, "fresh-meat")}),
])
def test_real_lists_taking_them_are_new_recruits_to_the_point_and_legal(tournament, number, units):
    line = summary(tournament, number)
    book = books_of(SKILLS_COMMIT)[line["army"].lower()]
    reading = read_list(line, book, 4000)
    assert [(r.name, r.priced, r.cause) for r in reading.units] == [(r.name, r.cost, "") for r in reading.units]
    assert {(r.name, r.cost, o) for r in reading.units for o in r.options
            if o in ("recruiting-officer", "fresh-meat", "battleline-hero")} == units
    report = validate(book, parse_roster(reading.document))
    assert [v.code for v in report.violations if v.severity == "error"] == []
    ours = {c.id: c.points for c in report.categories}
    assert (ours["characters"], ours["core"], report.total_points) == (
        line["points_per_category"]["Characters"], line["points_per_category"]["Core"], line["points_per_category"]["Total"])
