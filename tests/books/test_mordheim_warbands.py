"""Five more Mordheim warbands at their founding, at the boundaries of their own limits.

Witch Hunters, Sisters of Sigmar, The Undead, Skaven of Clan Eshin and Cult of the Possessed: each warband's
maximum size, each 0-X limit, its group sizes, its special equipment rules, and the warband rating of its
legal example computed by hand (5 per warrior, 20 per large creature, plus the heroes' starting experience).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from armylists.rules import parse_roster, validate

SYSTEM, VERSION = "mordheim", "1999.2"
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"

WH, SOS, UD, SK, COP = ("witch-hunters", "sisters-of-sigmar", "undead", "skaven-of-clan-eshin",
                        "cult-of-the-possessed")


def check(library, book_id, units, gold=500):
    doc = {"format": "armylist/1", "system": SYSTEM, "book": book_id, "book_version": VERSION,
           "points_limit": gold, "units": units}
    if gold > 500:  # a warband later in its campaign: more gold than its founding 500, the same limits
        doc["modes"] = ["campaign"]
    return validate(library.book(SYSTEM, book_id, VERSION), parse_roster(doc))


def codes(report):
    return sorted(v.code for v in report.violations)


def messages(report, code):
    return [v.message for v in report.violations if v.code == code]


def groups(entry, models, prefix="g", size=5, **extra):
    """`models` models of one henchman type, in groups of at most `size`."""
    out, n = [], 0
    while models > 0:
        n += 1
        take = min(size, models)
        out.append({"id": f"{prefix}{n}", "entry": entry, "size": take, **extra})
        models -= take
    return out


# Per warband: its leader, a henchman type it may take in any number, and its maximum size.
WARBANDS = {
    WH: ("captain", "zealots", 12),
    SOS: ("matriarch", "sigmarite-sisters", 15),
    UD: ("vampire", "zombies", 15),
    SK: ("assassin-adept", "verminkin", 20),
    COP: ("magister", "brethren", 15),
}


# --- the legal examples: gold and warband rating by hand ---------------------------------------

# (book, gold spent, models, rating) — the rating by hand from the example's units:
RATINGS = {
    # Captain 60+10+35+20, Priest 40+3+5, Hunters 25+15+10 and 25+25, 2 Flagellants x (40+15),
    # 3 Zealots x (20+5+5), 1 Warhound 15; 10 warriors x 5 + experience 20 + 12 + 8 + 8.
    WH: (125 + 48 + 50 + 50 + 110 + 90 + 15, 10, 10 * 5 + 20 + 12 + 8 + 8),
    # Matriarch 70+2x15+20, Superiors 35+15+5 and 35+15, Augur 25+2+10, 4 Sisters x (25+3+5),
    # 4 Novices x (15+3), a hired Halfling Scout 15; 12 warriors x 5 + experience 20 + 8 + 8 (+ Augur 0),
    # and the Halfling's own worth, 5 (Hired Swords).
    SOS: (120 + 55 + 50 + 37 + 132 + 72 + 15, 13, 12 * 5 + 20 + 8 + 8 + 5),
    # Vampire 110+10+20, Necromancer 35+10, Dregs 20+10+5 and 20+10, 4 Zombies x 15, 2 Ghouls x 40,
    # 2 Dire Wolves x 50; 12 warriors x 5 + experience 20 + 8 (Dregs 0).
    UD: (140 + 45 + 35 + 30 + 60 + 80 + 100, 12, 12 * 5 + 20 + 8),
    # Adept 60+35, Sorcerer 45+10, Black Skaven 40+10+15, Night Runner 20+2, 5 Verminkin x (20+10+5),
    # 5 Giant Rats x 15; 14 warriors x 5 + experience 20 + 8 + 8.
    SK: (95 + 55 + 65 + 22 + 175 + 75, 14, 14 * 5 + 20 + 8 + 8),
    # Magister 70, Possessed 90 + Blackblood 30 + Daemon soul 2 x 20 (a second mutation costs double),
    # Mutant 25+35, 2 Darksouls x (35+5), 3 Brethren x (25+3), 1 Beastman 45; 9 warriors x 5 + experience
    # 20 + 8 (Mutant 0).
    COP: (70 + 160 + 60 + 80 + 84 + 45, 9, 9 * 5 + 20 + 8),
}


def example(book_id, kind):
    return json.loads((EXAMPLES / f"{book_id}-{kind}.json").read_text())


@pytest.mark.parametrize("book_id", sorted(RATINGS))
def test_the_legal_example_and_its_rating_by_hand(library, book_id):
    gold, models, rating = RATINGS[book_id]
    report = check(library, book_id, example(book_id, "legal")["units"])
    assert report.violations == ()
    assert (report.total_points, report.points_left, report.budget_unit) == (gold, 500 - gold, "gc")
    assert report.figures["models"] == models
    assert report.figures["rating"] == rating


@pytest.mark.parametrize("book_id", sorted(RATINGS))
def test_the_illegal_example_is_illegal(library, book_id):
    report = check(library, book_id, example(book_id, "illegal")["units"])
    assert "points.over_limit" in codes(report) and "count.max" in codes(report)


# --- the warband's maximum size ----------------------------------------------------------------

@pytest.mark.parametrize("book_id", sorted(WARBANDS))
def test_the_maximum_size_passes_and_one_more_fails(library, book_id):
    leader, filler, most = WARBANDS[book_id]
    full = [{"id": "leader", "entry": leader}] + groups(filler, most - 1)
    report = check(library, book_id, full, gold=5000)
    assert report.violations == () and report.figures["models"] == most
    report = check(library, book_id, full + [{"id": "one-more", "entry": filler}], gold=5000)
    assert codes(report) == ["count.max"]
    assert report.violations[0].message == f"Warband: {most + 1} models taken; at most {most}."


@pytest.mark.parametrize("book_id", sorted(WARBANDS))
def test_a_group_of_five_passes_and_six_fails(library, book_id):
    leader, filler, _ = WARBANDS[book_id]
    base = [{"id": "leader", "entry": leader}]
    assert check(library, book_id, base + [{"id": "g", "entry": filler, "size": 5}], gold=5000).violations == ()
    report = check(library, book_id, base + [{"id": "g", "entry": filler, "size": 6}], gold=5000)
    assert codes(report) == ["unit.size_max"]
    name = library.book(SYSTEM, book_id, VERSION).entries[filler].name
    assert report.violations[0].message == f"{name} (g) has 6 models; at most 5."


@pytest.mark.parametrize("book_id", sorted(WARBANDS))
def test_a_second_leader_fails(library, book_id):
    leader, filler, _ = WARBANDS[book_id]
    units = [{"id": "l1", "entry": leader}, {"id": "l2", "entry": leader}, {"id": "g", "entry": filler}]
    report = check(library, book_id, units, gold=5000)
    assert codes(report) == ["count.max"]
    assert report.violations[0].message == "Leader: 2 units taken; at most 1."


# --- every 0-X limit: X passes, X + 1 fails ------------------------------------------------------

# (book, entry, X, label, counted in, options each model needs)
LIMITS = [
    (WH, "warrior-priest", 1, "Warrior-Priests", "units", {}),
    (WH, "witch-hunter", 3, "Witch Hunters", "units", {}),
    (WH, "flagellants", 5, "Flagellants", "models", {}),
    (WH, "warhounds", 5, "Warhounds", "models", {}),
    (SOS, "sister-superior", 3, "Sister Superiors", "units", {}),
    (SOS, "augur", 1, "Augurs", "units", {}),
    (SOS, "novices", 10, "Novices", "models", {}),
    (UD, "necromancer", 1, "Necromancers", "units", {}),
    (UD, "dreg", 3, "Dregs", "units", {}),
    (UD, "dire-wolves", 5, "Dire Wolves", "models", {}),
    (SK, "eshin-sorcerer", 1, "Eshin Sorcerers", "units", {}),
    (SK, "black-skaven", 2, "Black Skaven", "units", {}),
    (SK, "night-runner", 2, "Night Runners", "units", {}),
    (SK, "rat-ogre", 1, "Rat Ogres", "models", {}),
    (COP, "possessed", 2, "Possessed", "units", {}),
    (COP, "mutant", 2, "Mutants", "units", {"daemon-soul": 1}),
    (COP, "darksouls", 5, "Darksouls", "models", {}),
    (COP, "beastmen", 3, "Beastmen", "models", {}),
]


def take(library, book_id, entry, n, options):
    """n models of `entry`: heroes one to a unit, henchmen in groups up to their own maximum."""
    spec = library.book(SYSTEM, book_id, VERSION).entries[entry]
    extra = {"options": options} if options else {}
    if spec.category == "heroes":
        return [{"id": f"{entry}-{i}", "entry": entry, **extra} for i in range(1, n + 1)]
    return groups(entry, n, prefix=f"{entry}-", size=spec.size_max or 5, **extra)


@pytest.mark.parametrize("book_id,entry,most,label,what,options", LIMITS, ids=lambda v: v if isinstance(v, str) else None)
def test_each_limit_passes_at_x_and_fails_at_x_plus_one(library, book_id, entry, most, label, what, options):
    leader, filler, _ = WARBANDS[book_id]
    base = [{"id": "leader", "entry": leader}, {"id": "filler", "entry": filler}]
    assert check(library, book_id, base + take(library, book_id, entry, most, options), gold=5000).violations == ()
    report = check(library, book_id, base + take(library, book_id, entry, most + 1, options), gold=5000)
    assert codes(report) == ["count.max"]
    assert report.violations[0].message == f"{label}: {most + 1} {what} taken; at most {most}."


# --- Witch Hunters -------------------------------------------------------------------------------

def test_witch_hunters_budget_boundary(library):
    units = example(WH, "legal")["units"]
    exact = [dict(units[0], options={**units[0]["options"], "helmet": 1, "dagger": 1})] + units[1:]  # 488 + 12
    report = check(library, WH, exact)
    assert report.violations == () and report.total_points == 500
    over = [dict(units[0], options={**units[0]["options"], "helmet": 1, "mace": 1})] + units[1:]  # 488 + 13
    report = check(library, WH, over)
    assert codes(report) == ["points.over_limit"]
    assert report.violations[0].message == "Total 501 gc is 1 gc over the 500 gc limit."


def test_flagellants_buy_only_from_their_own_list(library):
    base = [{"id": "captain", "entry": "captain"}, {"id": "z", "entry": "zealots"}]
    fine = base + [{"id": "f", "entry": "flagellants", "size": 2, "options": {"flail": 1, "morning-star": 1}}]
    assert check(library, WH, fine).violations == ()
    report = check(library, WH, base + [{"id": "f", "entry": "flagellants", "size": 2, "options": {"crossbow": 1}}])
    assert codes(report) == ["list.unknown_option"]


def test_warhounds_use_no_equipment(library):
    units = [{"id": "captain", "entry": "captain"}, {"id": "h", "entry": "warhounds", "size": 2, "options": {"dagger": 1}}]
    assert codes(check(library, WH, units)) == ["list.unknown_option"]


def test_pistol_and_brace_are_alternatives_and_the_priest_prays_to_sigmar(library):
    units = [{"id": "captain", "entry": "captain", "options": {"pistol": 1, "brace-of-pistols": 1}},
             {"id": "priest", "entry": "warrior-priest"}, {"id": "z", "entry": "zealots"}]
    report = check(library, WH, units)
    assert codes(report) == ["options.group_max"]
    units[1] = {"id": "priest", "entry": "warrior-priest", "path": "necromancy"}
    units[0] = {"id": "captain", "entry": "captain", "options": {"brace-of-pistols": 1}}
    report = check(library, WH, units)
    assert codes(report) == ["wizard.path_not_allowed"]


# --- Sisters of Sigmar ---------------------------------------------------------------------------

def test_only_the_matriarch_and_superiors_carry_two_sigmarite_warhammers(library):
    base = [{"id": "m", "entry": "matriarch", "options": {"sigmarite-warhammer": 2}},
            {"id": "s", "entry": "sister-superior", "options": {"sigmarite-warhammer": 2}}]
    sisters = {"id": "sis", "entry": "sigmarite-sisters", "size": 2, "options": {"sigmarite-warhammer": 1}}
    assert check(library, SOS, base + [sisters]).violations == ()
    report = check(library, SOS, base + [dict(sisters, options={"sigmarite-warhammer": 2})])
    assert codes(report) == ["options.max"]
    assert report.violations[0].message == "Sigmarite Sisters (sis) takes Sigmarite warhammer 2 times; at most 1."
    # Two hammers and a third weapon is over the carrying limit.
    three = [dict(base[0], options={"sigmarite-warhammer": 2, "steel-whip": 1})] + base[1:] + [sisters]
    assert codes(check(library, SOS, three)) == ["options.tag_max"]


@pytest.mark.parametrize("item", ["light-armour", "heavy-armour", "shield", "buckler", "helmet"])
def test_the_augur_never_wears_armour(library, item):
    units = [{"id": "m", "entry": "matriarch"}, {"id": "a", "entry": "augur", "options": {"holy-relic": 1}},
             {"id": "n", "entry": "novices"}]
    assert check(library, SOS, units).violations == ()
    units[1] = {"id": "a", "entry": "augur", "options": {item: 1}}
    assert codes(check(library, SOS, units)) == ["list.unknown_option"]


def test_holy_items_are_for_heroines_only(library):
    heroine = [{"id": "m", "entry": "matriarch", "options": {"holy-tome": 1, "blessed-water": 1, "holy-relic": 1}},
               {"id": "n", "entry": "novices", "size": 2}]
    report = check(library, SOS, heroine)
    assert report.violations == () and report.total_points == 70 + 120 + 10 + 15 + 2 * 15
    for item in ("holy-tome", "blessed-water", "holy-relic"):
        units = heroine[:1] + [{"id": "n", "entry": "novices", "size": 2, "options": {item: 1}}]
        assert codes(check(library, SOS, units)) == ["list.unknown_option"]


# --- The Undead ----------------------------------------------------------------------------------

@pytest.mark.parametrize("entry", ["zombies", "ghouls", "dire-wolves"])
def test_zombies_ghouls_and_dire_wolves_carry_nothing(library, entry):
    units = [{"id": "v", "entry": "vampire"}, {"id": "g", "entry": entry, "size": 2}]
    assert check(library, UD, units).violations == ()
    units[1]["options"] = {"sword": 1}
    assert codes(check(library, UD, units)) == ["list.unknown_option"]


def test_the_undead_budget_and_the_necromancers_lore(library):
    units = [{"id": "v", "entry": "vampire", "options": {"heavy-armour": 1, "double-handed-weapon": 1}},  # 175
             {"id": "n", "entry": "necromancer", "path": "necromancy"},  # 35
             {"id": "w", "entry": "dire-wolves", "size": 5},  # 250
             {"id": "z", "entry": "zombies", "size": 2}]  # 30 -> 490
    report = check(library, UD, units)
    assert report.violations == () and report.total_points == 490
    units.append({"id": "d", "entry": "dreg", "options": {"hammer": 1}})  # 23 -> 513
    report = check(library, UD, units)
    assert codes(report) == ["points.over_limit"]
    assert report.violations[0].message == "Total 513 gc is 13 gc over the 500 gc limit."


# --- Skaven of Clan Eshin ------------------------------------------------------------------------

def test_the_rat_ogre_is_a_large_creature_worth_20(library):
    units = [{"id": "a", "entry": "assassin-adept"}, {"id": "o", "entry": "rat-ogre"},
             {"id": "v", "entry": "verminkin", "size": 2}]
    report = check(library, SK, units)
    assert report.violations == () and report.total_points == 60 + 210 + 2 * 20
    # Adept 5 + 20 experience, Rat Ogre 20 (no experience), two Verminkin 5 each.
    assert report.figures["rating"] == (5 + 20) + 20 + 2 * 5


def test_a_rat_ogre_is_bought_alone(library):
    units = [{"id": "a", "entry": "assassin-adept"}, {"id": "o", "entry": "rat-ogre", "size": 2}]
    report = check(library, SK, units, gold=1000)
    assert codes(report) == ["count.max", "unit.size_max"]
    assert messages(report, "unit.size_max") == ["Rat Ogre (o) has 2 models; at most 1."]


def test_giant_rats_come_in_any_number(library):
    units = [{"id": "a", "entry": "assassin-adept"}] + groups("giant-rats", 15, prefix="rats-")
    report = check(library, SK, units, gold=1000)
    assert report.violations == () and report.figures["models"] == 16
    units[1]["options"] = {"dagger": 1}
    assert codes(check(library, SK, units, gold=1000)) == ["list.unknown_option"]


def test_night_runners_buy_from_the_henchmen_list(library):
    base = [{"id": "a", "entry": "assassin-adept"}, {"id": "v", "entry": "verminkin"}]
    fine = base + [{"id": "b", "entry": "black-skaven", "options": {"weeping-blades": 1}},
                   {"id": "r", "entry": "night-runner", "options": {"club": 1, "shield": 1}}]
    assert check(library, SK, fine).violations == ()
    report = check(library, SK, base + [{"id": "r", "entry": "night-runner", "options": {"weeping-blades": 1}}])
    assert codes(report) == ["list.unknown_option"]


def test_six_skaven_heroes_pass_and_a_seventh_fails_twice(library):
    heroes = [{"id": "a", "entry": "assassin-adept"}, {"id": "s", "entry": "eshin-sorcerer"},
              {"id": "b1", "entry": "black-skaven"}, {"id": "b2", "entry": "black-skaven"},
              {"id": "r1", "entry": "night-runner"}, {"id": "r2", "entry": "night-runner"}]
    assert check(library, SK, heroes).violations == ()
    report = check(library, SK, heroes + [{"id": "r3", "entry": "night-runner"}])
    assert codes(report) == ["count.max", "count.max"]
    assert sorted(messages(report, "count.max")) == ["Heroes (the leader included): 7 models taken; at most 6.",
                                                      "Night Runners: 3 units taken; at most 2."]


# --- Cult of the Possessed -----------------------------------------------------------------------

def test_a_mutant_needs_a_mutation(library):
    base = [{"id": "m", "entry": "magister"}, {"id": "b", "entry": "brethren"}]
    report = check(library, COP, base + [{"id": "mutant", "entry": "mutant", "options": {"axe": 1}}])
    assert codes(report) == ["options.group_min"]
    assert report.violations[0].message == "Mutant (mutant) must choose at least 1 of Mutations."
    two = base + [{"id": "mutant", "entry": "mutant", "options": {"tentacle": 1, "hideous": 1, "axe": 1}}]
    report = check(library, COP, two)
    # Rising costs: the Hideous (40) first, the Tentacle (35) second at double (Cult of the Possessed, Mutations)
    assert report.violations == () and report.total_points == 70 + 25 + 25 + 40 + 2 * 35 + 5


def test_the_possessed_use_no_equipment_and_may_go_without_mutations(library):
    base = [{"id": "m", "entry": "magister"}, {"id": "b", "entry": "brethren"}]
    assert check(library, COP, base + [{"id": "p", "entry": "possessed"}]).violations == ()
    mutated = base + [{"id": "p", "entry": "possessed", "options": {"great-claw": 1, "scorpion-tail": 1}}]
    assert check(library, COP, mutated).total_points == 70 + 25 + 90 + 50 + 2 * 40  # the second at double
    for item in ("sword", "light-armour", "dagger"):
        units = base + [{"id": "p", "entry": "possessed", "options": {item: 1}}]
        assert codes(check(library, COP, units)) == ["list.unknown_option"]


def test_beastmen_and_darksouls_buy_from_the_darksoul_list(library):
    base = [{"id": "m", "entry": "magister"}]
    fine = base + [{"id": "bm", "entry": "beastmen", "size": 2, "options": {"flail": 1}},
                   {"id": "ds", "entry": "darksouls", "size": 2, "options": {"flail": 1}}]
    assert check(library, COP, fine).violations == ()
    for entry in ("beastmen", "darksouls"):
        units = base + [{"id": "x", "entry": entry, "size": 2, "options": {"bow": 1}}]
        assert codes(check(library, COP, units)) == ["list.unknown_option"]
    # Brethren have the bow (15 gc on the Possessed list), not the flail.
    report = check(library, COP, base + [{"id": "br", "entry": "brethren", "size": 2, "options": {"bow": 1}}])
    assert report.violations == () and report.total_points == 70 + 2 * (25 + 15)
