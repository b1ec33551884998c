"""Profiles after modifiers (issue 21 item 1, issue 22 items 1 and 5): a profile's characteristics,
name and hidden flag as BattleScribe shows them where the selection holding it stands
(armylists/rules/battlescribe/profiles.py). Small data built here as .gst/.cat XML and read by the
importer's plain reader; the real data's own case is the 2nd-edition Undying Dynasties' Pharaoh."""
from __future__ import annotations

from pathlib import Path

import pytest

from armylists.importers.battlescribe.plain import plain_document
from armylists.importers.battlescribe.sources import read_sources
from armylists.rules.battlescribe import GameData, Roster, add_force, evaluate, select, set_count
from armylists.rules.battlescribe.profiles import card_extras
from armylists.rules.battlescribe.sheet import TreePrinting, unit_sheet
from tests.battlescribe.spec.setup_xml import plain_setup

ROOT = Path(__file__).resolve().parents[2]
T9A = ROOT.parent / "shared" / "external" / "battlescribe" / "the-9th-age-2nd"

PROFILE_TYPE = {"id": "pt-model", "name": "1 Model", "characteristicTypes": [
    {"id": "ct-m", "name": "M"}, {"id": "ct-ws", "name": "WS"}, {"id": "ct-rules", "name": "Rules"}]}


def boots_when(kind: str, value, condition_value=1, comparison="atLeast", repeats=()):
    """A modifier of the profile's M: `kind` by `value` when the unit holds Boots (`comparison`
    `condition_value`), or repeated per Boots with `repeats`."""
    modifier = {"type": kind, "field": "ct-m", "value": value}
    if repeats:
        modifier["repeats"] = list(repeats)
    else:
        modifier["conditions"] = [{"type": comparison, "value": condition_value, "field": "selections",
                                   "scope": "self", "childId": "se-boots", "shared": True}]
    return modifier


def game(*modifiers, profile_hidden=False, link_modifiers=(), unit_modifiers=()):
    """A Warrior (M 4, WS 3) whose profile carries `modifiers`, with up to 3 Boots (+5 pts each) and an
    info link to a shared profile "Shield Wall" carrying `link_modifiers`."""
    return GameData(plain_setup({
        "gameSystem": {"id": "gs", "name": "Test", "costTypes": [{"id": "pts", "name": "pts"}],
                       "profileTypes": [PROFILE_TYPE],
                       "forceEntries": [{"id": "fe", "name": "Army"}]},
        "catalogues": [{"id": "cat", "name": "Book", "selectionEntries": [
            {"id": "se-warrior", "name": "Warrior", "type": "unit",
             "costs": [{"name": "pts", "typeId": "pts", "value": 10}], "modifiers": list(unit_modifiers),
             "profiles": [{"id": "p-warrior", "name": "Warrior", "typeId": "pt-model", "typeName": "1 Model",
                           "hidden": profile_hidden, "modifiers": list(modifiers), "characteristics": [
                               {"name": "M", "typeId": "ct-m", "value": "4"},
                               {"name": "WS", "typeId": "ct-ws", "value": "3"},
                               {"name": "Rules", "typeId": "ct-rules", "value": "Hatred"}]}],
             "infoLinks": [{"id": "il-wall", "name": "Shield Wall", "targetId": "p-wall", "type": "profile",
                            "modifiers": list(link_modifiers)}],
             "selectionEntries": [{"id": "se-boots", "name": "Boots", "type": "upgrade",
                                   "costs": [{"name": "pts", "typeId": "pts", "value": 5}],
                                   "constraints": [{"id": "c-boots", "type": "max", "value": 3,
                                                    "field": "selections", "scope": "parent"}]}]}],
            "sharedProfiles": [{"id": "p-wall", "name": "Shield Wall", "typeId": "pt-model", "typeName": "1 Model",
                                "characteristics": [{"name": "M", "typeId": "ct-m", "value": "3"},
                                                    {"name": "WS", "typeId": "ct-ws", "value": "2"},
                                                    {"name": "Rules", "typeId": "ct-rules", "value": ""}]}]}],
    }))


def warrior(data, boots=0):
    roster = Roster(data)
    unit = select(roster, add_force(roster, "fe"), "se-warrior")
    if boots:
        set_count(roster, select(roster, unit, "se-boots"), boots)
    evaluate(roster)
    return roster, unit


def rows(data, boots=0, notes=None):
    roster, unit = warrior(data, boots)
    tables, _rules = card_extras(roster, unit, notes)
    return [(t["type"], t["columns"], t["rows"]) for t in tables]


WALL = ["Shield Wall", "3", "2", ""]


def test_a_modifier_sets_a_characteristic_only_when_its_condition_holds():
    data = game(boots_when("set", "5"))
    assert rows(data) == [("Model", ["M", "WS", "Rules"], [["Warrior", "4", "3", "Hatred"], WALL])]
    assert rows(data, boots=1) == [("Model", ["M", "WS", "Rules"], [["Warrior", "5", "3", "Hatred"], WALL])]


@pytest.mark.parametrize("boots, m", [(1, "4"), (2, "5"), (3, "5")])
def test_a_condition_at_its_boundary(boots, m):
    """atLeast 2 Boots: 1 is one short, 2 is exactly it, 3 is past it."""
    assert rows(game(boots_when("set", "5", condition_value=2)), boots=boots)[0][2][0][1] == m


@pytest.mark.parametrize("boots, m", [(0, "4"), (1, "5"), (2, "6"), (3, "7")])
def test_an_increment_repeats_once_per_boots(boots, m):
    repeat = {"type": "atLeast", "value": 1, "field": "selections", "scope": "self", "childId": "se-boots",
              "shared": True, "repeats": 1}
    assert rows(game(boots_when("increment", "1", repeats=[repeat])), boots=boots)[0][2][0][1] == m


def test_set_comes_before_increment_and_decrement_whatever_their_order():
    """battlescribe-spec modifier-application-order: set first, then the rest in order: 5 + 2 - 1 = 6."""
    data = game(boots_when("increment", "2"), boots_when("decrement", "1"), boots_when("set", "5"))
    assert rows(data, boots=1)[0][2][0][1] == "6"
    assert rows(data)[0][2][0][1] == "4"


def test_append_and_name_and_hidden_modifiers():
    data = game({"type": "append", "field": "ct-rules", "value": " Fear",
                 "conditions": [{"type": "atLeast", "value": 1, "field": "selections", "scope": "self",
                                 "childId": "se-boots", "shared": True}]},
                {"type": "set", "field": "name", "value": "Booted Warrior",
                 "conditions": [{"type": "equalTo", "value": 2, "field": "selections", "scope": "self",
                                 "childId": "se-boots", "shared": True}]})
    assert rows(data, boots=1)[0][2][0] == ["Warrior", "4", "3", "Hatred Fear"]
    assert rows(data, boots=2)[0][2][0] == ["Booted Warrior", "4", "3", "Hatred Fear"]
    shown_when_booted = game({"type": "set", "field": "hidden", "value": "false",
                              "conditions": [{"type": "atLeast", "value": 1, "field": "selections", "scope": "self",
                                              "childId": "se-boots", "shared": True}]}, profile_hidden=True)
    assert rows(shown_when_booted)[0][2] == [WALL]
    assert rows(shown_when_booted, boots=1)[0][2] == [["Warrior", "4", "3", "Hatred"], WALL]


def test_an_info_links_modifier_changes_the_linked_profile_where_it_is_linked():
    data = game(link_modifiers=[boots_when("increment", "1")])
    assert rows(data)[0][2][1] == WALL
    assert rows(data, boots=1)[0][2][1] == ["Shield Wall", "4", "2", ""]


def test_what_is_not_understood_leaves_the_value_and_is_named():
    notes: list[str] = []
    data = game(boots_when("replace", "9"), {"type": "increment", "field": "ct-rules", "value": "1"})
    assert rows(data, boots=1, notes=notes)[0][2][0] == ["Warrior", "4", "3", "Hatred"]
    assert notes == ["Warrior: modifier type 'replace' on a characteristic",
                     "Warrior: increment of 'Hatred', which is not a number"]


def test_a_units_sheet_holds_its_selections_with_numbers_and_costs():
    roster, unit = warrior(game(boots_when("set", "5")), boots=2)
    sheet = unit_sheet(TreePrinting(roster), unit)
    assert (sheet.name, sheet.roles, [h.words("pts") for h in sheet.held]) == ("Warrior", (), ["2\u00d7 Boots 10 pts"])
    assert sheet.tables[0]["rows"][0] == ["Warrior", "5", "3", "Hatred"]
    named = unit_sheet(TreePrinting(roster, general=frozenset({"Boots"})), unit)
    assert (named.roles, named.held) == (("General",), ())


def test_a_units_sheet_names_it_after_its_modifiers():
    data = game(unit_modifiers=[{"type": "append", "field": "name", "value": "(booted)", "conditions": [
        {"type": "atLeast", "value": 1, "field": "selections", "scope": "self", "childId": "se-boots", "shared": True}]}])
    for boots, name in ((0, "Warrior"), (1, "Warrior (booted)")):
        roster, unit = warrior(data, boots)
        assert unit_sheet(TreePrinting(roster), unit).name == name


needs_t9a = pytest.mark.skipif(not T9A.is_dir(), reason="../shared/external/battlescribe/the-9th-age-2nd is absent")


@needs_t9a
def test_the_pharaohs_agility_drops_with_the_terracotta_command_and_flammable_goes():
    """2nd-undyingDynasties.cat:84-92: the Pharaoh's "3 Offensive" profile decrements Agi by 1 when the
    roster holds exactly one "Commander of the Terracotta Army" (entry link at line 212), and its
    "Flammable" rule link is hidden then (lines 103-109)."""
    documents = read_sources([str(T9A / "2nd-theNinthAge-FantasyBattles.gst"), str(T9A / "2nd-undyingDynasties.cat")])
    data = GameData([plain_document(d) for d in documents])
    catalogue = next(iter(data.catalogues))
    roster = Roster(data)
    force_id = next(f for f, (entry, doc) in data.forces.items() if not entry.get("hidden") and doc == catalogue)
    force = add_force(roster, force_id, catalogue)
    pharaoh = select(roster, force, next(o.entry_id for o in roster.options(force) if o.entry.get("name") == "Pharaoh"))
    evaluate(roster)

    def offensive_and_rules():
        tables, rules = card_extras(roster, pharaoh)
        offensive = next(t for t in tables if t["type"] == "Offensive")
        return offensive["columns"], offensive["rows"][0], "Flammable" in [r["name"] for r in rules]
    assert offensive_and_rules() == (["Att", "Off", "Str", "AP", "Agi", "Rules"],
                                     ["Pharaoh Offensive", "4", "6", "5", "2", "3", "Mummy’s Curse"], True)
    command = next(o.entry_id for o in roster.options(pharaoh) if o.entry.get("name") == "Commander of the Terracotta Army")
    select(roster, pharaoh, command)
    evaluate(roster)
    assert offensive_and_rules() == (["Att", "Off", "Str", "AP", "Agi", "Rules"],
                                     ["Pharaoh Offensive", "4", "6", "5", "2", "2", "Mummy’s Curse"], False)


MORDHEIM = ROOT.parent / "shared" / "external" / "battlescribe" / "mordheim"


@pytest.mark.skipif(not MORDHEIM.is_dir(), reason="../shared/external/battlescribe/mordheim is absent")
@pytest.mark.parametrize("advances, toughness", [(0, "3"), (1, "4"), (2, "5")])
def test_a_mordheim_augurs_toughness_follows_her_advances(advances, toughness):
    """Sisters of Sigmar.cat, the Augur's "Model" profile: T increments by 1, repeated per "+1 T" selection
    in the Augur (its profile at line 9 and its modifiers after it; the advance at line 1401)."""
    documents = read_sources([str(MORDHEIM / name) for name in (
        "Mordheim.gst", "Sisters of Sigmar.cat", "Characters.cat", "data.cat")])
    data = GameData([plain_document(d) for d in documents])
    catalogue = next(c for c, d in data.catalogues.items() if d["name"].startswith("Sisters"))
    roster = Roster(data)
    force = add_force(roster, next(f for f, (entry, doc) in data.forces.items()
                                   if not entry.get("hidden") and doc in data.linked_docs(catalogue)), catalogue)
    augur = select(roster, force, next(o.entry_id for o in roster.options(force) if o.entry.get("name") == "Augur"))
    if advances:
        plus_one = next(o.entry_id for o in roster.options(augur) if o.entry.get("name") == "+1 T")
        set_count(roster, select(roster, augur, plus_one), advances)
    evaluate(roster)
    notes: list[str] = []
    [model], _rules = card_extras(roster, augur, notes)
    assert (model["columns"], model["rows"], notes) == (
        ["M", "WS", "BS", "S", "T", "W", "I", "A", "LD"], [["Augur", "4", "2", "2", "3", toughness, "1", "3", "1", "7"]], [])
