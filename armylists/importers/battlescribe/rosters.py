"""BattleScribe and New Recruit rosters (.ros, zipped .rosz) as our list documents, and back.

    root = parse_roster_file(data, "army.rosz")           # defusedxml, the importer's size caps
    key = book_key(root, "army.rosz")                      # (system, book, version) of the imported book
    document = roster_document(root, book_data, "army.rosz")
    xml = write_roster(document, book_data, ids, total)    # ids: catalogue_ids(the files it was imported from)

A roster names its game system and catalogue by name and revision (`gameSystemName`, `catalogueName`,
`catalogueRevision`); those give the imported book's id and version exactly as the importer made them
(`bs-<slug of the name>`, `r<revision>`). Its selections name catalogue entries by `entryId`, the path of
link and entry ids joined by `::`; the importer tagged every entry and option with `bs-<id>` of its
entry (the first tag) and of its link, so the last id of the path finds the entry, the model child (the
unit's size) or the option. A selection the importer folded into its parent (an entry taken with its
parent, whose cost the parent carries) is passed over; any other selection the book does not have is an
error naming the selection. This module knows no Django: callers find the book data and the ids.
"""
from __future__ import annotations

import re
from typing import Any, Callable
from xml.etree.ElementTree import Element, SubElement, tostring

from armylists.importers.battlescribe import version as book_version
from armylists.importers.battlescribe.limits import tag
from armylists.importers.battlescribe.names import slug
from armylists.importers.battlescribe.elements import MAX_SELECTION_NUMBER, kids, local, number, revision
from armylists.importers.battlescribe.sources import BattleScribeInputError, parse_xml
from armylists.rules.reading.archives import ArchiveError, is_zip, unpack

ROSTER_NS = "http://www.battlescribe.net/schema/rosterSchema"
MAX_ROSTER_BYTES = 8 * 1024 * 1024  # a roster of 200 units is well under 1 MB of XML
UNIT_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


def parse_roster_file(data: bytes, source: str) -> Element:
    """The <roster> root of a .ros (XML) or .rosz (a zip holding one .ros), read as untrusted input.

    A .rosz holds one file and nothing else is unpacked; it is read by the one archive reader
    (armylists/rules/reading/archives.py) within the request's budget (an event upload's many files share one)."""
    if is_zip(data):
        try:
            (source, data), = unpack(data, source, member_bytes=MAX_ROSTER_BYTES, one_file=True)
        except ArchiveError as exc:
            raise BattleScribeInputError(exc.source, "", exc.message) from None
    elif len(data) > MAX_ROSTER_BYTES:
        raise BattleScribeInputError(source, "", f"is {len(data)} bytes; at most {MAX_ROSTER_BYTES} are read")
    root = parse_xml(source, data)
    if local(root.tag) != "roster":
        raise BattleScribeInputError(source, f"<{local(root.tag)}>", "is not a BattleScribe or New Recruit roster "
                                                                     "(its root element is not <roster>)")
    return root


def looks_like_roster(data: bytes, source: str) -> bool:
    """Cheap sniffing for the import readers: a .ros/.rosz name, or XML whose start names a roster."""
    if source.lower().endswith((".ros", ".rosz")):
        return True
    head = data[:2048].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"<") and b"<roster" in head


def _forces(root: Element, source: str) -> list[Element]:
    forces = kids(root, "forces", "force")
    if not forces:
        raise BattleScribeInputError(source, "<roster>", "has no <force>; nothing to import")
    names = {(f.get("catalogueName"), f.get("catalogueRevision")) for f in forces}
    if len(names) > 1:
        raise BattleScribeInputError(source, "<forces>", "its forces come from several catalogues "
                                                         f"({', '.join(sorted(str(n) for n, _ in names))}); a list "
                                                         f"here is one army book")
    return forces


def book_names(root: Element, source: str) -> tuple[str, str]:
    """The roster's game system and catalogue as BattleScribe names them (what a player knows them by)."""
    return root.get("gameSystemName") or "", _forces(root, source)[0].get("catalogueName") or ""


def book_key(root: Element, source: str) -> tuple[str, str, str]:
    """The (system, book, version) the importer gave the roster's game system and catalogue."""
    force = _forces(root, source)[0]
    system, catalogue = root.get("gameSystemName") or "", force.get("catalogueName") or ""
    if not system or not catalogue:
        raise BattleScribeInputError(source, "<roster>/<force>", "names no gameSystemName or catalogueName")
    revision_ = revision(source, "<force> catalogueRevision", force.get("catalogueRevision"))
    return "bs-" + slug(system), "bs-" + slug(catalogue), book_version(revision_)


def roster_document(root: Element, book: dict, source: str) -> dict:
    """The list document of a roster, for the imported book's data `book` (its entries' ordered tags)."""
    forces = _forces(root, source)
    limit = next((number(source, "<costLimit> value", c.get("value"), -1) for c in kids(root, "costLimits", "costLimit")
                  if number(source, "<costLimit> value", c.get("value"), -1) > 0), None)
    if limit is None:
        raise BattleScribeInputError(source, "<costLimits>", "the roster sets no points limit; set one in "
                                                            "BattleScribe or New Recruit and export it again")
    compositions = {c["name"]: c["id"] for c in book.get("compositions", [])}
    document: dict[str, Any] = {"format": "armylist/1", "system": book["system"], "book": book["id"],
                                "book_version": book["version"], "points_limit": int(limit), "units": []}
    if root.get("name"):
        document["name"] = root.get("name")[:200]
    composition = compositions.get(forces[0].get("name") or "")
    if composition:
        document["composition"] = composition
    notes = [c.text.strip() for c in root if local(c.tag) == "customNotes" and c.text and c.text.strip()]
    if notes:
        document["notes"] = notes[0]
    by_tag = _entries_by_tag(book)
    used: set[str] = set()
    for force in forces:
        for selection in kids(force, "selections", "selection"):
            document["units"].append(_unit(selection, by_tag, book, source, len(document["units"]) + 1, used))
    return document


def _entries_by_tag(book: dict) -> dict[str, dict]:
    found: dict[str, dict] = {}
    for entry in book["entries"]:  # the entry's own id first, then its link's: an own id wins
        found.setdefault(entry["tags"][0], entry)
    for entry in book["entries"]:
        for t in entry["tags"][1:3]:
            if t != "bs-any" and not t.startswith("bs-type-"):
                found.setdefault(t, entry)
    return found


def _path_tags(selection: Element) -> list[str]:
    """The selection's entryId as tags, its own entry last first (`link::entry` -> [entry, link])."""
    return [tag(part) for part in reversed((selection.get("entryId") or "").split("::")) if part]


def _unknown(selection: Element, book: dict, source: str, inside: str = "") -> BattleScribeInputError:
    where = f"<selection name={selection.get('name')!r} entryId={selection.get('entryId')!r}>"
    what = f"an option of {inside}" if inside else "an entry"
    return BattleScribeInputError(source, where, f"is not {what} of {book['name']} ({book['version']}); import "
                                                 f"the catalogue revision the roster was made with")


def _unit(selection: Element, by_tag: dict, book: dict, source: str, n: int, used: set[str]) -> dict:
    entry = next((by_tag[t] for t in _path_tags(selection) if t in by_tag), None)
    selection_number(selection, source)  # a unit is taken once; its number is only checked
    if entry is None:
        raise _unknown(selection, book, source)
    uid = selection.get("id") or ""
    if not UNIT_ID.match(uid) or uid in used:
        uid = f"u{n}"
    used.add(uid)
    unit: dict[str, Any] = {"id": uid, "entry": entry["id"]}
    model = (entry.get("model_tags") or [None])[0]
    counts: dict[str, int] = {}
    size = [0]
    folded = set(entry["tags"]) | {t for o in entry.get("options", []) for t in o["tags"][1:]}

    def walk(children: list[Element], parent: str | None, under_model: bool) -> None:
        for child in children:
            tags = _path_tags(child)
            count = selection_number(child, source)
            if model and tags and tags[0] == model:
                size[0] += count
                walk(kids(child, "selections", "selection"), None, True)
                continue
            option = _option(entry, tags, parent, under_model)
            if option is not None:
                counts[option["id"]] = counts.get(option["id"], 0) + count
                walk(kids(child, "selections", "selection"), option["id"], under_model)
            elif tags and tags[0] in folded:  # taken with its parent: the parent's cost includes it
                walk(kids(child, "selections", "selection"), parent, under_model)
            else:
                raise _unknown(child, book, source, inside=entry["name"])

    walk(kids(selection, "selections", "selection"), None, False)
    if model:
        unit["size"] = max(size[0], 1)
    per_model = {o["id"] for o in entry.get("options", []) if o.get("per_model")}
    options = {k: (max(1, round(v / unit.get("size", 1))) if k in per_model else v) for k, v in counts.items()}
    if options:
        unit["options"] = options
    label = (selection.get("customName") or "").strip()
    if label:
        unit["label"] = label[:80]
    return unit


def selection_number(selection: Element, source: str) -> int:
    """How many times a selection is taken: a whole number from 0 to MAX_SELECTION_NUMBER (1 when absent)."""
    where = f"<selection name={selection.get('name')!r} entryId={selection.get('entryId')!r}> number"
    count = number(source, where, selection.get("number"), 1, 0, MAX_SELECTION_NUMBER)
    if not float(count).is_integer():  # float(): the default 1 is an int, which has no is_integer() on 3.11
        raise BattleScribeInputError(source, where, f"{selection.get('number')!r} is not a whole number")
    return int(count)


def _option(entry: dict, tags: list[str], parent: str | None, under_model: bool) -> dict | None:
    """The entry's option for a selection: its own id first, then the one sharing most of the path's ids
    (an entry reached two ways is told apart by its link or group), then the one under `parent`."""
    if not tags:
        return None
    matches = [o for o in entry.get("options", []) if o["tags"][0] == tags[0]] or \
              [o for o in entry.get("options", []) if set(tags) & set(o["tags"][1:3])]
    if not matches:
        return None
    return max(matches, key=lambda o: (len(set(tags) & set(o["tags"])),
                                       (o.get("requires") or [None])[0] == parent,
                                       bool(o.get("per_model")) == under_model))


def _distinct_path(option: dict, options: list[dict]) -> list[str]:
    """The tags that tell an option apart from the others of its entry with the same own id, written
    before its id in entryId (`link::entry`), as BattleScribe writes the links a selection came through."""
    twins = [o for o in options if o["tags"][0] == option["tags"][0] and o is not option]
    if not twins:
        return []
    shared = set.intersection(*(set(o["tags"]) for o in twins))
    return [t for t in option["tags"][1:] if t not in shared and t != "bs-any" and not t.startswith("bs-type-")][:1]


# -- writing ----------------------------------------------------------------------------------------

def catalogue_ids(roots: list[Element]) -> dict:
    """What a roster needs of the files a book was imported from: the game system's and catalogue's ids,
    revision and cost type (a legacy game system declares none: its points, `points` as BattleScribe
    converts them, legacy.py), and every id by its tag (our tags are lower case slugs of them)."""
    ids: dict[str, Any] = {"by_tag": {}, "forces": {}, "categories": {}, "cost_type": ("points", "pts")}
    for root in roots:
        kind = local(root.tag)
        if kind == "gameSystem":
            ids.update(game_system_id=root.get("id"), game_system_revision=root.get("revision", "1"),
                       game_system_name=root.get("name"))
            types = kids(root, "costTypes", "costType")
            if types:
                ids["cost_type"] = (types[0].get("id"), types[0].get("name", "pts"))
        elif kind == "catalogue":
            ids.update(catalogue_id=root.get("id"), catalogue_revision=root.get("revision", "1"),
                       catalogue_name=root.get("name"), game_system_id=root.get("gameSystemId"))
        for element in root.iter():
            if element.get("id"):
                ids["by_tag"].setdefault(tag(element.get("id")), element.get("id"))
            if local(element.tag) == "categoryEntry" and element.get("id"):
                ids["categories"].setdefault(tag(element.get("id")), element.get("name") or element.get("id"))
            if local(element.tag) == "forceEntry" and element.get("name"):
                ids["forces"].setdefault(element.get("name"), element.get("id"))
    return ids


def write_roster(document: dict, book: dict, ids: dict, total: int, system_name: str) -> bytes:
    """A .ros of the list `document` for the imported book `book`, as BattleScribe and New Recruit read it."""
    bs_id: Callable[[str], str] = lambda t: ids["by_tag"].get(t, t[3:])  # noqa: E731 (a tag back to its id)
    cost_id, cost_name = ids["cost_type"]
    root = Element("roster", {"id": f"list-{slug(document.get('name') or 'list')}"[:40],
                              "name": document.get("name") or book["name"], "battleScribeVersion": "2.03",
                              "gameSystemId": ids.get("game_system_id") or "", "gameSystemName": system_name,
                              "gameSystemRevision": str(ids.get("game_system_revision", "1")), "xmlns": ROSTER_NS})
    _costs(root, cost_id, cost_name, total)
    limits = SubElement(root, "costLimits")
    SubElement(limits, "costLimit", {"name": cost_name, "typeId": cost_id, "value": f"{document['points_limit']}.0"})
    compositions = {c["id"]: c["name"] for c in book.get("compositions", [])}
    force_name = compositions.get(document.get("composition") or "") or next(iter(ids["forces"]), "Army")
    force = SubElement(SubElement(root, "forces"), "force", {
        "id": "force-1", "name": force_name, "entryId": ids["forces"].get(force_name, ""),
        "catalogueId": ids.get("catalogue_id") or "", "catalogueRevision": str(ids.get("catalogue_revision", "1")),
        "catalogueName": book["name"]})
    entries = {e["id"]: e for e in book["entries"]}
    selections = SubElement(force, "selections")
    for unit in document["units"]:
        entry = entries.get(unit["entry"])
        if entry is None:
            raise BattleScribeInputError("list", f"units[{unit['id']}].entry", f"{unit['entry']!r} is not an entry of "
                                                                              f"{book['name']}")
        _write_unit(selections, unit, entry, bs_id, (cost_id, cost_name), ids["categories"])
    if document.get("notes"):
        SubElement(root, "customNotes").text = document["notes"]
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + tostring(root, encoding="utf-8", xml_declaration=False) + b"\n"


def _costs(parent: Element, cost_id: str, cost_name: str, value: float) -> None:
    SubElement(SubElement(parent, "costs"), "cost", {"name": cost_name, "typeId": cost_id, "value": f"{value}.0"
                                                     if isinstance(value, int) else str(value)})


def _write_unit(parent: Element, unit: dict, entry: dict, bs_id: Callable[[str], str], cost: tuple[str, str],
                category_names: dict[str, str]) -> None:
    model = (entry.get("model_tags") or [None])[0]
    size = unit.get("size") or entry.get("size", {}).get("min", 1)
    attrs = {"id": unit["id"], "name": entry["name"], "entryId": bs_id(entry["tags"][0]), "number": "1",
             "type": "unit" if model else "model"}
    if unit.get("label"):
        attrs["customName"] = unit["label"]
    selection = SubElement(parent, "selection", attrs)
    own = entry.get("base_points", 0) if model else entry.get("points", 0)
    children = SubElement(selection, "selections")
    options = {o["id"]: o for o in entry.get("options", [])}
    under: dict[str | None, list[tuple[dict, int]]] = {}
    for oid, count in (unit.get("options") or {}).items():
        option = options.get(oid)
        if option is None:
            raise BattleScribeInputError("list", f"units[{unit['id']}].options", f"{oid!r} is not an option of "
                                                                                f"{entry['name']}")
        parent_id = "<model>" if option.get("per_model") else (option.get("requires") or [None])[0]
        under.setdefault(parent_id, []).append((option, count))
        own += option.get("model_cost", 0) * count * size
    if model:
        m = SubElement(children, "selection", {"id": f"{unit['id']}-m", "name": entry["name"], "entryId": bs_id(model),
                                              "number": str(size), "type": "model"})
        _write_options(SubElement(m, "selections"), under, "<model>", unit["id"], bs_id, cost, size,
                       entry.get("options", []))
        _costs(m, *cost, entry.get("points", 0) * size)
    _write_options(children, under, None, unit["id"], bs_id, cost, size, entry.get("options", []))
    _costs(selection, *cost, own)
    categories = SubElement(selection, "categories")
    for i, t in enumerate(t for t in entry["tags"] if t in category_names):
        SubElement(categories, "category", {"id": f"{unit['id']}-c{i}", "name": category_names[t], "entryId": bs_id(t),
                                            "primary": str(i == 0).lower()})


def _write_options(parent: Element, under: dict, key: str | None, uid: str, bs_id: Callable[[str], str],
                   cost: tuple[str, str], size: int, everything: list[dict]) -> None:
    for option, count in under.get(key, []):
        path = "::".join(bs_id(t) for t in [*_distinct_path(option, everything), option["tags"][0]])
        per_model = bool(option.get("per_model"))
        number_ = count * size if per_model else count
        s = SubElement(parent, "selection", {"id": f"{uid}-{option['id']}", "name": option["name"],
                                             "entryId": path, "number": str(number_),
                                             "type": "upgrade"})
        _write_options(SubElement(s, "selections"), under, option["id"], uid, bs_id, cost, size, everything)
        _costs(s, *cost, option.get("cost", 0) * number_)  # after its selections, as the format orders them
