"""The Old World: Battle March's one "0-X per 1000 points" choice, a Battle Standard's magic standard
outside its allowance, and the runes of one runic item, on the real books and the test book.

- Battle March (the-old-world-facts.md): the books' per-1000 limits (rules tagged `per-1000`) would allow
  nothing below 1000 points; the mode sets them aside (`replace_tagged`) and counts every choice they
  limit, units, options and items alike, against one (`count` with `rules_tagged`).
- Combined Arms exempts the units with a 0-X limit of their own (`own-limit`): in every composition a
  unit carries the tag exactly where a rule in force limits it (`composition_tags` where an Army of
  Infamy limits it otherwise), and `per-1000` where that limit is per 1000 points.
- "A Battle Standard may take a magic standard outside the allowance where its entry says so" (facts):
  every Battle Standard Bearer option of these books carries `standard-outside-allowance`, as Old World
  Builder gives each Battle Standard a banner allowance without a cap.
- Dwarf runes: at most three on one item, master rune included (`counts_toward`); a rune once on an item
  unless it may be inscribed three times (the rune's `max_per_model`).
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from armylists.rules.errors import RulesDataError
from armylists.rules.reading.loader import build_book, build_items, read_yaml
from tests.books.tow import check, codes, messages

ROOT = Path(__file__).resolve().parents[2]
TOW = ROOT / "rules_data" / "the-old-world"
FIXTURE = ROOT / "tests" / "fixtures" / "rules" / "the-old-world" / "books" / "tow-test-book.yaml"
OWB = ROOT.parent / "shared" / "external" / "old-world-builder"
EM, OG, DW = "empire-of-man", "orc-and-goblin-tribes", "dwarfen-mountain-holds"
ONE_CHOICE = "Choices limited 0-X per 1000 points"


@pytest.fixture(scope="module")
def system(tow_system):
    return tow_system


@pytest.fixture(scope="module")
def books(tow_system, tow_books):
    common = tow_books[EM].items  # the common items are every book's, with its own
    test_book = build_book(read_yaml(FIXTURE), tow_system, {i: item for i, item in common.items() if item.common},
                           str(FIXTURE))
    return {**tow_books, "tow-test-book": test_book}


# --- Battle March ---------------------------------------------------------------------------------

# 265 pts: a Captain as General (not limited per 1000 points, unlike a General of the Empire), 30 State
# Troops and 10 Archers; War Machines do not count towards the minimum of units.
EMPIRE_750 = [{"id": "captain", "entry": "captain-of-the-empire", "general": True},
              {"id": "state-troops", "entry": "state-troops", "size": 30},
              {"id": "archers", "entry": "empire-archers", "size": 10}]
CANNON = {"id": "cannon", "entry": "great-cannon"}


def test_empire_battle_march_one_per_1000_unit_at_750_points(books):
    report = check(books[EM], EMPIRE_750 + [CANNON], 750, modes=["battle-march"])
    assert report.violations == (), messages(report)
    assert report.total_points == 390


def test_battle_march_items_only_in_battle_march(books):
    """The rulebook's common magic items for Battle March (the Skirmisher's Blade) are for those games only
    (common.yaml `only_in_modes: [battle-march]`)."""
    armed = copy.deepcopy(EMPIRE_750)
    armed[0]["items"] = ["skirmishers-blade"]
    assert check(books[EM], armed, 750, modes=["battle-march"]).violations == ()
    for modes in ([], ["combined-arms"]):
        report = check(books[EM], armed, 750, modes=modes)  # (two units short of Open War's three, too)
        found = [(v.rule, v.unit, v.message) for v in report.violations if v.code == "items.mode_only"]
        assert found == [("item-eligibility", "captain", "Skirmisher's Blade is for Battle March games only, and this "
                          "list does not play Battle March (Captain of the Empire (captain)).")]


def test_an_item_for_an_unknown_mode_is_a_load_error(system):
    data = {"kind": "items", "id": "common", "name": "Items", "system": "the-old-world", "version": "1",
            "sources": ["tests"], "items": [{"id": "blade", "name": "Blade", "category": "weapon", "cost": 5,
                                             "restrictions": {"only_in_modes": ["open-war"]}}]}
    with pytest.raises(RulesDataError) as caught:
        build_items(data, system, "items.yaml")
    assert str(caught.value) == "items.yaml: items[0].restrictions.only_in_modes[0]: unknown mode 'open-war'"


def test_empire_battle_march_a_second_per_1000_choice_fails_once(books):
    two = EMPIRE_750 + [CANNON, {"id": "cannon-2", "entry": "great-cannon"}]
    report = check(books[EM], two, 750, modes=["battle-march"])
    assert codes(report) == ["count.max"]
    assert messages(report) == [f"{ONE_CHOICE}: 2 units taken (Great Cannon (cannon), Great Cannon (cannon-2)); at most 1."]
    assert report.violations[0].rule == "battle-march-one-per-1000-choice"
    assert report.violations[0].unit == "cannon-2"


def test_empire_battle_march_an_option_limited_per_1000_points_is_a_choice(books):
    drilled = {"id": "greatswords", "entry": "empire-greatswords", "size": 10, "options": {"drilled": 1}}
    assert check(books[EM], EMPIRE_750 + [drilled], 750, modes=["battle-march"]).violations == ()
    report = check(books[EM], EMPIRE_750 + [CANNON, drilled], 750, modes=["battle-march"])
    assert messages(report) == [
        f"{ONE_CHOICE}: 2 units taken (Great Cannon (cannon), Empire Greatswords (greatswords)); at most 1."]


def test_empire_a_per_1000_limit_outside_battle_march_keeps_its_bound(books):
    units = EMPIRE_750 + [CANNON, {"id": "spears", "entry": "state-troops", "size": 10}]
    report = check(books[EM], units, 750)
    assert codes(report) == ["count.max"]
    assert messages(report) == ["Great Cannons and Mortars: 1 unit taken; at most 0 (3 per 1000 pts of the 750-pt limit)."]
    assert messages(check(books[EM], units, 999)) == [
        "Great Cannons and Mortars: 1 unit taken; at most 0 (3 per 1000 pts of the 999-pt limit)."]
    assert check(books[EM], units, 1000).violations == ()


def test_dwarfs_battle_march_counts_option_limits_with_war_machines(books):
    units = [{"id": "thane", "entry": "thane", "general": True},
             {"id": "warriors", "entry": "dwarf-warriors", "size": 20, "options": {"drilled": 1}},
             {"id": "quarrellers", "entry": "quarrellers", "size": 10},
             {"id": "thunderers", "entry": "thunderers", "size": 10}]
    assert check(books[DW], units, 750, modes=["battle-march"]).violations == ()
    report = check(books[DW], units + [{"id": "cannon", "entry": "cannon"}], 750, modes=["battle-march"])
    assert messages(report) == [f"{ONE_CHOICE}: 2 units taken (Dwarf Warriors (warriors), Cannon (cannon)); at most 1."]


def test_battle_march_sets_aside_a_compositions_per_1000_limits_too(books):
    """The test book's Warhost limits Rare Blobs to 0-1 per 1000 points: Battle March counts them instead."""
    book = books["tow-test-book"]
    units = [{"id": "gen", "entry": "general", "general": True}, {"id": "c1", "entry": "core-blob", "size": 200},
             {"id": "c2", "entry": "core-blob", "size": 200}, {"id": "r1", "entry": "rare-blob", "size": 100}]
    report = check(book, units, 750, composition="warhost")
    assert messages(report) == ["Rare Blobs in a Warhost: 1 unit taken; at most 0 (1 per 1000 pts of the 750-pt limit)."]
    assert check(book, units, 750, composition="warhost", modes=["battle-march"]).violations == ()
    assert check(book, units, 750, modes=["battle-march"]).violations == ()  # not limited outside the Warhost
    report = check(book, units + [{"id": "e1", "entry": "elite"}], 750, composition="warhost", modes=["battle-march"])
    assert messages(report) == [f"{ONE_CHOICE}: 2 units taken (Rare Blob (r1), Elite (e1)); at most 1."]


def test_the_other_modes_keep_the_per_1000_limits(books):
    book = books["tow-test-book"]
    units = [{"id": "gen", "entry": "general", "general": True}, {"id": "c1", "entry": "core-blob", "size": 240},
             {"id": "c2", "entry": "core-blob", "size": 240}, {"id": "c3", "entry": "core-blob", "size": 240},
             {"id": "e1", "entry": "elite"}]
    for modes in ([], ["grand-melee"], ["combined-arms"]):
        assert codes(check(book, units, 999, modes=modes)) == ["count.max"], modes
        assert check(book, units, 1000, modes=modes).violations == (), modes


@pytest.mark.parametrize("bid", [EM, OG, DW])
def test_every_0_x_per_1000_points_rule_is_tagged_per_1000(books, bid):
    """The tag is what Battle March reads: a per-1000 limit left untagged would still allow none at 750."""
    book = books[bid]
    rules = list(book.rules) + [r for c in book.compositions.values() for r in c.rules]
    for rule in rules:
        bound = rule.params.get("max")
        per_1000 = isinstance(bound, dict) and bound.get("per_points") == 1000
        assert per_1000 == ("per-1000" in rule.tags), rule.id
        assert not per_1000 or "select" in rule.params, rule.id
    assert sum("per-1000" in r.tags for r in rules) == {EM: 32, OG: 22, DW: 31}[bid]


# Ratio rules that say how units go together rather than limit one "0-X": Da Boyz (a Black Orc Mob for
# every Black Orc boss and back; in a Nomadic Waaagh! the bosses' rule is their 0-1 per Black Orc Boar
# Chariot) and a Nuln regiment's 1-2 Detachments.
NOT_A_0_X_LIMIT = {("da-boyz-mobs", None), ("da-boyz-bosses", None), ("nuln-regiments-need-detachments", "city-state-of-nuln"),
                   ("nuln-detachments-per-regiment", "city-state-of-nuln")}


def whole_units(book, selector, composition):
    """The entries a selector picks as whole units (not by an option, item, mount or role) in a composition."""
    if set(selector) - {"entry", "category"}:
        return set()

    def many(value):
        return {value} if isinstance(value, str) else set(value)
    return {e.id for e in book.entries.values()
            if ("entry" not in selector or e.id in many(selector["entry"]))
            and ("category" not in selector or e.category_in(composition) in many(selector["category"]))}


def tags_in(entry, composition):
    return entry.composition_tags.get(composition, entry.tags) if composition else entry.tags


@pytest.mark.parametrize("bid", [EM, OG, DW])
def test_units_carry_per_1000_and_own_limit_in_each_composition_as_its_rules_limit_them(books, bid):
    """Combined Arms exempts the units tagged `own-limit` in the list's composition (`composition_tags`), so
    in every composition a unit carries it exactly when a book or composition rule in force there gives it
    a 0-X limit of its own, and `per-1000` exactly when that limit is per 1000 points."""
    book = books[bid]
    for composition in [None, *book.compositions]:
        rules = [r for r in book.rules_for(composition) if r not in book.system.rules]
        refused, limited, per_1000 = set(), set(), set()
        for rule in rules:
            params = rule.params
            if rule.type == "count" and "max" in params:
                chosen = whole_units(book, params.get("select", {}), composition)
                if params["max"] == 0:
                    refused |= chosen
                    continue
                limited |= chosen
                if isinstance(params["max"], dict) and params["max"].get("per_points") == 1000:
                    per_1000 |= chosen
            elif rule.type == "ratio" and (rule.id, composition) not in NOT_A_0_X_LIMIT:
                limited |= whole_units(book, params["select"], composition)
            elif rule.type == "tag_max":
                limited |= {e.id for e in book.entries.values() if params["tag"] in tags_in(e, composition)}
        for entry in book.entries.values():
            if entry.id in refused:
                continue
            tags, where = tags_in(entry, composition), (entry.id, composition)
            assert ("own-limit" in tags) == (entry.id in limited), where
            assert ("per-1000" in tags) == (entry.id in per_1000), where


# --- a Battle Standard's magic standard -------------------------------------------------------------

def test_empire_battle_standard_outside_the_allowance(books):
    bsb = {"id": "bsb", "entry": "captain-of-the-empire", "options": {"battle-standard-bearer": 1}}
    base = [{"id": "general", "entry": "general-of-the-empire", "general": True},
            {"id": "state-troops", "entry": "state-troops", "size": 100},
            {"id": "archers-1", "entry": "empire-archers", "size": 5}, {"id": "archers-2", "entry": "empire-archers", "size": 5}]
    # Griffon Standard 50 outside; Dragon Slaying Sword 50 is exactly the Captain's allowance.
    at = check(books[EM], base + [{**bsb, "items": ["griffon-standard", "dragon-slaying-sword"]}])
    assert at.violations == (), messages(at)
    over = check(books[EM], base + [{**bsb, "items": ["griffon-standard", "dragon-slaying-sword", "obsidian-lodestone"]}])
    assert messages(over) == ["Captain of the Empire (bsb) has 70 pts of magical items besides its Battle Standard "
                              "(50 pts, outside the allowance); its allowance is 50 pts."]
    # Without the Battle Standard option the same items are counted together, and the standard refused.
    plain = check(books[EM], base + [{"id": "bsb", "entry": "captain-of-the-empire", "items": ["griffon-standard"]}])
    assert codes(plain) == ["items.standard_bearers_only"]


def test_orc_battle_standard_outside_the_allowance(books):
    units = [{"id": "boss", "entry": "orc-warboss", "general": True},
             {"id": "orcs", "entry": "orc-mob", "size": 100},
             {"id": "trolls", "entry": "common-troll-mob", "size": 3},
             {"id": "giant", "entry": "giant"},
             {"id": "bsb", "entry": "orc-bigboss", "options": {"battle-standard-bearer": 1},
              "items": ["banner-of-iron-resolve", "sword-of-reaving"]}]
    assert check(books[OG], units).violations == ()
    units[-1]["items"].append("talisman-of-protection")
    assert messages(check(books[OG], units)) == [
        "Orc Bigboss (bsb) has 80 pts of magical items besides its Battle Standard (50 pts, outside the allowance); "
        "its allowance is 50 pts."]


def dwarf_army(king_items=(), thane_items=(), **thane):
    return [{"id": "king", "entry": "king", "general": True, "items": list(king_items)},
            {"id": "thane", "entry": "thane", "items": list(thane_items), **thane},
            {"id": "warriors", "entry": "dwarf-warriors", "size": 70},
            {"id": "cannon", "entry": "cannon"}, {"id": "thunderers", "entry": "thunderers", "size": 10},
            {"id": "quarrellers", "entry": "quarrellers", "size": 10}]


def test_dwarf_battle_standard_banner_runes_outside_the_allowance(books):
    bsb = {"options": {"battle-standard-bearer": 1}}
    # 80 pts of banner runes outside; 75 pts of weapon runes are exactly the Thane's allowance.
    at = check(books[DW], dwarf_army([], ["master-rune-of-grungni", "master-rune-of-smiting"], **bsb))
    assert at.violations == (), messages(at)
    over = check(books[DW], dwarf_army([], ["master-rune-of-grungni", "master-rune-of-smiting", "rune-of-speed"], **bsb))
    assert messages(over) == ["Thane (thane) has 80 pts of magical items besides its Battle Standard "
                              "(80 pts, outside the allowance); its allowance is 75 pts."]


def test_every_battle_standard_option_says_its_standard_is_outside_the_allowance(books):
    for bid in (EM, OG, DW):
        for entry in books[bid].entries.values():
            for option in entry.options.values():
                if option.role == "bsb":
                    assert "standard-outside-allowance" in option.tags, (bid, entry.id)


def test_old_world_builder_gives_those_battle_standards_an_uncapped_banner(books):
    """Where Old World Builder's datasets are present: each of our entries with a Battle Standard Bearer
    option is one whose Battle Standard command takes a banner with no points cap (maxPoints 0)."""
    if not OWB.is_dir():
        pytest.skip("the Old World Builder datasets are not here")
    for bid in (EM, OG, DW):
        uncapped = set()
        data = json.loads((OWB / "the-old-world" / f"{bid}.json").read_text())
        for units in data.values():
            for unit in units if isinstance(units, list) else ():
                for command in unit.get("command") or ():
                    if command.get("name_en") == "Battle Standard Bearer" and command.get("magic", {}).get("maxPoints") == 0:
                        uncapped.add(unit["id"])
        ours = {e.id for e in books[bid].entries.values() if any(o.role == "bsb" for o in e.options.values())}
        assert ours <= uncapped, (bid, ours - uncapped)


# --- runes ------------------------------------------------------------------------------------------

def test_runes_a_rune_inscribed_once_on_an_item(books):
    report = check(books[DW], dwarf_army(["rune-of-fire", "rune-of-fire"]))
    assert codes(report) == ["items.same_item"]
    assert messages(report) == ["King (king) carries Rune of Fire 2 times; at most once on one model."]


def test_runes_a_rune_inscribed_up_to_three_times(books):
    assert check(books[DW], dwarf_army(["rune-of-fury"] * 3)).violations == ()
    report = check(books[DW], dwarf_army(["rune-of-fury"] * 4))
    assert codes(report) == ["items.same_category", "items.same_item"]
    assert "King (king) carries Rune of Fury 4 times; at most 3 times on one model." in messages(report)


def test_runes_three_on_an_item_with_the_master_rune(books):
    assert check(books[DW], dwarf_army(["master-rune-of-flight", "rune-of-fury", "rune-of-fury"])).violations == ()
    report = check(books[DW], dwarf_army(["master-rune-of-flight", "rune-of-fury", "rune-of-fury", "rune-of-speed"]))
    assert codes(report) == ["items.same_category"]
    assert messages(report) == [
        "King (king) carries 4 Master Weapon Runes and Weapon Runes (Master Rune of Flight, Rune of Fury, Rune of Fury, "
        "Rune of Speed); a model may carry at most 3 Weapon Runes in all."]


def test_runes_every_rune_that_may_be_inscribed_three_times_says_so(books):
    for item in books[DW].items.values():
        if item.common:
            continue
        three = "up to three times" in item.text
        master = item.category.startswith("master-")  # its category allows one a model anyway
        assert item.max_per_model == (None if master else 3 if three else 1), item.id
    master = [c for c in books[DW].system.item_categories.values() if c.id.startswith("master-")]
    assert len(master) == 6 and all(c.counts_toward == c.id.removeprefix("master-") for c in master)


def test_a_category_counting_toward_an_unknown_one_is_a_load_error(system):
    data = read_yaml(FIXTURE)
    data["item_categories"][1]["counts_toward"] = "glyphz"
    with pytest.raises(RulesDataError, match="unknown item category 'glyphz'"):
        build_book(data, system, {}, "tow-test-book")


# 001:L4265: a lance, "models whose troop type is 'cavalry' or 'monster' only"; 001:L4278: a cavalry spear,
# "'cavalry', 'monster' or 'chariot' only". The books give these weapons only where that holds: to a cavalry
# unit, or to a character only with one of the mounts named (`requires_any`), or one that must ride.
MAY_WIELD = {
    "lance": {"light-cavalry", "heavy-cavalry", "monstrous-cavalry", "monstrous-creature", "behemoth"},
    "cavalry-spear": {"light-cavalry", "heavy-cavalry", "monstrous-cavalry", "monstrous-creature", "behemoth",
                      "light-chariot", "heavy-chariot"},
}


def test_lances_and_cavalry_spears_go_only_to_cavalry_monsters_and_chariots(library):
    checked, wrong = 0, []
    for (system, book_id, _), book in library.books.items():
        if system != "the-old-world":
            continue
        for entry in book.entries.values():
            for option in entry.options.values():
                for weapon in MAY_WIELD.keys() & set(option.equipment):
                    checked += 1
                    if option.requires_any:
                        ways = [entry.mounts[m].mount.troop_type if m in entry.mounts else f"no mount {m}"
                                for m in option.requires_any]
                    elif entry.mount_required:
                        ways = [m.mount.troop_type for m in entry.mounts.values()]
                    else:
                        ways = [entry.troop_type]
                    wrong += [(book_id, entry.id, option.id, t) for t in ways if t not in MAY_WIELD[weapon]]
    assert wrong == []
    assert checked == 28  # 4 characters' and 11 knightly units' lances, 8 characters' and 5 mobs' cavalry spears
