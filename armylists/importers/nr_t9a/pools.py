"""New Recruit's item pools (`optionsDict`) as the editor offers them (docs/import-nr-t9a.md).

A pool's items stay options of the unit, so one engine prices them and checks their limits: the
`leafMaxCost` allowance (a per-unit points `tally_limit`), the group's bounds, an item's rarity. Each such
option names its pool (`item_pool`), and the editor offers the options of a pool in an item picker with the
allowance left (armylists/lists/pool_choices.py) rather than as form fields.
"""
from __future__ import annotations

FALLBACK = "Special Items"


def pool_name(node: dict, group: dict | None) -> str:
    """What a player calls the items a node pulls in: the node's label ("Hand Weapon Runes"), else its
    group's or its own name; a bare pool is the Special Items."""
    for name in (node.get("optionsLabel"), (group or {}).get("name"), node.get("name")):
        if isinstance(name, str) and name.strip() and name != "choice":
            return name.strip()[:80]
    return FALLBACK
