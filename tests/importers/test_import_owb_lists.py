"""Lists saved by Old World Builder (.owb.json) as our list documents, for the books import_owb made.

No saved list is in the stored data, so the lists here are built the way OWB's own code builds them
(see armylists/importers/owb/lists.py): each unit is the dataset's unit copied, with an id
"<unit>.<random>", `strength`, `active` on what is chosen and `selected` items. The datasets are read
from ../shared/external/old-world-builder at run time; skipped when that folder is absent.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from armylists.importers.owb import check, convert
from armylists.importers.owb.data import OwbInputError
from armylists.importers.owb.lists import convert_list, read_owb_list
from armylists.rules import parse_roster, validate

ROOT = Path(__file__).resolve().parents[2]
OWB = ROOT.parent / "shared" / "external" / "old-world-builder"
FILE = "test.owb.json"

pytestmark = pytest.mark.skipif(not (OWB / "the-old-world-system.json").is_file(),
                                reason="Old World Builder's datasets are not in ../shared/external/old-world-builder")


@pytest.fixture(scope="module")
def dataset(owb_dataset):
    return owb_dataset


@pytest.fixture(scope="module")
def empire(owb_books):
    return owb_books["empire-of-man"]


@pytest.fixture(scope="module")
def owb_items(dataset):
    return dataset.items


# --- building lists as OWB does ---------------------------------------------------------------------

def owb_unit(dataset, category: str, unit_id: str, n: int, strength: int | None = None, **choose) -> dict:
    """The dataset's unit as OWB's "add unit" copies it, then `choose`: {list name: [names to make active]}."""
    unit = copy.deepcopy(next(u for u in dataset.armies["empire-of-man"][category] if u["id"] == unit_id))
    unit["id"] = f"{unit_id}.k{n}x"
    if unit.get("minimum"):
        unit["strength"] = strength or unit["minimum"]
    for key, names in choose.items():
        for obj in unit[key]:
            if obj["name_en"] in names:
                obj["active"] = True
            elif key in ("equipment", "armor", "mounts") and obj.get("active"):
                obj["active"] = False  # radio buttons: choosing one clears the default
    return unit


def item(dataset, name: str, group: str = "general") -> dict:
    return copy.deepcopy(next(i for i in dataset.items[group] if i["name_en"] == name))


def owb_list(*, characters=(), core=(), points=2000, composition="empire-of-man", rule="open-war", **extra) -> dict:
    return {"name": "Reikland muster", "description": "for the club", "game": "the-old-world", "points": points,
            "army": "empire-of-man", "armyComposition": composition, "compositionRule": rule,
            "characters": list(characters), "core": list(core), "special": [], "rare": [], "mercenaries": [],
            "allies": [], "id": "abcde", **extra}


def legal_units(dataset, models: int = 32):
    """A General, a Captain and three State Troops regiments: 135 + 3 x (5 x models + 15) points."""
    general = owb_unit(dataset, "characters", "general-of-the-empire", 1)
    general["command"][0]["active"] = True  # "General"
    captain = owb_unit(dataset, "characters", "captain-of-the-empire", 2)
    troops = [owb_unit(dataset, "core", "state-troops", 3 + i, models) for i in range(3)]
    for unit in troops:
        for part in unit["command"]:
            part["active"] = True
    return general, captain, troops


def report_of(data: dict, book):
    return validate(book, parse_roster(convert_list(data, book, FILE), FILE))


def error_codes(report) -> list[str]:
    return sorted(v.code for v in report.violations if v.severity == "error")


# --- a saved list becomes our document ---------------------------------------------------------------

def test_a_saved_list_becomes_our_document_with_every_choice(dataset, empire):
    captain = owb_unit(dataset, "characters", "captain-of-the-empire", 1, equipment=["Halberd"],
                       armor=["Heavy armour"], options=["Shield"], mounts=["Empire warhorse"])
    bsb = next(c for c in captain["command"] if c["name_en"] == "Battle Standard Bearer")
    bsb["active"] = True
    bsb["magic"]["selected"] = [item(dataset, "Imperial Banner", "empire-of-man")]
    captain["items"][0]["selected"] = [item(dataset, "Talisman of Protection")]
    mage = owb_unit(dataset, "characters", "master-mage", 2)
    mage["options"][0]["options"][1]["active"] = True  # Level 2 Wizard
    mage["options"][0]["options"][0]["active"] = False
    mage["activeLore"] = "battle-magic"
    mage["command"][0]["active"] = True
    troops = owb_unit(dataset, "core", "state-troops", 3, 25, equipment=["Halberds"], options=["Shields"])
    for part in troops["command"]:
        part["active"] = True
    troops["name"] = "Red banner"
    troops["customNote"] = "painted"
    veterans = owb_unit(dataset, "core", "veteran-state-troops", 4, 12)
    for part in veterans["command"]:
        part["active"] = True
        if part["name_en"].startswith("Standard"):
            part["magic"]["selected"] = [item(dataset, "Griffon Standard", "empire-of-man")]
        elif "champion" in part["name_en"]:
            part["magic"]["selected"] = [item(dataset, "Luckstone*")]
    data = owb_list(characters=[captain, mage], core=[troops, veterans], rule="combined-arms")
    document = convert_list(data, empire, FILE)
    assert document == {
        "format": "armylist/1", "name": "Reikland muster", "system": "the-old-world", "book": "owb-empire-of-man",
        "book_version": "owb-4f78d6b4.r4", "modes": ["combined-arms"], "points_limit": 2000, "notes": "for the club",
        "units": [
            {"id": "k1x", "entry": "captain-of-the-empire", "mount": "empire-warhorse",
             "options": {"halberd": 1, "heavy-armour": 1, "shield": 1, "battle-standard-bearer": 1},
             "items": ["talisman-of-protection", "imperial-banner"]},
            {"id": "k2x", "entry": "master-mage", "options": {"level-2-wizard": 1}, "general": True,
             "path": "battle-magic"},
            {"id": "k3x", "entry": "state-troops", "size": 25, "command": ["champion", "musician", "standard"],
             "options": {"halberds": 1, "shields": 1}, "label": "Red banner", "notes": "painted"},
            {"id": "k4x", "entry": "veteran-state-troops", "size": 12, "command": ["champion", "musician", "standard"],
             "standard_items": ["griffon-standard"], "champion_items": ["luckstone"]},
        ],
    }
    assert empire.entries["veteran-state-troops"].command["standard"].items.allowance == 50
    report = report_of(data, empire)
    captain_points = 45 + 3 + 3 + 2 + 12 + 25 + 30 + 60
    assert next(u.points for u in report.units if u.id == "k1x") == captain_points


def test_a_composition_and_its_matched_play_rules_carry_over(dataset, empire):
    grand_master = owb_unit(dataset, "characters", "grand-master", 1)
    grand_master["command"][0]["active"] = True
    data = owb_list(characters=[grand_master], composition="knightly-order-panther", rule="grand-melee-combined-arms")
    document = convert_list(data, empire, FILE)
    assert (document["composition"], document["modes"]) == ("knightly-order-panther", ["grand-melee", "combined-arms"])
    assert document["units"][0]["mount"] == "barded-warhorse"  # OWB's default mount, active when added


def test_the_baseline_list_is_legal(dataset, empire):
    general, captain, troops = legal_units(dataset)
    report = report_of(owb_list(characters=[general, captain], core=troops), empire)
    assert report.violations == () and report.total_points == 660


# --- what OWB passes and we do not --------------------------------------------------------------------

def test_a_character_over_its_magic_allowance(dataset, empire):
    """OWB's validation never reports magic item caps: the Captain's allowance is 50 points."""
    general, captain, troops = legal_units(dataset)
    captain["items"][0]["selected"] = [item(dataset, "Ogre Blade")]  # 75 points
    report = report_of(owb_list(characters=[general, captain], core=troops), empire)
    assert error_codes(report) == ["items.allowance"]
    assert [v.message for v in report.violations] == [
        "Captain of the Empire (k2x) has 75 pts of magical items; its allowance is 50 pts."]


def test_one_item_twice_in_the_army(dataset, empire):
    """OWB's validation never reports a one-per-army item taken twice."""
    general, captain, troops = legal_units(dataset)
    general["items"][0]["selected"] = [item(dataset, "Talisman of Protection")]
    captain["items"][0]["selected"] = [item(dataset, "Talisman of Protection")]
    report = report_of(owb_list(characters=[general, captain], core=troops), empire)
    assert error_codes(report) == ["items.duplicate"]


def test_a_total_over_the_points_limit(dataset, empire):
    """OWB's validation never reports the total over the limit."""
    general, captain, troops = legal_units(dataset, models=60)  # 1080 points
    report = report_of(owb_list(characters=[general, captain], core=troops, points=1079), empire)
    assert error_codes(report) == ["points.over_limit"]
    assert report.violations[0].message == "Total 1080 pts is 1 pts over the 1079 pts limit."
    report = report_of(owb_list(characters=[general, captain], core=troops, points=1080), empire)
    assert error_codes(report) == []


# --- clear errors ----------------------------------------------------------------------------------

def test_a_unit_the_book_does_not_have(dataset, empire):
    general, captain, troops = legal_units(dataset)
    troops[1]["id"] = "steam-powered-mule.zz1"
    with pytest.raises(OwbInputError) as caught:
        convert_list(owb_list(characters=[general], core=troops), empire, FILE)
    assert str(caught.value) == (f"{FILE}: core[1].id: unit 'steam-powered-mule' (State Troops) is not in "
                                 f"Empire of Man (Old World Builder) owb-4f78d6b4.r4")


def test_an_option_the_entry_does_not_have(dataset, empire):
    general, captain, troops = legal_units(dataset)
    troops[0]["options"].append({"name_en": "Steam engine", "points": 5, "active": True})
    with pytest.raises(OwbInputError) as caught:
        convert_list(owb_list(characters=[general], core=troops), empire, FILE)
    at = len(troops[0]["options"]) - 1
    assert str(caught.value) == (f"{FILE}: core[0].options[{at}]: option 'Steam engine' is not an option of "
                                 f"State Troops in Empire of Man (Old World Builder) owb-4f78d6b4.r4")


def test_an_item_the_book_does_not_have(dataset, empire):
    general, captain, troops = legal_units(dataset)
    captain["items"][0]["selected"] = [{"name_en": "Sword of Nowhere", "type": "weapon", "points": 5}]
    with pytest.raises(OwbInputError) as caught:
        convert_list(owb_list(characters=[general, captain], core=troops), empire, FILE)
    assert str(caught.value) == (f"{FILE}: characters[1].items[0].selected[0]: item 'Sword of Nowhere' is not in "
                                 f"Empire of Man (Old World Builder) owb-4f78d6b4.r4")


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(armyComposition="order-of-the-teapot"),
     "armyComposition: 'order-of-the-teapot' is not a composition of Empire of Man (Old World Builder) owb-4f78d6b4.r4"),
    (lambda d: d.update(compositionRule="anything-goes"),
     "compositionRule: 'anything-goes' is not one of open-war, grand-melee, combined-arms, grand-melee-combined-arms, "
     "battle-march"),
    (lambda d: d.update(points="lots"), "points: is 'lots', not a points limit from 1 to 100000"),
    (lambda d: d["allies"].append({"id": "x.y"}), "allies: holds 1 allied unit(s); allies come from another army's "
                                                  "book and cannot be part of one list here"),
])
def test_a_list_setting_we_cannot_follow(dataset, empire, change, message):
    data = owb_list()
    change(data)
    with pytest.raises(OwbInputError) as caught:
        convert_list(data, empire, FILE)
    assert str(caught.value).startswith(f"{FILE}: {message}")


@pytest.mark.parametrize("text, message", [
    ("{nope", "is not valid JSON: Expecting property name enclosed in double quotes at line 1, column 2"),
    ('{"name": "x"}', "is not an Old World Builder list (no army and no unit categories)"),
    ('{"army": "skaven", "game": "warhammer-fantasy-6", "core": []}',
     "game: is 'warhammer-fantasy-6'; only lists for 'the-old-world' can be imported"),
])
def test_a_file_that_is_not_an_old_world_list(text, message):
    with pytest.raises(OwbInputError) as caught:
        read_owb_list(text, FILE)
    assert str(caught.value) == f"{FILE}: {message}"


# --- the command -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def rules_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("owb-rules")
    call_command("import_owb", str(OWB), "--into", str(folder), verbosity=0)
    return folder


def test_the_command_writes_the_document_and_prints_the_report(dataset, rules_dir, tmp_path, capsys):
    general, captain, troops = legal_units(dataset)
    captain["items"][0]["selected"] = [item(dataset, "Ogre Blade")]
    source = tmp_path / "reikland.owb.json"
    source.write_text(json.dumps(owb_list(characters=[general, captain], core=troops)))
    out = tmp_path / "reikland.json"
    call_command("import_owb_list", str(source), "--output", str(out), "--rules", str(rules_dir))
    printed = capsys.readouterr().out
    assert printed.startswith(f"{source}: wrote {out}\n{source}: NOT LEGAL (1 error)")
    assert "items.allowance" in printed or "allowance is 50 pts" in printed
    document = json.loads(out.read_text())
    assert document["book"] == "owb-empire-of-man" and len(document["units"]) == 5


def test_the_command_names_an_army_with_no_imported_book(rules_dir, tmp_path, capsys):
    source = tmp_path / "lizards.owb.json"
    source.write_text(json.dumps({**owb_list(), "army": "slann-space-navy"}))
    with pytest.raises(SystemExit) as caught:
        call_command("import_owb_list", str(source), "--rules", str(rules_dir))
    assert caught.value.code == 2
    assert capsys.readouterr().err.strip() == (
        f"{source}: army: army 'slann-space-navy' needs the imported book owb-slann-space-navy, which is not "
        f"loaded; {rules_dir} has no such book")


@pytest.mark.django_db
def test_the_command_finds_the_book_in_the_database(dataset, tmp_path, capsys):
    call_command("import_owb", str(OWB), verbosity=0)
    general, captain, troops = legal_units(dataset)
    source = tmp_path / "legal.owb.json"
    source.write_text(json.dumps(owb_list(characters=[general, captain], core=troops)))
    capsys.readouterr()
    call_command("import_owb_list", str(source))
    captured = capsys.readouterr()
    assert json.loads(captured.out)["book_version"] == "owb-4f78d6b4.r4"
    assert captured.err.startswith(f"{source}: LEGAL")


def test_every_unit_of_every_army_as_owb_adds_it_converts_to_a_unit_the_book_accepts(dataset, library):
    """Each of the 622 units, with OWB's default choices, maps onto its entry's ids: no unknown option,
    mount or command, and no choice our book refuses (size, option groups, required mount)."""
    system = library.systems["the-old-world"]
    books = check(convert(dataset, system), system)
    problems = []
    for army, data in dataset.armies.items():
        compositions = dataset.army(army)["armyComposition"]
        for category, units in data.items():
            for unit in units:
                unit = {**copy.deepcopy(unit), "id": unit["id"] + ".k1"}
                if unit.get("minimum"):
                    unit["strength"] = unit["minimum"]
                offered = [c for c in (unit.get("armyComposition") or {army: {}}) if c in compositions]
                data_list = {**owb_list(composition=offered[0] if offered else army), "army": army, category: [unit]}
                report = report_of(data_list, books[army])
                problems += [(army, unit["id"], v.message) for v in report.violations
                             if v.code.split(".")[0] in ("list", "options", "unit", "mount")]
    assert problems == []


def test_every_hired_mercenary_as_owb_adds_it_converts_too(dataset, library):
    """OWB adds another army's mercenary with `army` set to that army; its choices map all the same."""
    system = library.systems["the-old-world"]
    books = check(convert(dataset, system), system)
    problems, seen = [], 0
    for army in dataset.system["armies"]:
        for composition, groups in (army.get("mercenaries") or {}).items():
            for group in groups:
                for uid in group["units"]:
                    source = dataset.armies[group["army"]]
                    unit = copy.deepcopy(next(u for cat in ("mercenaries", "characters", "core", "special", "rare")
                                              for u in source.get(cat, []) if u["id"] == uid))
                    unit.update(id=f"{uid}.k1", army=group["army"])
                    if unit.get("minimum"):
                        unit["strength"] = unit["minimum"]
                    data_list = {**owb_list(composition=composition), "army": army["id"], "mercenaries": [unit]}
                    report = report_of(data_list, books[army["id"]])
                    seen += 1
                    problems += [(army["id"], uid, v.message) for v in report.violations
                                 if v.code.split(".")[0] in ("list", "options", "unit", "mount")
                                 or "not offered" in v.message]
    assert seen > 40 and problems == []
