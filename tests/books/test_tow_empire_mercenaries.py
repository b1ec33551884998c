"""The Empire of Man's mercenaries hired from other army lists (rules_data/the-old-world/books/empire-of-man.yaml):
the Dwarfs' Doomseeker, Imperial Dwarf Mercenaries and Prince Ulther's Dragon Company and the Orcs' Badlands
Ogre Bulls, priced as the Dwarfen Mountain Holds and Orc & Goblin Tribes books price them, with their limits
when the Empire hires them.

Facts: Old World Builder's the-old-world-system.json (which composition hires which: a Grand Army all four, a
City-State of Nuln all but the Ogre Bulls, a Knightly Order none), its rules.js (0-3 Doomseekers and 0-1 unit
of Imperial Dwarf Mercenaries in a Grand Army, 0-2 Doomseekers per 1000 points in Nuln, Mercenaries up to 20%
of a Grand Army) and its dwarfen-mountain-holds.json and orc-and-goblin-tribes.json (points, options), as
cited in each rule's `source`.
"""
from __future__ import annotations

import pytest

from tests.books.test_tow_empire import BASE, NULN_BASE
from tests.books.tow import check

EM, OG, DW = "empire-of-man", "orc-and-goblin-tribes", "dwarfen-mountain-holds"
NULN = "city-state-of-nuln"
ORDERS = ("knightly-order-panther", "knightly-order-white-wolf", "knightly-order-blazing-sun",
          "knightly-order-morr", "knightly-order-fiery-heart")
HIRED = ("doomseeker-merc", "imperial-dwarf-mercenaries", "prince-ulthers-dragon-company", "badland-ogre-bulls")


@pytest.fixture(scope="module")
def books(tow_books):
    return tow_books


def found(report):
    return sorted((v.code, v.message) for v in report.violations)


def points_of(report, uid):
    return next(u.points for u in report.units if u.id == uid)


# The legal Grand Army and City-State of Nuln armies of tests/books/test_tow_empire.py.
GRAND_ARMY, NULN_ARMY = BASE, NULN_BASE
# A legal Dwarf Grand Army and Orc & Goblin Tribes Grand Army, to price the same units in their own books.
DWARF_ARMY = [
    {"id": "general", "entry": "king", "general": True},
    {"id": "warriors", "entry": "dwarf-warriors", "size": 60},
    {"id": "quarrellers", "entry": "quarrellers", "size": 10},
    {"id": "thunderers", "entry": "thunderers", "size": 10},
]
ORC_ARMY = [
    {"id": "general", "entry": "orc-warboss", "general": True},
    {"id": "orcs", "entry": "orc-mob", "size": 76},
    {"id": "goblins-1", "entry": "goblin-mob", "size": 20},
    {"id": "goblins-2", "entry": "goblin-mob", "size": 20},
]

# Each unit as a list takes it, its points, and the book whose own entry prices it the same.
DOOMSEEKER = {"id": "doomseeker", "entry": "doomseeker-merc",
              "options": {"tattoo-rune-of-the-dishonoured": 1, "tattoo-rune-of-grit": 1, "tattoo-rune-of-blazing-fury": 1}}
IMPERIAL_DWARFS = {"id": "dwarfs", "entry": "imperial-dwarf-mercenaries", "size": 10,
                   "options": {"handguns": 1, "heavy-armour": 1, "shields": 1, "drilled": 1, "veteran": 1},
                   "command": ["champion", "standard", "musician"]}
DRAGON_COMPANY = {"id": "dragon-company", "entry": "prince-ulthers-dragon-company", "size": 10,
                  "command": ["champion", "standard", "musician"]}
OGRE_BULLS = {"id": "ogre-bulls", "entry": "badland-ogre-bulls", "size": 3,
              "options": {"heavy-armour": 1, "great-weapons": 2, "ironfists": 1},
              "command": ["champion", "standard", "musician"]}
PRICED = [
    # 50 + 50 + 25 + 5 (three runic tattoos)
    (DOOMSEEKER, 130, DW),
    # 10 x (8 + 3 handguns + 1 heavy armour + 1 shields + 1 drilled + 1 veteran) + 3 x 5 command
    (IMPERIAL_DWARFS, 165, DW),
    # 115 for the four-model command group (59 + 4 x 14) and 14 for each of the six further troopers
    (DRAGON_COMPANY, 199, DW),
    # 3 x (31 + 4 heavy armour) + 2 x 4 great weapons + 4 ironfists + 7 champion + 6 standard + 6 musician
    (OGRE_BULLS, 136, OG),
]


@pytest.mark.parametrize("unit, points, home", PRICED, ids=[u["entry"] for u, _, _ in PRICED])
def test_a_grand_army_hires_each_mercenary_at_its_own_books_price(books, unit, points, home):
    report = check(books[EM], GRAND_ARMY + [unit])
    assert report.violations == (), found(report)
    assert points_of(report, unit["id"]) == points
    assert [u.category for u in report.units if u.id == unit["id"]] == ["mercenaries"]
    assert {c.id: c.points for c in report.categories}["mercenaries"] == points
    # The same unit in the book it comes from costs the same.
    own = check(books[home], (DWARF_ARMY if home == DW else ORC_ARMY) + [unit])
    assert points_of(own, unit["id"]) == points



def test_the_home_armies_are_legal(books):
    assert check(books[DW], DWARF_ARMY).violations == ()
    assert check(books[OG], ORC_ARMY).violations == ()


def test_the_doomseekers_runic_tattoos_are_at_most_three(books):
    four = {**DOOMSEEKER, "options": {**DOOMSEEKER["options"], "tattoo-warriors-rune": 1}}
    report = check(books[EM], GRAND_ARMY + [four])
    assert [v.code for v in report.violations] == ["options.group_max"]
    assert points_of(report, "doomseeker") == 140


def test_a_grand_army_hires_0_3_doomseekers(books):
    # Forces of Fantasy, Dwarfen Mountain Holds: 0-3 Doomseekers per army (Old World Builder rules.js, empire-of-man)
    seekers = [{"id": f"doomseeker-{i}", "entry": "doomseeker-merc"} for i in range(4)]
    assert check(books[EM], GRAND_ARMY + seekers[:3]).violations == ()
    report = check(books[EM], GRAND_ARMY + seekers)
    assert found(report) == [("count.max", "Doomseeker mercenaries: 4 units taken; at most 3.")]
    assert report.violations[0].rule == "doomseeker-mercenaries"


def test_a_grand_army_hires_0_1_unit_of_imperial_dwarf_mercenaries(books):
    plain = {"id": "dwarfs-1", "entry": "imperial-dwarf-mercenaries", "size": 5}
    assert check(books[EM], GRAND_ARMY + [plain]).violations == ()
    report = check(books[EM], GRAND_ARMY + [plain, {**plain, "id": "dwarfs-2"}])
    assert found(report) == [("count.max", "Imperial Dwarf Mercenaries: 2 units taken; at most 1.")]
    assert report.violations[0].rule == "imperial-dwarf-mercenaries-limit"


def test_drilled_and_veteran_imperial_dwarfs_are_0_1_per_1000_points(books):
    small_army = [{"id": "general", "entry": "captain-of-the-empire", "general": True},
                  {"id": "state-troops", "entry": "state-troops", "size": 50},
                  {"id": "archers-1", "entry": "empire-archers", "size": 5},
                  {"id": "archers-2", "entry": "empire-archers", "size": 5}]
    dwarfs = {"id": "dwarfs", "entry": "imperial-dwarf-mercenaries", "size": 5, "options": {"drilled": 1, "veteran": 1}}
    assert check(books[EM], small_army + [dwarfs], 1000).violations == ()
    assert found(check(books[EM], small_army + [dwarfs], 999)) == [
        ("count.max", "Drilled Imperial Dwarf Mercenaries: 1 unit taken; at most 0 (1 per 1000 pts of the 999-pt limit)."),
        ("count.max", "Veteran Imperial Dwarf Mercenaries: 1 unit taken; at most 0 (1 per 1000 pts of the 999-pt limit).")]


def test_the_imperial_dwarfs_take_one_weapon(books):
    both = {**IMPERIAL_DWARFS, "options": {"handguns": 1, "crossbows": 1}}
    assert [v.code for v in check(books[EM], GRAND_ARMY + [both]).violations] == ["options.group_max"]
    # The Dwarfs' banner runes are not in the Empire book (its notes (9)): the standard takes no items.
    assert books[EM].entries["imperial-dwarf-mercenaries"].command["standard"].items is None


# --- the Dwarfs' weapon runes (copied from dwarfen-mountain-holds.yaml; notes (9)) ------------------------

WEAPON_RUNES = {"weapon-runes", "master-weapon-runes"}


def test_the_empire_book_has_the_dwarf_weapon_runes_as_the_dwarf_book_has_them(books):
    em, dw = books[EM], books[DW]
    for cid in WEAPON_RUNES:
        assert em.system.item_categories[cid] == dw.system.item_categories[cid]
    runes = {i for i, item in dw.items.items() if item.category in WEAPON_RUNES}
    assert len(runes) == 16
    assert {i for i, item in em.items.items() if item.category in WEAPON_RUNES} == runes
    for rid in runes:
        assert em.items[rid] == dw.items[rid]
    # No banner (or other) rune is in the Empire book.
    assert not {c for c in em.system.item_categories if "rune" in c} - WEAPON_RUNES
    # The hired Dwarfs' allowances are the Dwarf book's (its Royal Clan change aside).
    for entry, part in (("doomseeker-merc", None), ("imperial-dwarf-mercenaries", "champion")):
        mine = em.entries[entry].items if part is None else em.entries[entry].command[part].items
        theirs = dw.entries[entry].items if part is None else dw.entries[entry].command[part].items
        assert (mine.allowance, mine.categories, mine.book_only, mine.category_allowance) == (
            theirs.allowance, theirs.categories, theirs.book_only, theirs.category_allowance)
        assert mine.categories == WEAPON_RUNES


def test_a_hired_doomseeker_takes_weapon_runes_up_to_50_points(books):
    # Master Rune of Flight 25 + Rune of Fury 25 = 50
    runes = {"id": "doomseeker", "entry": "doomseeker-merc", "items": ["master-rune-of-flight", "rune-of-fury"]}
    report = check(books[EM], GRAND_ARMY + [runes])
    assert report.violations == (), found(report)
    assert points_of(report, "doomseeker") == 100
    # + Rune of Speed 5 = 55
    over = check(books[EM], GRAND_ARMY + [{**runes, "items": runes["items"] + ["rune-of-speed"]}])
    assert found(over) == [("items.allowance", "Doomseeker (Mercenary) (doomseeker) has 55 pts of magical items; "
                                                "its allowance is 50 pts.")]


def test_a_master_weapon_rune_is_once_per_army(books):
    seekers = [{"id": f"doomseeker-{i}", "entry": "doomseeker-merc", "items": ["master-rune-of-breaking"]}
               for i in (1, 2)]
    assert check(books[EM], GRAND_ARMY + seekers[:1]).violations == ()
    report = check(books[EM], GRAND_ARMY + seekers)
    assert [v.code for v in report.violations] == ["items.duplicate"]
    # An ordinary rune may be on several items.
    seekers = [{**s, "items": ["rune-of-fury"]} for s in seekers]
    assert check(books[EM], GRAND_ARMY + seekers).violations == ()


def test_the_imperial_dwarf_champion_takes_weapon_runes_up_to_25_points(books):
    dwarfs = {"id": "dwarfs", "entry": "imperial-dwarf-mercenaries", "size": 5, "command": ["champion"],
              "champion_items": ["rune-of-might", "rune-of-speed"]}  # 20 + 5
    report = check(books[EM], GRAND_ARMY + [dwarfs])
    assert report.violations == (), found(report)
    assert points_of(report, "dwarfs") == 5 * 8 + 5 + 25
    over = check(books[EM], GRAND_ARMY + [{**dwarfs, "champion_items": ["rune-of-might", "rune-of-fire"]}])  # 30
    assert [v.code for v in over.violations] == ["items.allowance"]
    # Its standard bearer takes no runes (banner runes are not in the Empire book).
    banner = check(books[EM], GRAND_ARMY + [{**dwarfs, "command": ["champion", "standard"],
                                              "champion_items": [], "standard_items": ["rune-of-speed"]}])
    assert [v.code for v in banner.violations] == ["items.not_allowed"]


def test_an_empire_character_cannot_take_weapon_runes(books):
    captain = {"id": "captain", "entry": "captain-of-the-empire", "items": ["rune-of-fury"]}
    report = check(books[EM], GRAND_ARMY + [captain])
    assert [v.code for v in report.violations] == ["items.category_not_allowed"], found(report)
    # No Empire entry's or command's allowance names a rune category: only the hired Dwarfs'.
    takers = set()
    for eid, entry in books[EM].entries.items():
        for access in [entry.items] + [c.items for c in entry.command.values()]:
            assert access is None or access.categories is not None, eid
            if access is not None and access.categories & WEAPON_RUNES:
                takers.add(eid)
    assert takers == {"doomseeker-merc", "imperial-dwarf-mercenaries"}


def test_prince_ulthers_dragon_company_is_at_least_its_four_model_command_group(books):
    company = {"id": "dragon-company", "entry": "prince-ulthers-dragon-company", "size": 4}
    report = check(books[EM], GRAND_ARMY + [company])
    assert report.violations == () and points_of(report, "dragon-company") == 115
    report = check(books[EM], GRAND_ARMY + [{**company, "size": 3}])
    assert [v.code for v in report.violations] == ["unit.size_min"]


def test_the_ogre_bulls_motley_crew_and_magic_standard(books):
    # Motley Crew: a weapon upgrade at most once per model (3 great weapons for 3 Ogres, not 4).
    crew = {"id": "ogre-bulls", "entry": "badland-ogre-bulls", "size": 3, "options": {"great-weapons": 3}}
    assert check(books[EM], GRAND_ARMY + [crew]).violations == ()
    over = check(books[EM], GRAND_ARMY + [{**crew, "options": {"great-weapons": 4}}])
    assert [v.code for v in over.violations] == ["options.max_per_models"]
    # Their standard bearer carries a magic standard up to 50 points, as in the Orc & Goblin Tribes book.
    banner = {**crew, "command": ["standard"], "standard_items": ["griffon-standard"]}  # 50 pts
    report = check(books[EM], GRAND_ARMY + [banner])
    assert report.violations == (), found(report)
    assert points_of(report, "ogre-bulls") == 3 * 31 + 3 * 4 + 6 + 50
    too_dear = check(books[EM], GRAND_ARMY + [{**banner, "standard_items": ["imperial-banner"]}])  # 60 pts
    assert [v.code for v in too_dear.violations] == ["items.allowance"]


# --- which composition hires which ---------------------------------------------------------------------

def test_the_city_state_of_nuln_refuses_the_badland_ogre_bulls(books):
    bulls = {"id": "ogre-bulls", "entry": "badland-ogre-bulls", "size": 3}
    assert check(books[EM], GRAND_ARMY + [bulls]).violations == ()
    report = check(books[EM], NULN_ARMY + [bulls], composition=NULN)
    assert found(report) == [
        ("count.max", "Badlands Ogre Bulls (a City-State of Nuln does not hire them): 1 unit taken; at most 0.")]
    assert report.violations[0].rule == "nuln-badland-ogre-bulls"
    assert report.violations[0].unit == "ogre-bulls"


def test_the_city_state_of_nuln_hires_the_dwarfs_three(books):
    hired = [DOOMSEEKER, {"id": "dwarfs", "entry": "imperial-dwarf-mercenaries", "size": 10},
             {"id": "dragon-company", "entry": "prince-ulthers-dragon-company", "size": 4}]
    report = check(books[EM], NULN_ARMY + hired, composition=NULN)
    assert report.violations == (), found(report)
    assert {c.id: c.points for c in report.categories}["mercenaries"] == 130 + 80 + 115


def test_the_city_state_of_nuln_hires_0_2_doomseekers_per_1000_points(books):
    # Old World Builder rules.js, city-state-of-nuln: 0-2 per 1000 points in place of the Grand Army's 0-3.
    seekers = [{"id": f"doomseeker-{i}", "entry": "doomseeker-merc"} for i in range(5)]
    assert check(books[EM], NULN_ARMY + seekers[:4], composition=NULN).violations == ()
    report = check(books[EM], NULN_ARMY + seekers, composition=NULN)
    assert found(report) == [
        ("count.max", "Doomseeker mercenaries: 5 units taken; at most 4 (2 per 1000 pts of the 2000-pt limit).")]
    assert report.violations[0].rule == "nuln-doomseeker-mercenaries"
    assert found(check(books[EM], NULN_ARMY + seekers[:3], 1999, composition=NULN)) == [
        ("count.max", "Doomseeker mercenaries: 3 units taken; at most 2 (2 per 1000 pts of the 1999-pt limit).")]


KNIGHTLY_ARMIES = {
    order: [{"id": "grand-master", "entry": "grand-master", "general": True, "mount": "barded-warhorse",
             "options": {option: 1}},
            {"id": "chapter-master", "entry": "chapter-master", "mount": "barded-warhorse", "options": {option: 1}},
            {"id": "knights-1", "entry": knights, "size": 20, **weapons},
            {"id": "knights-2", "entry": knights, "size": 5, **weapons},
            {"id": "archers-1", "entry": "empire-archers", "size": 10},
            {"id": "archers-2", "entry": "empire-archers", "size": 5}]
    for order, option, knights, weapons in [
        ("knightly-order-panther", "order-of-the-knights-panther", "empire-knights-panther", {}),
        ("knightly-order-white-wolf", "order-of-the-white-wolf", "empire-knights-white-wolf", {"options": {"wolf-hammers": 1}}),
        ("knightly-order-blazing-sun", "order-of-the-blazing-sun", "empire-knights-blazing-sun", {"options": {"lances-and-shields": 1}}),
        ("knightly-order-morr", "order-of-the-knights-of-morr", "empire-knights-morr", {"options": {"lances-and-shields": 1}}),
        ("knightly-order-fiery-heart", "order-of-the-fiery-heart", "empire-knights-fiery-heart", {"options": {"lances-and-shields": 1}}),
    ]
}


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("entry", HIRED)
def test_a_knightly_order_hires_none_of_them(books, order, entry):
    army = KNIGHTLY_ARMIES[order]
    assert check(books[EM], army, composition=order).violations == ()
    report = check(books[EM], army + [{"id": "hired", "entry": entry}], composition=order)
    refusals = [v for v in report.violations if v.code == "count.max"]
    assert [(v.rule, v.message, v.unit) for v in refusals] == [
        (f"{order[len('knightly-order-'):]}-no-foreign-mercenaries",
         "Mercenaries from other army lists (a Knightly Order hires none): 1 unit taken; at most 0.", "hired")]
    # The Knights Panther take Mercenaries (White Wolf knights), so only this rule refuses them there; the
    # other Orders take none, and their 0% Mercenaries refuses them too.
    others = sorted(v.code for v in report.violations if v.code != "count.max")
    assert others == ([] if order == "knightly-order-panther" else ["category.max_percent"])


# --- the Mercenaries percentage --------------------------------------------------------------------------

def test_the_grand_armys_mercenaries_maximum_applies_to_the_hired_units(books):
    # 400 pts of Mercenaries: 20% of 2000 passes, and is over 20% of 1999 (system rule mercenaries-maximum).
    hired = [
        {"id": "dragon-company", "entry": "prince-ulthers-dragon-company", "size": 5},  # 59 + 5 x 14 = 129
        {"id": "ogre-bulls", "entry": "badland-ogre-bulls", "size": 3, "command": ["champion", "standard"]},  # 106
        {"id": "doomseeker", "entry": "doomseeker-merc",
         "options": {"tattoo-rune-of-endless-battle": 1, "tattoo-rune-of-blazing-fury": 1}},  # 95
        {"id": "dwarfs", "entry": "imperial-dwarf-mercenaries", "size": 5,
         "options": {"handguns": 1, "heavy-armour": 1, "shields": 1}, "command": ["champion"]},  # 70
    ]
    report = check(books[EM], GRAND_ARMY + hired)
    assert report.violations == (), found(report)
    assert {c.id: c.points for c in report.categories}["mercenaries"] == 400
    over = check(books[EM], GRAND_ARMY + hired, 1999)
    assert found(over) == [("category.max_percent", "Mercenaries: 400 pts is 20.01% of 1999; at most 20% (399 pts).")]
    assert over.violations[0].rule == "mercenaries-maximum"
