"""The list as text, one line per unit, the shape tournaments exchange (read back by text_read.py).

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

import re
from dataclasses import dataclass
from typing import Callable, Iterable, Union

from armylists.rules import Book, Report, Roster, RosterUnit
from armylists.rules.native.book import Entry, Item
from armylists.rules.report import ERROR

from armylists.exports.text_tree import printing_of, tree_lines

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
    # An option that makes the model the General (New Recruit's T9A data) is written as the role, once.
    general = next((o for o, n in unit.options if n == 1 and o in entry.options and entry.options[o].role == "general"),
                   None)
    if general:
        del options[general]
    roles = [GENERAL] if unit.general or general else []
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
    # In the book's order, as the card shows them: a document's own order is not kept by every database
    # (PostgreSQL's jsonb orders an object's keys its own way).
    order = {oid: i for i, oid in enumerate(entry.options)}
    in_order = sorted(options.items(), key=lambda pair: order.get(pair[0], len(order)))
    return UnitWords(unit, entry, entry.name, shown, tuple(roles),
                     tuple(option_word(o, n) for o, n in in_order), models, mount, tuple(command),
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

    # A Report line no unit of the document holds is a roster tree's unit (a root selection of a force, kept
    # in `forces`): said from its line, by category.
    held = {u.id for u in roster.units}
    loose = [u for u in report.units if u.id not in held]
    if loose:
        # its words are what it holds (text_tree.py), read back by the same module
        printing = printing_of(roster)
        said = tree_lines(printing, report) if printing is not None else {}

        def line(u) -> str:
            return f"{u.points} - {_one_line(said.get(u.id, u.name))}"
        for cat in report.categories:
            units = [line(u) for u in loose if u.category == cat.id]
            if units:
                lines += ["", f"== {cat.name}: {cat.points} {budget} ({cat.percent:.1f}%) =="] + units
        others = [u for u in loose if u.category not in {c.id for c in report.categories}]
        if others:
            lines += ["", "== Other =="] + [line(u) for u in others]
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
        lines += ["", f"== {allies_heading(book)} not in {_allies_name(roster, allies, False)} =="]
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


def allies_heading(book: Book) -> str:
    """The name of the system's allies category, which heads the allied units."""
    rules = book.system.allies
    return book.system.category_names.get(rules.category, rules.category) if rules else "Allies"


def _one_line(text: str) -> str:
    return " ".join(text.split())


# -- reading it back ------------------------------------------------------------------------------
