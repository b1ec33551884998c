"""The list document: parse it, check its shape, and write it back out unchanged.

The document format is described in docs/list-format.md and its JSON Schema in schema/list.schema.json.
Parsing only checks shape; whether the list is legal is the engine's job, so an illegal list parses.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

import fastjsonschema

from .errors import ListDocumentError
from .loader import LIST_SCHEMA, check_schema
from .plain_data import UnstorableData, check_plain, load_json, text_problem

FORMAT = "armylist/1"
MAX_DOCUMENT_BYTES = 512 * 1024  # a 200-unit list is about 60 kB; anything far larger is not a list


@dataclass(frozen=True, slots=True)
class RosterUnit:
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
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Units are looked up by value in the engine's cache at every check; hash them once.
        object.__setattr__(self, "_hash", hash((self.id, self.entry, self.size, self.options, self.mount, self.items,
                                                self.command, self.veteran_standard, self.standard_items,
                                                self.champion_items, self.general, self.path, self.model_options,
                                                self.allied)))

    def __hash__(self) -> int:
        return self._hash


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
    composition: str | None = None
    notes: str = ""
    modes: tuple[str, ...] = ()
    allies: Allies | None = None


@lru_cache(maxsize=1)
def _accepts() -> Callable[[Any], Any]:
    """The list schema compiled to Python: 15 times faster than interpreting it, for the common case
    of a good document. A bad one is checked again by jsonschema, whose errors name the best path."""
    return fastjsonschema.compile(json.loads(LIST_SCHEMA.read_text()))


# The document's free text: the schema bounds its length but, unlike a slug's pattern, not its characters.
FREE_TEXT = ("name", "player", "notes", "book_version")
UNIT_FREE_TEXT = ("label", "notes")


def _refuse_unstorable(data: Any, source: str) -> None:
    try:
        check_plain(data)
    except UnstorableData as exc:
        raise ListDocumentError(source, exc.path, exc.reason) from None


def _refuse_unstorable_text(data: dict, source: str) -> None:
    """A NUL or a lone surrogate in a document that has the schema's shape (slugs, ids and numbers are
    bounded by the schema; the free text is checked here): a quick look, since every save passes it."""
    places = [((key,), data.get(key)) for key in FREE_TEXT]
    if data.get("allies"):
        places.append((("allies", "book_version"), data["allies"]["book_version"]))
    places += [(("units", i, key), unit.get(key)) for i, unit in enumerate(data["units"]) for key in UNIT_FREE_TEXT]
    if text_problem("".join(text for _, text in places if text)) is None:
        return
    for path, text in places:
        problem = text_problem(text) if text else None
        if problem:
            raise ListDocumentError(source, path, problem)


def parse_roster(data: Any, source: str = "list") -> Roster:
    """Build a `Roster` from a decoded list document, or raise `ListDocumentError`."""
    try:
        _accepts()(data)
    except fastjsonschema.JsonSchemaException:
        _refuse_unstorable(data, source)  # before the schema's messages quote a bad value
        check_schema("list", data, source, ListDocumentError)
        raise ListDocumentError(source, (), "is not a valid list document") from None
    _refuse_unstorable_text(data, source)
    allies = data.get("allies")
    units, seen = [], {}
    for i, u in enumerate(data["units"]):
        uid = u.get("id") or f"u{i + 1}"
        if uid in seen:
            raise ListDocumentError(source, ("units", i, "id"), f"unit id {uid!r} is already used by units[{seen[uid]}]")
        seen[uid] = i
        if u.get("allied") and allies is None:
            raise ListDocumentError(source, ("units", i, "allied"),
                                    "the unit is allied, but the list names no allies book (add \"allies\")")
        units.append(RosterUnit(
            id=uid, entry=u["entry"], size=u.get("size"),
            options=tuple(u.get("options", {}).items()), mount=u.get("mount"),
            items=tuple(u.get("items", [])), command=tuple(u.get("command", [])),
            veteran_standard=u.get("veteran_standard", False),
            standard_items=tuple(u.get("standard_items", [])), champion_items=tuple(u.get("champion_items", [])),
            general=u.get("general", False), path=u.get("path"),
            label=u.get("label", ""), notes=u.get("notes", ""), experience=u.get("experience"),
            model_options=tuple(tuple(m.items()) for m in u.get("model_options", [])),
            allied=u.get("allied", False),
        ))
    return Roster(
        system=data["system"], book=data["book"], book_version=data["book_version"],
        points_limit=data["points_limit"], units=tuple(units), name=data.get("name", ""),
        player=data.get("player", ""), composition=data.get("composition"), notes=data.get("notes", ""),
        modes=tuple(data.get("modes", [])),
        allies=Allies(allies["book"], allies["book_version"], allies.get("composition")) if allies else None,
    )


def parse_roster_json(text: str | bytes, source: str = "list") -> Roster:
    """Decode JSON text and parse it; every failure is a `ListDocumentError`."""
    if len(text) > MAX_DOCUMENT_BYTES:
        raise ListDocumentError(source, (), f"is {len(text)} bytes; a list document may be at most {MAX_DOCUMENT_BYTES}")
    try:
        data = load_json(text)
    except UnstorableData as exc:
        raise ListDocumentError(source, exc.path, exc.reason) from None
    except UnicodeDecodeError as exc:
        raise ListDocumentError(source, (), f"is not UTF-8 text: {exc.reason}") from None
    except json.JSONDecodeError as exc:
        raise ListDocumentError(source, (), f"is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    return parse_roster(data, source)


def roster_to_dict(roster: Roster) -> dict[str, Any]:
    """The canonical document: parse(roster_to_dict(r)) == r, and defaults are left out."""
    doc: dict[str, Any] = {"format": FORMAT}
    if roster.name:
        doc["name"] = roster.name
    if roster.player:
        doc["player"] = roster.player
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
    doc["units"] = [_unit_to_dict(u) for u in roster.units]
    return doc


def _unit_to_dict(u: RosterUnit) -> dict[str, Any]:
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
    return out
