"""The list document as typed structures, for a fast first reading (msgspec, in C).

These types say what schema/list.schema.json says (the same patterns, bounds and lengths, unknown keys
refused), so a document they accept is one the schema accepts. They are only the fast path: whatever
they refuse is then checked by the JSON Schema, whose error message (and path) is the one reported, so
messages do not depend on which reader ran. tests/rules/test_list_reader.py compares the two on generated
documents.

Two things the schema says that these types cannot: `uniqueItems` (checked by `has_repeats` after
decoding) and that an integer may be written `1.0` (refused here, accepted by the schema, then read
again leniently by `convert_document(strict=False)`).
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, Struct

SLUG_PATTERN = "^[a-z0-9]+([.-][a-z0-9]+)*$"

Slug = Annotated[str, Meta(pattern=SLUG_PATTERN, max_length=80)]
Slugs = Annotated[tuple[Slug, ...], Meta(max_length=50)]
Count = Annotated[int, Meta(ge=1, le=10000)]
Counts = Annotated[dict[Slug, Count], Meta(max_length=50)]
Version = Annotated[str, Meta(min_length=1, max_length=40)]

# A field whose default is None but whose type is not Optional may be left out, not written as null:
# the schema's "type": "integer" refuses null, and so does msgspec for an `int` field.


class UnitDocument(Struct, forbid_unknown_fields=True):
    entry: Slug
    id: Annotated[str, Meta(pattern="^[A-Za-z0-9_-]+$", max_length=40)] = ""
    allied: bool = False
    accompanies: Annotated[str, Meta(pattern="^[A-Za-z0-9_-]+$", max_length=40)] = None  # type: ignore[assignment]
    size: Annotated[int, Meta(ge=1, le=10000)] = None  # type: ignore[assignment]
    options: Counts = {}
    mount: Slug | None = None
    items: Slugs = ()
    command: Annotated[tuple[Literal["champion", "musician", "standard"], ...], Meta(max_length=3)] = ()
    veteran_standard: bool = False
    standard_items: Slugs = ()
    champion_items: Slugs = ()
    general: bool = False
    path: Slug | None = None
    label: Annotated[str, Meta(max_length=100)] = ""
    notes: Annotated[str, Meta(max_length=1000)] = ""
    experience: Annotated[int, Meta(ge=0, le=1000)] = None  # type: ignore[assignment]
    model_options: Annotated[tuple[Counts, ...], Meta(max_length=100)] = ()


class AlliesDocument(Struct, forbid_unknown_fields=True):
    book: Slug
    book_version: Version
    composition: Slug | None = None


TreeId = Annotated[str, Meta(pattern="^[A-Za-z0-9_.-]+$", min_length=1, max_length=60)]
DataId = Annotated[str, Meta(pattern="^[A-Za-z0-9_.:-]+$", min_length=1, max_length=400)]


class SelectionDocument(Struct, forbid_unknown_fields=True):
    """A selection of a BattleScribe book's list: its entry id path, its number, its children."""
    id: TreeId
    entry: DataId
    number: Annotated[int, Meta(ge=1, le=10000)] = 1
    selections: Annotated[tuple[SelectionDocument, ...], Meta(max_length=200)] = ()


class ForceDocument(Struct, forbid_unknown_fields=True):
    id: TreeId
    entry: DataId
    catalogue: DataId
    selections: Annotated[tuple[SelectionDocument, ...], Meta(max_length=200)] = ()
    forces: Annotated[tuple[ForceDocument, ...], Meta(max_length=20)] = ()


class ListDocument(Struct, forbid_unknown_fields=True):
    format: Literal["armylist/1"]
    system: Slug
    book: Slug
    book_version: Version
    points_limit: Annotated[int, Meta(ge=1, le=100000)]
    units: Annotated[tuple[UnitDocument, ...], Meta(max_length=200)]
    name: Annotated[str, Meta(max_length=200)] = ""
    player: Annotated[str, Meta(max_length=200)] = ""
    team: Annotated[str, Meta(max_length=200)] = ""
    composition: Slug | None = None
    notes: Annotated[str, Meta(max_length=5000)] = ""
    modes: Annotated[tuple[Slug, ...], Meta(max_length=10)] = ()
    allies: AlliesDocument = None  # type: ignore[assignment]
    # A list of a book imported from BattleScribe data (selection_tree.py): its roster tree, and its cost
    # limits other than `points_limit` (the game system's first cost type) by cost type id.
    forces: Annotated[tuple[ForceDocument, ...], Meta(max_length=20)] = None  # type: ignore[assignment]
    cost_limits: Annotated[dict[DataId, Annotated[float, Meta(ge=0, le=1e9)]], Meta(max_length=10)] = {}
    # A Mordheim warband's campaign state, any shape here: roster.py checks it against its own schema
    # (warband-campaign.schema.json) whenever it is present, so what the schema refuses is still refused.
    campaign: dict[str, Any] = None  # type: ignore[assignment]


_decoder = msgspec.json.Decoder(ListDocument)


def decode_document(text: str | bytes) -> ListDocument | None:
    """The document read from JSON text, or None when the fast reader refuses it (not JSON, or any
    shape it does not accept): the caller then reads it the slow way for the exact message."""
    try:
        document = _decoder.decode(text)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError):
        return None
    return None if has_repeats(document) else document


def convert_document(data: Any, strict: bool = True) -> ListDocument | None:
    """The same from an already decoded document (a dict), or None when refused."""
    try:
        document = msgspec.convert(data, ListDocument, strict=strict)
    except msgspec.ValidationError:
        return None
    return None if has_repeats(document) else document


def has_repeats(document: ListDocument) -> bool:
    """The schema's `uniqueItems`: a list's modes, a unit's command."""
    if len(set(document.modes)) != len(document.modes):
        return True
    return any(len(set(u.command)) != len(u.command) for u in document.units)
