"""Keys to the Citadel (Infernal Dwarves' Overlord, issue 23): a rule New Recruit's data names by a ref and does
not carry, read through nr_t9a.yaml's `group_rules` as a book `discount` and a minimum (docs/import-nr-t9a.md).

The rule text (ruledefs.json `id-keys_to_the_citadel`): "The model must buy Weapon Enchantments for two of its
mundane weapons. The Points Cost of one of the Weapon Enchantments (the cheapest if applicable) is halved,
rounding fractions up." Prices are those of id.json at the bundle's head (b543015, 2026-04-10: Overlord 170,
Giant Slayer 25, Eye of the Bull 30, Vorpal Binding and Touch of Greatness 50) and at 273623d (2025-10-10: the
data of two real lists of November 2025, Eye of the Bull 45), read from ../shared/external/new-recruit-t9a at
run time, never copied here.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from armylists.importers.nr_t9a.army import ArmyConverter
from armylists.importers.nr_t9a.summary import read_list
from armylists.lists.offers.pool_choices import pool_choices
from armylists.rules import parse_roster, validate
from armylists.rules.reading.loader import build_book, load_system_part

from tests.importers.nr_summaries import BUNDLE, COMMIT, LATER, needs_data, summary

ROOT = Path(__file__).resolve().parents[2]
SYSTEM, _, _ = load_system_part(ROOT / "rules_data" / "t9a-2", ROOT / "rules_data")
CATEGORIES = frozenset(c.id for c in SYSTEM.categories)
SOURCE = "New Recruit's data: ref keys_to_the_citadel; its rule text id-keys_to_the_citadel (ruledefs.json)"
KEYS_MIN = "Keys to the Citadel (id-keys_to_the_citadel)"


# -- the mapping, on a small army in the data's shape -------------------------------------------------

def _enchant(name, cost):
    return {"type": "check", "name": name, "cost": cost, "refs": ["weaponEnchantUni"], "hasNotOption": ["weaponEnchantUni"]}


def _weapon(label, pool):
    """One weapon's group under the Keys, as id.json writes it: the pool's own "not with another enchantment"
    replaced by "not once the unit holds two"."""
    return {"optionsLabel": label, "maxSize": 1, "options": [], "optionsDict": [pool],
            "childrenOptions": {"replaceArrays": True, "hasNotOption": [{"refs": ["weaponEnchantUni"], "amount": 2}]}}


def small_army(ref="keys_to_the_citadel"):
    keys = {"optionsLabel": "Keys to the Citadel", "refs": [ref],
            "options": [_weapon("Hand Weapon Enchant", "weaponEnchant"), _weapon("Great Weapon Enchant", "weaponEnchant")]}
    lord = {"name": "Overlord", "unit_id": "overlord", "cost": 170, "refs": ["overlord"],
            "options": [{"optionsLabel": "Equipment", "leafMaxCost": 250, "options": [keys]}]}
    pool = {"refs": ["weaponEnchant"], "options": [_enchant("Giant Slayer", 25), _enchant("Vorpal Binding", 50)]}
    cats = [{"name": "Characters", "refs": ["perso"], "maxPercent": 0.4, "options": [lord]},
            {"name": "Core", "refs": ["base"], "options": []}, {"name": "Special", "refs": ["special"], "options": []}]
    data = {"name": "Test Army", "short": "ta", "version": "1", "army": [{"name": "Army", "options": cats}],
            "dictionnary": [pool]}
    return ArmyConverter(data, {"weaponEnchant": pool["options"]}, "2025-10-10", CATEGORIES).convert()


class TestTheMapping:
    def test_the_ref_becomes_a_discount_over_every_enchantment_below_the_node(self):
        book, report = small_army()
        entry = book["entries"][0]
        assert entry["discounts"] == [{"name": "Keys to the Citadel", "cheapest_percent": 50, "round": "up",
                                       "options": ["giant-slayer", "vorpal-binding", "giant-slayer-2", "vorpal-binding-3"],
                                       "source": SOURCE}]
        limits = {x["label"]: x for r in book["rules"] if r["id"] == "nr-limits" for x in r["params"]["limits"]}
        assert limits[KEYS_MIN]["min"] == 2 and limits[KEYS_MIN]["scope"] == "unit"
        assert limits["overlord: weaponEnchantUni"]["max"] == 2  # the data's own: childrenOptions, replaceArrays
        assert "childrenOptions (other than hasOption)" not in report.unchecked
        assert not [c for c in report.unchecked if c.startswith("hasNotOption")]

    def test_another_ref_is_no_discount(self):
        book, _ = small_army(ref="something_else")
        assert "discounts" not in book["entries"][0]

    def test_the_enchantments_no_longer_exclude_each_other_and_one_is_halved(self):
        book = build_book(small_army()[0], SYSTEM, {}, "test army")
        doc = {"format": "armylist/1", "system": "t9a-2", "book": book.id, "book_version": book.version,
               "points_limit": 4500, "units": [{"id": "o", "entry": "overlord",
                                                "options": {"giant-slayer": 1, "vorpal-binding-3": 1}}]}
        report = validate(book, parse_roster(doc))
        assert report.units[0].points == 170 + 13 + 50
        assert [v.code for v in report.violations if v.unit == "o" and v.severity == "error"] == []


# -- the data at a fixed commit ------------------------------------------------------------------------

@lru_cache(maxsize=None)
def infernal_dwarves(commit: str):
    from armylists.importers.nr_t9a import check, convert, open_source
    source = open_source(BUNDLE)
    try:
        conversion = convert(source.at(commit), ["id.json"], CATEGORIES)
    finally:
        source.close()
    return check(conversion, SYSTEM)["id"]


def overlord(*options: str, commit: str = LATER):
    book = infernal_dwarves(commit)
    roster = parse_roster({"format": "armylist/1", "system": "t9a-2", "book": book.id, "book_version": book.version,
                           "points_limit": 4500, "units": [{"id": "o", "entry": "overlord",
                                                            "options": {o: 1 for o in options}}]})
    report = validate(book, roster)
    keys = [(v.code, v.message) for v in report.violations if v.unit == "o" and v.code.startswith("tally")
            and v.severity == "error"]
    return report.units[0].points, keys, book, roster


@needs_data
class TestTheOverlord:
    def test_an_odd_cheaper_enchantment_is_halved_rounding_up(self):
        # Giant Slayer 25 (Hand Weapon) -> 13; Touch of Greatness 50 on the Great Weapon.
        assert overlord("giant-slayer", "touch-of-greatness-20")[:2] == (170 + 13 + 50, [])

    def test_equal_costs_halve_one(self):
        # Vorpal Binding 50 (Hand Weapon) and Touch of Greatness 50 (Great Weapon): 25 + 50.
        assert overlord("vorpal-binding", "touch-of-greatness-20")[:2] == (170 + 25 + 50, [])

    def test_one_enchantment_is_halved_and_refused_as_fewer_than_two(self):
        assert overlord("giant-slayer")[:2] == (170 + 13, [
            ("tally.min", f"{KEYS_MIN}: 1 taken in Overlord (o); at least 2.")])

    def test_none_costs_the_overlord_alone_and_is_refused(self):
        assert overlord()[:2] == (170, [("tally.min", f"{KEYS_MIN}: 0 taken in Overlord (o); at least 2.")])

    def test_a_third_is_over_the_datas_two_and_only_the_cheapest_is_halved(self):
        # Giant Slayer 25 -> 13, Eye of the Bull 30 (Flintlock Axe), Touch of Greatness 50 (Great Weapon).
        assert overlord("giant-slayer", "eye-of-the-bull", "touch-of-greatness-20")[:2] == (170 + 13 + 30 + 50, [
            ("tally.max", "overlord: weaponEnchantUni: 3 taken in Overlord (o); at most 2.")])

    def test_the_datas_own_shield_breaker_is_refused_beside_two_others(self):
        # id.json's Shield Breaker (35, without the weaponEnchantUni ref): "not once the unit holds two".
        assert overlord("shield-breaker", "onyx-core-41")[:2] == (170 + 18 + 70, [])
        assert overlord("shield-breaker", "onyx-core-41", "giant-slayer-21")[:2] == (170 + 35 + 70 + 13, [
            ("tally.max", "overlord: weaponEnchantUni beside Shield Breaker: 2 taken in Overlord (o); at most 1.")])

    def test_the_item_picker_offers_each_enchantment_at_what_it_adds(self):
        # With Vorpal Binding (50 -> 25) taken: Giant Slayer becomes the cheapest (25 -> 13, Vorpal back to
        # 50: adds 38), Eye of the Bull (30 -> 15: adds 40), Touch of Greatness on the Great Weapon adds 50.
        _, _, book, roster = overlord("vorpal-binding")
        picker = pool_choices(book, roster, "o")
        offers = {o.id: o.cost for _, items in picker.offers for o in items}
        assert (offers["giant-slayer-21"], offers["eye-of-the-bull"], offers["touch-of-greatness-20"]) == (38, 40, 50)
        assert [(c.id, c.paid) for c in picker.carried] == [("vorpal-binding", 25)]
        assert [(a.label, a.spent) for a in picker.allowances] == [("special items allowance", 25)]


@needs_data
@pytest.mark.parametrize("tournament, number, cost", [
    # WTC OPEN 2025 (2025-11-08): Overlord 180, Bull of Shamut 180, Eye of the Bull 45 -> 23, Hero's Heart 50.
    ("673cffc385ec3a3033f142ff", 100, 433),
    # Warhammer Board Liga Season 9 (2025-11-02): Eye of the Bull 45, Touch of Greatness 30 -> 15.
    ("68fd2cd40f52d2065c1b9925", 19, 420),
])
def test_real_overlords_cost_what_new_recruit_says(tournament, number, cost):
    line = summary(tournament, number)
    book = infernal_dwarves(COMMIT)
    reading = read_list(line, book, 4500)
    found = [(r.priced, r.cost, r.cause) for r in reading.units if r.name == "Overlord"]
    assert found == [(cost, cost, "")]
    report = validate(book, parse_roster(reading.document))
    uid = next(u["id"] for u in reading.document["units"] if u["entry"] == "overlord")
    assert [v.code for v in report.violations if v.unit == uid and v.severity == "error"] == []


# -- Infernal Dwarves' mounts: untyped nodes that are choices ---------------------------------------------
# id.json writes the Prophet's and the Vizier's mounts (and the Overlord's Great Bull of Shamut) with no `type`
# in every commit; a node without one is a group (FORMAT.md), but these have nothing under them and a price
# and a mount to bring (limits.is_choice). Read as groups, the mounts were no option at all and every
# character riding one was "an option the book lacks" (87 units of the 2025-2026 lists).

@needs_data
def test_an_untyped_mount_is_a_choice_with_its_price():
    book = infernal_dwarves(COMMIT)
    vizier = book.entries["vizier"]
    bull = next(o for o in vizier.options.values() if o.name == "Bull of Shamut")
    assert (bull.cost, bull.group is not None) == (190, True)


@needs_data
@pytest.mark.parametrize("tournament, number, name, cost", [
    # WTC OPEN 2025 (2025-11-08): a Vizier on a Bull of Shamut (190) with a Flintlock Axe.
    ("673cffc385ec3a3033f142ff", 32, "Vizier", 290),
    # GlennCon 2025 (2025-10-18): Prophets on a Bull of Shamut (150).
    ("677fa79d0fafcecf2e794a5f", None, "Prophet", None),
])
def test_real_riders_cost_what_new_recruit_says(tournament, number, name, cost):
    lines = [summary(tournament, number)] if number else [
        s for s in (summary(tournament, n) for n in range(1, 29)) if s["army"] == "ID"]
    book = infernal_dwarves(COMMIT)
    riders = [(r.priced, r.cost, r.cause) for line in lines for r in read_list(line, book, 4500).units
              if r.name == name and any(o.startswith("bull-of-shamut") for o in r.options)]
    assert riders and all(priced == recorded and cause == "" for priced, recorded, cause in riders), riders
    if cost is not None:
        assert [recorded for _p, recorded, _c in riders] == [cost]
