"""Mordheim: a warband's founding gold, rising costs, and the Hired Swords it may hire (issue 14, items 9-11).

Sources: mordheim-facts.md ("Budget: 500 gold crowns ... some warbands start with more: Marienburg 600");
the Mordheim rulebook's Cult of the Possessed ("Mutations": the first at its price, each further one at
double) and its Hired Swords chapter (hire fee, "May be hired", one of each type, not counted towards the
warband's maximum or its heroes, the Halfling Scout's Cook), as rules_data/mordheim/ cites them.
"""
from __future__ import annotations

import pytest

from armylists.rules import parse_roster, validate
from armylists.rules.reading.loader import build_book, read_yaml

from tests.conftest import ROOT

SYSTEM, VERSION = "mordheim", "1999.2"
RM, COP = "reikland-mercenaries", "cult-of-the-possessed"

# Reikland Mercenaries: 11 warriors, 480 gc (tests/books/test_mordheim.py).
BASE = [
    {"id": "captain", "entry": "captain", "options": {"sword": 1, "pistol": 1, "light-armour": 1}},
    {"id": "champion", "entry": "champion", "options": {"double-handed-weapon": 1}},
    {"id": "youngblood", "entry": "youngblood", "options": {"axe": 1}},
    {"id": "warriors", "entry": "warriors", "size": 5, "options": {"spear": 1, "shield": 1}},
    {"id": "marksmen", "entry": "marksmen", "size": 3, "options": {"bow": 1}},
]


def report(book, units, gold=500, **extra):
    return validate(book, parse_roster({"format": "armylist/1", "system": SYSTEM, "book": book.id,
                                        "book_version": book.version, "points_limit": gold, "units": units,
                                        **extra}))


def messages(result, code=None):
    return [v.message for v in result.violations if code is None or v.code == code]


@pytest.fixture(scope="module")
def books(library):
    return {b: library.book(SYSTEM, b, VERSION) for b in (RM, COP, "witch-hunters", "sisters-of-sigmar", "undead",
                                                         "skaven-of-clan-eshin")}


# --- 9. founding gold ---------------------------------------------------------------------------------

def test_a_founding_roster_declares_at_most_its_500_gold_crowns(books):
    book = books[RM]
    assert report(book, BASE, 500).violations == ()
    over = report(book, BASE, 501)
    assert [(v.code, v.message) for v in over.violations] == [(
        "points.starting_budget",
        "A new warband of Reikland Mercenaries starts with 500 gc; this one declares 501 gc, 1 gc more than it has.")]
    assert not over.valid


def test_a_warband_later_in_its_campaign_is_not_bound_by_its_founding_gold(books):
    assert report(books[RM], BASE, 900, modes=["campaign"]).violations == ()


def test_a_warband_whose_own_rules_give_more_gold_is_founded_with_that(library):
    """Marienburgers start with 600 gc: a book's `default_limit` is its starting gold (the same book data
    with 600, since none of ours starts with more)."""
    data = read_yaml(ROOT / "rules_data" / "mordheim" / "books" / f"{RM}.yaml")
    data = {**data, "id": "marienburgers-test", "name": "Marienburgers (test)", "default_limit": 600}
    book = build_book(data, library.systems[SYSTEM], {}, "marienburgers-test")
    assert report(book, BASE, 600).violations == ()
    assert messages(report(book, BASE, 601)) == [
        "A new warband of Marienburgers (test) starts with 600 gc; this one declares 601 gc, 1 gc more than it has."]


# --- 10. rising costs ---------------------------------------------------------------------------------

MAGISTER = [{"id": "m", "entry": "magister"}, {"id": "b", "entry": "brethren", "size": 2}]  # 70 + 50


@pytest.mark.parametrize("mutations, cost", [
    ({}, 90),
    ({"great-claw": 1}, 90 + 50),                                   # the first at its price
    ({"great-claw": 1, "scorpion-tail": 1}, 90 + 50 + 2 * 40),      # the second at double
    ({"scorpion-tail": 1, "great-claw": 1, "blackblood": 1}, 90 + 50 + 2 * 40 + 2 * 30),  # the dearest first
])
def test_a_possesseds_second_and_further_mutations_cost_double(books, mutations, cost):
    result = report(books[COP], MAGISTER + [{"id": "p", "entry": "possessed", "options": mutations}], gold=1000,
                    modes=["campaign"])
    assert next(u.points for u in result.units if u.id == "p") == cost


def test_rising_costs_make_a_warband_over_its_gold(books):
    """Magister 70, 2 Brethren 50, a Possessed with Great claw and Scorpion tail: 120 + 90 + 50 + 80 = 340,
    and a Mutant with Spines and Tentacle (25 + 35 + 70 = 130): 470. The listed prices alone made 435."""
    units = MAGISTER + [{"id": "p", "entry": "possessed", "options": {"great-claw": 1, "scorpion-tail": 1}},
                        {"id": "mu", "entry": "mutant", "options": {"spines": 1, "tentacle": 1}}]
    assert report(books[COP], units, 470).violations == ()
    assert messages(report(books[COP], units, 469), "points.over_limit") == [
        "Total 470 gc is 1 gc over the 469 gc limit."]


def test_no_unchecked_line_says_mutations_are_under_priced_or_hired_swords_missing(books):
    for book in books.values():
        assert not [line for line in book.unchecked if "mutation" in line or "Hired Swords" in line], book.id


# --- 11. Hired Swords -----------------------------------------------------------------------------------

@pytest.mark.parametrize("book_id, hired", [
    (RM, {"ogre-bodyguard": 80, "halfling-scout": 15, "elf-ranger": 40, "dwarf-troll-slayer": 25, "freelancer": 50,
          "pit-fighter": 30, "warlock": 30}),
    ("witch-hunters", {"ogre-bodyguard": 80, "halfling-scout": 15, "elf-ranger": 40, "dwarf-troll-slayer": 25,
                       "freelancer": 50, "pit-fighter": 30}),
    ("sisters-of-sigmar", {"ogre-bodyguard": 80, "halfling-scout": 15, "pit-fighter": 30}),
    ("undead", {"ogre-bodyguard": 80, "warlock": 30}),
    ("skaven-of-clan-eshin", {"warlock": 30}),
    (COP, {"ogre-bodyguard": 80, "pit-fighter": 30, "warlock": 30}),
])
def test_each_warband_may_hire_exactly_the_hired_swords_the_rulebook_allows_it(books, book_id, hired):
    book = books[book_id]
    found = {e.id: e.points for e in book.entries.values() if e.category == "hired-swords"}
    assert found == hired


def test_a_warband_may_not_hire_one_its_rules_refuse(books):
    """Any warband except Skaven may hire an Ogre Bodyguard."""
    result = report(books["skaven-of-clan-eshin"], [{"id": "o", "entry": "ogre-bodyguard"}])
    assert [v.code for v in result.violations if v.code.startswith("list.")] == ["list.unknown_entry"]


def test_the_hire_fee_is_paid_from_the_founding_gold(books):
    """480 gc and a Dwarf Troll Slayer (25) is 505: 5 over; a Halfling Scout (15) makes 495."""
    assert report(books[RM], BASE + [{"id": "h", "entry": "halfling-scout"}]).violations == ()
    over = report(books[RM], BASE + [{"id": "s", "entry": "dwarf-troll-slayer"}])
    assert messages(over) == ["Total 505 gc is 5 gc over the 500 gc limit."]


def test_only_one_of_each_type(books):
    units = BASE + [{"id": "o1", "entry": "ogre-bodyguard"}, {"id": "o2", "entry": "ogre-bodyguard"}]
    assert messages(report(books[RM], units[:-1], 1000, modes=["campaign"])) == []
    assert messages(report(books[RM], units, 1000, modes=["campaign"])) == [
        "Ogre Bodyguard is taken 2 times; each Hired Sword: at most 1 time."]


def test_hired_swords_count_towards_neither_the_maximum_nor_the_heroes(books):
    """15 warriors and an Ogre Bodyguard pass; 16 warriors fail, Ogre or not."""
    fifteen = BASE + [{"id": "more", "entry": "warriors", "size": 4}]
    ogre = [{"id": "o", "entry": "ogre-bodyguard"}]
    assert report(books[RM], fifteen + ogre, 1000, modes=["campaign"]).violations == ()
    sixteen = BASE + [{"id": "more", "entry": "warriors", "size": 5}]
    assert messages(report(books[RM], sixteen + ogre, 1000, modes=["campaign"])) == [
        "Warband: 16 models taken; at most 15."]


def test_a_halfling_scouts_cooking_draws_one_more_warrior(books):
    """Cook: the warband's maximum size is one more (not its heroes): 16 warriors pass, 17 fail."""
    cook = [{"id": "h", "entry": "halfling-scout"}]
    sixteen = BASE + [{"id": "more", "entry": "warriors", "size": 5}]
    assert report(books[RM], sixteen + cook, 1000, modes=["campaign"]).violations == ()
    seventeen = sixteen + [{"id": "yb", "entry": "youngblood"}]
    assert messages(report(books[RM], seventeen + cook, 1000, modes=["campaign"])) == [
        "Warband: 17 models taken; at most 16 (15, and 1 more per Halfling Scout: 1)."]


def test_fewer_than_three_warriors_of_the_warband_fail_whatever_it_hires(books):
    units = [{"id": "c", "entry": "captain"}, {"id": "y", "entry": "youngblood"}, {"id": "o", "entry": "ogre-bodyguard"}]
    assert messages(report(books[RM], units)) == ["Warband: 2 models taken; at least 3."]


def test_a_hired_sword_adds_its_own_worth_to_the_rating(books):
    """Rating: 11 warriors x 5 + experience 28 = 83; an Ogre Bodyguard adds 25 (not 5, nor 20)."""
    base = report(books[RM], BASE).figures["rating"]
    assert base == 11 * 5 + 20 + 8
    with_ogre = report(books[RM], BASE + [{"id": "o", "entry": "ogre-bodyguard"}], 1000, modes=["campaign"])
    assert with_ogre.figures["rating"] == base + 25
