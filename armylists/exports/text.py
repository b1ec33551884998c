"""The list as text, one line per unit, the shape tournaments exchange; and that text read back.

    List: Sonnstahl combined arms
    Player: Example
    System: The 9th Age: Fantasy Battles v0.11.9.3
    Book: Empire of Sonnstahl 0.11.1
    Points limit: 2400 pts

    == Lords: 314 pts (13.1%) ==
    203 - Marshal, General, Shield, Horse, Giant Sword, Talisman of Greater Shielding
    111 - Prelate, Great Weapon, Horse

The unit line follows the entry style of the T9A FAQ (002:L1311-1313, `360 - Commander, BSB, Master
of Canreig Tower, Great Weapon, Dragonforged Armour`): points, then the size when more than one model,
the unit's name, its roles (General, BSB, Wizard level, Path: 000:L2025, L2036-2037, L263-264), its
options, mount, command group and items, all by the book's names. Reading it back maps every name to
its id through the same Book, so only the header's system, book, version and limit are needed to find
it; the points, totals and verdict are the engine's to recompute and are not read.

A list with allies names their book in the header (`Allies: Dwarfen Mountain Holds 2024.4`, its
composition in parentheses) and prints its allied units under the system's allies category (`== Allies:
...`); reading it back, the units under that heading are read as entries of the allies book. That
heading is the only one that is read.

A list built for matched-play rules (The Old World's modes) names them in the header, in the list's order
(`Matched play: Combined Arms, Grand Melee`); a list without that line is an Open War list.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Callable, Iterable, Union

from armylists.rules import Book, ListDocumentError, Report, Roster, RosterUnit, parse_roster
from armylists.rules.book import Entry, Item
from armylists.rules.errors import format_path
from armylists.rules.report import ERROR
from armylists.rules.roster import FORMAT

ItemRef = Union[Item, str]  # an id the book does not know stays a string, so an illegal list still prints
UNKNOWN = re.compile(r"^\?(entry|option|mount|item|path|composition|mode):(\S+)$")
COMMAND_NAMES = {"champion": "Champion", "musician": "Musician", "standard": "Standard Bearer"}
VETERAN_STANDARD = "Veteran Standard Bearer"
BSB = "BSB"
GENERAL = "General"
WIZARD = re.compile(r"^Level (\d+) Wizard$", re.IGNORECASE)
EXPERIENCE = re.compile(r"^(\d+) XP$", re.IGNORECASE)
MODEL = re.compile(r"^Model (\d+) \((.*)\)$", re.IGNORECASE)
NO_OPTIONS = "no options"
OPEN_WAR = "Open War"  # a list that chose no matched-play rules (no `modes`)


@dataclass(frozen=True)
class UnitWords:
    """One unit of a list in its book's words: what the text line and the printed roster show."""
    unit: RosterUnit
    entry: Entry | None
    name: str
    size: int | None  # printed only when it says something (more than one model, or not the default)
    roles: tuple[str, ...]
    options: tuple[str, ...]
    models: tuple[str, ...]  # "Model 2 (Crossbow)": options a unit's models take one by one (Mordheim)
    mount: str | None
    command: tuple[tuple[str, tuple[ItemRef, ...]], ...]  # ("Champion", its items)
    items: tuple[ItemRef, ...]


def unknown(kind: str, id_: str) -> str:
    """An id the book lacks, written so that reading it back keeps it (and the engine still reports it)."""
    return f"?{kind}:{id_}"


def item_name(item: ItemRef) -> str:
    return item.name if isinstance(item, Item) else unknown("item", item)


def path_names(book: Book) -> dict[str, str]:
    return {**book.system.paths, **book.paths}


def describe_unit(book: Book | None, unit: RosterUnit) -> UnitWords:
    """Name every part of `unit` as its book does; ids the book lacks (or all, without a book: an allied unit
    whose book is not loaded) are kept as they are."""
    entry = book.entries.get(unit.entry) if book is not None else None
    if entry is None:
        return UnitWords(unit, None, unknown("entry", unit.entry), unit.size, (),
                         tuple(_counted(unknown("option", o), n) for o, n in unit.options), (),
                         unknown("mount", unit.mount) if unit.mount else None, (), tuple(unit.items))
    options = dict(unit.options)
    roles = [GENERAL] if unit.general else []
    # The BSB upgrade and the Wizard level are written as roles, so the option that gives each is
    # printed once, as its role; taken more than once it is an ordinary (illegal) option again.
    bsb = next((o for o, n in unit.options if n == 1 and o in entry.options and entry.options[o].role == "bsb"), None)
    if bsb:
        roles.append(BSB)
        del options[bsb]
    level_option = max((o for o, n in unit.options if n == 1 and o in entry.options
                        and entry.options[o].wizard_level > entry.wizard_level),
                       key=lambda o: entry.options[o].wizard_level, default=None)
    if level_option:
        roles.append(f"Level {entry.options[level_option].wizard_level} Wizard")
        del options[level_option]
    elif entry.wizard_level:
        roles.append(f"Level {entry.wizard_level} Wizard")
    if unit.path:
        roles.append(path_names(book).get(unit.path) or unknown("path", unit.path))
    if unit.experience is not None:
        roles.append(f"{unit.experience} XP")

    def option_word(oid: str, count: int) -> str:
        return _counted(entry.options[oid].name if oid in entry.options else unknown("option", oid), count)

    mount = None
    if unit.mount:
        mount = book.mounts[unit.mount].name if unit.mount in book.mounts else unknown("mount", unit.mount)
    command = []
    for role in unit.command:
        if role == "standard":
            name = VETERAN_STANDARD if unit.veteran_standard else COMMAND_NAMES[role]
            command.append((name, _items(book, unit.standard_items)))
        elif role == "champion":
            command.append((COMMAND_NAMES[role], _items(book, unit.champion_items)))
        else:
            command.append((COMMAND_NAMES[role], ()))
    size = unit.size if unit.size is not None else entry.size_min
    shown = size if size > 1 or (unit.size is not None and unit.size != entry.size_min) else None
    models = tuple(f"Model {i} ({', '.join(option_word(o, n) for o, n in model) or NO_OPTIONS})"
                   for i, model in enumerate(unit.model_options, start=1))
    return UnitWords(unit, entry, entry.name, shown, tuple(roles),
                     tuple(option_word(o, n) for o, n in options.items()), models, mount, tuple(command),
                     _items(book, unit.items))


def _counted(name: str, count: int) -> str:
    return name if count == 1 else f"{count}x {name}"


def _items(book: Book, ids: tuple[str, ...]) -> tuple[ItemRef, ...]:
    return tuple(book.items.get(i, i) for i in ids)


def unit_text(words: UnitWords, show_item: Callable[[ItemRef], str] = item_name) -> str:
    """`2x Trophy, Horse, Champion (Test Blade), Giant Sword` after the name: the line without its points.

    `show_item` prints an item: its name, or on a hidden list its mundane type (000:L143-145).
    """
    head = f"{words.size} {words.name}" if words.size is not None else words.name
    if words.unit.label:
        head += f" [{words.unit.label}]"
    parts = [head, *words.roles, *words.options, *words.models]
    if words.mount:
        parts.append(words.mount)
    for name, items in words.command:
        parts.append(f"{name} ({', '.join(show_item(i) for i in items)})" if items else name)
    parts.extend(show_item(i) for i in words.items)
    return ", ".join(parts)


def export_text(book: Book, roster: Roster, report: Report, allies: Book | None = None) -> str:
    """The list as tournament text: header, units by category with their points, total and verdict.

    `allies` is the book of the list's allied units (catalogue.allies_book_for), which names them."""
    budget = report.budget_unit
    lines = _header(book, roster, budget, allies)
    points = {u.id: u for u in report.units}

    def words(unit: RosterUnit) -> str:
        return unit_text(describe_unit(allies if unit.allied else book, unit))

    for cat in report.categories:
        units = [u for u in roster.units if u.id in points and points[u.id].category == cat.id]
        if not units:
            continue
        lines += ["", f"== {cat.name}: {cat.points} {budget} ({cat.percent:.1f}%) =="]
        lines += [f"{points[u.id].points} - {words(u)}" for u in units]
    unpriced = [u for u in roster.units if u.id not in points and not u.allied]
    if unpriced:
        lines += ["", f"== Not in {book.name} {book.version} =="]
        lines += [f"? - {words(u)}" for u in unpriced]
    unpriced = [u for u in roster.units if u.id not in points and u.allied]
    if unpriced:
        lines += ["", f"== {_allies_heading(book)} not in {_allies_name(roster, allies, False)} =="]
        lines += [f"? - {words(u)}" for u in unpriced]
    left = report.points_left
    remains = f"{left} {budget} left" if left >= 0 else f"{-left} {budget} over"
    lines += ["", f"Total: {report.total_points} {budget} of {report.points_limit} ({remains})"]
    errors = len(report.errors)
    lines.append("LEGAL" if report.valid else f"NOT LEGAL ({errors} error{'s' if errors != 1 else ''})")
    lines += [f"{'x' if v.severity == ERROR else '!'} {v.code}: {v.message}" for v in report.violations]
    return "\n".join(lines) + "\n"


def _header(book: Book, roster: Roster, budget: str, allies: Book | None) -> list[str]:
    lines = []
    if roster.name:
        lines.append(f"List: {_one_line(roster.name)}")
    if roster.player:
        lines.append(f"Player: {_one_line(roster.player)}")
    if roster.team:
        lines.append(f"Team: {_one_line(roster.team)}")
    lines += [f"System: {book.system.name}", f"Book: {book.name} {book.version}"]
    if roster.composition:
        comp = book.compositions.get(roster.composition)
        lines.append(f"Composition: {comp.name if comp else unknown('composition', roster.composition)}")
    if roster.modes:
        lines.append(f"Matched play: {mode_names(book, roster.modes)}")
    if roster.allies:
        lines.append(f"Allies: {_allies_name(roster, allies, True)}")
    lines.append(f"Points limit: {roster.points_limit} {budget}")
    return lines


def mode_names(book: Book, modes: Iterable[str]) -> str:
    """`Combined Arms, Grand Melee`: the matched-play rules a list chose, by the system's names in the list's
    order (`?mode:id` for one the system lacks), or `Open War` for none."""
    known = book.system.modes
    return ", ".join(known[m].name if m in known else unknown("mode", m) for m in modes) or OPEN_WAR


def _allies_name(roster: Roster, allies: Book | None, composition: bool) -> str:
    """`Dwarfen Mountain Holds 2024.4`, and its composition in parentheses; ids for a book not loaded."""
    spec = roster.allies
    text = f"{allies.name if allies else spec.book} {spec.book_version}"
    if composition and spec.composition:
        comp = allies.compositions.get(spec.composition) if allies else None
        text += f" ({comp.name if comp else unknown('composition', spec.composition)})"
    return text


def _allies_heading(book: Book) -> str:
    """The name of the system's allies category, which heads the allied units."""
    rules = book.system.allies
    return book.system.category_names.get(rules.category, rules.category) if rules else "Allies"


def _one_line(text: str) -> str:
    return " ".join(text.split())


# -- reading it back ------------------------------------------------------------------------------

class ListTextError(ListDocumentError):
    """A list text that cannot be read; it names the line, and the closest name the book has."""

    def __init__(self, source: str, line: int, reason: str):
        super().__init__(source, ("line", line), reason)
        self.line = line
        self.args = (f"{source}: line {line}: {reason}",)

    def __str__(self) -> str:
        return self.args[0]


HEADER_FIELDS = ("List", "Player", "Team", "System", "Book", "Composition", "Matched play", "Allies", "Points limit")
UNIT_LINE = re.compile(r"^(\d+|\?)\s+-\s+(.+)$")
HEAD = re.compile(r"^(?:(\d+)\s+)?(.+?)(?:\s+\[(.+)\])?$")
COUNTED = re.compile(r"^(\d+)x\s+(.+)$")
BEARER = re.compile(r"^(Champion|Standard Bearer|Veteran Standard Bearer)\s*\((.*)\)$", re.IGNORECASE)


def parse_list_text(text: str, books: Iterable[Book], source: str = "list",
                    lookup: Callable[[str, str, str], Book | None] | None = None) -> Roster:
    """Read a list written by `export_text` back into a Roster, or raise `ListTextError`.

    `books` are the books whose names the header may use (every version); `lookup(system, book,
    version)` finds a version they lack (an older one kept in the database). Units get the ids u1,
    u2... in the order they are written, as a list document without ids would.
    """
    lines = text.splitlines()
    fields, body_start = _read_header(lines, source)
    book = _find_book(fields, list(books), lookup, source)
    doc: dict = {"format": FORMAT}
    for key, name in (("List", "name"), ("Player", "player"), ("Team", "team")):
        if key in fields:
            doc[name] = fields[key][1]
    doc.update(system=book.system.id, book=book.id, book_version=book.version)
    if "Composition" in fields:
        number, name = fields["Composition"]
        by_name = {c.name.casefold(): c.id for c in book.compositions.values()}
        by_name.update({c.id: c.id for c in book.compositions.values()})
        if _marked(name, "composition"):
            by_name[name.casefold()] = _marked(name, "composition")
        if name.casefold() not in by_name:
            raise ListTextError(source, number, _unknown(f"composition \"{name}\"", f"{book.name} {book.version}", name,
                                                         [c.name for c in book.compositions.values()]))
        doc["composition"] = by_name[name.casefold()]
    if "Matched play" in fields:
        modes = _read_modes(fields["Matched play"], book, source)
        if modes:
            doc["modes"] = modes
    number, limit = fields["Points limit"]
    found = re.fullmatch(r"(\d+)(?:\s+\S+)?", limit)
    if not found:
        raise ListTextError(source, number, f"the points limit \"{limit}\" is not a number of points")
    doc["points_limit"] = int(found.group(1))
    allies, allies_heading = None, None
    if "Allies" in fields:
        allies, doc["allies"] = _read_allies(fields["Allies"], book, list(books), lookup, source)
        allies_heading = _allies_heading(book).casefold()

    units, unit_lines = [], []
    allied = False  # in the allied units' section
    for number, line in enumerate(lines[body_start:], start=body_start + 1):
        line = line.strip()
        if line.startswith("=="):
            heading = line.strip("= ").casefold()
            allied = allies_heading is not None and (heading.startswith(allies_heading + ":")
                                                     or heading.startswith(allies_heading + " not in "))
            continue
        if not line:
            continue
        if line.startswith("Total:"):
            break  # the total, verdict and violations are the engine's; nothing below is read
        found = UNIT_LINE.match(line)
        if not found:
            raise ListTextError(source, number, f"expected a unit as \"<points> - <unit>, <options>...\", not \"{line}\"")
        if allied:
            units.append({"id": f"u{len(units) + 1}", "allied": True,
                          **_read_unit(found.group(2), allies, source, number)})
        else:
            units.append({"id": f"u{len(units) + 1}", **_read_unit(found.group(2), book, source, number)})
        unit_lines.append(number)
    doc["units"] = units
    try:
        return parse_roster(doc, source)
    except ListDocumentError as exc:
        # The document's own checks (sizes, counts) name a unit by index; say which line it was.
        if len(exc.path) >= 2 and exc.path[0] == "units" and isinstance(exc.path[1], int):
            raise ListTextError(source, unit_lines[exc.path[1]], f"{format_path(exc.path[2:])}: {exc.reason}") from None
        raise


def _read_header(lines: list[str], source: str) -> tuple[dict[str, tuple[int, str]], int]:
    """`Key: value` lines up to the first blank line: {key: (line number, value)}, and where the units begin."""
    fields: dict[str, tuple[int, str]] = {}
    known = {f.casefold(): f for f in HEADER_FIELDS}
    index = 0
    while index < len(lines) and not lines[index].strip():
        index += 1
    while index < len(lines) and lines[index].strip():
        line, number = lines[index].strip(), index + 1
        key, sep, value = line.partition(":")
        if not sep or key.strip().casefold() not in known:
            raise ListTextError(source, number, f"expected a header line \"<field>: <value>\" with a field among "
                                                f"{', '.join(HEADER_FIELDS)}, not \"{line}\"")
        fields[known[key.strip().casefold()]] = (number, value.strip())
        index += 1
    for required in ("System", "Book", "Points limit"):
        if required not in fields:
            raise ListTextError(source, index + 1 if index < len(lines) else max(index, 1),
                                f"the header has no \"{required}:\" line; it needs System, Book and Points limit")
    return fields, index


def _find_book(fields: dict[str, tuple[int, str]], books: list[Book],
               lookup: Callable[[str, str, str], Book | None] | None, source: str) -> Book:
    number, system_name = fields["System"]
    systems = {b.system.id: b.system for b in books}
    system = next((s for s in systems.values() if system_name.casefold() in (s.name.casefold(), s.id)), None)
    if system is None:
        raise ListTextError(source, number, _unknown(f"game system \"{system_name}\"", None, system_name,
                                                     sorted(s.name for s in systems.values())))
    number, written = fields["Book"]
    return _book_named(written, number, system, "Book", books, lookup, source)


def _read_modes(field: tuple[int, str], book: Book, source: str) -> list[str]:
    """The `Matched play: <mode>, <mode>` line: the system's modes by name or id (`Open War` for none)."""
    number, written = field
    system = book.system
    if written.casefold() in ("", OPEN_WAR.casefold()):
        return []
    by_name = {m.name.casefold(): m.id for m in system.modes.values()}
    by_name.update({m.id: m.id for m in system.modes.values()})
    modes: list[str] = []
    for name in _split(written):
        mode = by_name.get(name.casefold()) or _marked(name, "mode")
        if mode is None:
            if not system.modes:
                raise ListTextError(source, number, f"{system.name} has no matched-play rules; "
                                                    f"leave out the \"Matched play:\" line")
            names = [m.name for m in system.modes.values()]
            raise ListTextError(source, number, f"no matched-play rules \"{name}\" in {system.name} (known: "
                                                f"{', '.join(names)}, or {OPEN_WAR} for none)" + _suggestion(name, names))
        if mode in modes:
            raise ListTextError(source, number, f"the matched-play rules \"{name}\" are named twice")
        modes.append(mode)
    return modes


def _read_allies(field: tuple[int, str], book: Book, books: list[Book],
                 lookup: Callable[[str, str, str], Book | None] | None, source: str) -> tuple[Book, dict]:
    """The `Allies: <book> <version> (<composition>)` line: the allies book and the document's `allies`."""
    number, written = field
    if book.system.allies is None:
        raise ListTextError(source, number, f"{book.system.name} lists take no allies")
    composition = None
    found = re.fullmatch(r"(.+?)\s*\((.+)\)", written)
    if found:
        written, composition = found.group(1), found.group(2)
    allies = _book_named(written, number, book.system, "Allies", books, lookup, source)
    doc = {"book": allies.id, "book_version": allies.version}
    if composition is not None:
        by_name = {c.name.casefold(): c.id for c in allies.compositions.values()}
        by_name.update({c.id: c.id for c in allies.compositions.values()})
        chosen = by_name.get(composition.casefold()) or _marked(composition, "composition")
        if chosen is None:
            raise ListTextError(source, number, _unknown(f"composition \"{composition}\"",
                                                         f"{allies.name} {allies.version}", composition,
                                                         [c.name for c in allies.compositions.values()]))
        doc["composition"] = chosen
    return allies, doc


def _book_named(written: str, number: int, system, field: str, books: list[Book],
                lookup: Callable[[str, str, str], Book | None] | None, source: str) -> Book:
    """The book a header line names as `<name> <version>`, among `books` of `system` or by `lookup`."""
    name, _, version = written.rpartition(" ")
    if not name:
        raise ListTextError(source, number, f"write the book as its name and version, as in \"{field}: "
                                            f"{next((b.name + ' ' + b.version for b in books), 'Name 1.0')}\"")
    ours = [b for b in books if b.system.id == system.id]
    same = [b for b in ours if name.casefold() in (b.name.casefold(), b.id)]
    if not same:
        raise ListTextError(source, number, _unknown(f"book \"{name}\"", system.name, name, sorted({b.name for b in ours})))
    found = next((b for b in same if b.version == version), None)
    if found is None and lookup is not None:
        found = lookup(system.id, same[0].id, version)
    if found is None:
        raise ListTextError(source, number, f"{same[0].name} version \"{version}\" is not loaded; available: "
                                            f"{', '.join(sorted(b.version for b in same))}")
    return found


def _unknown(what: str, where: str | None, name: str, choices: Iterable[str]) -> str:
    message = f"no {what}" + (f" in {where}" if where else "")
    return message + _suggestion(name, choices)


def _suggestion(name: str, choices: Iterable[str]) -> str:
    by_fold = {c.casefold(): c for c in choices}
    close = difflib.get_close_matches(name.casefold(), list(by_fold), n=1)
    return f"; did you mean \"{by_fold[close[0]]}\"?" if close else ""


def _split(text: str) -> list[str]:
    """Split at the commas outside parentheses: `Horse (barded)` and `Champion (A, B)` stay whole."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in "([":
            depth += 1
        elif char in ")]" and depth:
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def _read_unit(text: str, book: Book, source: str, number: int) -> dict:
    where = f"{book.name} {book.version}"
    head, *tokens = _split(text)
    sized = HEAD.match(head)
    size, name, label = sized.group(1), sized.group(2), sized.group(3)
    marked = UNKNOWN.match(name)
    if marked and marked.group(1) == "entry":
        # An entry the book lacks: keep the unit as written, so the engine still reports it.
        return _read_unknown_entry(marked.group(2), size, label, tokens, source, number)
    entry = _by_name(book.entries.values(), name)
    if entry is None:
        raise ListTextError(source, number, _unknown(f"unit \"{name}\"", where, name, (e.name for e in book.entries.values())))
    unit: dict = {"entry": entry.id}
    if size is not None:
        unit["size"] = int(size)
    options: dict[str, int] = {}
    models: list[dict[str, int]] = []
    command: list[str] = []
    items: list[str] = []
    reader = _TokenReader(book, entry)
    for token in tokens:
        kind, value = reader.read(token)
        if kind is None:
            raise ListTextError(source, number, f"\"{token}\" is not an option, mount, command or item {entry.name} "
                                                f"can take in {where}" + _suggestion(token, reader.names()))
        if kind == "general":
            unit["general"] = True
        elif kind == "path":
            if "path" in unit:
                raise ListTextError(source, number, f"{entry.name} has two Paths; a Wizard uses one")
            unit["path"] = value
        elif kind == "option":
            oid, count = value
            options[oid] = options.get(oid, 0) + count
        elif kind == "experience":
            unit["experience"] = value
        elif kind == "model":
            position, chosen = value
            if position != len(models) + 1:
                raise ListTextError(source, number, f"Model {position} follows Model {len(models)}; "
                                                    f"number a unit's models 1, 2, 3... in order")
            models.append(chosen)
        elif kind == "mount":
            if "mount" in unit:
                raise ListTextError(source, number, f"{entry.name} has two mounts; it may ride one")
            unit["mount"] = value
        elif kind == "command":
            role, veteran, carried = value
            if role in command:
                raise ListTextError(source, number, f"{entry.name} has two {COMMAND_NAMES[role]}s")
            command.append(role)
            if veteran:
                unit["veteran_standard"] = True
            if carried:
                unit["champion_items" if role == "champion" else "standard_items"] = carried
        elif kind == "item":
            items.append(value)
        elif kind == "error":
            raise ListTextError(source, number, value)
        # and "level": the entry's own Wizard level, which the document does not record
    if options:
        unit["options"] = options
    if models:
        unit["model_options"] = models
    if command:
        unit["command"] = command
    if items:
        unit["items"] = items
    if label:
        unit["label"] = label
    return unit


def _read_unknown_entry(entry: str, size: str | None, label: str | None, tokens: list[str], source: str,
                        number: int) -> dict:
    unit: dict = {"entry": entry}
    if size is not None:
        unit["size"] = int(size)
    for token in tokens:
        counted = COUNTED.match(token)
        count, token = (int(counted.group(1)), counted.group(2)) if counted else (1, token)
        marked = UNKNOWN.match(token)
        if not marked or marked.group(1) not in ("option", "mount", "item"):
            raise ListTextError(source, number, f"\"{token}\": a unit whose entry the book lacks can only list "
                                                f"?option:, ?mount: and ?item: ids")
        kind, id_ = marked.groups()
        if kind == "option":
            unit.setdefault("options", {})[id_] = count
        elif kind == "mount":
            unit["mount"] = id_
        else:
            unit.setdefault("items", []).append(id_)
    if label:
        unit["label"] = label
    return unit


def _by_name(things, name: str):
    folded = name.casefold()
    return next((t for t in things if t.name.casefold() == folded), None)


class _TokenReader:
    """Tells what each part of a unit line is, by name, in the order they are written.

    The parts come in a fixed order (roles, options, models, mount, command, items); a name two kinds share
    is read as the one that comes next in that order, so `Shield` after the mount is an item if the
    book has one by that name. Any order is accepted otherwise.
    """
    KINDS = ("role", "option", "model", "mount", "command", "item")

    def __init__(self, book: Book, entry: Entry):
        self.book, self.entry = book, entry
        self.at = 0
        self.paths = {n.casefold(): pid for pid, n in path_names(book).items()}
        self.options = {o.name.casefold(): o.id for o in entry.options.values()}
        self.mounts = {m.name.casefold(): m.id for m in book.mounts.values()}
        self.items = {i.name.casefold(): i.id for i in book.items.values()}

    def names(self) -> list[str]:
        entry, book = self.entry, self.book
        return [GENERAL, *path_names(book).values(), *(o.name for o in entry.options.values()),
                *(m.mount.name for m in entry.mounts.values()), *COMMAND_NAMES.values(), VETERAN_STANDARD,
                *(i.name for i in book.items.values())]

    def read(self, token: str) -> tuple[str | None, object]:
        order = list(range(self.at, len(self.KINDS))) + list(range(self.at))
        for k in order:
            found = getattr(self, "_" + self.KINDS[k])(token)
            if found is not None:
                self.at = k
                return found
        return None, None

    def _role(self, token: str):
        folded = token.casefold()
        if folded == GENERAL.casefold():
            return "general", True
        if folded == BSB.casefold():
            bsb = next((o.id for o in self.entry.options.values() if o.role == "bsb"), None)
            return ("option", (bsb, 1)) if bsb else \
                ("error", f"{self.entry.name} cannot be the BSB in {self.book.name} {self.book.version}")
        level = WIZARD.match(token)
        if level:
            wanted = int(level.group(1))
            if wanted == self.entry.wizard_level:
                return "level", wanted  # the entry's own level: nothing to choose
            option = next((o.id for o in self.entry.options.values() if o.wizard_level == wanted), None)
            if option:
                return "option", (option, 1)
            levels = sorted({self.entry.wizard_level} - {0} | {o.wizard_level for o in self.entry.options.values()} - {0})
            return "error", (f"{self.entry.name} cannot be a Level {wanted} Wizard in {self.book.name} "
                                f"{self.book.version}" + (f"; its levels: {', '.join(map(str, levels))}" if levels
                                                          else "; it is not a Wizard"))
        experience = EXPERIENCE.match(token)
        if experience:
            return "experience", int(experience.group(1))
        pid = self.paths.get(folded) or _marked(token, "path")
        return ("path", pid) if pid else None

    def _option(self, token: str):
        counted = COUNTED.match(token)
        count, name = (int(counted.group(1)), counted.group(2)) if counted else (1, token)
        oid = self.options.get(name.casefold()) or _marked(name, "option")
        return ("option", (oid, count)) if oid else None

    def _model(self, token: str):
        found = MODEL.match(token)
        if not found:
            return None
        chosen: dict[str, int] = {}
        inner = found.group(2).strip()
        for part in ([] if inner.casefold() == NO_OPTIONS else _split(inner)):
            option = self._option(part)
            if option is None:
                return "error", (f"\"{part}\" is not an option of {self.entry.name} in {self.book.name} "
                                 f"{self.book.version}" + _suggestion(part, (o.name for o in self.entry.options.values())))
            oid, count = option[1]
            chosen[oid] = chosen.get(oid, 0) + count
        return "model", (int(found.group(1)), chosen)

    def _mount(self, token: str):
        mid = self.mounts.get(token.casefold()) or _marked(token, "mount")
        return ("mount", mid) if mid else None

    def _command(self, token: str):
        bearer = BEARER.match(token)
        name, carried = (bearer.group(1), _split(bearer.group(2))) if bearer else (token, [])
        folded = name.casefold()
        if folded == VETERAN_STANDARD.casefold():
            role, veteran = "standard", True
        else:
            role = next((r for r, n in COMMAND_NAMES.items() if n.casefold() == folded), None)
            veteran = False
            if role is None:
                return None
        ids = []
        for item in carried:
            iid = self.items.get(item.casefold()) or _marked(item, "item")
            if iid is None:
                return "error", (f"no item \"{item}\" in {self.book.name} {self.book.version}"
                                    + _suggestion(item, (i.name for i in self.book.items.values())))
            ids.append(iid)
        return "command", (role, veteran, ids)

    def _item(self, token: str):
        iid = self.items.get(token.casefold()) or _marked(token, "item")
        return ("item", iid) if iid else None


def _marked(token: str, kind: str) -> str | None:
    """The id in `?kind:id`, the form an id the book lacks is exported in."""
    found = UNKNOWN.match(token)
    return found.group(2) if found and found.group(1) == kind else None
