"""A choice of spells an option gives: New Recruit's `magic: {amount: n, spells: [...]}` of more spells than
n (Dwarven Holds' King and Engineer: "Battle Rune", one of six Battle Runes; the data's rule text, dh.json:
"Select a single Battle Rune and write it on your Army List") as a group of n free options under it, n of them
needed where it is taken, as a Wizard's Path is chosen (issue 40 item 6). Before, the option's text listed
the six and none could be chosen. `amount: "x"` (a Runic Smith's Battle Runes, one per time taken) is a count,
not a choice (texts.counted_spells)."""
from __future__ import annotations

from typing import Callable

from armylists.importers.nr_t9a.limits import slug, unit_holds
from armylists.importers.nr_t9a.state import ConverterState
from armylists.importers.nr_t9a.texts import spells_by_path


def chosen_spells(magic: object, paths: dict) -> tuple[int, list[str]] | None:
    """(1, the spells' names) of `magic` offering one of several spells (a King's "Battle Rune": `amount:
    "1"`, six Battle Runes); None where there is no such choice (`amount: "x"`, one per time taken:
    counted_spells; as many spells as the amount; two or more of them)."""
    if not isinstance(magic, dict) or not isinstance(magic.get("spells"), list):
        return None
    amount = magic.get("amount")
    n = amount if type(amount) is int else int(amount) if isinstance(amount, str) and amount.isdigit() and len(amount) < 3 else 0
    names = list(dict.fromkeys(name for names in spells_by_path(magic, paths).values() for name in names))
    # One of several only: the data's larger choices (Wizard Conclave (2): two of four spells) are named in
    # part by New Recruit's summaries, so a count of two read one short of it; they stay the option's text.
    return (n, names) if n == 1 < len(names) else None


def spell_choice(conv: ConverterState, node: dict, option: dict, make: Callable[[dict, str], None]) -> None:
    """The spells of the option's node as a group under `option` (`make(node, group)` makes each as any
    option of the unit), and a count of the unit's: none to n of them, n where the option is taken (a
    summary naming none is given the first, summary._fill_minimums, as a Path)."""
    chosen = chosen_spells(node.get("magic"), conv.paths)
    if chosen is None:
        return
    n, names = chosen
    gid = f"g{len(conv.groups) + 1}"
    conv.groups[gid] = {"name": option["name"], "max": n}
    for name in names:
        make({"name": name, "type": "check", "cost": 0}, gid)
    tag, held = f"sc-{slug(conv.eid, 60)}-{gid}", f"gp-{slug(conv.eid, 60)}-{gid}"
    option["tags"].add(held)
    for o in conv.options:
        if o.get("group") == gid:
            o["tags"].add(tag)
    conv.limits.add({"label": f"{option['name']}: which (choose {n})", "count": [tag], "scope": "unit",
                     "entries": [conv.eid], "max": n,
                     "modifiers": [{"target": "min", "op": "set", "value": n, "when": unit_holds([held])}]})
