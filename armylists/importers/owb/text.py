"""Old World Builder's text export read as a list: turned into our tournament text, then read by it.

OWB's "Export as text" (its `get-list-as-text.js`) writes:

    ===
    My Army List [700 pts]
    Warhammer: The Old World, Empire of Man[, <army composition>]
    ===

    ++ Characters [100 pts] ++

    General of the Empire [100 pts]
    - Hand weapon
    - Full plate armour
    - General

    20 State Troops [200 pts]
    (Halberds, Champion [Sword of Might], Standard Bearer)   <- the compact form: one line in brackets
    Special Rules: ...                                        <- optional lines, not read
    ---
    Created with "Old World Builder"

Each unit becomes one line of our text (`<points> - <size> <name>, <choice>, ...`), read with the same
names-to-ids matching as a list written here; the equipment a unit has anyway (OWB lists a hand weapon
as a choice, in the singular or the plural: "Hand weapons") is left out, and `Champion [item]` is our
`Champion (item)`. An error names the line of the pasted text.

The header's figure is the list's total as OWB counts it (`getAllPoints`), not the game's size, which
the text does not give: the list starts at the book's usual limit, or at that total when it is more
(a list never built for a game smaller than itself). `text_notices` says where OWB's figures (the
total, each unit's) differ from ours, naming the unit and both figures, for the player to look at.
"""
from __future__ import annotations

import re

from armylists.lists.library.catalogue import get_book
from armylists.lists.library.names import shelved_books
from armylists.exports import parse_list_text
from armylists.exports.text import COMMAND_NAMES
from armylists.exports.text_read import ListTextError, split_outside_brackets, suggestion
from armylists.importers.owb.data import SYSTEM_ID, slug
from armylists.importers.owb.units import unit_role
from armylists.rules import Book, Roster

BANNER = "==="
CATEGORY = re.compile(r"^\+\+\s*(.+?)\s*(?:\[[^\]]*\])?\s*\+\+$")
UNIT = re.compile(r"^(?:(\d+)\s+)?(.+?)(?:\s+\[(\d+)\s+[^\]]+\])?\s*$")
NOT_READ = ("special rules:", "custom note", "[")  # OWB's optional lines: rules, notes, profiles


def is_owb_text(text: str) -> bool:
    lines = [line.strip() for line in text.strip().splitlines()]
    return bool(lines) and (lines[0] == BANNER or 'Created with "Old World Builder"' in text) and \
        any(CATEGORY.match(line) for line in lines)


def _header(lines: list[str], source: str) -> tuple[str, int | None, int, list[str]]:
    """The list's name, OWB's total (its title's `[1320 pts]`, if any), the army line's number and its parts."""
    header = [(i + 1, line.strip()) for i, line in enumerate(lines[:6]) if line.strip() and line.strip() != BANNER]
    if len(header) < 2:
        raise ListTextError(source, 1, "expected Old World Builder's header: the list's name, then the game and army")
    (_, title), (army_line, game) = header[0], header[1]
    name = re.sub(r"\s*\[[^\]]*\]\s*$", "", title)
    total = re.search(r"\[(\d+)\s+[^\]]*\]\s*$", title)
    parts = [p.strip() for p in game.split(",")]
    if len(parts) < 2:
        raise ListTextError(source, army_line, f"expected \"Warhammer: The Old World, <army>\", not \"{game}\"")
    return name, int(total.group(1)) if total else None, army_line, parts


def read_owb_text(text: str, source: str) -> tuple[Roster, Book]:
    """The list in OWB's text export and its Book, or a `ListTextError` naming the line of `text`."""
    lines = text.splitlines()
    name, total, army_line, parts = _header(lines, source)
    book = _book(parts[1], source, army_line)
    usual = book.default_limit or book.system.default_limit
    limit = max(usual or 0, total or 0) or usual  # the usual game, unless the list is bigger than it
    ours: list[str | list[str]] = [f"List: {name}", f"System: {book.system.name}", f"Book: {book.name} {book.version}",
                                   *([f"Points limit: {limit}"] if limit else [])]
    origin = [1, army_line, army_line, army_line][:len(ours)]  # our line -> the pasted text's line
    if len(parts) > 2:
        ours.append(f"Composition: {', '.join(parts[2:])}")
        origin.append(army_line)
    ours.append("")
    origin.append(army_line)
    unit: list[str] | None = None
    for number, raw in enumerate(lines[army_line:], start=army_line + 1):
        line = raw.strip()
        if line == "---":
            break
        if not line or line == BANNER:
            continue
        heading = CATEGORY.match(line)
        if heading:
            if heading.group(1).casefold().startswith("allies"):
                raise ListTextError(source, number, "allied units come from another army's book; add them in "
                                                    "the editor after the import")
            unit = None
            continue
        if line.startswith("- ") and unit is not None:
            # One line may hold several choices: OWB writes a unit's weapons as one ("Hand weapons, Crossbows").
            unit.extend(split_outside_brackets(line[2:].strip()))
        elif line.startswith("(") and line.endswith(")") and unit is not None:
            unit.extend(split_outside_brackets(line[1:-1]))
        elif line.casefold().startswith(NOT_READ):
            continue
        else:
            found = UNIT.match(line)
            size, unit_name, points = found.group(1), found.group(2), found.group(3)
            unit = [points or "?", f"{size} {unit_name}" if size else unit_name]
            ours.append(unit)  # a unit's line is written once its choices are read
            origin.append(number)
    text_lines = []
    for entry in ours:
        if isinstance(entry, list):
            points, head, *choices = entry
            choices = [_command_named(book, head, _unmarked(c)) for c in choices]
            choices = _without_equipment(book, head, _after_own_equipment(book, head, choices))
            text_lines.append(f"{points} - {', '.join([head, *[_bearer(c) for c in choices]])}")
        else:
            text_lines.append(entry)
    try:
        roster = parse_list_text("\n".join(text_lines), [book], source, lookup=get_book)
    except ListTextError as exc:
        line = origin[exc.line - 1] if 0 < exc.line <= len(origin) else exc.line
        reason = exc.args[0].split(": ", 2)[-1]
        raise ListTextError(source, line, reason) from None
    return roster, book


def _book(army: str, source: str, number: int) -> Book:
    """Our book of that army: a hand-written one before one imported from OWB's data."""
    books = shelved_books(SYSTEM_ID)  # by name from columns: only the book the text names is built (issue 39)
    for book in sorted(books, key=lambda b: b.imported):
        if army.casefold() in (book.name.casefold(), book.id) or f"owb-{slug(army)}" == book.id:
            found = get_book(*book.key)
            if found is not None:
                return found
    raise ListTextError(source, number, f"no army \"{army}\" among The Old World's books here"
                                        + suggestion(army, sorted({b.name for b in books})))



def _unmarked(choice: str) -> str:
    """Without the marks OWB's data puts after some names ("Sword of Might*": an item with a note in its
    book), which are not part of the name: before a bracket, a "+" between items, or at the end."""
    return re.sub(r"\*+(?=\s*(?:\]|\+|\[|$))", "", choice).strip()


def _command_named(book: Book, head: str, choice: str) -> str:
    """OWB names a unit's champion, standard bearer and musician as its book does ("Veteran (champion)",
    "Royal Champion", "Standard bearer"); our text calls each by its part ("Champion"). A choice is taken
    for a part of the command where the unit has that part and no option of that name, the way OWB's
    data is imported (importers/owb/units.py: unit_role); its items, `[...]`, stay with it."""
    name, bracket, items = choice.partition(" [")
    entry = _entry_named(book, head)
    folded = name.strip().casefold()
    if entry is None or folded in {o.name.casefold() for o in entry.options.values()} \
            or folded in {n.casefold() for n in COMMAND_NAMES.values()} or "battle standard" in folded:
        return choice
    role = unit_role(folded)
    if role is None or role not in entry.command:
        return choice
    return COMMAND_NAMES[role] + (bracket + items if bracket else "")


def _after_own_equipment(book: Book, head: str, choices: list[str]) -> list[str]:
    """OWB writes a unit's own equipment first, by the names of its data ("Hand weapons, Great hammers"
    for Hammerers, whose book says great weapons); up to the first choice the unit offers here, what it
    does not offer is that equipment and left out. A choice it does not offer after that is still an error."""
    entry = _entry_named(book, head)
    if entry is None:
        return choices
    offered = ({o.name.casefold() for o in entry.options.values()} | {n.casefold() for n in COMMAND_NAMES.values()}
               | {book.mounts[m].name.casefold() for m in entry.mounts if m in book.mounts}
               | {i.name.casefold() for i in book.items.values()})
    for at, choice in enumerate(choices):
        name = re.sub(r"\s*[\[(].*$", "", choice).casefold()
        if name in offered or not (_carried(slug(name), entry.equipment) or _unknown_word(name)):
            return choices[at:]
    return []


def _unknown_word(name: str) -> bool:
    """A name none of our text's own words reads (General, BSB, a Wizard's level): OWB's equipment."""
    return name not in ("general", "bsb", "battle standard bearer") and not name.startswith("level ")


def _entry_named(book: Book, head: str):
    name = re.sub(r"^\d+\s+", "", head).casefold()
    return next((e for e in book.entries.values() if e.name.casefold() == name), None)


def _bearer(choice: str) -> str:
    """OWB's `Champion [Sword of Might]` is our `Champion (Sword of Might)`."""
    return re.sub(r"\s*\[(.*)\]$", r" (\1)", choice)


def _without_equipment(book: Book, head: str, choices: list[str]) -> list[str]:
    """Leave out what the unit carries anyway (OWB lists its hand weapon and armour as chosen)."""
    entry = _entry_named(book, head)
    if entry is None:
        return choices
    options = {o.name.casefold() for o in entry.options.values()}
    return [c for c in choices if c.casefold() in options or not _carried(slug(c), entry.equipment)]


def _carried(choice: str, equipment: tuple[str, ...]) -> bool:
    """OWB names what a unit carries in the plural for a unit ("Hand weapons", "Crossbows") and in the
    singular for a character; either is the equipment."""
    return choice in equipment or (choice.endswith("s") and choice[:-1] in equipment)


def text_notices(text: str, source: str, roster: Roster, book: Book) -> list[str]:
    """Where OWB's figures differ from ours: the list's total, then each unit's (named, both figures)."""
    from armylists.lists.library.catalogue import validate_roster

    lines = text.splitlines()
    _, total, army_line, _ = _header(lines, source)
    written = [_unit_points(line.strip()) for line in lines[army_line:]
               if line.strip() and not _not_a_unit(line.strip())]
    report = validate_roster(book, roster)
    unit = book.system.budget_unit
    notices = []
    if total is not None and total != report.total_points:
        notices.append(f"Old World Builder's total is {total} {unit}; ours is {report.total_points} {unit}.")
    for line, points in zip(report.units, _until_the_end(written)):
        if points is not None and points != line.points:
            notices.append(f"{line.name}: Old World Builder says {points} {unit}, we count {line.points} {unit}.")
    return notices


def _not_a_unit(line: str) -> bool:
    """A line of the body that is not a unit's own: a heading, a choice, an optional line, the banner."""
    return bool(line == BANNER or CATEGORY.match(line) or line.startswith(("- ", "(")) or
                line.casefold().startswith(NOT_READ))


def _unit_points(line: str) -> int | None | str:
    if line == "---":
        return "end"
    found = UNIT.match(line)
    return int(found.group(3)) if found and found.group(3) else None


def _until_the_end(written: list) -> list[int | None]:
    return written[:written.index("end")] if "end" in written else written
