"""The list document: parse it, check its shape, and write it back out unchanged.

The document format is described in docs/list-format.md and its JSON Schema in schema/list.schema.json.
Parsing only checks shape; whether the list is legal is the engine's job, so an illegal list parses.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import msgspec

from armylists.rules.reading.data_files import check_schema
from armylists.rules.errors import ListDocumentError
from armylists.rules.reading.list_reader import ListDocument, convert_document, decode_document
from armylists.rules.reading.plain_data import UnstorableData, check_plain, load_json, text_problem
from armylists.rules.reading.selection_tree import (MAX_TREE_DEPTH, MAX_TREE_SELECTIONS, MAX_TREE_UNITS, TreeForce,
                                                    tree_depth, tree_from_document, tree_to_list)

FORMAT = "armylist/1"
MAX_DOCUMENT_BYTES = 512 * 1024  # a 200-unit list is about 60 kB; anything far larger is not a list


class RosterUnit(msgspec.Struct, frozen=True, cache_hash=True):
    """One unit of the list. A msgspec Struct rather than a dataclass: a list of 26 units is built in a
    third of the time, and the engine looks units up by value at every check, so the hash is kept.
    Copy one with a change by `msgspec.structs.replace`."""
    id: str
    entry: str
    size: int | None = None
    options: tuple[tuple[str, int], ...] = ()
    mount: str | None = None
    items: tuple[str, ...] = ()
    command: tuple[str, ...] = ()
    veteran_standard: bool = False
    standard_items: tuple[str, ...] = ()
    champion_items: tuple[str, ...] = ()
    general: bool = False
    path: str | None = None
    label: str = ""
    notes: str = ""
    experience: int | None = None
    model_options: tuple[tuple[tuple[str, int], ...], ...] = ()
    allied: bool = False  # an entry of the list's allies book (`Roster.allies`), not of its own book
    accompanies: str | None = None  # the unit it accompanies (a Detachment's regiment); no part of its price


@dataclass(frozen=True, slots=True)
class Allies:
    """The list's allied contingent: the book (and version, and composition) its allied units come from."""
    book: str
    book_version: str
    composition: str | None = None


@dataclass(frozen=True, slots=True)
class Roster:
    system: str
    book: str
    book_version: str
    points_limit: int
    units: tuple[RosterUnit, ...] = ()
    name: str = ""
    player: str = ""
    team: str = ""  # the player's team at a team event, printed with the name
    composition: str | None = None
    notes: str = ""
    modes: tuple[str, ...] = ()
    allies: Allies | None = None
    # A list of a book imported from BattleScribe data (selection_tree.py): its roster tree (None for
    # every other list, whose units are `units`), and cost limits besides `points_limit`.
    forces: tuple[TreeForce, ...] | None = None
    cost_limits: tuple[tuple[str, float], ...] = ()
    # A Mordheim warband's campaign state (the document's `campaign`) as canonical JSON text, so the
    # Roster stays hashable and equal documents give equal Rosters; mordheim_campaign/state.py reads it.
    campaign: str | None = None

    @property
    def is_tree(self) -> bool:
        return self.forces is not None


def parse_roster(data: Any, source: str = "list") -> Roster:
    """Build a `Roster` from a decoded list document, or raise `ListDocumentError`."""
    try:
        check_plain(data)  # before the schema: its patterns would pass a NUL or a surrogate in free text
    except UnstorableData as exc:
        raise ListDocumentError(source, exc.path, exc.reason) from None
    document = convert_document(data)
    if document is None:
        document = _read_refused(data, source)
    return roster_from_document(document, source)


def parse_roster_json(text: str | bytes, source: str = "list") -> Roster:
    """Decode JSON text and parse it; every failure is a `ListDocumentError`."""
    if len(text) > MAX_DOCUMENT_BYTES:
        raise ListDocumentError(source, (), f"is {len(text)} bytes; a list document may be at most {MAX_DOCUMENT_BYTES}")
    document = decode_document(text)
    if document is not None:
        return roster_from_document(document, source)
    # Refused by the fast reader: the standard library's reader and the JSON Schema say why.
    try:
        data = load_json(text)
    except UnstorableData as exc:
        raise ListDocumentError(source, exc.path, exc.reason) from None
    except UnicodeDecodeError as exc:
        raise ListDocumentError(source, (), f"is not UTF-8 text: {exc.reason}") from None
    except json.JSONDecodeError as exc:
        raise ListDocumentError(source, (), f"is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    return parse_roster(data, source)


def _check_free_text(document: ListDocument, source: str) -> None:
    """The typed reader bounds every number, depth and slug; only free text may still hold a NUL or a
    lone surrogate, which no database stores (plain_data.py)."""
    texts: list[tuple[tuple, str]] = [
        (("name",), document.name), (("player",), document.player), (("team",), document.team),
        (("notes",), document.notes), (("book_version",), document.book_version)]
    if document.allies is not None:
        texts.append((("allies", "book_version"), document.allies.book_version))
    for i, u in enumerate(document.units):
        texts += [(("units", i, "label"), u.label), (("units", i, "notes"), u.notes)]
    for path, text in texts:
        problem = text and text_problem(text)
        if problem:
            raise ListDocumentError(source, path, problem)


def _read_refused(data: Any, source: str) -> ListDocument:
    """A document the typed reader refused: the JSON Schema's error is the one reported. If the schema
    accepts it after all (an integer written 1.0), it is read leniently."""
    check_schema("list", data, source, ListDocumentError)
    document = convert_document(data, strict=False)
    if document is None:
        raise ListDocumentError(source, (), "is not a valid list document")
    return document


def roster_from_document(document: ListDocument, source: str = "list") -> Roster:
    """The Roster of a document the typed reader read (its shape checked); what the schema cannot say is checked here."""
    _check_free_text(document, source)
    allies = document.allies
    units, seen = [], {}
    for i, u in enumerate(document.units):
        uid = u.id or f"u{i + 1}"
        if uid in seen:
            raise ListDocumentError(source, ("units", i, "id"), f"unit id {uid!r} is already used by units[{seen[uid]}]")
        seen[uid] = i
        if u.allied and allies is None:
            raise ListDocumentError(source, ("units", i, "allied"),
                                    "the unit is allied, but the list names no allies book (add \"allies\")")
        # Positional, in RosterUnit's field order: a third faster than by keyword, at every request.
        units.append(RosterUnit(
            uid, u.entry, u.size, tuple(u.options.items()) if u.options else (), u.mount, u.items, u.command,
            u.veteran_standard, u.standard_items, u.champion_items, u.general, u.path, u.label, u.notes,
            u.experience, tuple(tuple(m.items()) for m in u.model_options) if u.model_options else (), u.allied,
            u.accompanies,
        ))
    forces = None
    if document.forces is not None:
        if units:
            raise ListDocumentError(source, ("units",), "a list kept as a roster tree (\"forces\") has no units")
        if tree_depth(document.forces) > MAX_TREE_DEPTH:
            raise ListDocumentError(source, ("forces",), f"selections nest more than {MAX_TREE_DEPTH} levels deep")
        forces = tree_from_document(document.forces)
        _check_tree_size(forces, source)
        _check_tree_ids(forces, source)
    campaign = None
    if document.campaign is not None:
        try:
            check_plain(document.campaign)  # its free text (the battles' log) on the fast path too
            check_schema("warband-campaign", document.campaign, source, ListDocumentError)
        except UnstorableData as exc:
            raise ListDocumentError(source, ("campaign", *exc.path), exc.reason) from None
        except ListDocumentError as exc:
            raise ListDocumentError(source, ("campaign", *exc.path), exc.reason) from None
        campaign = json.dumps(document.campaign, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return Roster(
        forces=forces, cost_limits=tuple(sorted(document.cost_limits.items())), campaign=campaign,
        system=document.system, book=document.book, book_version=document.book_version,
        points_limit=document.points_limit, units=tuple(units), name=document.name, player=document.player,
        team=document.team,
        composition=document.composition, notes=document.notes, modes=document.modes,
        allies=Allies(allies.book, allies.book_version, allies.composition) if allies is not None else None,
    )


def _check_tree_size(forces: tuple[TreeForce, ...], source: str) -> None:
    """A tree's units and selections within MAX_TREE_UNITS and MAX_TREE_SELECTIONS, so that judging it on any
    door (the anonymous validator too) stays within its budget (docs/security.md)."""
    every = [f for top in forces for f in top.walk_forces()]
    units = sum(len(f.selections) for f in every)
    if units > MAX_TREE_UNITS:
        raise ListDocumentError(source, ("forces",), f"the list has {units} units (root selections); a list may "
                                                     f"have at most {MAX_TREE_UNITS}")
    selections = sum(1 for f in every for s in f.selections for _ in s.walk())
    if selections > MAX_TREE_SELECTIONS:
        raise ListDocumentError(source, ("forces",), f"the list holds {selections} selections; a list may hold at "
                                                     f"most {MAX_TREE_SELECTIONS}")


def _check_tree_ids(forces: tuple[TreeForce, ...], source: str) -> None:
    """Every force and selection id once in the list: edits name them."""
    seen: set[str] = set()
    for top in forces:
        for force in top.walk_forces():
            for node in (force, *(n for s in force.selections for n in s.walk())):
                if node.id in seen:
                    raise ListDocumentError(source, ("forces",), f"the id {node.id!r} is used twice")
                seen.add(node.id)


def roster_to_dict(roster: Roster) -> dict[str, Any]:
    """The canonical document: parse(roster_to_dict(r)) == r, and defaults are left out."""
    doc: dict[str, Any] = {"format": FORMAT}
    if roster.name:
        doc["name"] = roster.name
    if roster.player:
        doc["player"] = roster.player
    if roster.team:
        doc["team"] = roster.team
    doc.update(system=roster.system, book=roster.book, book_version=roster.book_version)
    if roster.composition:
        doc["composition"] = roster.composition
    if roster.modes:
        doc["modes"] = list(roster.modes)
    if roster.allies:
        allies = {"book": roster.allies.book, "book_version": roster.allies.book_version}
        if roster.allies.composition:
            allies["composition"] = roster.allies.composition
        doc["allies"] = allies
    doc["points_limit"] = roster.points_limit
    if roster.notes:
        doc["notes"] = roster.notes
    doc["units"] = [unit_to_dict(u) for u in roster.units]
    if roster.forces is not None:
        doc["forces"] = tree_to_list(roster.forces)
    if roster.cost_limits:
        doc["cost_limits"] = dict(roster.cost_limits)
    if roster.campaign is not None:
        doc["campaign"] = json.loads(roster.campaign)
    return doc


def unit_to_dict(u: RosterUnit) -> dict[str, Any]:
    out: dict[str, Any] = {"id": u.id, "entry": u.entry}
    if u.allied:
        out["allied"] = True
    if u.size is not None:
        out["size"] = u.size
    if u.options:
        out["options"] = dict(u.options)
    if u.mount:
        out["mount"] = u.mount
    for key in ("items", "command", "standard_items", "champion_items"):
        if getattr(u, key):
            out[key] = list(getattr(u, key))
    if u.veteran_standard:
        out["veteran_standard"] = True
    if u.general:
        out["general"] = True
    if u.path:
        out["path"] = u.path
    if u.label:
        out["label"] = u.label
    if u.notes:
        out["notes"] = u.notes
    if u.experience is not None:
        out["experience"] = u.experience
    if u.model_options:
        out["model_options"] = [dict(m) for m in u.model_options]
    if u.accompanies:
        out["accompanies"] = u.accompanies
    return out
