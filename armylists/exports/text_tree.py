"""A roster tree (a list of an imported BattleScribe / New Recruit book) in the tournament text, and read
back (issue 40 item 5). One line per unit, as for our own books (text.py), its words the printed roster's
(rules/battlescribe/sheet.py):

    106 - General of the Empire, General, General of the Empire (Hand Weapon, Light Armour, Barded Warhorse)
    150 - State Troops, 30x State Trooper (Hand Weapon, Light Armour)

after the points, the unit's name (`2x ` before it when the root selection is taken more than once), its
roles (General, BSB: the selections our system's mapping names so, said once as a role), then every
selection it holds in the data's order, `Nx ` before one held more than once (for each of what holds it:
thirty State Troopers hold a Hand Weapon each) and what it holds in turn in parentheses.

Reading a line back adds the unit as the editor does (its minimums and defaults with it), then makes each
selection hold what the line says: what is named is selected (or its number set), what is not is taken
out, level by level (a line naming the unit alone, as one may write it by hand, is the unit as added).
A name the data has no place for is an error naming the line, what holds it and the
closest name it offers: the import says what it could not place rather than dropping it. Names are
matched without regard to case; a name holding a comma or parentheses of its own ("Cannon (4+)") is
matched whole before it is read as a name and what it holds.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace
from typing import Callable, Iterable

from armylists.lists.kinds import kind_for_book, kind_of
from armylists.lists.trees.tree_lists import attached, evaluator, root_choices, start_tree, with_tree
from armylists.rules import Book, Report, Roster
from armylists.rules.battlescribe import RosterError, deselect, select, set_count
from armylists.rules.battlescribe.data import Option
from armylists.rules.battlescribe.sheet import BSB, GENERAL, Held, TreePrinting, unit_sheet
from armylists.rules.battlescribe.tree import Force, Selection

COUNTED = re.compile(r"^(\d+)x\s+(.+)$")
TREE_KIND = "tree"   # the list kind (lists/kinds.py) whose units this module writes and reads


def reads_trees(book: Book) -> bool:
    """Are the lists of `book` roster trees, so that its text is read here?"""
    return kind_for_book(book).name == TREE_KIND


def printing_of(roster: Roster) -> TreePrinting | None:
    """What naming a tree list's units needs (None for a list of our own books)."""
    return kind_of(roster).printing(roster)


# --- writing ---------------------------------------------------------------------------------------

def held_text(held: Held, per: int = 1) -> str:
    """`20x Halberdier (Hand weapon, Halberd)`: a number is one for each of what holds it (`per` of them:
    twenty Halberdiers hold a Halberd each), as BattleScribe counts a child selection."""
    amount = held.number // per if per and held.number % per == 0 else held.number
    text = held.name if amount <= 1 else f"{amount}x {held.name}"
    if held.children:
        text += f" ({', '.join(held_text(c, held.number) for c in held.children)})"
    return text


def tree_unit_text(printing: TreePrinting, uid: str) -> str | None:
    """The line of the root selection `uid` after its points; None where the tree holds no such unit."""
    unit = printing.tree.by_uid.get(uid)
    if not isinstance(unit, Selection):
        return None
    sheet = unit_sheet(printing, unit)
    head = sheet.name if unit.amount <= 1 else f"{unit.amount}x {sheet.name}"
    return ", ".join([head, *sheet.roles, *(held_text(h, unit.number) for h in sheet.held)])


# --- reading ---------------------------------------------------------------------------------------

@dataclass
class Named:
    """A name of the text with what it holds: `20x Halberdier (...)` is ("Halberdier", 20, [...])."""
    name: str
    number: int
    inside: str   # what the parentheses after the name hold, unread ("" for none)


class TreeTextError(Exception):
    """A unit line the data has no place for (its reason; the reader adds the line)."""


def read_tree_units(book: Book, doc: dict, unit_lines: list[tuple[int, str]], split: Callable[[str], list[str]],
                    error: Callable[[int, str], Exception]) -> Roster:
    """The tree list a text's unit lines say (each (line number, what follows `<points> - `)), started as a
    new list of `book` with the header's name, limit, player and team; `error(line, reason)` is raised."""
    roster = start_tree(book, doc.get("name") or book.name, doc["points_limit"])
    tree = evaluator(roster)
    printing = TreePrinting(tree, *_roles(roster))
    forces = list(tree.all_forces())
    for force in forces:   # the text says every unit, those a new force selects by itself too
        for selection in list(force.selections):
            _remove(tree, selection)
    if not forces:
        raise error(unit_lines[0][0] if unit_lines else 1, f"{book.name} {book.version} offers no force to hold units")
    for number, text in unit_lines:
        try:
            _read_unit(tree, forces[0], printing, text, split)
        except TreeTextError as exc:
            raise error(number, str(exc)) from None
    after = with_tree(roster, tree)
    return replace(after, name=doc.get("name", ""), player=doc.get("player", ""), team=doc.get("team", ""))


def _roles(roster: Roster) -> tuple[frozenset[str], frozenset[str]]:
    printing = printing_of(roster)
    return (printing.general, printing.battle_standard) if printing else (frozenset(), frozenset())


def _read_unit(tree, force: Force, printing: TreePrinting, text: str, split: Callable[[str], list[str]]) -> None:
    tokens = split(text)
    head = _counted(tokens[0])
    choices = root_choices(tree, force)
    option = _named_option(choices, head.name)
    if option is None:
        raise TreeTextError(f"{_force_name(force)} has no unit \"{head.name}\"" + _closest(head.name, choices))
    unit = select(tree, force, option.entry_id)
    if head.number > 1:
        set_count(tree, unit, head.number)
    rest, roles = tokens[1:], []
    # a role only where the data names one (a game we do not map may hold a selection called "General")
    said = {GENERAL.casefold(): printing.general, BSB.casefold(): printing.battle_standard}
    while rest and said.get(rest[0].casefold()):
        roles.append(rest.pop(0))
    kept = [_take_role(tree, unit, role, printing) for role in roles]
    if rest:  # a line naming the unit alone (written by hand) is the unit as added
        _hold(tree, unit, rest, split, kept)


def _take_role(tree, unit: Selection, role: str, printing: TreePrinting) -> Selection:
    """The selection that makes `unit` its General (or BSB), selected where it is not already."""
    wanted = printing.general if role.casefold() == GENERAL.casefold() else printing.battle_standard
    for selection in unit.walk():
        if selection is not unit and _names(selection.option) & wanted:
            return selection
    for holder in unit.walk():
        found = next((o for o in tree.options(holder) if _names(o) & wanted), None)
        if found is not None:
            return select(tree, holder, found.entry_id)
    raise TreeTextError(f"{unit.state.name} cannot be the {role} in this data")


def _hold(tree, parent: Selection, tokens: list[str], split: Callable[[str], list[str]],
          kept: Iterable[Selection] = ()) -> None:
    """Make `parent` hold what `tokens` name (and, in turn, what each names in parentheses), and no more:
    what it holds besides (a default the text took out) is taken out; `kept` stay (a role's selection)."""
    wanted: list[tuple[Selection, str]] = []
    options = tree.options(parent)
    index = 0
    while index < len(tokens):
        found = None
        # a name holding a comma of its own is several tokens: the longest run that names an option
        for end in range(len(tokens), index, -1):
            found = _resolve(tree, parent, options, ", ".join(tokens[index:end]), wanted)
            if found is not None:
                index = end
                break
        if found is None:
            name = _counted(tokens[index]).name
            raise TreeTextError(f"{parent.state.name} holds no \"{name}\"" + _closest(name, options))
        wanted.append(found)
    keep = {id(s) for s, _ in wanted} | {id(s) for s in kept}
    for child in list(parent.children):
        if id(child) not in keep and not any(id(k) == id(child) or _within(k, child) for k in kept):
            _remove(tree, child)
    for child, inside in wanted:
        if attached(tree, child):
            _hold(tree, child, split(inside) if inside else [], split,
                  [k for k in kept if _within(k, child)])


def _resolve(tree, parent: Selection, options: list[Option], token: str,
             taken: list[tuple[Selection, str]]) -> tuple[Selection, str] | None:
    """`token` as a selection of `parent` (selected, or its number set) and the unread text it holds."""
    for named in _readings(token):
        option = _named_option(options, named.name)
        if option is None:
            continue
        done = {id(s) for s, _ in taken}
        have = next((c for c in parent.children if c.entry_id == option.entry_id and id(c) not in done), None)
        try:
            child = have if have is not None else select(tree, parent, option.entry_id)
        except RosterError as exc:
            raise TreeTextError(f"{named.name} cannot be selected in {parent.state.name}: {exc}") from None
        amount = named.number  # one for each of what holds it (held_text)
        if child.amount != amount:
            set_count(tree, child, amount)
        return child, named.inside
    return None


def _readings(token: str) -> list[Named]:
    """The ways `token` may be read: the whole of it a name, then a name before each group of parentheses
    it ends with (`Cannon (4+) (Grapeshot)`: "Cannon (4+) (Grapeshot)", "Cannon (4+)" holding "Grapeshot"...)."""
    counted = _counted(token)
    out = [counted]
    text = counted.name
    while text.endswith(")"):
        depth, start = 0, None
        for i in range(len(text) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(text[i], 0)
            if depth == 0:
                start = i
                break
        if not start:
            break
        out.append(Named(text[:start].strip(), counted.number, text[start + 1:-1].strip()))
        text = text[:start].strip()
    return out


def _counted(token: str) -> Named:
    found = COUNTED.match(token.strip())
    return Named(found.group(2).strip(), int(found.group(1)), "") if found else Named(token.strip(), 1, "")


def _names(option: Option) -> set[str]:
    return {n for n in (option.entry.get("name"), (option.link or {}).get("name")) if n}


def _named_option(options: Iterable[Option], name: str) -> Option | None:
    folded = name.casefold()
    return next((o for o in options if folded in {n.casefold() for n in _names(o)}), None)


def _closest(name: str, options: Iterable[Option]) -> str:
    names = sorted({n for o in options for n in _names(o)})
    by_fold = {n.casefold(): n for n in names}
    close = difflib.get_close_matches(name.casefold(), list(by_fold), n=1)
    return f"; did you mean \"{by_fold[close[0]]}\"?" if close else ""


def _force_name(force: Force) -> str:
    return force.entry.get("name") or "The force"


def _within(selection: Selection, holder: Selection) -> bool:
    element = selection
    while isinstance(element, Selection):
        if element is holder:
            return True
        element = element.parent
    return False


def _remove(tree, selection: Selection) -> None:
    if attached(tree, selection):
        set_count(tree, selection, 0)


def tree_lines(printing: TreePrinting, report: Report) -> dict[str, str]:
    """Each unit's line after its points, by its id (the Report's unit lines of a tree list)."""
    return {u.id: text for u in report.units for text in [tree_unit_text(printing, u.id)] if text is not None}
