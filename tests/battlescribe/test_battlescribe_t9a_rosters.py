"""validate_list on rosters of an imported The 9th Age v0.11 book (BSData, ../shared/external/battlescribe/):
our t9a-0.11 system's rules reach it through rules_data/battlescribe_systems.yaml, as our own books get them.

- 000:L79-80 "An army may fall below the limit only by 20 points or less."
- 000:L95-96 "One Character in the army must be named the General."
- 000:L2843 "All Magical Items have the rule One per Army: they cannot be duplicated within an army."
"""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from armylists.importers.battlescribe.plain import plain_document
from armylists.importers.battlescribe.roster_tree import write_tree
from armylists.importers.battlescribe.sources import read_sources
from armylists.rules.battlescribe import GameData, Roster, add_force, evaluate, select, set_cost_limit, set_count

ROOT = Path(__file__).resolve().parents[2]
T9A = ROOT.parent / "shared" / "external" / "battlescribe" / "the-9th-age-0.11"
FILES = [str(T9A / "Fantasy Battles The 9th Age.gst"), str(T9A / "Orcs and Goblins.cat")]
STANDARD = "5374616e6461726423232344415441232323"   # the force entry "Standard (1500-3999pts)"

pytestmark = pytest.mark.skipif(not T9A.is_dir(), reason="../shared/external/battlescribe/the-9th-age-0.11 is absent")


def option(roster, container, name):
    return next(o.entry_id for o in roster.options(container) if o.entry.get("name") == name)


def build(game, *, general=True, item=None):
    """An Orc Warlord (the General unless told), an Orc Chief, two units of 25 Orcs, Common Orcs in light
    armour, and a unit of Common Goblins: legal by the catalogue (its category bounds and 0-2 Orcs in a
    Warband included) and by our minimum units (a Warband's three, 000:L91-93); `item` taken by both
    characters."""
    roster = Roster(game)
    force = add_force(roster, STANDARD, next(iter(game.catalogues)))
    characters = [select(roster, force, option(roster, force, name)) for name in ("Orc Warlord", "Orc Chief")]
    for character in characters:
        for name in ("Common Orc", "Light Armour") + (("Magic Items",) if item else ()):
            chosen = select(roster, character, option(roster, character, name))
            if name == "Magic Items":
                select(roster, chosen, option(roster, chosen, item))
    if general:
        select(roster, characters[0], option(roster, characters[0], "Army General"))
    for _ in range(2):   # two units of 25 Orcs: Core over 25%, Lords under 35% (the catalogue's own bounds)
        orcs = select(roster, force, option(roster, force, "Orcs"))
        for name in ("Common Orc", "Light Armour"):
            select(roster, orcs, option(roster, orcs, name))
        set_count(roster, next(c for c in orcs.children if c.option.entry["name"] == "Orc"), 25)
    goblins = select(roster, force, option(roster, force, "Goblins"))
    for name in ("Common Goblin", "Light Armour"):
        select(roster, goblins, option(roster, goblins, name))
    return roster


def validated(tmp_path, roster, under: int, type_id: str = "points"):
    """validate_list --json on the roster saved as a .ros at a points limit `under` above its total, its
    limit's cost type named `type_id` (BattleScribe's `points` for converted 1.x data; `pts` as this site
    wrote rosters of it before)."""
    total = evaluate(roster).costs["points"]
    set_cost_limit(roster, "pts", total + under)
    path = tmp_path / f"orcs-{under}.ros"
    path.write_bytes(write_tree(roster, "Orcs").replace(b'typeId="points"', f'typeId="{type_id}"'.encode()))
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("validate_list", str(path), "--json", stdout=out)
    report = json.loads(out.getvalue())
    return exit_.value.code, [(v["code"], v["message"]) for v in report["violations"]], int(total)


# Our rules the data cannot answer (tags of our books it does not carry): said on every list as a warning
# beside the data's own verdict, never dropped (rules/bridges/systems.py).
UNCHECKED = [("system.rule_unchecked", f"The 9th Age: Fantasy Battles v0.11.9.3 rule {rule} could not be checked on "
                                       f"this list of Orcs and Goblins (a BattleScribe roster): the data carries no "
                                       f"tag {rule}.") for rule in ("one-of-a-kind", "one-per-army")]


def test_validate_list_applies_our_t9a_rules_to_an_imported_book(db, tmp_path):
    call_command("import_battlescribe", *FILES, verbosity=0)
    game = GameData([plain_document(d) for d in read_sources(FILES)])
    assert validated(tmp_path, build(game), 0)[:2] == (0, UNCHECKED)
    assert validated(tmp_path, build(game), 0, "pts")[:2] == (0, UNCHECKED)
    assert validated(tmp_path, build(game), 20)[:2] == (0, UNCHECKED)   # 20 under: the most the rule allows
    status, violations, total = validated(tmp_path, build(game), 21)
    assert (status, violations) == (1, [
        ("points.under_limit", f"Total {total} pts is 21 pts under the {total + 21} pts limit; an army may be at "
                               f"most 20 pts under it.")] + UNCHECKED)
    assert validated(tmp_path, build(game, general=False), 0)[:2] == (1, [
        ("general.missing", "No General is named; one Character must be: Orc Warlord Ld unknown, Orc Chief Ld "
                            "unknown.")] + UNCHECKED)
    assert validated(tmp_path, build(game, item="Plates of Tuktek"), 0)[:2] == (1, UNCHECKED + [   # our rules' order
        ("items.duplicate", "Plates of Tuktek is taken 2 times (Orc Warlord, Orc Chief); each magical item may be "
                            "taken once per army.")])


@pytest.mark.parametrize("mapping, expected", [
    (None, (0, [])),   # no mapping file: the data's own verdict
    ("kind: battlescribe-systems\nsystems: [{battlescribe_id: sys-1, name: Test Battles, system: warhammer-40k}]\n",
     (2, "Test Battles: our rules for its game cannot be read: rules/battlescribe_systems.yaml: systems[0].system: "
         "'warhammer-40k' is not one of ['t9a-0.11', 't9a-2', 'the-old-world', 'mordheim']\n")),
])
def test_validate_list_on_a_broken_mapping_file_exits_2_naming_it(db, tmp_path, settings, mapping, expected):
    from tests.battlescribe.battlescribe_samples import GST, catalogue

    data = tmp_path / "data"
    data.mkdir()
    (data / "test.gst").write_text(GST)
    (data / "knights.cat").write_text(catalogue())
    call_command("import_battlescribe", str(data), verbosity=0)
    rules = tmp_path / "rules"
    rules.mkdir()
    if mapping is not None:
        (rules / "battlescribe_systems.yaml").write_text(mapping)
    settings.RULES_DATA_DIR = rules
    game = GameData([plain_document(d) for d in read_sources([str(data)])])
    roster = Roster(game)
    force = add_force(roster, "force-1", "cat-1")
    select(roster, force, "captain")
    set_cost_limit(roster, "pts-1", 2000)
    path = tmp_path / "captain.ros"
    path.write_bytes(write_tree(roster, "Captain"))
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("validate_list", str(path), "--json", stdout=out, stderr=err)
    if expected[0] == 2:
        assert (exit_.value.code, err.getvalue(), out.getvalue()) == (2, expected[1], "")
    else:
        report = json.loads(out.getvalue())
        assert (exit_.value.code, [v["code"] for v in report["violations"]]) == expected
