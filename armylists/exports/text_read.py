"""Tournament text read back into a list document (the format is described in text.py): every name is
mapped to its id through the same Book; errors name the line and suggest the closest name."""
from __future__ import annotations

import difflib
import re
from typing import Callable, Iterable

from armylists.rules import Book, ListDocumentError, Roster, parse_roster
from armylists.rules.native.book import Entry
from armylists.rules.errors import format_path
from armylists.rules.reading.roster import FORMAT

from armylists.exports.text import (
    BSB, COMMAND_NAMES, EXPERIENCE, GENERAL, MODEL, NO_OPTIONS, OPEN_WAR, UNKNOWN, VETERAN_STANDARD, WIZARD,
    allies_heading, path_names,
)
from armylists.exports.text_tree import read_tree_units, reads_trees


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

    `books` are the books whose names the header may use (every version): built Books, or listings of
    them that are not built (lists/library/names.py `Shelved`: a system with `id` and `name`, and the book's
    `id`, `name` and `version`), of which only the one the header names is built, by `lookup(system, book,
    version)`; `lookup` also finds a version they lack (an older one kept in the database). Units get the
    ids u1, u2... in the order they are written, as a list document without ids would.
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
    if reads_trees(book):  # a roster tree's units are its data's selections, by name (text_tree.py)
        return read_tree_units(book, doc, _unit_lines(lines, body_start, source), split_outside_brackets,
                               lambda line, reason: ListTextError(source, line, reason))
    allies, allied_heading = None, None
    if "Allies" in fields:
        allies, doc["allies"] = _read_allies(fields["Allies"], book, list(books), lookup, source)
        allied_heading = allies_heading(book).casefold()

    units, unit_lines = [], []
    allied = False  # in the allied units' section
    for number, line in enumerate(lines[body_start:], start=body_start + 1):
        line = line.strip()
        if line.startswith("=="):
            heading = line.strip("= ").casefold()
            allied = allied_heading is not None and (heading.startswith(allied_heading + ":")
                                                     or heading.startswith(allied_heading + " not in "))
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


def _unit_lines(lines: list[str], start: int, source: str) -> list[tuple[int, str]]:
    """(line number, what follows `<points> - `) of every unit line up to the total; headings are passed over."""
    found_lines = []
    for number, line in enumerate(lines[start:], start=start + 1):
        line = line.strip()
        if not line or line.startswith("=="):
            continue
        if line.startswith("Total:"):
            break
        found = UNIT_LINE.match(line)
        if not found:
            raise ListTextError(source, number, f"expected a unit as \"<points> - <unit>, <options>...\", not \"{line}\"")
        found_lines.append((number, found.group(2)))
    return found_lines


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
    for name in split_outside_brackets(written):
        mode = by_name.get(name.casefold()) or _marked(name, "mode")
        if mode is None:
            if not system.modes:
                raise ListTextError(source, number, f"{system.name} has no matched-play rules; "
                                                    f"leave out the \"Matched play:\" line")
            names = [m.name for m in system.modes.values()]
            raise ListTextError(source, number, f"no matched-play rules \"{name}\" in {system.name} (known: "
                                                f"{', '.join(names)}, or {OPEN_WAR} for none)" + suggestion(name, names))
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
    ours = [b for b in books if b.system.id == system.id]
    # A version may hold spaces (New Recruit's "2024 beta1@2026-04-10"): a known name first, else the last word.
    named = max((b.name for b in ours if written.casefold().startswith(b.name.casefold() + " ")), key=len, default=None)
    name, _, version = (named, " ", written[len(named) + 1:]) if named else written.rpartition(" ")
    if not name:
        raise ListTextError(source, number, f"write the book as its name and version, as in \"{field}: "
                                            f"{next((b.name + ' ' + b.version for b in books), 'Name 1.0')}\"")
    same = [b for b in ours if name.casefold() in (b.name.casefold(), b.id)]
    if not same:
        raise ListTextError(source, number, _unknown(f"book \"{name}\"", system.name, name, sorted({b.name for b in ours})))
    found = next((b for b in same if b.version == version), None)
    if found is not None and not isinstance(found, Book):  # a listing: the one book named is built
        found = lookup(system.id, found.id, found.version) if lookup is not None else None
    elif found is None and lookup is not None:
        found = lookup(system.id, same[0].id, version)
    if found is None:
        raise ListTextError(source, number, f"{same[0].name} version \"{version}\" is not loaded; available: "
                                            f"{', '.join(sorted(b.version for b in same))}")
    return found


def _unknown(what: str, where: str | None, name: str, choices: Iterable[str]) -> str:
    message = f"no {what}" + (f" in {where}" if where else "")
    return message + suggestion(name, choices)


def suggestion(name: str, choices: Iterable[str]) -> str:
    by_fold = {c.casefold(): c for c in choices}
    close = difflib.get_close_matches(name.casefold(), list(by_fold), n=1)
    return f"; did you mean \"{by_fold[close[0]]}\"?" if close else ""


def split_outside_brackets(text: str) -> list[str]:
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
    head, *tokens = split_outside_brackets(text)
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
                                                f"can take in {where}" + suggestion(token, reader.names()))
        if kind == "general":
            unit["general"] = True
            # Where an option makes the model the General (and costs what it costs), "General" is that option.
            general = next((o.id for o in entry.options.values() if o.role == "general"), None)
            if general is not None:
                options[general] = 1
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
        for part in ([] if inner.casefold() == NO_OPTIONS else split_outside_brackets(inner)):
            option = self._option(part)
            if option is None:
                return "error", (f"\"{part}\" is not an option of {self.entry.name} in {self.book.name} "
                                 f"{self.book.version}" + suggestion(part, (o.name for o in self.entry.options.values())))
            oid, count = option[1]
            chosen[oid] = chosen.get(oid, 0) + count
        return "model", (int(found.group(1)), chosen)

    def _mount(self, token: str):
        mid = self.mounts.get(token.casefold()) or _marked(token, "mount")
        return ("mount", mid) if mid else None

    def _command(self, token: str):
        bearer = BEARER.match(token)
        name, carried = (bearer.group(1), split_outside_brackets(bearer.group(2))) if bearer else (token, [])
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
                                    + suggestion(item, (i.name for i in self.book.items.values())))
            ids.append(iid)
        return "command", (role, veteran, ids)

    def _item(self, token: str):
        iid = self.items.get(token.casefold()) or _marked(token, "item")
        return ("item", iid) if iid else None


def _marked(token: str, kind: str) -> str | None:
    """The id in `?kind:id`, the form an id the book lacks is exported in."""
    found = UNKNOWN.match(token)
    return found.group(2) if found and found.group(1) == kind else None
