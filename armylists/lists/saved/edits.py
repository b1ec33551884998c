"""The builder's edits as pure functions: a Roster (and its Book) in, a new Roster out.

Each function makes one change a player asks for (add a unit, set its size, choose its options...)
and nothing else: whether the result is legal is the engine's question, asked afterwards. They refuse
only what the list document itself cannot hold (an unknown unit id, an option its entry does not have,
a 201st unit), with an `EditError` whose message is shown next to the form field; an illegal choice
(a size below the entry's minimum, a second Battle Standard) is made, and the Report says so.

Fields the editor does not show (notes, a Mordheim warband's experience, per-model options) are kept
as they are: every function copies the unit with `msgspec.structs.replace` (the list with `dataclasses.replace`).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Mapping

from msgspec.structs import replace as replace_unit

from armylists.rules import Book, Roster, RosterUnit
from armylists.rules.reading.roster import Allies

MAX_UNITS = 200  # the list document's limit (list.schema.json)
MAX_SIZE = 10000
MAX_LIMIT = 100000
MAX_NAME = 200
MAX_LABEL = 100
UNIT_ID_LENGTH = 40
COMMAND_PARTS = ("champion", "musician", "standard")
BEARERS = ("model", "champion", "standard")
BEARER_FIELDS = {"model": "items", "champion": "champion_items", "standard": "standard_items"}


class EditError(ValueError):
    """An edit the list document cannot hold; `field` names the form field it is about."""

    def __init__(self, message: str, field: str = "__all__"):
        super().__init__(message)
        self.message = message
        self.field = field


# --- finding things ---------------------------------------------------------------------------

def unit_index(roster: Roster, unit_id: str) -> int:
    for i, unit in enumerate(roster.units):
        if unit.id == unit_id:
            return i
    raise EditError(f"This list has no unit {unit_id!r}; it may have been removed in another window.", "unit")


def get_unit(roster: Roster, unit_id: str) -> RosterUnit:
    return roster.units[unit_index(roster, unit_id)]


def _with_unit(roster: Roster, index: int, unit: RosterUnit) -> Roster:
    units = list(roster.units)
    units[index] = unit
    return replace(roster, units=tuple(units))


def _change(roster: Roster, unit_id: str, **fields) -> Roster:
    index = unit_index(roster, unit_id)
    return _with_unit(roster, index, replace_unit(roster.units[index], **fields))


def new_unit_id(roster: Roster, entry_id: str) -> str:
    """A readable id that is free in the list: the entry's id, then `<entry>-2`, `<entry>-3`..."""
    taken = {u.id for u in roster.units}
    stem = entry_id[:UNIT_ID_LENGTH - 4].strip("-") or "u"
    if stem not in taken:
        return stem
    n = 2
    while f"{stem}-{n}" in taken:
        n += 1
    return f"{stem}-{n}"


# --- the list -----------------------------------------------------------------------------------

def start_roster(book: Book, name: str, points_limit: int, composition: str | None = None) -> Roster:
    """An empty list pinned to `book`."""
    check_limit(points_limit)
    return Roster(system=book.system.id, book=book.id, book_version=book.version, points_limit=points_limit,
                  name=check_name(name), composition=composition or None)


def set_list_settings(book: Book, roster: Roster, name: str, points_limit: int,
                      composition: str | None = None) -> Roster:
    check_limit(points_limit)
    if composition and composition not in book.compositions:
        raise EditError(f"{book.name} has no composition {composition!r}.", "composition")
    return replace(roster, name=check_name(name), points_limit=points_limit, composition=composition or None)


def set_modes(book: Book, roster: Roster, modes: Iterable[str]) -> Roster:
    """The matched-play rule sets the list is built for (The Old World's Grand Melee, Combined Arms, Battle
    March; none is Open War), in the system's order."""
    chosen = set(modes)
    unknown = sorted(chosen - set(book.system.modes))
    if unknown:
        raise EditError(f"{book.system.name} has no matched-play rules {', '.join(map(repr, unknown))}.", "modes")
    return replace(roster, modes=tuple(m for m in book.system.modes if m in chosen))


def set_allies(book: Book, roster: Roster, allies: Book | None, composition: str | None = None) -> tuple[Roster, int]:
    """Take an allied contingent from `allies` (None: no allies); return the list and how many allied units
    were removed. Without allies, or with another allies book, the allied units go (their entries are not
    the new book's); with the same book in another version or composition they stay.

    Whether `book` may ally with `allies` is the engine's question (`allies.not_allowed`); the editor offers
    only the books the system allows."""
    if allies is None:
        spec = None
    else:
        if book.system.allies is None:
            raise EditError(f"{book.system.name} lists take no allied contingents.", "allies")
        if allies.system.id != book.system.id:
            raise EditError(f"{allies.name} is not a book of {book.system.name}.", "allies")
        if composition and composition not in allies.compositions:
            raise EditError(f"{allies.name} has no composition {composition!r}.", "allies")
        spec = Allies(allies.id, allies.version, composition or None)
    keep = spec is not None and roster.allies is not None and roster.allies.book == spec.book
    units = roster.units if keep else tuple(u for u in roster.units if not u.allied)
    return replace(roster, allies=spec, units=units), len(roster.units) - len(units)


def rename(roster: Roster, name: str) -> Roster:
    return replace(roster, name=check_name(name))


def set_player(roster: Roster, player: str, team: str) -> Roster:
    """Who plays the list and their team (optional), printed on the roster."""
    player, team = " ".join(player.split()), " ".join(team.split())
    if len(player) > MAX_NAME or len(team) > MAX_NAME:
        raise EditError(f"A player's or team's name may be at most {MAX_NAME} characters.", "player")
    return replace(roster, player=player, team=team)


def check_name(name: str) -> str:
    name = name.strip()
    if not name:
        raise EditError("Give the list a name.", "name")
    if len(name) > MAX_NAME:
        raise EditError(f"A name may be at most {MAX_NAME} characters.", "name")
    return name


def check_limit(points_limit: int) -> None:
    if not 1 <= points_limit <= MAX_LIMIT:
        raise EditError(f"The limit must be between 1 and {MAX_LIMIT}.", "points_limit")


# --- units --------------------------------------------------------------------------------------

def add_unit(book: Book, roster: Roster, entry_id: str, allied: bool = False) -> tuple[Roster, str]:
    """Append a unit of `entry_id` at its smallest size, its compulsory choices made; return it and its id.
    With `allied`, `book` is the list's allies book and the unit is one of its allied contingent.

    A one-of group the entry must choose from (an artillery piece's weapon) starts on its first
    choice, and a character that must ride starts on its first mount, so a new unit is complete.
    """
    entry = book.entries.get(entry_id)
    if entry is None:
        raise EditError(f"{book.name} {book.version} has no entry {entry_id!r}.", "entry")
    if allied and (roster.allies is None or (roster.allies.book, roster.allies.book_version) != (book.id, book.version)):
        raise EditError(f"This list takes no allies from {book.name}; choose its allies in the list's settings.",
                        "entry")
    if len(roster.units) >= MAX_UNITS:
        raise EditError(f"A list may have at most {MAX_UNITS} units.", "entry")
    options: dict[str, int] = {}
    for group in entry.option_minimums:
        members = [o for o in entry.options.values() if o.group == group.id]
        for option in members[:group.min]:
            options[option.id] = 1
    mount = next(iter(entry.mounts)) if entry.mount_required and entry.mounts else None
    unit_id = new_unit_id(roster, entry.id)
    size = entry.size_min if entry.size_max != entry.size_min else None
    unit = RosterUnit(id=unit_id, entry=entry.id, size=size, options=tuple(options.items()), mount=mount,
                      allied=allied)
    roster = replace(roster, units=roster.units + (unit,))
    if not allied:
        roster = default_general(book, roster, unit_id)
    return roster, unit_id


def default_general(book: Book, roster: Roster, only: str | None = None) -> Roster:
    """A list without a General whose one character may lead it has that character as its General, so
    the player need not tick it (with `only`, when that unit is the one)."""
    if any(u.general for u in roster.units):
        return roster
    eligible = [u.id for u in roster.units if _may_be_general(book, roster, u)]
    if len(eligible) == 1 and only in (None, eligible[0]):
        return set_general(roster, eligible[0], True, book)
    return roster


def _may_be_general(book: Book, roster: Roster, unit: RosterUnit) -> bool:
    """A character of the list's own army whose tags the system's General rule does not rule out (a Loner)."""
    entry = book.entries.get(unit.entry)
    if unit.allied or entry is None or not entry.character_in.get(roster.composition or "", entry.character):
        return False
    ruled_out: set[str] = set()
    for rule in book.rules_for(roster.composition):
        if rule.type == "general":
            ruled_out.update(rule.params.get("ineligible_tags", ()))
    tags = entry.tags | entry.composition_tags.get(roster.composition or "", frozenset())
    return not (tags & ruled_out)


def remove_unit(roster: Roster, unit_id: str) -> Roster:
    index = unit_index(roster, unit_id)
    return replace(roster, units=roster.units[:index] + roster.units[index + 1:])


def duplicate_unit(roster: Roster, unit_id: str) -> tuple[Roster, str]:
    """A copy of the unit just after it, with a new id; the copy is not the General (there is one)."""
    index = unit_index(roster, unit_id)
    if len(roster.units) >= MAX_UNITS:
        raise EditError(f"A list may have at most {MAX_UNITS} units.", "unit")
    original = roster.units[index]
    copy_id = new_unit_id(roster, original.entry)
    copy = replace_unit(original, id=copy_id, general=False)
    units = roster.units[:index + 1] + (copy,) + roster.units[index + 1:]
    return replace(roster, units=units), copy_id


def move_unit(roster: Roster, unit_id: str, step: int, same_as: Mapping[str, str] | None = None) -> Roster:
    """Move a unit up (step -1) or down (+1) past the next unit; with `same_as` (unit id -> category),
    past the next unit of its own category, since the editor shows the list by category.
    At either end nothing changes."""
    if step not in (-1, 1):
        raise EditError("A unit moves one place up or down.", "direction")
    index = unit_index(roster, unit_id)
    units = list(roster.units)
    target = index + step
    if same_as is not None:
        while 0 <= target < len(units) and same_as.get(units[target].id) != same_as.get(unit_id):
            target += step
    if not 0 <= target < len(units):
        return roster
    units[index], units[target] = units[target], units[index]
    return replace(roster, units=tuple(units))


def set_size(roster: Roster, unit_id: str, size: int) -> Roster:
    if not 1 <= size <= MAX_SIZE:
        raise EditError(f"A unit has 1 to {MAX_SIZE} models.", "size")
    return _change(roster, unit_id, size=size)


def set_label(roster: Roster, unit_id: str, label: str) -> Roster:
    label = label.strip()
    if len(label) > MAX_LABEL:
        raise EditError(f"A label may be at most {MAX_LABEL} characters.", "label")
    return _change(roster, unit_id, label=label)


def set_options(book: Book, roster: Roster, unit_id: str, chosen: Mapping[str, int]) -> Roster:
    """Replace the unit's options from its book with `chosen` (id -> times; 0 or absent: not taken).

    Options the book does not know (from an imported list) are kept, so the Report keeps naming them.
    """
    unit = get_unit(roster, unit_id)
    entry = book.entries.get(unit.entry)
    known = entry.options if entry else {}
    for oid, count in chosen.items():
        if oid not in known:
            raise EditError(f"{entry.name if entry else unit.entry} has no option {oid!r}.", f"option-{oid}")
        if not 0 <= count <= MAX_SIZE:
            raise EditError(f"Take an option 0 to {MAX_SIZE} times.", f"option-{oid}")
    kept = [(oid, n) for oid, n in unit.options if oid not in known]
    # The book's order, so the document reads the way the entry does.
    taken = [(oid, chosen[oid]) for oid in known if chosen.get(oid, 0) > 0]
    roster = _change(roster, unit_id, options=tuple(taken + kept))
    general = _general_option(book, unit)
    if general is not None and (chosen.get(general, 0) > 0) != unit.general:  # the option is the General
        roster = set_general(roster, unit_id, chosen.get(general, 0) > 0, book)
    return roster


def set_mount(book: Book, roster: Roster, unit_id: str, mount: str | None) -> Roster:
    unit = get_unit(roster, unit_id)
    entry = book.entries.get(unit.entry)
    if mount and (entry is None or mount not in entry.mounts):
        raise EditError(f"{entry.name if entry else unit.entry} has no mount {mount!r}.", "mount")
    return _change(roster, unit_id, mount=mount or None)


def set_command(roster: Roster, unit_id: str, parts: Iterable[str], veteran_standard: bool = False) -> Roster:
    parts = set(parts)
    unknown = parts.difference(COMMAND_PARTS)
    if unknown:
        raise EditError(f"A command group is a champion, a musician and a standard, not {sorted(unknown)[0]!r}.",
                        "command")
    command = tuple(p for p in COMMAND_PARTS if p in parts)
    unit = get_unit(roster, unit_id)
    # Items carried by a part no longer taken go with it; a veteran needs a standard.
    fields: dict = {"command": command, "veteran_standard": bool(veteran_standard and "standard" in parts)}
    if "champion" not in parts and unit.champion_items:
        fields["champion_items"] = ()
    if "standard" not in parts and unit.standard_items:
        fields["standard_items"] = ()
    return _change(roster, unit_id, **fields)


def set_general(roster: Roster, unit_id: str, general: bool, book: Book | None = None) -> Roster:
    """Make the unit the General (and no other unit: there is one General) or not. With the book, a unit
    whose General is an option (`role: general`) takes or drops that option with the mark."""
    index = unit_index(roster, unit_id)
    units = []
    for i, unit in enumerate(roster.units):
        wanted = general if i == index else (unit.general and not general)
        if unit.general != wanted:
            unit = replace_unit(unit, general=wanted)
        option = _general_option(book, unit) if book is not None else None
        if option is not None and (dict(unit.options).get(option, 0) > 0) != wanted:
            # Taken, it replaces the other choice of its group of at most one (a Thane's Leadership).
            entry = book.entries[unit.entry]
            group = entry.options[option].group
            rivals = {o.id for o in entry.options.values() if o.group == group and o.id != option} \
                if wanted and group and entry.groups[group].max == 1 else set()
            unit = replace_unit(unit, options=tuple((o, n) for o, n in unit.options if o != option and o not in rivals)
                                + (((option, 1),) if wanted else ()))
        units.append(unit)
    return replace(roster, units=tuple(units))


def _general_option(book: Book, unit: RosterUnit) -> str | None:
    """The option that makes the unit's model the General, where its book has one (New Recruit's T9A data:
    it may cost points, so the mark and the option go together)."""
    entry = book.entries.get(unit.entry)
    return next((o.id for o in entry.options.values() if o.role == "general"), None) if entry else None


def set_path(book: Book, roster: Roster, unit_id: str, path: str | None) -> Roster:
    known = {**book.system.paths, **book.paths}
    if path and path not in known:
        raise EditError(f"{book.name} has no Path {path!r}.", "path")
    return _change(roster, unit_id, path=path or None)


# --- items --------------------------------------------------------------------------------------

def add_item(book: Book, roster: Roster, unit_id: str, bearer: str, item_id: str) -> Roster:
    """Give an item to the unit's model, champion or standard bearer (whether it may take it is the
    engine's to say; the editor offers only those it may)."""
    field = _bearer_field(bearer)
    if item_id not in book.items:
        raise EditError(f"{book.name} {book.version} has no item {item_id!r}.", "item")
    unit = get_unit(roster, unit_id)
    carried = getattr(unit, field)
    if len(carried) >= 50:
        raise EditError("A model may carry at most 50 items.", "item")
    return _change(roster, unit_id, **{field: carried + (item_id,)})


def remove_item(roster: Roster, unit_id: str, bearer: str, item_id: str) -> Roster:
    field = _bearer_field(bearer)
    unit = get_unit(roster, unit_id)
    carried = list(getattr(unit, field))
    if item_id not in carried:
        raise EditError(f"That model does not carry {item_id!r}; it may have been removed in another window.",
                        "item")
    carried.remove(item_id)
    return _change(roster, unit_id, **{field: tuple(carried)})


def _bearer_field(bearer: str) -> str:
    try:
        return BEARER_FIELDS[bearer]
    except KeyError:
        raise EditError(f"Items go to the model, its champion or its standard bearer, not {bearer!r}.",
                        "bearer") from None


# --- the unit form: several of the above at once ---------------------------------------------------

def update_unit(book: Book, roster: Roster, unit_id: str, changes: Mapping[str, object]) -> Roster:
    """Apply the unit form's fields, each only when present: `size`, `options`, `mount`, `command`
    (with `veteran_standard`), `general`, `path`, `label`. One submission is one edit."""
    if "size" in changes and changes["size"] is not None:
        roster = set_size(roster, unit_id, changes["size"])  # type: ignore[arg-type]
    if "options" in changes:
        roster = set_options(book, roster, unit_id, changes["options"])  # type: ignore[arg-type]
    if "mount" in changes:
        roster = set_mount(book, roster, unit_id, changes["mount"])  # type: ignore[arg-type]
    if "command" in changes:
        roster = set_command(roster, unit_id, changes["command"],  # type: ignore[arg-type]
                             bool(changes.get("veteran_standard")))
    if "general" in changes:
        unit = get_unit(roster, unit_id)
        if unit.general != bool(changes["general"]):
            roster = set_general(roster, unit_id, bool(changes["general"]), book)
    if "path" in changes:
        roster = set_path(book, roster, unit_id, changes["path"])  # type: ignore[arg-type]
    if "label" in changes:
        roster = set_label(roster, unit_id, changes["label"] or "")  # type: ignore[arg-type]
    return roster
