"""Write the example rosters of docs/examples/battlescribe/the-old-world-nr/ from New Recruit's Old
World data: for six armies a legal list built with the tree evaluator's actions (force "1. Open War",
2,000 pts), and copies with one fault apiece (points over, a 0-X limit over, no General, a character's
magic items over its allowance, Rare over 25%); prints each verdict.

    nice -n 10 python bench/battlescribe_old_world_examples.py ../shared/external/battlescribe/the-old-world-nr [--write]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from armylists.importers.battlescribe.plain import plain_document  # noqa: E402
from armylists.importers.battlescribe.roster_tree import write_tree  # noqa: E402
from armylists.importers.battlescribe.sources import read_sources  # noqa: E402
from armylists.rules.battlescribe import (GameData, Roster, add_force, deselect, duplicate,  # noqa: E402
                                          evaluate, select, set_cost_limit, set_count)
from armylists.rules.battlescribe.actions import _merged  # noqa: E402

OPEN_WAR = "8214-cf48-b1cd-5f5e"
OUT = ROOT / "docs" / "examples" / "battlescribe" / "the-old-world-nr"

# (entry name, models or 0 for as added, options by name on the model or the unit), as the data names them
EMPIRE = [("General of the Empire", 0, ["General", "Barded Warhorse"]),
          ("State Troops", 30, []), ("State Troops", 30, []), ("State Troops", 30, []), ("State Missile Troops", 10, []),
          ("Empire Knights", 8, ["Lance", "Shield"]), ("Empire Knights", 8, ["Lance", "Shield"]),
          ("Great Cannon", 0, []), ("Great Cannon", 0, []), ("Empire Steam Tank", 0, []), ("Empire Greatswords", 20, []),
          ("Captain of the Empire", 0, []), ("Empire Knights", 6, ["Lance", "Shield"]), ("Helblaster Volley Gun", 0, [])]
DWARFS = [("King", 0, ["General"]), ("Dwarf Warriors", 20, []), ("Dwarf Warriors", 20, []), ("Quarrellers", 10, []),
          ("Ironbreakers", 15, []), ("Hammerers", 15, []), ("Cannon", 0, []), ("Organ Gun", 0, []), ("Thane", 0, []),
          ("Longbeards", 15, []), ("Dwarf Warriors", 20, []), ("Ironbreakers", 15, []), ("Quarrellers", 10, [])]

CHAOS = [("Chaos Lord", 0, ["General"]), ("Chaos Warriors", 20, []), ("Chaos Warriors", 15, []),
         ("Chaos Marauders", 20, []), ("Chaos Knights", 5, []), ("Chaos Chariots", 0, []), ("Hellcannon", 0, []),
         ("Exalted Champion", 0, []), ("Chaos Knights", 5, []), ("Chaos Warriors", 20, []), ("Chaos Marauders", 20, [])]

ORCS = [("Orc Warboss", 0, ["General", "Sword of Striking"]), ("Orc Bigboss", 0, ["Battle Standard Bearer"]),
        ("Orc Weirdboy", 0, ["Waaagh! Magic"]), ("Orc Mobs", 30, ["Light Armour"]), ("Orc Mobs", 30, ["Light Armour"]),
        ("Orc Mobs", 30, ["Light Armour"]), ("Goblin Mobs", 30, []), ("Goblin Wolf Rider Mobs", 10, ["Shortbow"]),
        ("Orc Boar Boy Mobs", 10, []), ("Common Troll Mobs", 3, []), ("Stone Troll Mobs", 3, []),
        ("Orc Boar Chariots", 0, []), ("Orc Boar Chariots", 0, []), ("Goblin Wolf Chariots", 0, []),
        ("Goblin Bolt Throwas", 0, []), ("Goblin Bolt Throwas", 0, []), ("Giants", 0, []),
        ("Doom Diver Catapults", 0, []), ("Goblin Rock Lobbers", 0, [])]

BRETONNIA = [("Baron", 0, ["General"]), ("Paladin", 0, ["Battle Standard Bearer"]), ("Damsel", 0, ["Battle Magic"]),
             ("Mounted Knights of the Realm", 9, []), ("Mounted Knights of the Realm", 9, []),
             ("Knights Errant", 5, []), ("Men-At-Arms", 20, []), ("Peasant Bowmen", 10, []),
             ("Questing Knights", 5, []), ("Questing Knights", 6, []), ("Pegasus Knights", 5, []),
             ("Mounted Yeomen", 10, []), ("Grail Knights", 4, []), ("Field Trebuchet", 0, [])]

HIGH_ELVES = [("Prince", 0, ["General"]), ("Noble", 0, ["Battle Standard Bearer", "Light Armour"]),
              ("Mage", 0, ["High Magic"]), ("Lothern Sea Guard", 20, []), ("Elven Spearmen", 20, []),
              ("Elven Archers", 10, []), ("Silver Helms", 6, []), ("Ellyrian Reavers", 5, []),
              ("Swordmasters of Hoeth", 15, []), ("White Lions of Chrace", 15, []), ("Tiranoc Chariot", 0, []),
              ("Dragon Princes", 5, []), ("Eagle-Claw Bolt Thrower", 0, []), ("Eagle-Claw Bolt Thrower", 0, []),
              ("Great Eagles", 0, []), ("Lion Chariot of Chrace", 0, [])]


def without(units, names):
    return [u for u in units if u[0] not in names]


def replaced(units, name, by):
    """The list with the first entry called `name` replaced by `by` (one entry)."""
    index = next(i for i, unit in enumerate(units) if unit[0] == name)
    return units[:index] + [by] + units[index + 1:]


# Faults, one apiece: points over the limit; a 0-X limit over (a "0-X per 1000 points" or a flat 0-X of the
# data); no General; a character's magic items over its allowance; Rare over 25%.
ARMIES = {
    ("The Empire of Man", "empire-of-man"): {
        "legal": EMPIRE,
        "illegal-points": EMPIRE + [("Empire Greatswords", 10, [])],
        "illegal-0-x": without(EMPIRE, {"Empire Greatswords", "Captain of the Empire", "Helblaster Volley Gun"})
        + [("Empire Road Wardens", 5, ["Brace of Pistols"])] * 3,
        "illegal-no-general": [("General of the Empire", 0, ["Barded Warhorse"])] + EMPIRE[1:],
        "illegal-magic-item": without(replaced(EMPIRE, "Captain of the Empire",
                                               ("Captain of the Empire", 0, ["Sword of Battle"])),
                                      {"Helblaster Volley Gun"}),
        "illegal-rare": without(EMPIRE, {"Empire Greatswords", "Captain of the Empire"})
        + [("Helstorm Rocket Battery", 0, []), ("Mortar", 0, [])]},
    ("Dwarfen Mountain Holds", "dwarfen-mountain-holds"): {
        "legal": DWARFS,
        "illegal-points": DWARFS + [("Dwarf Warriors", 20, [])],
        "illegal-0-x": without(DWARFS, {"Thane", "Longbeards", "Ironbreakers"}) + [("King", 0, [])] * 2,
        "illegal-no-general": [("King", 0, [])] + DWARFS[1:],
        "illegal-magic-item": replaced(without(DWARFS, {"Longbeards"}), "Thane",
                                       ("Thane", 0, ["Master Rune of Smiting", "Rune of Speed"])),
        "illegal-rare": without(DWARFS, {"Ironbreakers", "Longbeards", "Hammerers"})
        + [("Organ Gun", 0, []), ("Flame Cannon", 0, []), ("Gyrobomber", 0, []), ("Organ Gun", 0, [])]},
    ("Warriors of Chaos", "warriors-of-chaos"): {
        "legal": CHAOS,
        "illegal-points": CHAOS + [("Chaos Warriors", 20, [])],
        "illegal-0-x": without(CHAOS, {"Chaos Knights"}) + [("Chosen Chaos Knights", 5, [])] * 2,
        "illegal-no-general": [("Chaos Lord", 0, [])] + CHAOS[1:],
        "illegal-magic-item": replaced(CHAOS, "Exalted Champion", ("Exalted Champion", 0, ["Sword of Battle",
                                                                                           "Armour of Destiny"])),
        "illegal-rare": CHAOS[:-2] + [("Hellcannon", 0, []), ("Gigantic Spawn of Chaos", 0, [])]},
    ("Orc and Goblin Tribes", "orc-and-goblin-tribes"): {
        "legal": ORCS,
        "illegal-points": ORCS + [("Orc Boar Boy Mobs", 10, [])],
        "illegal-0-x": without(ORCS, {"Stone Troll Mobs", "Goblin Wolf Chariots"}) + [("Goblin Bolt Throwas", 0, [])] * 3,
        "illegal-no-general": [("Orc Warboss", 0, ["Sword of Striking"])] + ORCS[1:],
        "illegal-magic-item": [("Orc Warboss", 0, ["General", "Ogre Blade", "Armour of Destiny"])]
        + without(ORCS[1:], {"Orc Boar Boy Mobs"}),
        "illegal-rare": without(ORCS, {"Orc Boar Boy Mobs", "Goblin Wolf Chariots", "Goblin Mobs", "Orc Boar Chariots"})
        + [("Arachnarok Spider", 0, [])]},
    ("Kingdom of Bretonnia", "kingdom-of-bretonnia"): {
        "legal": BRETONNIA,
        "illegal-points": BRETONNIA + [("Grail Knights", 4, [])],
        "illegal-0-x": without(BRETONNIA, {"Questing Knights"}) + [("Baron", 0, []), ("Baron", 0, [])],
        "illegal-no-general": [("Baron", 0, [])] + BRETONNIA[1:],
        "illegal-magic-item": [("Baron", 0, ["General", "Ogre Blade", "Armour of Destiny"])]
        + without(BRETONNIA[1:], {"Mounted Yeomen"}),
        "illegal-rare": without(BRETONNIA, {"Questing Knights"}) + [("Grail Knights", 6, []), ("Field Trebuchet", 0, [])]},
    ("High Elf Realms", "high-elf-realms"): {
        "legal": HIGH_ELVES,
        "illegal-points": HIGH_ELVES + [("Dragon Princes", 5, [])],
        "illegal-0-x": without(HIGH_ELVES, {"Mage", "White Lions of Chrace"})
        + [("Storm Weavers", 0, ["Elementalism", "Wizard Level 1"])] * 3,
        "illegal-no-general": [("Prince", 0, [])] + HIGH_ELVES[1:],
        "illegal-magic-item": [("Prince", 0, ["General", "Ogre Blade", "Armour of Destiny"])]
        + without(HIGH_ELVES[1:], {"White Lions of Chrace"}),
        "illegal-rare": without(HIGH_ELVES, {"Swordmasters of Hoeth", "Tiranoc Chariot"})
        + [("Frostheart Phoenix", 0, [])]},
}


def option(roster, container, name):
    return next(o.entry_id for o in roster.options(container) if o.entry.get("name") == name)


def build(game, army, units):
    catalogue = next(c for c, d in game.catalogues.items() if d["name"] == army)
    roster = Roster(game)
    set_cost_limit(roster, "points", 2000)
    force = add_force(roster, OPEN_WAR, catalogue)
    for name, size, extras in units:
        unit = select(roster, force, option(roster, force, name))
        model = unit.children[0] if unit.children else unit
        for extra in extras:
            target = model if any(o.entry.get("name") == extra for o in roster.options(model)) else unit
            select(roster, target, option(roster, target, extra))
        if size and model is not unit:
            _size(roster, unit, model, size)
    return roster


def _size(roster, unit, model, size):
    """`size` models: one node counted up where everything below the model is collective, else a node per
    model (New Recruit's `collective_recursive`; a Troll with its own Troll Vomit is three Trolls of one)."""
    if _merged(roster, model.option):
        set_count(roster, model, size)
        return
    nodes = [c for c in unit.children if c.entry_id == model.entry_id]
    while len(nodes) > size:
        deselect(roster, nodes.pop())
    while len(nodes) < size:
        nodes.append(duplicate(roster, nodes[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    game = GameData([plain_document(d) for d in read_sources([args.path])])
    for (army, slug), variants in ARMIES.items():
        for key, units in variants.items():
            roster = build(game, army, units)
            result = evaluate(roster)
            print(f"{slug}-{key}: {result.costs} legal={result.legal} {[e.message for e in result.errors]}")
            if args.write:
                (OUT / f"{slug}-{key}.ros").write_bytes(write_tree(roster, f"{army} {key}"))


if __name__ == "__main__":
    main()
