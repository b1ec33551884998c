"""The Old World's Armies of Infamy and the City-State of Nuln at their boundaries: where a composition
lifts a Grand Army limit of its book (`replace_rules` naming the book's rule), what only one composition
may take (a book rule that this composition replaces and the others keep), and the item allowances a book
gives per composition (`allowance_in`, a Royal Clan's runes).

Facts: Old World Builder's rules.js (the composition limits) and its army datasets (the options and
allowances per composition), as cited in each rule's `source`.
"""
from __future__ import annotations

import copy

import pytest

from armylists.lists.offers.item_choices import item_choices
from armylists.rules import parse_roster
from armylists.rules.errors import RulesDataError
from armylists.rules.reading.loader import build_book
from tests.books.test_tow_empire import BASE, NULN_BASE
from tests.books.tow import check, document

EM, OG, DW = "empire-of-man", "orc-and-goblin-tribes", "dwarfen-mountain-holds"
NULN, ROYAL_CLAN, EXPEDITION, SLAYER_HOST = "city-state-of-nuln", "royal-clan", "expeditionary-force", "slayer-host"
NOMADS, TROLL_HORDE = "nomadic-waaagh", "troll-horde"


@pytest.fixture(scope="module")
def system(tow_system):
    return tow_system


@pytest.fixture(scope="module")
def books(tow_books):
    return tow_books


def found(report):
    """(code, message) of every violation, sorted: the tests name both exactly."""
    return sorted((v.code, v.message) for v in report.violations)


def with_unit(units, uid, **changes):
    units = copy.deepcopy(units)
    next(u for u in units if u["id"] == uid).update(changes)
    return units


# --- Empire of Man: the City-State of Nuln ------------------------------------------------------------

EMPIRE, NULN_ARMY = BASE, NULN_BASE  # tests/books/test_tow_empire.py's legal Grand Army and City-State of Nuln
WAR_MACHINES = [{"id": "helblaster-1", "entry": "helblaster-volley-gun"},
                {"id": "helblaster-2", "entry": "helblaster-volley-gun"},
                {"id": "helstorm-1", "entry": "helstorm-rocket-battery"},
                {"id": "helstorm-2", "entry": "helstorm-rocket-battery"}]
NULN_SHARED = "Helblaster Volley Guns, Helstorm Rocket Batteries and Steam Tanks"


def test_nuln_takes_0_2_volley_guns_and_rocket_batteries_per_1000_points(books):
    """Nuln replaces the Grand Army's 0-1 per 1000 points (volley-guns-and-rocket-batteries) with its own
    0-2 per 1000 points shared with Steam Tanks (nuln-rare-war-machines)."""
    book = books[EM]
    assert check(book, NULN_ARMY + WAR_MACHINES, composition=NULN).violations == ()
    assert found(check(book, NULN_ARMY + WAR_MACHINES[:3], 1999, composition=NULN)) == [
        ("count.max", "Helblaster Volley Guns, Helstorm Rocket Batteries and Steam Tanks: 3 units taken; at most 2 "
                      "(2 per 1000 pts of the 1999-pt limit).")]
    # A fifth, a Steam Tank, is over the shared limit (and over the Rare 25%: four war machines are 490 pts).
    report = check(book, NULN_ARMY + WAR_MACHINES + [{"id": "tank", "entry": "steam-tank"}], composition=NULN)
    assert found(report) == [
        ("category.max_percent", "Rare: 755 pts is 37.8% of 2000; at most 25% (500 pts)."),
        ("count.max", f"{NULN_SHARED}: 5 units taken; at most 4 (2 per 1000 pts of the 2000-pt limit).")]
    assert [v.rule for v in report.violations if v.code == "count.max"] == ["nuln-rare-war-machines"]


def test_the_grand_army_keeps_0_1_volley_guns_and_rocket_batteries_per_1000_points(books):
    book = books[EM]
    assert check(book, EMPIRE + WAR_MACHINES[:2]).violations == ()
    report = check(book, EMPIRE + WAR_MACHINES[:3])
    assert found(report) == [("count.max", "Helblaster Volley Guns and Helstorm Rocket Batteries: 3 units taken; "
                                           "at most 2 (1 per 1000 pts of the 2000-pt limit).")]
    assert report.violations[0].rule == "volley-guns-and-rocket-batteries"


# --- Dwarfen Mountain Holds -------------------------------------------------------------------------

DWARF_ARMIES = {
    None: [{"id": "king", "entry": "king", "general": True},
           {"id": "warriors", "entry": "dwarf-warriors", "size": 70},
           {"id": "quarrellers", "entry": "quarrellers", "size": 10},
           {"id": "thunderers", "entry": "thunderers", "size": 10}],
    ROYAL_CLAN: [{"id": "king", "entry": "king", "general": True},
                 {"id": "clan", "entry": "royal-clan-warriors", "size": 40},
                 {"id": "longbeards", "entry": "long-beards", "size": 20},
                 {"id": "hammerers", "entry": "hammerers", "size": 15}],
    EXPEDITION: [{"id": "engineer", "entry": "engineer", "general": True},
                 {"id": "warriors", "entry": "dwarf-warriors", "size": 50},
                 {"id": "thunderers", "entry": "thunderers", "size": 10},
                 {"id": "rangers", "entry": "rangers", "size": 10}],
    SLAYER_HOST: [{"id": "ungrim", "entry": "ungrim-ironfist", "general": True},
                  {"id": "slayers-1", "entry": "slayers", "size": 20},
                  {"id": "slayers-2", "entry": "slayers", "size": 20},
                  {"id": "slayers-3", "entry": "slayers", "size": 10}],
}


@pytest.mark.parametrize("composition", list(DWARF_ARMIES))
def test_the_dwarf_armies_these_tests_start_from_are_legal(books, composition):
    report = check(books[DW], DWARF_ARMIES[composition], composition=composition)
    assert report.violations == (), found(report)


# Runes of 150 pts (a master weapon rune 75, a master armour rune 45, two runes of 15); every rune costs a
# multiple of 5, so 5 pts more is the smallest step over an allowance.
RUNES_150 = ["master-rune-of-smiting", "master-rune-of-gromril", "rune-of-cleaving", "rune-of-luck"]
RUNES_125 = ["master-rune-of-smiting", "master-rune-of-gromril", "rune-of-stone"]


def test_royal_clan_a_king_takes_150_points_of_runes(books):
    """Royal Clan: every rune allowance 25 points higher (the King's `allowance_in: {royal-clan: 150}`)."""
    book, army = books[DW], DWARF_ARMIES[ROYAL_CLAN]
    assert check(book, with_unit(army, "king", items=RUNES_150), composition=ROYAL_CLAN).violations == ()
    report = check(book, with_unit(army, "king", items=RUNES_150 + ["rune-of-stone"]), composition=ROYAL_CLAN)
    assert found(report) == [("items.allowance", "King (king) has 155 pts of magical items; its allowance is 150 pts.")]


def test_grand_army_a_king_takes_125_points_of_runes(books):
    book, army = books[DW], DWARF_ARMIES[None]
    assert check(book, with_unit(army, "king", items=RUNES_125)).violations == ()
    report = check(book, with_unit(army, "king", items=RUNES_125 + ["rune-of-stone"]))
    assert found(report) == [("items.allowance", "King (king) has 130 pts of magical items; its allowance is 125 pts.")]
    report = check(book, with_unit(army, "king", items=RUNES_150))
    assert found(report) == [("items.allowance", "King (king) has 150 pts of magical items; its allowance is 125 pts.")]


def test_royal_clan_a_standard_takes_25_points_more_of_banner_runes(books):
    book = books[DW]
    runes_100 = ["master-rune-of-hesitation", "rune-of-battle", "rune-of-fear"]  # 45 + 25 + 30
    runes_105 = ["master-rune-of-hesitation", "strollaz-rune", "rune-of-confusion"]  # 45 + 25 + 35
    clan = DWARF_ARMIES[ROYAL_CLAN]
    assert check(book, with_unit(clan, "hammerers", command=["standard"], standard_items=runes_100),
                 composition=ROYAL_CLAN).violations == ()
    report = check(book, with_unit(clan, "hammerers", command=["standard"], standard_items=runes_105), composition=ROYAL_CLAN)
    assert found(report) == [("items.allowance",
                              "Hammerers standard (hammerers) has 105 pts of magical items; its allowance is 100 pts.")]
    grand_army = DWARF_ARMIES[None] + [{"id": "hammerers", "entry": "hammerers", "size": 15}]
    assert check(book, with_unit(grand_army, "hammerers", command=["standard"],
                                 standard_items=["master-rune-of-hesitation", "rune-of-fear"])).violations == ()
    report = check(book, with_unit(grand_army, "hammerers", command=["standard"], standard_items=["master-rune-of-grungni"]))
    assert found(report) == [("items.allowance",
                              "Hammerers standard (hammerers) has 80 pts of magical items; its allowance is 75 pts.")]


def test_royal_clan_the_editor_offers_the_royal_clan_allowance(books):
    book = books[DW]
    for composition, allowance in ((ROYAL_CLAN, 150), (None, 125)):
        roster = parse_roster(document(book, DWARF_ARMIES[composition], composition=composition))
        assert [b.allowance for b in item_choices(book, roster, "king")] == [allowance]


def test_royal_clan_allowances_follow_old_world_builder(books):
    """Characters, Doomseekers and standards 25 points more; champions and war machines unchanged."""
    book = books[DW]
    entries = book.entries
    assert {eid: (e.items.allowance, e.items.in_composition(ROYAL_CLAN).allowance)
            for eid, e in entries.items() if e.items and e.items.allowance_in} == {
        "king": (125, 150), "thane": (75, 100), "anvil-of-doom": (100, 125), "runelord": (125, 150),
        "runesmith": (75, 100), "daemon-slayer": (125, 150), "dragon-slayer": (75, 100), "engineer": (50, 75),
        "doomseeker": (50, 75), "doomseeker-merc": (50, 75)}
    assert entries["cannon"].items.in_composition(ROYAL_CLAN).allowance == 100
    assert entries["hammerers"].command["champion"].items.in_composition(ROYAL_CLAN).allowance == 50
    assert entries["rangers"].command["standard"].items.in_composition(ROYAL_CLAN).allowance == 50


LORDS = [{"id": "king-2", "entry": "king"}, {"id": "runelord", "entry": "runelord"}, {"id": "anvil", "entry": "anvil-of-doom"}]


def test_royal_clan_kings_are_not_in_the_0_1_per_1000_points_with_runelords_and_anvils(books):
    book, clan = books[DW], DWARF_ARMIES[ROYAL_CLAN]
    assert check(book, clan + LORDS, composition=ROYAL_CLAN).violations == ()  # two Kings, a Runelord, an Anvil
    report = check(book, clan + LORDS, 1999, composition=ROYAL_CLAN)
    assert found(report) == [("count.max", "Anvils of Doom and Runelords: 2 units taken; at most 1 "
                                           "(1 per 1000 pts of the 1999-pt limit).")]
    assert report.violations[0].rule == "royal-clan-anvils-and-runelords"
    assert check(book, clan + LORDS[:1], 1999, composition=ROYAL_CLAN).violations == ()
    report = check(book, DWARF_ARMIES[None] + LORDS[:1], 1999)  # two Kings in a Grand Army
    assert found(report) == [("count.max", "Kings, Anvils of Doom, Runelords and Ungrim Ironfist: 2 units taken; at most 1 "
                                           "(1 per 1000 pts of the 1999-pt limit).")]


def test_royal_clan_hammerers_are_not_limited_per_king_or_thane(books):
    book = books[DW]
    second = [{"id": "hammerers-2", "entry": "hammerers", "size": 15}]
    assert check(book, DWARF_ARMIES[ROYAL_CLAN] + second, composition=ROYAL_CLAN).violations == ()
    first = [{"id": "hammerers", "entry": "hammerers", "size": 15}]
    assert check(book, DWARF_ARMIES[None] + first).violations == ()
    assert found(check(book, DWARF_ARMIES[None] + first + second)) == [
        ("ratio.max", "Hammerers: 2 taken; at most 1 per King or Thane (Ungrim Ironfist and Thorgrim Ulleksson "
                      "included), and the army has 1.")]


DOOMSEEKERS = [{"id": f"doomseeker-{i}", "entry": "doomseeker-merc"} for i in range(1, 6)]


def test_royal_clan_takes_up_to_4_doomseeker_mercenaries(books):
    book, clan = books[DW], DWARF_ARMIES[ROYAL_CLAN]
    assert check(book, clan + DOOMSEEKERS[:4], composition=ROYAL_CLAN).violations == ()
    report = check(book, clan + DOOMSEEKERS, composition=ROYAL_CLAN)
    assert found(report) == [("count.max", "Doomseeker mercenaries: 5 units taken; at most 4.")]
    assert report.violations[0].rule == "royal-clan-doomseeker-mercenaries"


def test_grand_army_takes_up_to_3_doomseeker_mercenaries(books):
    book = books[DW]
    assert check(book, DWARF_ARMIES[None] + DOOMSEEKERS[:3]).violations == ()
    report = check(book, DWARF_ARMIES[None] + DOOMSEEKERS[:4])
    assert found(report) == [("count.max", "Doomseeker mercenaries: 4 units taken; at most 3.")]
    assert report.violations[0].rule == "doomseeker-mercenaries"


def test_expeditionary_force_takes_0_2_doomseeker_mercenaries_per_1000_points(books):
    book, force = books[DW], DWARF_ARMIES[EXPEDITION]
    assert check(book, force + DOOMSEEKERS[:4], composition=EXPEDITION).violations == ()
    report = check(book, force + DOOMSEEKERS, composition=EXPEDITION)
    assert found(report) == [("count.max", "Doomseeker mercenaries: 5 units taken; at most 4 "
                                           "(2 per 1000 pts of the 2000-pt limit).")]
    assert report.violations[0].rule == "expeditionary-force-doomseeker-mercenaries"
    assert check(book, force + DOOMSEEKERS[:2], 1999, composition=EXPEDITION).violations == ()
    assert found(check(book, force + DOOMSEEKERS[:3], 1999, composition=EXPEDITION)) == [
        ("count.max", "Doomseeker mercenaries: 3 units taken; at most 2 (2 per 1000 pts of the 1999-pt limit).")]


def test_slayer_host_a_goblin_hewer_needs_no_slayer_character(books):
    book, hewer = books[DW], [{"id": "hewer", "entry": "goblin-hewer"}]
    assert check(book, DWARF_ARMIES[SLAYER_HOST] + hewer, composition=SLAYER_HOST).violations == ()
    assert found(check(book, DWARF_ARMIES[None] + hewer)) == [
        ("requires.missing", "Goblin-Hewer (hewer) needs a Daemon Slayer or Dragon Slayer in the army.")]
    assert check(book, DWARF_ARMIES[None] + hewer + [{"id": "dragon-slayer", "entry": "dragon-slayer"}]).violations == ()


CARTS = [{"id": f"cart-{i}", "entry": "dwarf-cart"} for i in range(1, 7)]


def test_slayer_host_dwarf_carts_are_0_1_per_1000_points_not_0_4_per_army(books):
    book = books[DW]
    host = [{"id": "ungrim", "entry": "ungrim-ironfist", "general": True},
            {"id": "slayers-1", "entry": "slayers", "size": 50},
            {"id": "slayers-2", "entry": "slayers", "size": 50},
            {"id": "slayers-3", "entry": "slayers", "size": 10}]
    assert check(book, host + CARTS[:5], 5000, composition=SLAYER_HOST).violations == ()
    assert found(check(book, host + CARTS, 5000, composition=SLAYER_HOST)) == [
        ("count.max", "Dwarf Carts: 6 units taken; at most 5 (1 per 1000 pts of the 5000-pt limit).")]
    grand_army = [{"id": "king", "entry": "king", "general": True},
                  {"id": "warriors", "entry": "dwarf-warriors", "size": 160},
                  {"id": "quarrellers", "entry": "quarrellers", "size": 10},
                  {"id": "thunderers", "entry": "thunderers", "size": 10}]
    assert check(book, grand_army + CARTS[:4], 5000).violations == ()
    assert found(check(book, grand_army + CARTS[:5], 5000)) == [
        ("count.max", "Dwarf Carts as Rare choices: 5 units taken; at most 4.")]


# What only one Army of Infamy may take: (the unit, the composition that allows it, the others that refuse
# it with this one violation alone, the message).
RUNESMITH_BSB = "Runesmith Battle Standard Bearers (Royal Clan only): 1 unit taken; at most 0."
ENGINEER_BSB = "Engineer Battle Standard Bearers (Expeditionary Force only): 1 unit taken; at most 0."
SAPPER = "Engineer Sappers (Expeditionary Force only): 1 unit taken; at most 0."
EXPEDITION_OPTIONS = "Expeditionary Marksmen and Function over Form (Expeditionary Force only): 1 unit taken; at most 0."
DRAGON_SLAYER_BSB = "Dragon Slayer Battle Standard Bearers (Slayer Host only): 1 unit taken; at most 0."
SLAYER_OPTIONS = "Scouts, Wards of Grimnir and Ambushers and Skirmishers (Slayer Host only): 1 unit taken; at most 0."
ONLY_IN_ONE = [
    ({"entry": "runesmith", "options": {"battle-standard-bearer": 1}}, ROYAL_CLAN, [None, EXPEDITION], RUNESMITH_BSB),
    ({"entry": "engineer", "options": {"battle-standard-bearer": 1}}, EXPEDITION, [None], ENGINEER_BSB),
    ({"entry": "engineer-sapper"}, EXPEDITION, [None, ROYAL_CLAN, SLAYER_HOST], SAPPER),
    ({"entry": "engineer", "options": {"expeditionary-marksman": 1}}, EXPEDITION, [None], EXPEDITION_OPTIONS),
    ({"entry": "thunderers", "size": 10, "options": {"expeditionary-marksmen": 1}}, EXPEDITION, [None], EXPEDITION_OPTIONS),
    ({"entry": "cannon", "options": {"function-over-form": 1}}, EXPEDITION, [None], EXPEDITION_OPTIONS),
    ({"entry": "dragon-slayer", "options": {"battle-standard-bearer": 1}}, SLAYER_HOST, [None, EXPEDITION], DRAGON_SLAYER_BSB),
    ({"entry": "daemon-slayer", "options": {"scouts": 1}}, SLAYER_HOST, [None, EXPEDITION], SLAYER_OPTIONS),
    ({"entry": "slayers", "size": 10, "options": {"ambushers-skirmishers": 1}}, SLAYER_HOST, [None, EXPEDITION], SLAYER_OPTIONS),
    ({"entry": "hammerers", "size": 10, "command": ["standard"], "options": {"wards-of-grimnir": 1}}, SLAYER_HOST,
     [None, ROYAL_CLAN], SLAYER_OPTIONS),
]


@pytest.mark.parametrize("unit, allowed, refused, message", ONLY_IN_ONE,
                         ids=[f"{u['entry']}-{'-'.join(u.get('options', {})) or 'unit'}" for u, *_ in ONLY_IN_ONE])
def test_dwarfs_what_only_one_army_of_infamy_may_take(books, unit, allowed, refused, message):
    book, unit = books[DW], {"id": "x", **unit}
    report = check(book, DWARF_ARMIES[allowed] + [unit], composition=allowed)
    assert report.violations == (), found(report)
    for composition in refused:
        report = check(book, DWARF_ARMIES[composition] + [unit], composition=composition)
        assert found(report) == [("count.max", message)], composition


def test_dwarfs_a_miners_cart_in_a_grand_army_and_an_expeditionary_force_only(books):
    book, cart = books[DW], [{"id": "cart", "entry": "dwarf-cart", "options": {"miners-cart": 1}}]
    assert check(book, DWARF_ARMIES[None] + cart).violations == ()
    assert check(book, DWARF_ARMIES[EXPEDITION] + cart, composition=EXPEDITION).violations == ()
    assert found(check(book, DWARF_ARMIES[ROYAL_CLAN] + cart, composition=ROYAL_CLAN)) == [
        ("count.max", "Miner's Carts in a Royal Clan: 1 unit taken; at most 0.")]
    assert found(check(book, DWARF_ARMIES[SLAYER_HOST] + cart, composition=SLAYER_HOST)) == [
        ("count.max", "Miner's Carts in a Slayer Host: 1 unit taken; at most 0.")]


# --- Orc & Goblin Tribes ------------------------------------------------------------------------------

ORC_ARMIES = {
    None: [{"id": "boss", "entry": "orc-warboss", "general": True},
           {"id": "orcs", "entry": "orc-mob", "size": 100},
           {"id": "trolls", "entry": "common-troll-mob", "size": 3},
           {"id": "giant", "entry": "giant"}],
    NOMADS: [{"id": "boss", "entry": "orc-warboss", "general": True, "mount": "war-boar"},
             {"id": "wolves", "entry": "goblin-wolf-rider-mob", "size": 25},
             {"id": "chariots", "entry": "goblin-wolf-chariot", "size": 5},
             {"id": "giant", "entry": "giant"}],
    TROLL_HORDE: [{"id": "boss", "entry": "orc-warboss", "general": True},
                  {"id": "orcs", "entry": "orc-mob", "size": 100},
                  {"id": "trolls", "entry": "common-troll-mob-core", "size": 6},
                  {"id": "giant", "entry": "giant"}],
}
NOMAD_OPTIONS = "Ambushers, Close Order and Vanguard (Nomadic Waaagh! only): 1 unit taken; at most 0."


@pytest.mark.parametrize("composition", list(ORC_ARMIES))
def test_the_orc_armies_these_tests_start_from_are_legal(books, composition):
    report = check(books[OG], ORC_ARMIES[composition], composition=composition)
    assert report.violations == (), found(report)


@pytest.mark.parametrize("unit", [
    {"entry": "orc-boar-boy-mob", "size": 5, "options": {"vanguard": 1}},
    {"entry": "goblin-wolf-rider-mob", "size": 5, "options": {"ambushers": 1}},
    {"entry": "goblin-wolf-rider-mob", "size": 5, "options": {"close-order": 1}},
    {"entry": "goblin-warboss", "mount": "giant-wolf", "options": {"giant-wolf-ambushers": 1}},
], ids=["vanguard", "ambushers", "close-order", "giant-wolf-ambushers"])
def test_orcs_a_nomadic_waaagh_option_only_there(books, unit):
    book, unit = books[OG], {"id": "x", **unit}
    report = check(book, ORC_ARMIES[NOMADS] + [unit], composition=NOMADS)
    assert report.violations == (), found(report)
    for composition in (None, TROLL_HORDE):
        report = check(book, ORC_ARMIES[composition] + [unit], composition=composition)
        assert found(report) == [("count.max", NOMAD_OPTIONS)], composition
        assert report.violations[0].rule == "nomadic-waaagh-options-only-there"


BLACK_ORC_NOMADS = [{"id": "boss", "entry": "black-orc-warboss", "general": True, "mount": "black-orc-boar-chariot"},
                    {"id": "chariot", "entry": "black-orc-boar-chariot-core", "options": {"additional-hand-weapons": 1}},
                    {"id": "wolves", "entry": "goblin-wolf-rider-mob", "size": 25},
                    {"id": "wolf-chariots", "entry": "goblin-wolf-chariot", "size": 5},
                    {"id": "giant", "entry": "giant"}]


def test_orcs_a_black_orc_boar_chariot_as_a_mount_only_in_a_nomadic_waaagh(books):
    book = books[OG]
    assert check(book, BLACK_ORC_NOMADS, composition=NOMADS).violations == ()
    grand_army = [{"id": "boss", "entry": "black-orc-warboss", "general": True, "mount": "black-orc-boar-chariot"},
                  {"id": "black-orcs", "entry": "black-orc-mob-core", "size": 10},
                  {"id": "orcs", "entry": "orc-mob", "size": 100},
                  {"id": "trolls", "entry": "common-troll-mob", "size": 3},
                  {"id": "giant", "entry": "giant"}]
    report = check(book, grand_army)
    assert found(report) == [("count.max", "Characters riding a Black Orc Boar Chariot (Nomadic Waaagh! only): "
                                           "1 unit taken; at most 0.")]
    grand_army[0].pop("mount")
    assert check(book, grand_army).violations == ()


ORC_BOSSES = [{"id": "warboss", "entry": "orc-warboss", "mount": "war-boar"},
              {"id": "weirdnob", "entry": "orc-weirdnob", "mount": "war-boar", "path": "waaagh-magic"}]


def test_nomadic_waaagh_black_orc_warbosses_are_not_in_the_0_1_per_1000_points(books):
    """Nomadic Waaagh!: 0-1 Orc Warboss or Weirdnob per 1000 points; the Black Orc Warboss is limited per
    Black Orc Boar Chariot instead (da-boyz-bosses)."""
    book = books[OG]
    assert check(book, BLACK_ORC_NOMADS + ORC_BOSSES, composition=NOMADS).violations == ()
    assert check(book, BLACK_ORC_NOMADS + ORC_BOSSES[:1], 1999, composition=NOMADS).violations == ()
    report = check(book, BLACK_ORC_NOMADS + ORC_BOSSES, 1999, composition=NOMADS)
    assert found(report) == [("count.max", "Orc Warbosses and Orc Weirdnobs: 2 units taken; at most 1 "
                                           "(1 per 1000 pts of the 1999-pt limit).")]
    assert report.violations[0].rule == "nomadic-waaagh-warbosses"
    grand_army = [{"id": "boss", "entry": "black-orc-warboss", "general": True},
                  {"id": "black-orcs", "entry": "black-orc-mob-core", "size": 10},
                  {"id": "orcs", "entry": "orc-mob", "size": 100},
                  {"id": "trolls", "entry": "common-troll-mob", "size": 3},
                  {"id": "giant", "entry": "giant"},
                  {"id": "warboss", "entry": "orc-warboss"},
                  {"id": "weirdnob", "entry": "orc-weirdnob", "path": "waaagh-magic"}]
    report = check(book, grand_army)
    assert found(report) == [("count.max", "Black Orc Warbosses, Orc Warbosses, Orc Weirdnobs and Ogdruz Swampdigga: "
                                           "3 units taken; at most 2 (1 per 1000 pts of the 2000-pt limit).")]


# --- allowance_in: the loader and the engine, on a small book -----------------------------------------

def small_book(system, allowance_in=None):
    data = {
        "kind": "book", "id": "small", "name": "Small", "system": "the-old-world", "version": "1", "sources": ["tests"],
        "items": [{"id": f"charm-{cost}", "name": f"Charm {cost}", "category": "talisman", "cost": cost, "source": "tests"}
                  for cost in (1, 25, 50)]
                 + [{"id": "flag", "name": "Flag", "category": "standard", "cost": 76, "source": "tests"}],
        "compositions": [{"id": "host", "name": "Host"}],
        "entries": [
            {"id": "lord", "name": "Lord", "category": "characters", "troop_type": "regular-infantry", "points": 100,
             "magic_items": {"allowance": 50, "allowance_in": allowance_in or {"host": 75}}},
            {"id": "guard", "name": "Guard", "category": "core", "troop_type": "regular-infantry", "points": 1,
             "size": {"min": 1, "max": 5000},
             "command": {"standard": {"cost": 1, "magic_items": {"allowance": 50, "allowance_in": {"host": 76},
                                                                 "categories": ["standard"]}}}},
        ],
    }
    return build_book(data, system, {}, "small.yaml")


def test_allowance_in_gives_the_allowance_of_a_composition_at_its_boundary(system):
    book = small_book(system)
    # The one-item-per-category rule is beside the point here: only the allowance rule is asked about.
    def allowance(units, composition=None):
        report = check(book, units, composition=composition)
        return [(v.code, v.message) for v in report.violations if v.code == "items.allowance"]
    lord = {"id": "lord", "entry": "lord", "general": True}
    assert allowance([{**lord, "items": ["charm-50"]}]) == []
    assert allowance([{**lord, "items": ["charm-50", "charm-1"]}]) == [
        ("items.allowance", "Lord (lord) has 51 pts of magical items; its allowance is 50 pts.")]
    assert allowance([{**lord, "items": ["charm-50", "charm-25"]}], "host") == []
    assert allowance([{**lord, "items": ["charm-50", "charm-25", "charm-1"]}], "host") == [
        ("items.allowance", "Lord (lord) has 76 pts of magical items; its allowance is 75 pts.")]
    guard = {"id": "guard", "entry": "guard", "size": 10, "command": ["standard"], "standard_items": ["flag"]}
    assert allowance([guard], "host") == []
    assert allowance([guard]) == [
        ("items.allowance", "Guard standard (guard) has 76 pts of magical items; its allowance is 50 pts.")]


def test_allowance_in_naming_an_unknown_composition_is_a_load_error(system):
    with pytest.raises(RulesDataError) as error:
        small_book(system, {"horde": 75})
    assert "small.yaml" in str(error.value) and "allowance_in" in str(error.value)
    assert "unknown composition 'horde'" in str(error.value)


# --- Empire of Man: the Knightly Orders ---------------------------------------------------------------

PANTHER, WHITE_WOLF, BLAZING_SUN, MORR, FIERY_HEART = (
    "knightly-order-panther", "knightly-order-white-wolf", "knightly-order-blazing-sun", "knightly-order-morr",
    "knightly-order-fiery-heart")
CHAPTER_MASTER = {"id": "chapter-master", "entry": "chapter-master", "mount": "barded-warhorse"}


def order_army(order, option, knights, **weapons):
    """A Grand Master of the Order as General, a Chapter Master, two units of the Order's Empire Knights
    (25 models) and 15 Empire Archers: legal at 1999 and 2000 points in that Order's army."""
    return [{"id": "grand-master", "entry": "grand-master", "general": True, "mount": "barded-warhorse",
             "options": {option: 1}},
            {**CHAPTER_MASTER, "options": {option: 1}},  # of the army's Order, as Old World Builder adds it
            {"id": "knights-1", "entry": knights, "size": 20, **weapons},
            {"id": "knights-2", "entry": knights, "size": 5, **weapons},
            {"id": "archers-1", "entry": "empire-archers", "size": 10},
            {"id": "archers-2", "entry": "empire-archers", "size": 5}]


ORDER_ARMIES = {
    PANTHER: order_army(PANTHER, "order-of-the-knights-panther", "empire-knights-panther"),
    WHITE_WOLF: order_army(WHITE_WOLF, "order-of-the-white-wolf", "empire-knights-white-wolf", options={"wolf-hammers": 1}),
    BLAZING_SUN: order_army(BLAZING_SUN, "order-of-the-blazing-sun", "empire-knights-blazing-sun",
                            options={"lances-and-shields": 1}),
    MORR: order_army(MORR, "order-of-the-knights-of-morr", "empire-knights-morr", options={"lances-and-shields": 1}),
    FIERY_HEART: order_army(FIERY_HEART, "order-of-the-fiery-heart", "empire-knights-fiery-heart",
                            options={"lances-and-shields": 1}),
}


@pytest.mark.parametrize("order", list(ORDER_ARMIES))
def test_knightly_order_armies_need_1_unit_of_their_empire_knights_per_1000_points(books, order):
    book, army = books[EM], ORDER_ARMIES[order]
    assert check(book, army, composition=order).violations == ()
    assert check(book, army[:3] + army[4:], 1999, composition=order).violations == ()
    report = check(book, army[:3] + army[4:], composition=order)
    assert [(v.code, v.rule) for v in report.violations] == [("count.min", f"{order[len('knightly-order-'):]}-empire-knights")]
    assert report.violations[0].message.endswith(": 1 unit taken; at least 2 (1 per 1000 pts of the 2000-pt limit).")
    # The Grand Army keeps its 0-1 unit of Empire Knights of an Order.
    report = check(book, [{"id": "general", "entry": "general-of-the-empire", "general": True}] + army[2:])
    assert [v.code for v in report.violations] == ["one_per_army.max"]


def test_knightly_order_state_troops_are_special_0_1_per_1000_points(books):
    book, army = books[EM], ORDER_ARMIES[PANTHER]
    troops = [{"id": "troops", "entry": "state-troops", "size": 10}, {"id": "missile", "entry": "state-missile-troops", "size": 10}]
    report = check(book, army + troops, composition=PANTHER)
    assert report.violations == (), found(report)
    assert {c.id: c.points for c in report.categories}["special"] == 120
    assert found(check(book, army + troops, 1999, composition=PANTHER)) == [
        ("count.max", "State Troops and State Missile Troops: 2 units taken; at most 1 (1 per 1000 pts of the 1999-pt limit).")]


def test_knights_panther_white_wolf_knights_as_mercenaries_0_1(books):
    book, army = books[EM], ORDER_ARMIES[PANTHER]
    wolves = [{"id": "wolf-knights", "entry": "empire-knights-white-wolf", "size": 5, "options": {"wolf-hammers": 1}},
              {"id": "wolf-inner-circle", "entry": "inner-circle-knights-white-wolf", "size": 5, "options": {"wolf-hammers": 1}}]
    report = check(book, army + wolves[:1], composition=PANTHER)
    assert report.violations == (), found(report)
    assert {c.id: c.points for c in report.categories}["mercenaries"] == 115
    assert found(check(book, army + wolves, composition=PANTHER)) == [
        ("count.max", "Empire Knights and Inner Circle Knights of the White Wolf (Mercenaries): 2 units taken; at most 1.")]
    assert found(check(book, ORDER_ARMIES[BLAZING_SUN] + wolves[1:], composition=BLAZING_SUN)) == [
        ("count.max", "Units not in a Blazing Sun army: 1 unit taken; at most 0.")]


def test_knightly_order_items_and_the_chapter_masters_battle_standard(books):
    book = books[EM]
    bsb = {**CHAPTER_MASTER, "options": {"battle-standard-bearer": 1, "order-of-the-knights-panther": 1},
           "items": ["banner-of-the-knights-panther"]}
    panther = ORDER_ARMIES[PANTHER]
    assert check(book, [panther[0], bsb] + panther[2:], composition=PANTHER).violations == ()
    wolves = ORDER_ARMIES[WHITE_WOLF]
    wolf_bsb = {**bsb, "options": {"battle-standard-bearer": 1, "order-of-the-white-wolf": 1}}
    assert found(check(book, [wolves[0], wolf_bsb] + wolves[2:], composition=WHITE_WOLF)) == [
        ("count.max", "Banner of the Knights Panther (Knights Panther army only): 1 unit taken; at most 0.")]
    blade = {**CHAPTER_MASTER, "options": {"order-of-the-white-wolf": 1}, "items": ["blade-of-silvered-steel"]}
    assert check(book, [wolves[0], blade] + wolves[2:], composition=WHITE_WOLF).violations == ()
    assert found(check(book, EMPIRE + [blade])) == [
        ("count.max", "Magic items only for a Knightly Order army: 1 unit taken; at most 0.")]
    assert found(check(book, NULN_ARMY + [blade], composition=NULN)) == [
        ("count.max", "Magic items only for a Knightly Order army: 1 unit taken; at most 0."),
        ("count.max", "Units not in a City-State of Nuln army: 1 unit taken; at most 0.")]
    assert found(check(book, EMPIRE + [{**CHAPTER_MASTER, "options": {"battle-standard-bearer": 1}}])) == [
        ("count.max", "Chapter Master Battle Standard Bearers (Knightly Order armies only): 1 unit taken; at most 0.")]


def test_knightly_order_characters(books):
    book, army = books[EM], ORDER_ARMIES[PANTHER]
    # Old World Builder gives every Grand Master and Chapter Master of an Order's army that Order
    # (empire-of-man.json: its option alwaysActive in that composition): another Order, or none, is refused.
    refused = [("count.max", "Grand Masters and Chapter Masters not of the Knights Panther in a Knights Panther army: "
                             "1 unit taken; at most 0.")]
    assert found(check(book, army + [{**CHAPTER_MASTER, "id": "other", "options": {"order-of-the-white-wolf": 1}}],
                       composition=PANTHER)) == refused
    assert found(check(book, army + [{**CHAPTER_MASTER, "id": "other"}], composition=PANTHER)) == refused
    assert found(check(book, army + [{**army[0], "id": "grand-master-2", "general": False}], composition=PANTHER)) == [
        ("count.max", "Grand Masters: 2 units taken; at most 1.")]
    assert found(check(book, army[:1] + army[2:], composition=PANTHER)) == [
        ("count.min", "Chapter Masters: 0 units taken; at least 1.")]
    # A Priest of Sigmar (Leadership 8, as the Chapter Master) may not lead a Knightly Order army.
    priest = [army[1], {"id": "priest", "entry": "priest-of-sigmar", "general": True}] + army[2:]
    assert found(check(book, priest, composition=PANTHER)) == [
        ("count.max", "Witch Hunters and Priests as General (not in a Knightly Order army): 1 unit taken; at most 0.")]
    assert found(check(book, ORDER_ARMIES[MORR] + [{"id": "captain", "entry": "captain-of-the-empire"}], composition=MORR)) == [
        ("count.max", "Units not in a Knights of Morr army: 1 unit taken; at most 0.")]


def test_knightly_order_limits_of_one_order(books):
    book = books[EM]
    mages = [{"id": f"mage-{i}", "entry": "master-mage", "path": "battle-magic"} for i in range(5)]
    blazing = ORDER_ARMIES[BLAZING_SUN]
    assert check(book, blazing + mages[:4], composition=BLAZING_SUN).violations == ()
    assert found(check(book, blazing + mages, composition=BLAZING_SUN)) == [
        ("count.max", "Master Mages: 5 units taken; at most 4 (2 per 1000 pts of the 2000-pt limit).")]
    guns = [{"id": "cannon-1", "entry": "great-cannon"}, {"id": "mortar", "entry": "mortar"}, {"id": "cannon-2", "entry": "great-cannon"}]
    assert check(book, blazing + guns[:2], composition=BLAZING_SUN).violations == ()
    assert found(check(book, blazing + guns, composition=BLAZING_SUN)) == [
        ("count.max", "Great Cannons and Mortars: 3 units taken; at most 2 (1 per 1000 pts of the 2000-pt limit).")]
    wolves = ORDER_ARMIES[WHITE_WOLF]
    militia = [{"id": f"militia-{i}", "entry": "free-company-militia", "size": 10} for i in range(3)]
    assert check(book, wolves + militia[:2], composition=WHITE_WOLF).violations == ()
    assert found(check(book, wolves + militia, composition=WHITE_WOLF)) == [
        ("count.max", "Free Company Militia as Core: 3 units taken; at most 2 (1 per 1000 pts of the 2000-pt limit).")]
    # Teutogen Guard need no Priest of Ulric in a White Wolf army; 0-1 unit of them may be Guardians of the Temple.
    guard = [{"id": f"guard-{i}", "entry": "teutogen-guard", "size": 5} for i in range(2)]
    assert check(book, wolves + guard, composition=WHITE_WOLF).violations == ()
    assert found(check(book, wolves + guard[:1] + [{**guard[1], "options": {"guardians-of-the-temple": 1}}],
                       composition=WHITE_WOLF)) == []
    assert found(check(book, wolves + [{**g, "options": {"guardians-of-the-temple": 1}} for g in guard],
                       composition=WHITE_WOLF)) == [
        ("count.max", "Teutogen Guard as Guardians of the Temple: 2 units taken; at most 1.")]
    fiery = ORDER_ARMIES[FIERY_HEART]
    altars = [{"id": f"lector-{i}", "entry": "lector-of-sigmar", "mount": "war-altar-of-sigmar"} for i in range(2)]
    flagellants = [{"id": "flagellants", "entry": "flagellants", "size": 10}]
    assert check(book, fiery + altars[:1] + flagellants, composition=FIERY_HEART).violations == ()
    assert found(check(book, fiery + altars, composition=FIERY_HEART)) == [
        ("count.max", "War Altars of Sigmar: 2 units taken; at most 1.")]
    morr = ORDER_ARMIES[MORR]
    assert check(book, morr + [{"id": "wizard-lord", "entry": "wizard-lord", "path": "illusion"}],
                 composition=MORR).violations == ()


# --- Combined Arms reads each unit's tags in the list's composition (`composition_tags`) ------------------
# Combined Arms (system.yaml, combined-arms-duplicates) exempts the units carrying `own-limit`, those with a
# 0-X limit of their own; which units have one depends on the composition.

def combined_arms(book, units, composition=None, points_limit=2000):
    return check(book, units, points_limit, composition=composition, modes=["combined-arms"])


def test_combined_arms_counts_road_wardens_in_nuln_where_they_have_no_limit(books):
    book = books[EM]
    wardens = [{"id": f"wardens-{i}", "entry": "empire-road-wardens", "size": 4} for i in range(1, 4)]
    # Grand Army: Special and 0-1 per 1000 points, so exempt (and two is their own limit at 2000 points).
    assert combined_arms(book, EMPIRE + wardens[:2]).violations == ()
    # City-State of Nuln: Rare and unlimited, so Combined Arms' 0-2 of each Rare unit holds.
    assert combined_arms(book, NULN_ARMY + wardens[:2], NULN).violations == ()
    assert found(combined_arms(book, NULN_ARMY + wardens, NULN)) == [
        ("duplicates.max", "Empire Road Wardens is taken 3 times; Rare units may each be taken at most 2 times in a "
                           "2000-pt army.")]
    assert check(book, NULN_ARMY + wardens, composition=NULN).violations == ()  # without Combined Arms


def test_combined_arms_counts_a_knightly_orders_own_empire_knights(books):
    book, army = books[EM], ORDER_ARMIES[PANTHER]
    more = [{"id": f"knights-{i}", "entry": "empire-knights-panther", "size": 5} for i in range(3, 6)]
    assert combined_arms(book, army + more[:2], PANTHER).violations == ()
    assert found(combined_arms(book, army + more, PANTHER)) == [
        ("duplicates.max", "Empire Knights Panther is taken 5 times; Core units may each be taken at most 4 times in a "
                           "2000-pt army.")]


def test_combined_arms_exempts_troll_horde_boar_boys_not_grand_army_ones(books):
    book = books[OG]
    boars = [{"id": f"boars-{i}", "entry": "orc-boar-boy-mob", "size": 5} for i in range(1, 5)]
    # Grand Army: no limit of their own, so at most 3 of this Special unit.
    assert combined_arms(book, ORC_ARMIES[None] + boars[:3]).violations == ()
    assert found(combined_arms(book, ORC_ARMIES[None] + boars)) == [
        ("duplicates.max", "Orc Boar Boy Mob is taken 4 times; Special units may each be taken at most 3 times in a "
                           "2000-pt army.")]
    # Troll Horde: 0-1 per 1000 points, so exempt; its own limit is what stops the fourth (and the third).
    assert combined_arms(book, ORC_ARMIES[TROLL_HORDE] + boars[:2], TROLL_HORDE).violations == ()
    assert found(combined_arms(book, ORC_ARMIES[TROLL_HORDE] + boars, TROLL_HORDE)) == [
        ("count.max", "Orc Boar Boy Mobs: 4 units taken; at most 2 (1 per 1000 pts of the 2000-pt limit).")]


def test_combined_arms_counts_royal_clan_hammerers_not_grand_army_ones(books):
    book = books[DW]
    hammerers = [{"id": f"hammerers-{i}", "entry": "hammerers", "size": 10} for i in range(2, 5)]
    clan = DWARF_ARMIES[ROYAL_CLAN]  # its own Hammerers and a King
    assert combined_arms(book, clan + hammerers[:2], ROYAL_CLAN).violations == ()
    assert found(combined_arms(book, clan + hammerers, ROYAL_CLAN)) == [
        ("duplicates.max", "Hammerers is taken 4 times; Special units may each be taken at most 3 times in a "
                           "2000-pt army.")]
    # Grand Army: one unit per King or Thane, so exempt: four with a King and three Thanes.
    thanes = [{"id": f"thane-{i}", "entry": "thane"} for i in range(1, 4)]
    army = DWARF_ARMIES[None] + thanes + [{"id": "hammerers-1", "entry": "hammerers", "size": 10}] + hammerers
    report = combined_arms(book, army)
    assert report.violations == (), found(report)


# --- a Detachment and the regiment it accompanies (list document `accompanies`) --------------------------

def test_a_nuln_regiment_takes_two_detachments_that_name_it_and_a_third_is_one_over(books):
    """City-State of Nuln: 1-2 Detachments per regiment (Old World Builder empire-of-man.json, maxDetachments
    2). Two regiments and three Detachments pass army-wide (four places); three naming one regiment do not."""
    book = books[EM]
    regiment2 = {"id": "regiment-2", "entry": "nuln-veteran-state-troops", "size": 10}
    detachments = [{"id": f"d{n}", "entry": "state-missile-troops-detachment", "size": 5, "accompanies": "regiment"}
                   for n in (2, 3)]
    army = with_unit(NULN_ARMY, "detachment", size=5, accompanies="regiment") + [regiment2] + detachments[:1]
    assert check(book, army, composition=NULN).violations == ()
    assert found(check(book, army + detachments[1:], composition=NULN)) == [
        ("accompanies.max", "Nuln State Troops (regiment) is accompanied by 3 Detachments; at most 2.")]
    # A Detachment naming a Detachment, or a Grand Army unit that is no Nuln regiment, is refused.
    wrong = with_unit(army, "d2", accompanies="archers")
    assert found(check(book, wrong, composition=NULN)) == [
        ("accompanies.not_allowed", "State Missile Troops (Detachment) (d2) accompanies Empire Archers (archers), which is not a "
                                    "regiment of Nuln State Troops or Nuln Veteran State Troops.")]
