"""Lists for the simulators players load them into (issue 42 item 6): here Tabletop Simulator's model
cards for a warband (Mordheim), as Mordheim Roster Builder writes them (its `js/tts.js`, read, not
copied): one description per warrior, pasted into the model's card in Tabletop Simulator, which colours
text between `[RRGGBB]` and `[-]` (its BBCode):

    [7AD1A4]M 4   WS 4   BS 4   S 3   T 3   W 1   I 4   A 1   Ld 8[-]
    [5ACFFF]Special Rules:[-]
    • Leader
    [5ACFFF]Equipment:[-] Dagger, Sword, Pistol

The file holds every warrior's card after a line naming it (the name the model gets in Tabletop
Simulator): a hero one card, a group of henchmen one card for each of its models, said once with their
number. It is laid out from the warband sheet (exports/warband.py), so it names what the PDF sheet names.

Battle Tavern takes Old World Builder's list (exports/owb_list.py). Warhall's import format was not found
in any public description (docs/exports.md says what was searched), so nothing is written for it.
"""
from __future__ import annotations

from armylists.exports.pdf_list import PrintedList
from armylists.exports.warband import FREE, Warrior, WarbandSheet

STATS = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")  # the profile's order on a card
PROFILE, HEADING = "7AD1A4", "5ACFFF"  # Mordheim Roster Builder's colours: the profile, the headings
RULE = "\u2022 "


def coloured(colour: str, text: str) -> str:
    return f"[{colour}]{text}[-]"


def statline(profile) -> str:
    return "   ".join(f"{k} {profile.get(k, '-')}" for k in STATS)


def card(warrior: Warrior, rules: list[str]) -> str:
    """One warrior's description, as Tabletop Simulator shows it on the model's card."""
    lines = [coloured(PROFILE, statline(p)) for p in warrior.profiles]
    lines.append(coloured(HEADING, "Special Rules:"))
    lines += [RULE + r for r in rules] or ["None"]
    kit = [name.removesuffix(f" ({FREE})") for name in warrior.equipment[0]] if warrior.equipment else []
    lines.append(f"{coloured(HEADING, 'Equipment:')} {', '.join(kit) or 'None'}")
    if warrior.spells:
        lines += [coloured(HEADING, "Spells:"), RULE + warrior.spells]
    if warrior.experience:
        lines.append(f"XP: {warrior.experience}")
    return "\n".join(lines)


def _rules(warrior: Warrior) -> list[str]:
    """The warrior's rules a player looks up at the table: what its entry is tagged as, in words."""
    entry = warrior.unit.words.entry
    if entry is None:
        return []
    return sorted(tag.replace("-", " ").capitalize() for tag in entry.tags)


def tts_cards(printed: PrintedList) -> str:
    """Every warrior's card, in the sheet's order: a line naming it (`== Name, Type ==`, "× 5" for a group
    of five), then its description."""
    blocks = [f"{printed.roster.name or 'Warband'}: Tabletop Simulator model cards "
              f"(paste each card into its model's description)"]
    for _, _, warriors in WarbandSheet(printed).sections:
        for warrior in warriors:
            title = f"{warrior.name}, {warrior.type}" if warrior.name else warrior.type
            many = f" \u00d7 {warrior.models}" if not warrior.hero and warrior.models > 1 else ""
            blocks.append(f"== {title}{many} ==\n{card(warrior, _rules(warrior))}")
    return "\n\n".join(blocks) + "\n"
