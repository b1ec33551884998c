"""The Old World: the General is the eligible Character with the highest Leadership (seed 001:L3779-3783:
"The General is the character in your army with the highest Leadership. If more than one character shares
the highest Leadership value, you may choose which one is the General ... a character with the Loner
special rule cannot be your General"; the Battle Standard Bearer cannot be the General, 001:L3793-3795;
the-old-world-facts.md, "Always checked").

The Characters of the three books carry their Leadership in a profile (the books' `sources:` name where the
values come from). Each test builds a list with the real books through the engine, with no database: the
troops are the same in every list of a book, only the Characters change. The Empire and the Orcs & Goblins
have no Loner Character, so the Loner case is the Dwarfs' Daemon Slayer; no Dwarf Character that may carry
the Battle Standard out-ranks an eligible General (they have Ld 9, or are Loners), so the Battle Standard
Bearer case is the Empire's and the Orcs & Goblins'.
"""
from __future__ import annotations

import copy

import pytest

from armylists.rules import parse_roster, validate
from armylists.rules.reading.loader import build_book, read_yaml

from tests.conftest import RULES_DATA

SYSTEM, VERSION = "the-old-world", "2024.4"
EMPIRE, ORCS, DWARFS = "empire-of-man", "orc-and-goblin-tribes", "dwarfen-mountain-holds"
CODE = "general.not_highest_leadership"

TROOPS = {
    EMPIRE: [
        {"id": "halberdiers", "entry": "state-troops", "size": 33, "options": {"halberds": 1},
         "command": ["champion", "musician", "standard"]},
        {"id": "spearmen", "entry": "state-troops", "size": 20, "options": {"thrusting-spears": 1, "shields": 1},
         "command": ["champion", "musician", "standard"]},
        {"id": "handgunners", "entry": "state-missile-troops", "size": 10, "options": {"handguns": 1},
         "command": ["champion"]},
        {"id": "knights", "entry": "empire-knights", "size": 6, "options": {"lances-and-shields": 1},
         "command": ["champion", "musician", "standard"]},
        {"id": "greatswords", "entry": "empire-greatswords", "size": 20, "command": ["champion", "musician", "standard"]},
        {"id": "cannon", "entry": "great-cannon"},
    ],
    ORCS: [
        {"id": "big-mob", "entry": "orc-mob", "size": 25, "options": {"shields": 1},
         "command": ["champion", "musician", "standard"]},
        {"id": "archers", "entry": "orc-mob", "size": 20, "options": {"warbows": 1}, "command": ["musician", "standard"]},
        {"id": "gobbos", "entry": "goblin-mob", "size": 40, "command": ["champion", "musician", "standard"]},
        {"id": "spiders", "entry": "goblin-spider-rider-mob", "size": 5, "command": ["musician"]},
        {"id": "wolves", "entry": "goblin-wolf-rider-mob", "size": 5, "options": {"shortbows": 1}, "command": ["musician"]},
        {"id": "trolls", "entry": "common-troll-mob", "size": 3},
        {"id": "giant", "entry": "giant"},
    ],
    DWARFS: [
        {"id": "warriors", "entry": "dwarf-warriors", "size": 30, "options": {"shields": 1},
         "command": ["champion", "musician", "standard"]},
        {"id": "thunderers", "entry": "thunderers", "size": 15, "command": ["musician"]},
        {"id": "quarrellers", "entry": "quarrellers", "size": 15, "command": ["musician", "standard"]},
        {"id": "ironbreakers", "entry": "ironbreakers", "size": 15, "command": ["champion", "musician", "standard"]},
        {"id": "cannon", "entry": "cannon"},
    ],
}


def char(uid, entry, general=False, **extra):
    return {"id": uid, "entry": entry, **({"general": True} if general else {}), **extra}


def document(book, characters, allied=(), allies=None, points_limit=2000):
    doc = {"format": "armylist/1", "system": SYSTEM, "book": book, "book_version": VERSION,
           "points_limit": points_limit, "units": copy.deepcopy(list(characters) + TROOPS[book] + list(allied))}
    if allies:
        doc["allies"] = allies
    return doc


@pytest.fixture(scope="module")
def books(library):
    return {b: library.book(SYSTEM, b, VERSION) for b in (EMPIRE, ORCS, DWARFS)}


def check(books, doc, book=None):
    roster = parse_roster(doc)
    return validate(book or books[roster.book], roster, allies=books[roster.allies.book] if roster.allies else None)


def codes(report):
    return sorted(v.code for v in report.violations)


# --- every Character has its Leadership ------------------------------------------------------------

LEADERSHIP = {
    EMPIRE: {"general-of-the-empire": 10, "captain-of-the-empire": 9, "wizard-lord": 8, "master-mage": 7,
             "grand-master": 9, "chapter-master": 8, "witch-hunter": 8, "lector-of-sigmar": 9,
             "priest-of-sigmar": 8, "high-priest-of-ulric": 9, "priest-of-ulric": 8, "empire-engineer": 7,
             "harbinger-of-doom": 8, "general-hans-von-lowenhacke": 10, "harald-gemunsen": 9},
    ORCS: {"black-orc-warboss": 9, "black-orc-bigboss": 8, "orc-warboss": 8, "orc-bigboss": 7, "orc-weirdnob": 8,
           "orc-weirdboy": 7, "goblin-warboss": 7, "goblin-bigboss": 6, "goblin-oddnob": 7, "goblin-oddgit": 6,
           "night-goblin-warboss": 6, "night-goblin-bigboss": 5, "night-goblin-oddnob": 6,
           "night-goblin-oddgit": 5, "kiknik-toofsnatcha": 8, "ogdruz-swampdigga": 8},
    DWARFS: {"king": 10, "thane": 9, "anvil-of-doom": 9, "runelord": 9, "runesmith": 9, "daemon-slayer": 10,
             "dragon-slayer": 10, "engineer": 9, "engineer-sapper": 9, "thorgrim-ulleksson": 10,
             "ungrim-ironfist": 10, "burlok-damminson": 10},
}


@pytest.mark.parametrize("bid", [EMPIRE, ORCS, DWARFS])
def test_every_character_has_its_leadership(books, bid):
    characters = {e.id: e.leadership for e in books[bid].entries.values() if e.character}
    assert characters == LEADERSHIP[bid]
    # A Character in one composition only has hers too: the Troll Hag, a Character in a Troll Horde, Ld 8
    # (her unit profile, New Recruit's catalogue; before it she was named in `unchecked` as not recorded).
    unrecorded = {e.id for e in books[bid].entries.values() if e.may_be_character and e.leadership is None}
    assert unrecorded == set()
    assert [line for line in books[bid].unchecked if "Leadership" in line] == []
    if bid == ORCS:
        assert books[bid].entries["troll-hag"].leadership == 8


# --- the boundary, book by book ----------------------------------------------------------------------

CASES = {
    # book: (the General has the highest Ld, the General is one lower, the General ties the highest)
    EMPIRE: (
        [char("lord", "general-of-the-empire", True), char("captain", "captain-of-the-empire"),
         char("priest", "priest-of-sigmar")],
        [char("lord", "general-of-the-empire"), char("captain", "captain-of-the-empire", True)],
        [char("captain", "captain-of-the-empire", True), char("lector", "lector-of-sigmar")],
    ),
    ORCS: (
        [char("warboss", "orc-warboss", True), char("bigboss", "orc-bigboss"), char("gobbo", "goblin-warboss")],
        [char("warboss", "orc-warboss"), char("bigboss", "orc-bigboss", True)],
        [char("bigboss", "orc-bigboss", True), char("gobbo", "goblin-warboss")],
    ),
    DWARFS: (
        [char("king", "king", True), char("thane", "thane")],
        [char("king", "king"), char("thane", "thane", True)],
        [char("thane", "thane", True), char("runesmith", "runesmith"), char("engineer", "engineer")],
    ),
}
MESSAGES = {
    EMPIRE: ("captain", "The General Captain of the Empire (captain) has Leadership 9, but General of the Empire "
                        "(lord) has 10; the General must be the eligible Character with the highest Leadership."),
    ORCS: ("bigboss", "The General Orc Bigboss (bigboss) has Leadership 7, but Orc Warboss (warboss) has 8; the "
                      "General must be the eligible Character with the highest Leadership."),
    DWARFS: ("thane", "The General Thane (thane) has Leadership 9, but King (king) has 10; the General must be "
                      "the eligible Character with the highest Leadership."),
}


@pytest.mark.parametrize("bid", [EMPIRE, ORCS, DWARFS])
def test_the_general_with_the_highest_leadership_passes(books, bid):
    """001:L3779: the General is the Character with the highest Leadership (here 10 over 9, 8 over 7)."""
    assert codes(check(books, document(bid, CASES[bid][0]))) == []


@pytest.mark.parametrize("bid", [EMPIRE, ORCS, DWARFS])
def test_a_general_one_leadership_lower_than_another_character_fails(books, bid):
    """001:L3779: one point of Leadership below an eligible Character is not the highest."""
    report = check(books, document(bid, CASES[bid][1]))
    assert codes(report) == [CODE]
    violation = report.violations[0]
    assert (violation.unit, violation.message) == MESSAGES[bid]
    assert violation.rule == "general" and violation.source == "001:L3779-3783 (highest Leadership; never a Loner)"


@pytest.mark.parametrize("bid", [EMPIRE, ORCS, DWARFS])
def test_equal_highest_leadership_lets_the_player_choose(books, bid):
    """001:L3780: "If more than one character shares the highest Leadership value, you may choose"."""
    assert codes(check(books, document(bid, CASES[bid][2]))) == []


def test_a_loner_with_higher_leadership_does_not_make_the_general_illegal(books):
    """001:L3783: a Loner cannot be the General, so the Daemon Slayer's Ld 10 is not compared with the
    Thane's 9; naming the Daemon Slayer is refused for Loner, not for Leadership."""
    characters = [char("thane", "thane", True), char("slayer", "daemon-slayer")]
    assert codes(check(books, document(DWARFS, characters))) == []
    characters = [char("thane", "thane"), char("slayer", "daemon-slayer", True)]
    assert codes(check(books, document(DWARFS, characters))) == ["general.not_eligible"]


@pytest.mark.parametrize("bid, characters", [
    (EMPIRE, [char("bsb", "captain-of-the-empire", options={"battle-standard-bearer": 1}),
              char("priest", "priest-of-sigmar", True), char("mage", "master-mage", path="battle-magic")]),
    (ORCS, [char("bsb", "orc-bigboss", options={"battle-standard-bearer": 1}),
            char("gobbo", "goblin-bigboss", True), char("night", "night-goblin-warboss")]),
])
def test_the_battle_standard_bearers_higher_leadership_does_not_count(books, bid, characters):
    """001:L3793-3795: the Battle Standard Bearer cannot be the General, so its Leadership (9 over 8, 7 over 6)
    is not compared; without the standard the same Character out-ranks the General."""
    assert codes(check(books, document(bid, characters))) == []
    without_standard = [dict(c, options={}) if c["id"] == "bsb" else c for c in characters]
    assert codes(check(books, document(bid, without_standard))) == [CODE]


# --- allied Characters do not count --------------------------------------------------------------------

@pytest.mark.parametrize("bid, characters, allies, allied", [
    (EMPIRE, [char("captain", "captain-of-the-empire", True)], {"book": DWARFS, "book_version": VERSION},
     [char("king", "king", allied=True), {"id": "dwarfs", "entry": "dwarf-warriors", "size": 10, "allied": True}]),
    (DWARFS, [char("thane", "thane", True)], {"book": EMPIRE, "book_version": VERSION},
     [char("lord", "general-of-the-empire", allied=True),
      {"id": "troops", "entry": "state-troops", "size": 10, "allied": True}]),
    (ORCS, [char("gobbo", "goblin-warboss", True)],
     {"book": ORCS, "book_version": VERSION, "composition": "nomadic-waaagh"},
     [char("warboss", "orc-warboss", allied=True),
      {"id": "allied-wolves", "entry": "goblin-wolf-rider-mob", "size": 5, "allied": True}]),
])
def test_an_allied_character_with_higher_leadership_does_not_count(books, bid, characters, allies, allied):
    """The General is one of the army's own Characters (system.yaml `allies.without_allies: [general]`): an
    allied King (Ld 10), General of the Empire (10) or Orc Warboss (8) is not compared with the General."""
    assert codes(check(books, document(bid, characters, allied, allies))) == []


# --- partial data: a Character without a known Leadership ------------------------------------------------

@pytest.fixture(scope="module")
def empire_without_captain_leadership(library):
    """The Empire with the Captain's profile removed: the check must not read a missing Ld as 0."""
    data = read_yaml(RULES_DATA / SYSTEM / "books" / f"{EMPIRE}.yaml")
    for entry in data["entries"]:
        if entry["id"] == "captain-of-the-empire":
            del entry["profiles"]
    book = build_book(data, library.systems[SYSTEM], library.common_items[SYSTEM], "variant")
    assert book.entries["captain-of-the-empire"].leadership is None
    return book


def test_a_general_of_unknown_leadership_is_not_compared(books, empire_without_captain_leadership):
    characters = [char("lord", "general-of-the-empire"), char("captain", "captain-of-the-empire", True)]
    report = check(books, document(EMPIRE, characters), empire_without_captain_leadership)
    assert codes(report) == []


def test_a_character_of_unknown_leadership_is_left_out_of_the_comparison(books, empire_without_captain_leadership):
    variant = empire_without_captain_leadership
    characters = [char("captain", "captain-of-the-empire"), char("mage", "master-mage", True, path="battle-magic")]
    assert codes(check(books, document(EMPIRE, characters), variant)) == []
    characters.append(char("wizard", "wizard-lord", path="battle-magic"))
    report = check(books, document(EMPIRE, characters), variant)
    assert [(v.code, v.message) for v in report.violations] == [(CODE, (
        "The General Master Mage (mage) has Leadership 7, but Wizard Lord (wizard) has 8; the General must be "
        "the eligible Character with the highest Leadership."))]


def test_no_general_names_the_unknown_leadership(books, empire_without_captain_leadership):
    characters = [char("lord", "general-of-the-empire"), char("captain", "captain-of-the-empire")]
    report = check(books, document(EMPIRE, characters), empire_without_captain_leadership)
    assert [v.message for v in report.violations if v.code == "general.missing"] == [
        "No General is named; one Character must be: General of the Empire (lord) Ld 10, "
        "Captain of the Empire (captain) Ld unknown."]
