"""Dwarfen Mountain Holds: runes go on what the model carries, and some models cap each kind of rune.

Sources (the book's `sources`): Forces of Fantasy, the Dwarfen Mountain Holds runes and army list, as Old
World Builder's data (CC BY 4.0) records them:
- ranged weapon runes are inscribed on a crossbow, handgun or pistol, armour runes on armour (the rulebook
  counts a shield among armour, 001:L4504-4510, and its magic armour includes magic shields); a champion
  carries its unit's equipment. The rune categories carry `needs_equipment` (`items.needs_equipment`), and a
  master rune needs what its kind needs (`counts_toward`).
- the champions of Royal Clan Warriors, Longbeards and Hammerers take up to 25 points of each kind of rune
  within their 50 points; the Daemon Slayer 100 points of weapon runes (125 in a Royal Clan) and 25 of
  talismanic runes; the Brotherhood's Shrine Keeper 50 points of each. The allowances carry
  `category_allowance` (`items.category_allowance`), master runes counted with their kind.
Every rune costs a multiple of 5, so 5 points over a cap is the smallest step past it.
"""
from __future__ import annotations

import copy

import pytest

from armylists.lists.offers.item_choices import item_choices
from armylists.rules import RulesDataError, parse_roster, validate
from armylists.rules.reading.loader import build_book, read_yaml

from tests.conftest import RULES_DATA

DW = "dwarfen-mountain-holds"
BOOK_FILE = RULES_DATA / "the-old-world" / "books" / f"{DW}.yaml"
RANGED = "crossbow, handgun, pistol, brace of pistols"


@pytest.fixture(scope="module")
def book(tow_books):
    return tow_books[DW]


def document(book, units, composition=None, points_limit=2000):
    doc = {"format": "armylist/1", "system": "the-old-world", "book": book.id, "book_version": book.version,
           "points_limit": points_limit, "units": copy.deepcopy(units)}
    if composition:
        doc["composition"] = composition
    return doc


def check(book, units, composition=None):
    return validate(book, parse_roster(document(book, units, composition)))


def found(report):
    return [(v.code, v.message) for v in report.violations]


# A legal Grand Army, Royal Clan and Slayer Host to add one model's runes to.
GRAND_ARMY = [{"id": "warriors", "entry": "dwarf-warriors", "size": 70},
              {"id": "quarrellers", "entry": "quarrellers", "size": 10},
              {"id": "thunderers", "entry": "thunderers", "size": 10}]
KING = {"id": "king", "entry": "king", "general": True}
ROYAL_CLAN = [{"id": "ungrim", "entry": "ungrim-ironfist", "general": True},
              {"id": "clan", "entry": "royal-clan-warriors", "size": 40},
              {"id": "longbeards", "entry": "long-beards", "size": 20},
              {"id": "hammerers", "entry": "hammerers", "size": 15}]
SLAYER_HOST = [{"id": "ungrim", "entry": "ungrim-ironfist", "general": True},
               {"id": "slayers-1", "entry": "slayers", "size": 20},
               {"id": "slayers-2", "entry": "slayers", "size": 20},
               {"id": "slayers-3", "entry": "slayers", "size": 10}]


def grand_army(*units):
    return copy.deepcopy([*units, *GRAND_ARMY])


@pytest.mark.parametrize("units, composition", [
    (grand_army(KING), None), (ROYAL_CLAN, "royal-clan"), (SLAYER_HOST, "slayer-host")])
def test_the_armies_these_tests_start_from_are_legal(book, units, composition):
    report = check(book, units, composition)
    assert report.violations == (), found(report)


# --- runes go on what the model carries ---------------------------------------------------------------

def test_the_rune_categories_name_the_equipment_they_go_on(book):
    cats = book.system.item_categories
    assert cats["ranged-weapon-runes"].needs_equipment == ("crossbow", "handgun", "pistol", "brace-of-pistols")
    assert cats["armour-runes"].needs_equipment == ("light-armour", "heavy-armour", "full-plate-armour", "shield")
    # the master runes sit on their kind's runic item and need what it needs
    assert cats["master-ranged-weapon-runes"].counts_toward == "ranged-weapon-runes"
    assert cats["master-armour-runes"].counts_toward == "armour-runes"
    assert not any(cats[c].needs_equipment for c in ("weapon-runes", "talismanic-runes", "engineering-runes"))


def test_a_ranged_weapon_rune_on_a_king_without_a_ranged_weapon(book):
    report = check(book, grand_army({**KING, "items": ["rune-of-accuracy"]}))
    assert found(report) == [("items.needs_equipment",
                              "Rune of Accuracy (Ranged Weapon Runes) needs its bearer to carry one of: "
                              f"{RANGED}; King (king) carries none.")]


def test_a_master_ranged_weapon_rune_needs_the_same(book):
    report = check(book, grand_army({**KING, "items": ["master-rune-of-slaying"]}))
    assert found(report) == [("items.needs_equipment",
                              "Master Rune of Slaying (Master Ranged Weapon Runes) needs its bearer to carry one of: "
                              f"{RANGED}; King (king) carries none.")]


@pytest.mark.parametrize("weapon", ["crossbow", "handgun", "pistol"])
def test_a_crossbow_handgun_or_pistol_bought_as_an_option_takes_ranged_weapon_runes(book, weapon):
    king = {**KING, "options": {weapon: 1}, "items": ["master-rune-of-slaying", "rune-of-accuracy"]}
    report = check(book, grand_army(king))
    assert report.violations == (), found(report)


def test_an_engineer_with_a_brace_of_pistols_takes_ranged_weapon_runes(book):
    engineer = {"id": "engineer", "entry": "engineer", "options": {"brace-of-pistols": 1}, "items": ["rune-of-accuracy"]}
    assert check(book, grand_army(KING, engineer)).violations == ()
    del engineer["options"]
    assert [v.code for v in check(book, grand_army(KING, engineer)).violations] == ["items.needs_equipment"]


def test_every_model_that_takes_armour_runes_wears_armour(book):
    """In the book every entry whose allowance names armour runes wears armour: the check never refuses them."""
    armour = set(book.system.item_categories["armour-runes"].needs_equipment)
    takers = [e for e in book.entries.values() if e.items and e.items.categories and "armour-runes" in e.items.categories]
    assert {e.id for e in takers} == {"king", "thane", "anvil-of-doom", "runelord", "runesmith", "engineer",
                                      "engineer-sapper"}
    assert all(e.equipment & armour for e in takers)
    report = check(book, grand_army({**KING, "items": ["master-rune-of-gromril", "rune-of-stone"]}))
    assert report.violations == (), found(report)


@pytest.fixture(scope="module")
def changed_book(tow_system, book):
    """The real book with two made-up changes the tests name: a Runesmith without armour (a shield to
    buy), and Quarrellers and Dwarf Warriors champions who may take ranged weapon runes."""
    data = read_yaml(BOOK_FILE)
    for entry in data["entries"]:
        if entry["id"] == "runesmith":
            entry["equipment"] = ["hand-weapon"]
            entry["options"] = [o for o in entry["options"] if o["id"] != "full-plate-armour"]
        if entry["id"] in ("quarrellers", "dwarf-warriors"):
            entry["command"]["champion"]["magic_items"] = {
                "allowance": 25, "categories": ["ranged-weapon-runes"], "book_only": True}
    common = {iid: item for iid, item in book.items.items() if item.common}
    return build_book(data, tow_system, common, "changed.yaml")


def test_an_armour_rune_needs_armour_and_a_shield_is_armour(changed_book):
    runesmith = {"id": "runesmith", "entry": "runesmith", "items": ["rune-of-stone"]}
    report = check(changed_book, grand_army(KING, runesmith))
    assert found(report) == [("items.needs_equipment",
                              "Rune of Stone (Armour Runes) needs its bearer to carry one of: light armour, heavy "
                              "armour, full plate armour, shield; Runesmith (runesmith) carries none.")]
    runesmith["options"] = {"shield": 1}
    assert check(changed_book, grand_army(KING, runesmith)).violations == ()


def test_a_champion_carries_its_units_equipment(changed_book):
    units = grand_army(KING)
    units[2].update(command=["champion"], champion_items=["rune-of-accuracy"])  # Quarrellers: crossbows
    assert check(changed_book, units).violations == ()
    units[1].update(command=["champion"], champion_items=["rune-of-rapid-fire"])  # Dwarf Warriors: none
    report = check(changed_book, units)
    assert found(report) == [("items.needs_equipment",
                              "Rune of Rapid Fire (Ranged Weapon Runes) needs its bearer to carry one of: "
                              f"{RANGED}; Dwarf Warriors champion (warriors) carries none.")]


def test_the_editor_offers_ranged_weapon_runes_only_with_a_ranged_weapon(book):
    def offered(units):
        [model] = item_choices(book, parse_roster(document(book, units)), "king")
        return {o.id for _, offers in model.offers for o in offers}
    assert "rune-of-accuracy" not in offered(grand_army(KING))
    assert "master-rune-of-slaying" not in offered(grand_army(KING))
    assert {"rune-of-accuracy", "master-rune-of-slaying"} <= offered(grand_army({**KING, "options": {"handgun": 1}}))


# --- each kind of rune within its own cap ---------------------------------------------------------------

def test_the_capped_models_and_their_caps(book):
    each_25 = {"weapon-runes": 25, "talismanic-runes": 25}
    for eid in ("royal-clan-warriors", "long-beards-core", "long-beards", "hammerers"):
        access = book.entries[eid].command["champion"].items
        assert (access.allowance, dict(access.category_allowance)) == (50, each_25), eid
    shrine_keeper = book.entries["brotherhood-of-grimnir"].command["champion"].items
    assert (shrine_keeper.allowance, dict(shrine_keeper.category_allowance)) == (
        100, {"weapon-runes": 50, "talismanic-runes": 50})
    slayer = book.entries["daemon-slayer"].items
    assert (slayer.allowance, dict(slayer.category_allowance)) == (125, {"weapon-runes": 100, "talismanic-runes": 25})
    in_royal_clan = slayer.in_composition("royal-clan")
    assert (in_royal_clan.allowance, dict(in_royal_clan.category_allowance)) == (
        150, {"weapon-runes": 125, "talismanic-runes": 25})
    # the other compositions keep the Grand Army's caps
    assert slayer.in_composition("slayer-host") is slayer


def hammerers(champion_items, composition_units=None):
    units = copy.deepcopy(composition_units or grand_army(KING))
    units.append({"id": "hammerers", "entry": "hammerers", "size": 15, "command": ["champion"],
                  "champion_items": list(champion_items)})
    return units


@pytest.mark.parametrize("runes", [
    ["rune-of-banishment"],                                   # 25 pts of weapon runes
    ["grudge-rune", "rune-of-speed"],                         # 20 + 5
    ["master-rune-of-flight"],                                # a 25-pt master rune
    ["rune-of-banishment", "rune-of-spellbreaking"],          # 25 of each kind: the whole 50-pt allowance
])
def test_a_royal_champion_takes_up_to_25_points_of_each_kind(book, runes):
    report = check(book, hammerers(runes))
    assert report.violations == (), found(report)


def test_a_royal_champion_over_25_points_of_weapon_runes_within_its_50(book):
    """35 + 15 pts fit the 50-pt allowance, but not the 25 pts of weapon runes."""
    report = check(book, hammerers(["rune-of-parrying", "rune-of-luck"]))
    assert found(report) == [("items.category_allowance",
                              "Hammerers champion (hammerers) has 35 pts of Weapon Runes (Rune of Parrying 35 pts); "
                              "at most 25 pts of Weapon Runes within its 50-pt allowance.")]


def test_a_royal_champion_5_points_over_with_two_runes(book):
    report = check(book, hammerers(["rune-of-cleaving", "rune-of-striking"]))
    assert found(report) == [("items.category_allowance",
                              "Hammerers champion (hammerers) has 30 pts of Weapon Runes (Rune of Cleaving 15 pts, "
                              "Rune of Striking 15 pts); at most 25 pts of Weapon Runes within its 50-pt allowance.")]


def test_a_master_rune_counts_toward_its_kind(book):
    report = check(book, hammerers(["master-rune-of-flight", "rune-of-speed"]))
    assert found(report) == [("items.category_allowance",
                              "Hammerers champion (hammerers) has 30 pts of Weapon Runes (Master Rune of Flight 25 pts, "
                              "Rune of Speed 5 pts), Master Weapon Runes included; at most 25 pts of Weapon Runes "
                              "within its 50-pt allowance.")]


def test_a_master_talismanic_rune_is_over_a_champions_25(book):
    report = check(book, hammerers(["master-rune-of-spite"]))
    assert found(report) == [("items.category_allowance",
                              "Hammerers champion (hammerers) has 35 pts of Talismanic Runes (Master Rune of Spite "
                              "35 pts), Master Talismanic Runes included; at most 25 pts of Talismanic Runes within "
                              "its 50-pt allowance.")]


def test_over_both_caps_and_the_allowance_each_is_said(book):
    report = check(book, hammerers(["rune-of-parrying", "master-rune-of-spite"]))
    assert [v.code for v in report.violations] == [
        "items.category_allowance", "items.category_allowance", "items.allowance"]


@pytest.mark.parametrize("composition, units, unit_id, label", [
    (None, None, "elders", "Longbeards (Core) champion"),
    ("royal-clan", ROYAL_CLAN, "longbeards", "Longbeards champion"),
    ("royal-clan", ROYAL_CLAN, "clan", "Royal Clan Warriors champion"),
])
def test_longbeard_elders_and_royal_clan_veterans_are_capped_too(book, composition, units, unit_id, label):
    units = copy.deepcopy(units or grand_army(KING))
    if unit_id == "elders":
        units.append({"id": "elders", "entry": "long-beards-core", "size": 10})
    unit = next(u for u in units if u["id"] == unit_id)
    unit.update(command=["champion"], champion_items=["rune-of-banishment", "rune-of-spellbreaking"])
    assert check(book, units, composition).violations == ()
    unit["champion_items"] = ["rune-of-fire", "rune-of-warding", "rune-of-passage", "rune-of-the-furnace"]  # 10, 30
    report = check(book, units, composition)
    assert found(report) == [("items.category_allowance",
                              f"{label} ({unit_id}) has 30 pts of Talismanic Runes (Rune of Warding 20 pts, Rune of "
                              "Passage 5 pts, Rune of the Furnace 5 pts); at most 25 pts of Talismanic Runes within "
                              "its 50-pt allowance.")]


# The Daemon Slayer: 100 pts of weapon runes and 25 of talismanic runes; 125 of weapon runes in a Royal Clan.

def daemon_slayer(items):
    return {"id": "slayer", "entry": "daemon-slayer", "items": list(items)}


@pytest.mark.parametrize("items", [
    ["master-rune-of-smiting", "rune-of-banishment", "rune-of-spellbreaking"],   # 75 + 25 and 25: the whole 125
    ["master-rune-of-smiting", "rune-of-banishment", "rune-of-warding", "rune-of-passage"],
])
def test_a_daemon_slayer_takes_100_points_of_weapon_runes_and_25_of_talismanic(book, items):
    report = check(book, grand_army(KING, daemon_slayer(items)))
    assert report.violations == (), found(report)


def test_a_daemon_slayer_5_points_over_its_weapon_runes(book):
    report = check(book, grand_army(KING, daemon_slayer(["master-rune-of-smiting", "rune-of-fury", "rune-of-speed"])))
    assert found(report) == [("items.category_allowance",
                              "Daemon Slayer (slayer) has 105 pts of Weapon Runes (Master Rune of Smiting 75 pts, "
                              "Rune of Fury 25 pts, Rune of Speed 5 pts), Master Weapon Runes included; at most 100 "
                              "pts of Weapon Runes within its 125-pt allowance.")]


def test_a_daemon_slayer_5_points_over_its_talismanic_runes(book):
    report = check(book, grand_army(KING, daemon_slayer(["rune-of-spellbreaking", "rune-of-passage"])))
    assert found(report) == [("items.category_allowance",
                              "Daemon Slayer (slayer) has 30 pts of Talismanic Runes (Rune of Spellbreaking 25 pts, "
                              "Rune of Passage 5 pts); at most 25 pts of Talismanic Runes within its 125-pt allowance.")]


def test_a_royal_clan_daemon_slayer_takes_125_points_of_weapon_runes(book):
    """Royal Clan: the allowance is 150 (`allowance_in`) and the weapon runes' cap 125 (`category_allowance_in`)."""
    units = [*ROYAL_CLAN, daemon_slayer(["master-rune-of-smiting", "rune-of-parrying", "rune-of-cleaving",
                                         "rune-of-spellbreaking"])]  # 75 + 35 + 15 and 25: the whole 150
    report = check(book, units, "royal-clan")
    assert report.violations == (), found(report)
    units[-1]["items"] = ["master-rune-of-smiting", "rune-of-parrying", "rune-of-might"]  # 130
    report = check(book, units, "royal-clan")
    assert found(report) == [("items.category_allowance",
                              "Daemon Slayer (slayer) has 130 pts of Weapon Runes (Master Rune of Smiting 75 pts, "
                              "Rune of Parrying 35 pts, Rune of Might 20 pts), Master Weapon Runes included; at most "
                              "125 pts of Weapon Runes within its 150-pt allowance.")]
    # the talismanic runes keep their 25
    units[-1]["items"] = ["rune-of-spellbreaking", "rune-of-the-furnace"]
    assert [v.code for v in check(book, units, "royal-clan").violations] == ["items.category_allowance"]


def test_the_shrine_keeper_takes_50_points_of_each_kind(book):
    units = [*SLAYER_HOST, {"id": "brotherhood", "entry": "brotherhood-of-grimnir", "size": 10, "command": ["champion"],
                            "champion_items": ["master-rune-of-smiting", "rune-of-spellbreaking", "rune-of-luck"]}]
    report = check(book, units, "slayer-host")  # 75 of weapon runes and 40 of talismanic: 115 of 100
    assert [v.code for v in report.violations] == ["items.category_allowance", "items.allowance"]
    units[-1]["champion_items"] = ["master-rune-of-dragon-slaying", "rune-of-speed", "rune-of-spellbreaking",
                                   "rune-of-warding", "rune-of-passage"]  # 35 + 5 and 25 + 20 + 5: talismanic at 50
    report = check(book, units, "slayer-host")
    assert report.violations == (), found(report)
    units[-1]["champion_items"] = ["rune-of-parrying", "rune-of-fire", "rune-of-speed", "rune-of-spellbreaking",
                                   "rune-of-warding"]  # 35 + 10 + 5 and 25 + 20: weapon runes at 50, 95 in all
    report = check(book, units, "slayer-host")
    assert report.violations == (), found(report)
    units[-1]["champion_items"] = ["rune-of-parrying", "rune-of-cleaving", "rune-of-speed"]  # 55
    report = check(book, units, "slayer-host")
    assert found(report) == [("items.category_allowance",
                              "Brotherhood of Grimnir champion (brotherhood) has 55 pts of Weapon Runes (Rune of "
                              "Parrying 35 pts, Rune of Cleaving 15 pts, Rune of Speed 5 pts); at most 50 pts of "
                              "Weapon Runes within its 100-pt allowance.")]


def test_the_editor_offers_a_champion_only_what_fits_each_kinds_cap(book):
    units = hammerers(["rune-of-fire"])  # 10 of the 25 pts of weapon runes
    [champion] = [b for b in item_choices(book, parse_roster(document(book, units)), "hammerers")
                  if b.kind == "champion"]
    offered = {o.id: o.cost for _, offers in champion.offers for o in offers}
    assert "rune-of-cleaving" in offered and "rune-of-might" not in offered  # 15 fits what is left, 20 does not
    assert "master-rune-of-flight" not in offered and "rune-of-spellbreaking" in offered


# --- the loader ---------------------------------------------------------------------------------------

def load_error(tow_system, change) -> str:
    data = read_yaml(BOOK_FILE)
    change(data)
    with pytest.raises(RulesDataError) as caught:
        build_book(data, tow_system, {}, "dwarfs.yaml")
    return str(caught.value)


def entry(data, eid):
    return next((i, e) for i, e in enumerate(data["entries"]) if e["id"] == eid)


def test_a_category_allowance_naming_an_unknown_item_category(tow_system):
    def change(d):
        entry(d, "daemon-slayer")[1]["magic_items"]["category_allowance"] = {"weapon-runes": 100, "weapon-rune": 25}
    i = entry(read_yaml(BOOK_FILE), "daemon-slayer")[0]
    assert load_error(tow_system, change) == (
        f"dwarfs.yaml: entries[{i}].magic_items.category_allowance.weapon-rune: unknown item category 'weapon-rune'")


def test_a_command_parts_category_allowance_naming_an_unknown_item_category(tow_system):
    def change(d):
        entry(d, "hammerers")[1]["command"]["champion"]["magic_items"]["category_allowance"] = {"talismans": 25}
    i = entry(read_yaml(BOOK_FILE), "hammerers")[0]
    assert load_error(tow_system, change) == (
        f"dwarfs.yaml: entries[{i}].command.champion.magic_items.category_allowance.talismans: "
        "unknown item category 'talismans'")


def test_a_category_allowance_in_naming_an_unknown_composition_or_category(tow_system):
    i = entry(read_yaml(BOOK_FILE), "daemon-slayer")[0]

    def composition(d):
        entry(d, "daemon-slayer")[1]["magic_items"]["category_allowance_in"] = {"royal-clans": {"weapon-runes": 125}}
    assert load_error(tow_system, composition) == (
        f"dwarfs.yaml: entries[{i}].magic_items.category_allowance_in.royal-clans: unknown composition 'royal-clans'")

    def category(d):
        entry(d, "daemon-slayer")[1]["magic_items"]["category_allowance_in"] = {"royal-clan": {"weapon-rune": 125}}
    assert load_error(tow_system, category) == (
        f"dwarfs.yaml: entries[{i}].magic_items.category_allowance_in.royal-clan.weapon-rune: "
        "unknown item category 'weapon-rune'")


def test_a_category_allowance_of_a_negative_number_is_a_schema_error(tow_system):
    def change(d):
        entry(d, "daemon-slayer")[1]["magic_items"]["category_allowance"] = {"weapon-runes": -5}
    assert "category_allowance" in load_error(tow_system, change)


def test_needs_equipment_naming_equipment_no_entry_carries(tow_system):
    def category(d):
        cat = next(c for c in d["item_categories"] if c["id"] == "ranged-weapon-runes")
        cat["needs_equipment"] = ["crossbow", "handgun", "pistols"]
    i = next(i for i, c in enumerate(read_yaml(BOOK_FILE)["item_categories"]) if c["id"] == "ranged-weapon-runes")
    assert load_error(tow_system, category) == (
        f"dwarfs.yaml: item_categories[{i}].needs_equipment[2]: no entry or option of the book carries 'pistols'")

    def item(d):
        d["items"][0]["restrictions"] = {"needs_equipment": ["great-weapons"]}
    assert load_error(tow_system, item) == (
        "dwarfs.yaml: items[0].restrictions.needs_equipment[0]: no entry or option of the book carries 'great-weapons'")
