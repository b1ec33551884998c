"""Mordheim warbands at their founding, at every boundary the rules set (Reikland Mercenaries)."""
from __future__ import annotations

import pytest

from armylists.rules import parse_roster, validate

BOOK = ("mordheim", "reikland-mercenaries", "1999.2")


@pytest.fixture(scope="module")
def book(library):
    return library.book(*BOOK)


def check(book, units, gold=500):
    doc = {"format": "armylist/1", "system": BOOK[0], "book": BOOK[1], "book_version": BOOK[2],
           "points_limit": gold, "units": units}
    if gold > 500:  # a warband later in its campaign: more gold than its founding 500, the same limits
        doc["modes"] = ["campaign"]
    return validate(book, parse_roster(doc))


def codes(report):
    return sorted(v.code for v in report.violations)


# A legal founding: 60 + 35 + 15 + 5 x 25 + 3 x 25 + 2 x 35 = 380 gc, then equipment.
BASE = [
    {"id": "captain", "entry": "captain", "options": {"sword": 1, "pistol": 1, "light-armour": 1}},  # 60+10+15+20
    {"id": "champion", "entry": "champion", "options": {"double-handed-weapon": 1}},  # 35+15
    {"id": "youngblood", "entry": "youngblood", "options": {"axe": 1}},  # 15+5
    {"id": "warriors", "entry": "warriors", "size": 5, "options": {"spear": 1, "shield": 1}},  # 5 x (25+10+5)
    {"id": "marksmen", "entry": "marksmen", "size": 3, "options": {"bow": 1}},  # 3 x (25+10)
]
BASE_GOLD = 105 + 50 + 20 + 200 + 105  # 480


def test_a_legal_warband_and_its_figures(book):
    report = check(book, BASE)
    assert report.violations == ()
    assert (report.total_points, report.points_left, report.budget_unit) == (BASE_GOLD, 500 - BASE_GOLD, "gc")
    # Rating: 11 warriors x 5, plus experience: Captain 20, Champion 8.
    assert report.figures["rating"] == 11 * 5 + 20 + 8
    assert report.figures["models"] == 11


def test_exactly_500_gold_passes_and_501_fails(book):
    exact = BASE + [{"id": "extra", "entry": "youngblood", "options": {"hammer": 1, "dagger": 1}}]  # 15+3+2 = 20
    assert check(book, exact).total_points == 500 and check(book, exact).violations == ()
    over = BASE + [{"id": "extra", "entry": "youngblood", "options": {"axe": 1, "dagger": 1}}]  # 15+5+2 = 22
    report = check(book, over)
    assert codes(report) == ["points.over_limit"]
    assert report.violations[0].message == "Total 502 gc is 2 gc over the 500 gc limit."


def test_the_warbands_maximum_passes_and_one_more_fails(book):
    fifteen = BASE + [{"id": "more", "entry": "warriors", "size": 4}]  # 11 + 4 = 15
    assert check(book, fifteen, gold=1000).violations == ()
    sixteen = BASE + [{"id": "more", "entry": "warriors", "size": 5}]
    report = check(book, sixteen, gold=1000)
    assert codes(report) == ["count.max"]
    assert report.violations[0].message == "Warband: 16 models taken; at most 15."


def test_fewer_than_three_warriors_fail(book):
    report = check(book, [{"entry": "captain"}, {"entry": "youngblood"}])
    assert codes(report) == ["count.min"]
    assert report.violations[0].message == "Warband: 2 models taken; at least 3."


def test_a_sixth_hero_passes_and_a_seventh_fails(book):
    heroes = [{"entry": "captain"}, {"entry": "champion"}, {"entry": "champion"},
              {"entry": "youngblood"}, {"entry": "youngblood"}]
    six = heroes + [{"entry": "youngblood", "id": "yb3"}]
    # The sixth hero is a third Youngblood, over the Youngbloods' own 0-2: only that limit breaks.
    assert codes(check(book, six, gold=1000)) == ["count.max"]
    assert check(book, six, gold=1000).violations[0].message == "Youngbloods: 3 units taken; at most 2."


def test_the_six_heroes_cap(book, library):
    """With the 0-X limits of each hero type lifted, the cap of six heroes itself is at its boundary."""
    from dataclasses import replace
    relaxed = replace(book, rules=tuple(r for r in book.rules if r.id not in ("champions", "youngbloods")))
    six = [{"entry": "captain"}] + [{"entry": "youngblood"} for _ in range(5)]
    assert check(relaxed, six, gold=1000).violations == ()
    report = check(relaxed, six + [{"entry": "champion"}], gold=1000)
    assert codes(report) == ["count.max"]
    assert report.violations[0].message == "Heroes (the leader included): 7 models taken; at most 6."


def test_exactly_one_leader(book):
    assert codes(check(book, BASE[1:])) == ["count.min"]
    assert codes(check(book, BASE + [{"id": "c2", "entry": "captain"}], gold=1000)) == ["count.max"]


def test_a_group_of_five_passes_and_six_fails(book):
    report = check(book, BASE[:3] + [{"id": "w", "entry": "warriors", "size": 6}], gold=1000)
    assert codes(report) == ["unit.size_max"]
    assert report.violations[0].message == "Warriors (w) has 6 models; at most 5."


def test_a_group_whose_models_carry_different_equipment_fails(book):
    same = BASE[:3] + [{"id": "w", "entry": "warriors", "size": 2, "model_options": [{"sword": 1}, {"sword": 1}]}]
    report = check(book, same)
    assert report.violations == () and report.units[3].points == 2 * (25 + 10)
    mixed = BASE[:3] + [{"id": "w", "entry": "warriors", "size": 2, "model_options": [{"sword": 1}, {"axe": 1}]}]
    report = check(book, mixed)
    assert codes(report) == ["options.not_uniform"]
    assert report.violations[0].message == ("Warriors (w): every model of the group must carry the same equipment; "
                                            "model 2 differs from model 1.")


def test_a_third_close_combat_weapon_fails(book):
    two = [dict(BASE[0], options={"sword": 1, "axe": 1})] + BASE[1:]
    assert check(book, two).violations == ()
    three = [dict(BASE[0], options={"sword": 1, "axe": 1, "mace": 1})] + BASE[1:]
    report = check(book, three)
    assert codes(report) == ["options.tag_max"]
    assert report.violations[0].message == ("Mercenary Captain (captain) carries 3 close combat weapons besides the "
                                            "free dagger (Sword, Axe, Mace); at most 2.")


def test_a_second_suit_of_armour_and_a_third_missile_weapon_fail(book):
    units = [dict(BASE[0], options={"light-armour": 1, "heavy-armour": 1, "bow": 1, "crossbow": 1, "handgun": 1})]
    report = check(book, units + BASE[1:], gold=1000)
    assert codes(report) == ["options.group_max", "options.tag_max", "options.tag_max"]


def test_equipment_outside_the_warriors_list_is_refused(book):
    units = BASE[:4] + [{"id": "marksmen", "entry": "marksmen", "size": 3, "options": {"halberd": 1}}]
    report = check(book, units)
    assert codes(report) == ["list.unknown_option"]
    # Named as the book names it where another warrior may take it; as the list wrote it where none may.
    assert report.violations[0].message == ("Marksmen (marksmen) has option 'Halberd', which Marksmen cannot take "
                                            "in Reikland Mercenaries 1999.2.")
    nowhere = check(book, BASE[:4] + [{"id": "marksmen", "entry": "marksmen", "size": 3, "options": {"lance": 1}}])
    assert nowhere.violations[0].message == ("Marksmen (marksmen) has option 'lance', which Marksmen cannot take "
                                             "in Reikland Mercenaries 1999.2.")


def test_the_report_shows_each_count_against_its_limits(book):
    report = check(book, BASE)
    counts = {c.label: (c.value, c.what, c.min, c.max) for c in report.counts}
    assert counts["Warband"] == (11, "models", 3, 15)
    assert counts["Leader"] == (1, "units", 1, 1)
    assert counts["Heroes (the leader included)"] == (3, "models", None, 6)
    assert counts["Marksmen"] == (3, "models", None, 7)
    assert report.to_dict()["counts"][0] == {"label": "Warband", "value": 11, "what": "models", "min": 3, "max": 15}


def test_the_starting_budget_is_the_books_or_the_systems(book):
    from armylists.rules.reading.loader import build_book

    assert book.default_limit == 500  # the system's 500 gc
    data = dict(book.data, default_limit=600)  # as Marienburg's book would say
    assert build_book(data, book.system, {}, "marienburg").default_limit == 600
