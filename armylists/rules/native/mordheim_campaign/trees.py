"""A BSData Mordheim warband (a roster tree) as the post-battle sequence reads a warband, and the battle's
outcome told back as what changes in the tree.

The sequence (battle.py) works on a warband document of one of our books. A tree whose catalogue
rules_data/mordheim/campaign/bsdata.yaml maps onto one of our books is `project`ed onto such a document:
each mapped root selection a unit of the mapped entry, under the selection's own id, its size the number
of its `models` child, its experience the campaign state's (`warriors.<id>.experience`) or, before its first
battle, the number of its BSData Experience child. `settle` compares the outcome with the projection: the
units gone (a dead hero, a group lost, a Hired Sword unpaid), the groups grown smaller, the lads split off
a group (the lad's got talent), and the state to keep, each warrior's experience in it. The tree edits
themselves are the list kind's (lists/kinds.py); nothing here reads Django.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Mapping

from armylists.rules.reading.data_files import check_schema, read_yaml

FILE = Path(__file__).resolve().parents[4] / "rules_data" / "mordheim" / "campaign" / "bsdata.yaml"


@lru_cache(maxsize=1)
def bsdata_mapping() -> Mapping[str, Any]:
    """bsdata.yaml's `bsdata`, schema-checked, read once per process."""
    data = read_yaml(FILE, "rules_data/mordheim/campaign/bsdata.yaml")
    check_schema("campaign", data, "rules_data/mordheim/campaign/bsdata.yaml")
    return data["bsdata"]


def _last(entry: str) -> str:
    """A tree's entry path's own entry (`link::target` -> target): the mapping names entries, not links."""
    return entry.rsplit("::", 1)[-1]


def _roots(forces: list[Mapping[str, Any]]) -> Iterator[tuple[Mapping[str, Any], Mapping[str, Any]]]:
    for force in forces:
        for selection in force.get("selections", ()):
            yield force, selection
        yield from _roots(force.get("forces", ()))


def _number(selection: Mapping[str, Any], entries: set[str] | str) -> int | None:
    wanted = {entries} if isinstance(entries, str) else entries
    found = [c.get("number", 1) for c in selection.get("selections", ()) if _last(c["entry"]) in wanted]
    return sum(found) if found else None


# What a BSData warband's campaign does not keep, said on its campaign page (never guessed at).
LACKS = ("Items are bought into the stash only: equip a warrior with one in the editor, from the catalogue's entries.",
         "Equipment a serious injury takes (robbed, lost) stays on the warrior in the tree: remove it in the editor.",
         "Advances and injuries are kept in the campaign record, not as the catalogue's Characteristic Increases, "
         "Skills and Serious Injuries entries: the warband's Warband Rating as BSData counts it does not follow them.")


@dataclass(frozen=True)
class Projection:
    """A tree as a warband of our book `book` (`document`: our list document, its `campaign` the tree's)."""
    book: str
    book_version: str
    catalogue: str  # the BSData catalogue's name
    document: dict[str, Any]
    names: Mapping[str, str]  # unit id -> the tree selection's name, for the page
    models_entry: Mapping[str, str]  # a henchman group's id -> its model child's entry (its number is the size)
    not_read: tuple[str, ...] = ()  # root selections no warrior of the campaign: "Grade (selection-5)"
    buys_onto_units: bool = True  # an item bought may go onto a warrior (a tree's: into the stash only)
    lacks: tuple[str, ...] = ()  # what of the campaign this warband does not keep, in a player's words


@dataclass(frozen=True)
class Settlement:
    removed: tuple[str, ...]  # unit ids gone from the warband
    sizes: Mapping[str, int]  # a group's id -> its new size (smaller, or a lad split off)
    lads: Mapping[str, str]  # the id the sequence gave a new lad -> the group he was split from
    state: dict[str, Any] = field(default_factory=dict)  # the campaign state to keep, experience in it


def catalogue_of(document: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]] | None:
    """The mapping of the tree's (first) catalogue mapped, with its id; None when none is."""
    catalogues = bsdata_mapping()["catalogues"]
    for force in document.get("forces", ()):
        if force.get("catalogue") in catalogues:
            return force["catalogue"], catalogues[force["catalogue"]]
    return None


def unmapped_reason(document: Mapping[str, Any]) -> str:
    """Why a tree records no battles: its catalogue is none bsdata.yaml maps onto one of our warbands."""
    mapped = ", ".join(c["name"] for c in bsdata_mapping()["catalogues"].values())
    return (f"Battles are recorded for BSData's Mordheim warbands whose catalogue the campaign maps onto one of our "
            f"warbands (rules_data/mordheim/campaign/bsdata.yaml: {mapped}); this warband's catalogue is not one, "
            f"so which of its warriors are heroes, their skill lists and race are not known here.")


def project(document: Mapping[str, Any], names: Mapping[str, str] | None = None) -> Projection | None:
    """The tree `document` as a warband of our book, or None when its catalogue is not mapped. `names`: the
    tree's selection names by id (the evaluator's), for the page; the mapping's are used without them."""
    found = catalogue_of(document)
    if found is None:
        return None
    _, catalogue = found
    experience_entries = set(bsdata_mapping()["experience"])
    campaign = copy.deepcopy(document.get("campaign")) if document.get("campaign") is not None else None
    warriors = (campaign or {}).get("warriors", {})
    units, shown, models_entry, not_read = [], {}, {}, []
    for _, selection in _roots(document.get("forces", ())):
        uid = selection["id"]
        mapped = catalogue["entries"].get(_last(selection["entry"]))
        name = (names or {}).get(uid) or (mapped or {}).get("name") or selection.get("name") or _last(selection["entry"])
        if mapped is None:
            not_read.append(f"{name} ({uid})")
            continue
        unit: dict[str, Any] = {"id": uid, "entry": mapped["entry"]}
        if "models" in mapped:
            models_entry[uid] = next((c["entry"] for c in selection.get("selections", ())
                                      if _last(c["entry"]) == mapped["models"]), mapped["models"])
            size = _number(selection, mapped["models"]) or 0
            if size == 0:
                not_read.append(f"{name} ({uid}): a group of no models")
                continue
            if size > 1:
                unit["size"] = size
        kept = warriors.get(uid, {}).get("experience")
        unit["experience"] = kept if kept is not None else (_number(selection, experience_entries) or 0)
        units.append(unit)
        shown[uid] = name
    ours = {"format": document.get("format", "armylist/1"), "name": document.get("name", ""), "system": "mordheim",
            "book": catalogue["book"], "book_version": catalogue["book_version"],
            "points_limit": document.get("points_limit", 0), "units": units}
    if campaign is not None:
        ours["campaign"] = campaign
        ours["modes"] = ["campaign"]
    return Projection(catalogue["book"], catalogue["book_version"], catalogue["name"], ours, shown, models_entry,
                      tuple(not_read), buys_onto_units=False, lacks=LACKS)


def settle(projection: Projection, outcome: Mapping[str, Any]) -> Settlement:
    """What the battle's `outcome` (the projected document after it) changes in the tree, and the campaign
    state to keep in it: every warrior's experience written into his record."""
    before = {u["id"]: u for u in projection.document["units"]}
    after = {u["id"]: u for u in outcome["units"]}
    state = copy.deepcopy(dict(outcome["campaign"]))
    lads = {uid: uid.rsplit("-lad", 1)[0] for uid in after if uid not in before}
    sizes = {uid: u.get("size", 1) for uid, u in after.items()
             if uid in before and u.get("size", 1) != before[uid].get("size", 1)}
    for uid, unit in after.items():
        record = state.setdefault("warriors", {}).setdefault(uid, {"advances": [], "injuries": [], "state": "fit"})
        record["experience"] = unit.get("experience", 0)
    return Settlement(tuple(uid for uid in before if uid not in after), sizes, lads, state)


def renamed(state: Mapping[str, Any], log: list[str], old: str, new: str) -> tuple[dict[str, Any], list[str]]:
    """The state and log with a lad's provisional id `old` become the id his tree selection got (`new`)."""
    state = copy.deepcopy(dict(state))
    warriors = state.get("warriors", {})
    if old in warriors:
        warriors[new] = warriors.pop(old)
    battle = state["battles"][-1]
    if old in battle.get("experience", {}):
        battle["experience"][new] = battle["experience"].pop(old)
    battle["log"] = [line.replace(old, new) for line in battle.get("log", ())]
    return state, [line.replace(old, new) for line in log]
