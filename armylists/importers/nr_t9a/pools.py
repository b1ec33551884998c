"""New Recruit's item pools (`optionsDict`) as the editor offers them (docs/import-nr-t9a.md).

A pool's items stay options of the unit, so one engine prices them and checks their limits: the
`leafMaxCost` allowance (a per-unit points `tally_limit`), the group's bounds, an item's rarity. Each such
option names its pool (`item_pool`), and the editor offers the options of a pool in an item picker with the
allowance left (armylists/lists/offers/pool_choices.py) rather than as form fields.
"""
from __future__ import annotations

from armylists.importers.nr_t9a.limits import slug

FALLBACK = "Special Items"
NOT_OFFERED = "_not_offered"  # merge_shared's mark on a shared item the army does not take


def pool_name(node: dict, group: dict | None) -> str:
    """What a player calls the items a node pulls in: the node's label ("Hand Weapon Runes"), else its
    group's or its own name; a bare pool is the Special Items."""
    for name in (node.get("optionsLabel"), (group or {}).get("name"), node.get("name")):
        if isinstance(name, str) and name.strip() and name != "choice":
            return name.strip()[:80]
    return FALLBACK


def offered_nodes(heads: dict[str, dict], offers: dict[str, str], category: str, size: dict) -> list[dict]:
    """The option nodes New Recruit's editor gives a unit from pools that no army file pulls in (FORMAT.md,
    item 9; nr_t9a.yaml `offered_pools`): a group node pulling the pool in, bounded and named as the pool's
    own node is. `offers` maps a pool's ref to whom it is offered: `characters`, or `units` (an entry that
    is not a single model). A pool the data of the date leaves empty offers nothing."""
    nodes = []
    for ref, to in offers.items():
        head = heads.get(ref)
        if not head or not head.get("options"):
            continue
        if to == "characters" and category != "characters" or to == "units" and int(size.get("max", 1)) <= 1:
            continue
        label = head.get("optionsLabel") or ref
        node = {"name": label, "optionsLabel": label, "optionsDict": [ref]}
        node.update({"maxSize": head["maxSize"]} if head.get("maxSize") is not None else {})
        nodes.append(node)
    return nodes


def merge_shared(pools: dict[str, list[dict]], own: dict | None = None) -> dict[str, list[dict]]:
    """A `shared` item defined in the army's pool and again in an included file's (special.json) is one item:
    the army's definition (its price, rarity) over the shared one, which brings the refs and conditions
    (Essence of a Free Mind: 25 pts in High Elves' pool, `art_free_ess`, one per army and on a Wizard only
    in special.json's). Kept apart, the free definition was a second choice of the same name at 0 pts.

    A shared item the army's own file (`own`) does not define is not the army's: special.json prices every
    shared item at 0 and each army that may take one prices it (Banner of Courage: 20 pts in Orcs and
    Goblins', 25 in Beast Herds'). Measured on the 5,812 tournament lists: Banner of Courage, Banner of Speed
    and Rending Banner are taken 1,987 times, each time in an army whose file prices it, never in one
    whose file does not (Dwarven Holds offered all three at 0 pts); no other shared item is taken where the
    army does not define it ("Spell Scroll" in the summaries is an army's "Spell Scroll (Illusory Paths)")."""
    defined = None if own is None else _names_defined(own)
    merged: dict[tuple[int, int], dict] = {}  # one merged item however many refs pull it in
    out = {}
    for ref, items in pools.items():
        kept: list[dict] = []
        at: dict[str, int] = {}  # a shared item's name -> its place in `kept`
        for item in items:
            name = item.get("name")
            if not (item.get("shared") and name):
                kept.append(item)
            elif defined is not None and name not in defined:
                # special.json's alone: an item this army does not take (kept, marked, so that the options
                # after it keep the ids they have had: army.py numbers an option by those before it)
                kept.append(merged.setdefault((id(item), 0), {**item, NOT_OFFERED: True}))
            elif name not in at:
                at[name] = len(kept)
                kept.append(item)
            else:
                first = kept[at[name]]
                kept[at[name]] = merged.setdefault((id(first), id(item)), {**item, **first})
        out[ref] = kept
    return out


def _names_defined(army: dict) -> set[str]:
    """The names of the items the army's own pools (its `dictionnary`) define."""
    return {item["name"] for pool in army.get("dictionnary") or [] if isinstance(pool, dict)
            for item in pool.get("options") or [] if isinstance(item, dict) and isinstance(item.get("name"), str)}


def numbered_id(taken: set[str], name: str) -> str:
    """An option's id, added to `taken`: its name's, numbered by the options before it where it repeats."""
    oid = slug(name)
    if oid in taken:
        oid = slug(f"{name}-{len(taken)}")
    taken.add(oid)
    return oid
