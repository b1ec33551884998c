"""The Old World's Empire of Man book (rules_data/the-old-world/books/empire-of-man.yaml) at its boundaries."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from armylists.rules import parse_roster, validate
from armylists.rules.reading.loader import build_book, build_items, build_system, read_yaml

BOOK = ("the-old-world", "empire-of-man", "2024.4")
ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules_data" / "the-old-world"
EXAMPLES = ROOT / "docs" / "examples"
NULN = "city-state-of-nuln"


@pytest.fixture(scope="module")
def book():
    """The book with the system and the common items only, so other books being edited cannot break it."""
    system = build_system(read_yaml(RULES / "system.yaml"), "system.yaml")
    common = build_items(read_yaml(RULES / "items" / "common.yaml"), system, "items/common.yaml")
    path = RULES / "books" / "empire-of-man.yaml"
    return build_book(read_yaml(path), system, common, str(path))


def check(book, units, points_limit=2000, **extra):
    doc = {"format": "armylist/1", "system": BOOK[0], "book": BOOK[1], "book_version": BOOK[2],
           "points_limit": points_limit, "units": units, **extra}
    return validate(book, parse_roster(doc))


def codes(report):
    return sorted(v.code for v in report.violations)


def messages(report, code):
    return [v.message for v in report.violations if v.code == code]


# A legal Grand Army skeleton: the General (90) and 500 pts of Core (100 State Troops), which is 25% of
# 2000 and still at least 25% of 1999, plus two units of Archers so that three units are not characters.
BASE = [
    {"id": "general", "entry": "general-of-the-empire", "general": True},
    {"id": "state-troops", "entry": "state-troops", "size": 100},
    {"id": "archers-1", "entry": "empire-archers", "size": 5},
    {"id": "archers-2", "entry": "empire-archers", "size": 5},
]

# A legal City-State of Nuln skeleton: a regiment of Nuln State Troops (70 x 6 pts) with one Detachment
# (15 x 6 pts) makes 510 pts of Core.
NULN_BASE = [
    {"id": "general", "entry": "general-of-the-empire", "general": True},
    {"id": "regiment", "entry": "nuln-state-troops", "size": 70},
    {"id": "detachment", "entry": "state-troops-detachment", "size": 15},
    {"id": "archers", "entry": "empire-archers", "size": 5},
]


def test_the_book_loads_with_every_category(book):
    assert book is not None and book.name == "Empire of Man"
    by_category: dict[str, list[str]] = {}
    for entry in book.entries.values():
        by_category.setdefault(entry.category, []).append(entry.id)
    # Allies have no entries of their own: allied units are entries of another book (tests/books/test_tow_allies.py).
    assert set(by_category) == {"characters", "core", "special", "rare", "mercenaries"}
    assert {k: len(v) for k, v in by_category.items()} == {
        "characters": 15, "core": 16, "special": 24, "rare": 5, "mercenaries": 5}
    assert set(book.compositions) == {NULN, "knightly-order-panther", "knightly-order-white-wolf", "knightly-order-blazing-sun",
                                      "knightly-order-morr", "knightly-order-fiery-heart"}
    # 36 of the Empire's own and the Dwarfs' 16 weapon runes for the hired Dwarfs (notes (9)).
    own = [i for i in book.items.values() if not i.common]
    assert len([i for i in own if 'weapon-runes' not in i.category]) == 36
    assert len([i for i in own if i.category in ('weapon-runes', 'master-weapon-runes')]) == 16 == len(own) - 36
    assert len([i for i in book.items.values() if i.common]) >= 103
    assert book.entries["general-hans-von-lowenhacke"].tags >= {"named"}
    assert {"own-limit", "per-1000"} <= book.entries["great-cannon"].tags
    assert book.items["sword-of-might"].repeatable and not book.items["runefang"].repeatable
    assert any(line.startswith("Allied contingents are checked") for line in book.unchecked)


def test_the_base_lists_are_legal(book):
    assert codes(check(book, BASE)) == []
    assert codes(check(book, BASE, points_limit=1999)) == []
    assert codes(check(book, NULN_BASE, composition=NULN)) == []


def test_the_examples(book):
    legal = json.loads((EXAMPLES / "empire-of-man-legal.json").read_text())
    assert validate(book, parse_roster(legal)).violations == ()
    illegal = json.loads((EXAMPLES / "empire-of-man-illegal.json").read_text())
    report = validate(book, parse_roster(illegal))
    # The Battle Standard Bearer's Griffon Standard (50) is outside its allowance, so its Dawnstone (35)
    # fits the Captain's 50 pts: the items break no allowance, only One per Army (the Dawnstone twice).
    assert codes(report) == ["count.max", "items.duplicate", "points.over_limit"]
    assert messages(report, "count.max") == [
        "Helblaster Volley Guns and Helstorm Rocket Batteries: 3 units taken; "
        "at most 2 (1 per 1000 pts of the 2000-pt limit)."]
    assert messages(report, "points.over_limit") == ["Total 2302 pts is 302 pts over the 2000 pts limit."]


def test_a_shared_0_1_per_1000_limit_at_2000_and_1999_points(book):
    guns = BASE + [{"id": "volley-gun", "entry": "helblaster-volley-gun"},
                   {"id": "rockets", "entry": "helstorm-rocket-battery"}]
    assert codes(check(book, guns)) == []
    report = check(book, guns, points_limit=1999)
    assert codes(report) == ["count.max"]
    assert report.violations[0].message == (
        "Helblaster Volley Guns and Helstorm Rocket Batteries: 2 units taken; "
        "at most 1 (1 per 1000 pts of the 1999-pt limit).")
    assert report.violations[0].unit == "rockets"


def test_a_shared_character_limit_at_2000_and_1999_points(book):
    two = BASE + [{"id": "grand-master", "entry": "grand-master", "mount": "barded-warhorse"}]
    assert codes(check(book, two)) == []
    report = check(book, two, points_limit=1999)
    assert codes(report) == ["count.max"]
    assert report.violations[0].message == (
        "Generals of the Empire and Grand Masters: 2 units taken; at most 1 (1 per 1000 pts of the 1999-pt limit).")


def test_an_option_limit_is_shared_by_empire_knights_of_every_order(book):
    knights = BASE + [
        {"id": "knights", "entry": "empire-knights", "size": 5, "options": {"lances-and-shields": 1, "drilled": 1}},
        {"id": "panthers", "entry": "empire-knights-panther", "size": 5, "options": {"drilled": 1}}]
    assert codes(check(book, knights)) == []
    report = check(book, knights, points_limit=1999)
    assert codes(report) == ["count.max"]
    assert report.violations[0].message == (
        "Drilled Empire Knights: 2 units taken; at most 1 (1 per 1000 pts of the 1999-pt limit).")


def test_an_order_unit_is_0_1_per_army(book):
    report = check(book, BASE + [{"id": "p1", "entry": "empire-knights-panther", "size": 5},
                                 {"id": "p2", "entry": "empire-knights-panther", "size": 5}], points_limit=3000)
    assert codes(report) == ["one_per_army.max"]
    assert report.violations[0].message == (
        "Empire Knights Panther is limited to 0-1 per army and is taken 2 times; at most 1 in a 3000-pt army.")


def test_a_character_over_its_magic_item_allowance(book):
    at_fifty = BASE + [{"id": "captain", "entry": "captain-of-the-empire", "items": ["dragon-slaying-sword"]}]
    assert codes(check(book, at_fifty)) == []  # exactly the Captain's 50 pts
    report = check(book, BASE + [{"id": "captain", "entry": "captain-of-the-empire",
                                  "items": ["sword-of-might", "dawnstone"]}])  # 20 + 35 = 55 pts
    assert codes(report) == ["items.allowance"]
    assert report.violations[0].message == (
        "Captain of the Empire (captain) has 55 pts of magical items; its allowance is 50 pts.")


def test_a_one_per_army_item_twice_and_an_extremely_common_one_twice(book):
    twice = BASE + [{"id": "lector", "entry": "lector-of-sigmar", "items": ["runefang"]}]
    twice[0] = {**BASE[0], "items": ["runefang"]}
    report = check(book, twice)
    assert codes(report) == ["items.duplicate"]
    assert report.violations[0].message == (
        "Runefang is taken 2 times (General of the Empire (general), Lector of Sigmar (lector)); "
        "each magical item may be taken once per army.")
    common = BASE + [{"id": "lector", "entry": "lector-of-sigmar", "items": ["sword-of-might"]}]
    common[0] = {**BASE[0], "items": ["sword-of-might"]}
    assert codes(check(book, common)) == []


def test_armour_made_for_wizards(book):
    mage = BASE + [{"id": "mage", "entry": "master-mage", "path": "illusion", "items": ["armour-of-tarnus"]}]
    assert codes(check(book, mage)) == []
    captain = BASE + [{"id": "captain", "entry": "captain-of-the-empire", "items": ["armour-of-tarnus"]}]
    assert codes(check(book, captain)) == ["items.wizards_only"]


def test_nuln_moves_empire_knights_to_special(book):
    knights = {"id": "knights", "entry": "empire-knights", "size": 5, "options": {"lances-and-shields": 1}}
    grand_army = check(book, BASE + [knights])
    nuln = check(book, NULN_BASE + [knights], composition=NULN)
    assert [u.category for u in grand_army.units if u.id == "knights"] == ["core"]
    assert [u.category for u in nuln.units if u.id == "knights"] == ["special"]
    assert {c.id: c.points for c in nuln.categories}["special"] == 105
    assert codes(grand_army) == [] and codes(nuln) == []


def test_nuln_raises_the_mercenaries_percentage(book):
    ogres = {"id": "ogres", "entry": "imperial-ogres", "size": 14}  # 406 pts: 20.3% of 2000
    report = check(book, BASE + [ogres])
    assert codes(report) == ["category.max_percent"]
    assert report.violations[0].message == "Mercenaries: 406 pts is 20.3% of 2000; at most 20% (400 pts)."
    assert codes(check(book, NULN_BASE + [ogres], composition=NULN)) == []
    more = {**ogres, "size": 18}  # 522 pts: 26.1%
    assert messages(check(book, NULN_BASE + [more], composition=NULN), "category.max_percent") == [
        "Mercenaries: 522 pts is 26.1% of 2000; at most 25% (500 pts)."]


def test_nuln_only_units_and_nuln_limits(book):
    report = check(book, BASE + [{"id": "nuln", "entry": "nuln-state-troops", "size": 10}])
    assert codes(report) == ["count.max"]
    assert report.violations[0].message == "Units only for a City-State of Nuln army: 1 unit taken; at most 0."
    without_regiment = [NULN_BASE[0], {"id": "st", "entry": "empire-archers", "size": 5},
                        {"id": "militia", "entry": "free-company-militia", "size": 85},
                        {"id": "a2", "entry": "empire-archers", "size": 5}]
    assert codes(check(book, without_regiment, composition=NULN)) == ["count.min"]
    flagellants = check(book, NULN_BASE + [{"id": "f", "entry": "flagellants", "size": 10}], composition=NULN)
    assert messages(flagellants, "count.max") == ["Units not in a City-State of Nuln army: 1 unit taken; at most 0."]
    three_detachments = NULN_BASE + [{"id": f"d{i}", "entry": "state-missile-troops-detachment", "size": 5}
                                     for i in range(2)]
    assert codes(check(book, three_detachments, composition=NULN)) == ["ratio.max"]


def test_road_wardens_are_limited_only_where_they_are_special(book):
    wardens = [{"id": f"w{i}", "entry": "empire-road-wardens", "size": 4} for i in range(3)]
    assert codes(check(book, BASE + wardens)) == ["count.max"]
    nuln = check(book, NULN_BASE + wardens, composition=NULN)
    assert codes(nuln) == []
    assert {u.category for u in nuln.units if u.entry == "empire-road-wardens"} == {"rare"}


def test_grand_melee_on_an_empire_list(book):
    # 100 + 100 + 10 models: no unit holds more than half of them, and 500 pts is exactly 25% of 2000.
    melee = BASE + [{"id": "spearmen", "entry": "state-troops", "size": 100}]
    assert codes(check(book, melee, modes=["grand-melee"])) == []
    melee[1] = {**melee[1], "size": 101}  # 505 pts
    assert codes(check(book, melee)) == []
    report = check(book, melee, modes=["grand-melee"])
    assert codes(report) == ["unit.max_percent"]
    assert report.violations[0].message == (
        "State Troops (state-troops) is worth 505 pts, 25.2% of 2000; a single Core choice may be worth at most 25% "
        "(500 pts).")
    # Without the second regiment, the 100 State Troops hold more than half of the army's 111 models.
    assert messages(check(book, BASE, modes=["grand-melee"]), "unit.models_share") == [
        "State Troops (state-troops) has 100 of the army's 111 models (90.1%); a unit may hold at most 50%."]
    # A named character is exempt from the 25% (Hans von Loewenhacke is 190 pts: below it anyway), and a
    # Level 4 Wizard Lord counts towards 0-1 Level 4 Wizard per 2000 points.
    lords = BASE + [{"id": f"lord-{i}", "entry": "wizard-lord", "path": "illusion", "options": {"level-4": 1}}
                    for i in range(2)]
    assert messages(check(book, lords, modes=["grand-melee"]), "count.max") == [
        "Level 4 Wizards: 2 units taken; at most 1 (1 per 2000 pts of the 2000-pt limit)."]


def test_combined_arms_on_an_empire_list(book):
    pistoliers = [{"id": f"p{i}", "entry": "pistoliers", "size": 5} for i in range(4)]
    assert codes(check(book, BASE + pistoliers)) == []
    report = check(book, BASE + pistoliers, modes=["combined-arms"])
    assert codes(report) == ["duplicates.max"]
    assert report.violations[0].message == (
        "Pistoliers is taken 4 times; Special units may each be taken at most 3 times in a 2000-pt army.")
    # Great Cannons have their own 0-3 per 1000 points, so Combined Arms does not count them.
    cannons = [{"id": f"c{i}", "entry": "great-cannon"} for i in range(4)]
    assert codes(check(book, BASE + cannons, modes=["combined-arms"])) == []


def test_nuln_upgrades_and_items_need_a_nuln_army(book):
    engineer = {"id": "engineer", "entry": "empire-engineer", "options": {"engineer-battle-standard-bearer": 1},
                "items": ["the-banner-of-the-free-state-of-nuln"]}
    assert codes(check(book, NULN_BASE + [engineer], composition=NULN)) == []
    report = check(book, BASE + [engineer])
    assert codes(report) == ["count.max", "count.max"]
    assert sorted(v.message for v in report.violations) == [
        "Magic items only for a City-State of Nuln army: 1 unit taken; at most 0.",
        "Upgrades only for a City-State of Nuln army (Veteran and Vanguard, Veteran Outriders, an Engineer Battle "
        "Standard Bearer): 1 unit taken; at most 0."]
    # The composition decides, not a Nuln regiment in a Grand Army list (itself refused there).
    report = check(book, BASE + NULN_BASE[1:3] + [engineer])
    assert sorted(v.rule for v in report.violations) == [
        "nuln-items-outside-nuln", "nuln-units-outside-nuln", "nuln-upgrades-outside-nuln"]


# --- Detachments (001:L2517-2521, L2936-2940; the book's detachments-per-regiment) ---------------------

DETACHMENT = {"detachment": 1}


@pytest.mark.parametrize("entry,name", [("state-troops", "State Troops"),
                                        ("veteran-state-troops", "Veteran State Troops"),
                                        ("state-missile-troops", "State Missile Troops"),
                                        ("free-company-militia", "Free Company Militia")])
def test_a_detachment_has_5_to_9_models_and_any_other_unit_at_least_10(book, entry, name):
    def unit(size, options=None):
        return [{"id": "unit", "entry": entry, "size": size, **({"options": options} if options else {})}]
    for size in (5, 9):
        assert check(book, BASE + unit(size, DETACHMENT)).violations == (), size
    assert [(v.code, v.message) for v in check(book, BASE + unit(4, DETACHMENT)).violations] == [
        ("unit.size_min", f"{name} (unit) has 4 models; at least 5 as a Detachment.")]
    assert [(v.code, v.message) for v in check(book, BASE + unit(10, DETACHMENT)).violations] == [
        ("unit.size_max", f"{name} (unit) has 10 models; at most 9 as a Detachment.")]
    assert check(book, BASE + unit(10)).violations == ()
    assert [(v.code, v.message) for v in check(book, BASE + unit(9)).violations] == [
        ("unit.size_min", f"{name} (unit) has 9 models; at least 10.")]
    unsized = [{"id": "unit", "entry": entry, "options": DETACHMENT}]  # no size: the fewest it may have
    report = check(book, BASE + unsized)
    assert report.violations == ()
    assert next(u.models for u in report.units if u.id == "unit") == 5


def test_empire_archers_need_5_models_and_at_most_9_as_a_detachment(book):
    archers = {"id": "unit", "entry": "empire-archers"}
    assert check(book, BASE + [{**archers, "size": 5}]).violations == ()
    assert check(book, BASE + [{**archers, "size": 30}]).violations == ()
    assert check(book, BASE + [{**archers, "size": 9, "options": DETACHMENT}]).violations == ()
    assert [(v.code, v.message) for v in check(book, BASE + [{**archers, "size": 10, "options": DETACHMENT}]).violations] == [
        ("unit.size_max", "Empire Archers (unit) has 10 models; at most 9 as a Detachment.")]
    assert [(v.code, v.message) for v in check(book, BASE + [{**archers, "size": 4}]).violations] == [
        ("unit.size_min", "Empire Archers (unit) has 4 models; at least 5.")]


def test_the_regimental_units_are_the_entries_whose_rules_say_so(book):
    tagged = {e.id for e in book.entries.values() if "regimental-unit" in e.tags}
    assert tagged == {e.id for e in book.entries.values() if "Regimental Unit" in e.rules}
    assert tagged == {"state-troops", "veteran-state-troops", "state-missile-troops", "nuln-state-troops",
                      "nuln-veteran-state-troops", "empire-greatswords"}
    # Their tags in the Knightly Orders (where State Troops are 0-1 per 1000 points) keep the tag.
    for eid in tagged:
        assert all("regimental-unit" in tags for tags in book.entries[eid].composition_tags.values()), eid


def detachments(n, entry="state-missile-troops"):
    return [{"id": f"detachment-{i}", "entry": entry, "size": 5, "options": DETACHMENT} for i in range(1, n + 1)]


def test_two_detachments_per_regimental_unit(book):
    # BASE's State Troops are the one Regimental Unit; Empire Archers are none.
    assert check(book, BASE + detachments(2)).violations == ()
    report = check(book, BASE + detachments(3))
    assert [(v.code, v.message) for v in report.violations] == [
        ("ratio.max", "Detachments: 3 taken; at most 2 per Regimental Unit that is not itself a Detachment, "
                      "and the army has 1.")]
    assert (report.violations[0].rule, report.violations[0].unit) == ("detachments-per-regiment", "detachment-3")
    # Empire Greatswords are a Regimental Unit too: four Detachments for two regiments.
    greatswords = [{"id": "greatswords", "entry": "empire-greatswords", "size": 10}]
    assert check(book, BASE + greatswords + detachments(4)).violations == ()
    assert [v.code for v in check(book, BASE + greatswords + detachments(5)).violations] == ["ratio.max"]


def test_a_detachment_is_not_itself_a_regiment(book):
    # Three Detachments of State Troops (each tagged a Regimental Unit) and the one regiment: still 1 regiment.
    report = check(book, BASE + detachments(3, "state-troops"))
    assert [v.message for v in report.violations] == [
        "Detachments: 3 taken; at most 2 per Regimental Unit that is not itself a Detachment, and the army has 1."]
    without_regiment = [BASE[0], *BASE[2:], {"id": "militia", "entry": "free-company-militia", "size": 100}]
    assert check(book, without_regiment).violations == ()
    report = check(book, without_regiment + detachments(1, "state-troops"))
    assert [v.message for v in report.violations] == [
        "Detachments: 1 taken; at most 2 per Regimental Unit that is not itself a Detachment, and the army has 0."]


def test_nuln_keeps_its_own_detachment_rules_beside_the_book_rule(book):
    assert check(book, NULN_BASE, composition=NULN).violations == ()
    # A Nuln regiment is a Regimental Unit: two Detachments taken by option (Free Company Militia may be one
    # in Nuln) besides its Nuln Detachment entry; a third by option is one over.
    militia = [{"id": f"militia-{i}", "entry": "free-company-militia", "size": 5, "options": DETACHMENT} for i in range(3)]
    assert check(book, NULN_BASE + militia[:2], composition=NULN).violations == ()
    assert [(v.rule, v.code) for v in check(book, NULN_BASE + militia, composition=NULN).violations] == [
        ("detachments-per-regiment", "ratio.max")]
    three = NULN_BASE + [{"id": f"d{i}", "entry": "state-troops-detachment", "size": 5} for i in range(2)]
    assert [(v.rule, v.code) for v in check(book, three, composition=NULN).violations] == [
        ("nuln-detachments-per-regiment", "ratio.max")]


def test_imperial_ogres_weapon_upgrades_at_most_one_per_model(book):
    """Each Imperial Ogre weapon upgrade is bought for one model (max_per_models: 1): 3 great weapons for 3
    Ogres pass, a fourth fails."""
    ogres = {"id": "ogres", "entry": "imperial-ogres", "size": 3, "options": {"great-weapons": 3}}
    assert check(book, BASE + [ogres]).violations == ()
    report = check(book, BASE + [{**ogres, "options": {"great-weapons": 4}}])
    assert [(v.code, v.message) for v in report.violations] == [
        ("options.max_per_models", "Imperial Ogres (ogres) takes Great weapon (one model) 4 times; at most 3 with "
                                   "3 models (1 per 1).")]


def test_wizards_wear_only_magic_armour_made_for_wizards(book):
    """001:L767-773: Wizards wear no armour; the Armour of Tarnus is made for Wizards (restricted to them), so a
    Master Mage may wear it. Other magic armour costs the Wizard its Casting and Dispel rolls (001:L771): a
    warning, and the list stays legal."""
    mage = {"id": "mage", "entry": "master-mage", "path": "battle-magic", "items": ["armour-of-tarnus"]}
    assert check(book, BASE + [mage]).violations == ()
    report = check(book, BASE + [{**mage, "items": ["enchanted-shield"]}])
    assert [(v.code, v.severity, v.message) for v in report.violations] == [
        ("wizard.armour", "warning", "Master Mage (mage) is a Wizard wearing armour or carrying a shield "
                                     "(Enchanted Shield), so it can make no Casting or Dispel rolls.")]
    assert report.valid

