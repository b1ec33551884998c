"""A list of an imported BattleScribe book kept in the flattened shape (`units` naming entries and options
of the importer's converted book), as the roster tree the same list is (issue 37 item 2, "one semantics").

Before lists of such books were trees, they were stored flattened and judged by our engine's tallies, a
second copy of BattleScribe's semantics. The converter (importers/battlescribe/books.py) tags every entry
and option with the data's ids, in order: an entry's first tag is `bs-<entry id>` (a link's target), its
`bs-<link id>` follows where it was reached through a link; its `model_tags` begin with the model child's
`bs-<id>`; an option's first tag is its own entry's, then its link's, then (last) its groups' and their
links'. Options below the model are `per_model` (a count per model), nested ones `requires` the option
above; what a minimum makes part of its parent was folded into the parent and is no option. So a unit is
BattleScribe's "select a root entry" found by those ids (what its minimums select comes with it, as the
folded cost says), its size the number of its model, each option a child selection set to its number
(one node counted up where everything below it is collective, else a node each, as BattleScribe keeps
them), and what BattleScribe selected by itself that the flattened list did not take (a group's default,
the units a force entry's minimums add) taken away: the tree holds what the list held.

`unflatten(book, roster)` is pure (the game data is read, never written). Where something cannot be placed
(the data changed, an id not found) nothing is lost: the list is returned as it was with a note in its
`notes` (the one free text the document keeps for the list) naming what, and saying to import it again.
It does not import the tree list service (tree_lists.py): that service asks it (`as_tree`), and the two
would be a circle; it acts on one evaluator roster with the evaluator's own actions instead.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

from armylists.lists.trees.battlescribe_data import GameDataUnavailable, game_data_for
from armylists.rules import Book, ListDocumentError, Report, Roster, RosterUnit, parse_roster, roster_to_dict
from armylists.rules.report import Violation
from armylists.rules.battlescribe import GameData, GameDataError, RosterError, add_force, select, set_count
from armylists.rules.battlescribe import Roster as TreeRoster
from armylists.rules.battlescribe.data import Option
from armylists.rules.battlescribe.document import document_tree, primary_cost_type
from armylists.rules.battlescribe.tree import Force, Selection
from armylists.rules.bridges.tree_army import bs_tag

MAX_NOTES = 5000   # the list document's `notes` (rules/schema/list.schema.json)
# A unit's fields the converter never gives an entry a use for: set, the unit is not placed. (Its label,
# notes and General flag, which the tree has no place for either, are kept in the list's notes.)
NOT_PLACED = ("mount", "items", "command", "veteran_standard", "standard_items", "champion_items", "path",
              "experience", "model_options", "allied", "accompanies")


@dataclass(frozen=True)
class Unplaced:
    """What of a flattened list the tree has no place for: its path in the document, and in words."""
    path: tuple
    what: str


class _NotPlaced(Exception):
    def __init__(self, path: tuple, what: str):
        super().__init__(what)
        self.unplaced = Unplaced(path, what)


def unflatten(book: Book, roster: Roster) -> Roster:
    """The roster tree a flattened list of a tree book is; where a unit or option cannot be placed, the
    list as it was with a note saying what and to import it again (once: a list noted already keeps its
    notes). A list that is a tree already, or whose book's data is not stored, is returned as it is."""
    if roster.is_tree:
        return roster
    try:
        tree, unplaced = tree_of(book, roster)
    except (GameDataUnavailable, GameDataError):
        return roster   # data the evaluator cannot read: the list stays plain, as the site judged it before
    if tree is None and not unplaced:
        return roster
    if unplaced:
        return replace(roster, notes=with_note(roster.notes, unplaced_note(book, unplaced)))
    return tree


def tree_of(book: Book, roster: Roster) -> tuple[Roster | None, tuple[Unplaced, ...]]:
    """The tree of a flattened list, or None with what cannot be placed (every unit is tried, so all is
    said at once); (None, ()) when the book has no game data stored. GameDataUnavailable and GameDataError
    are the stored data's own problems, for the caller."""
    game = game_data_for(roster.system, roster.book, roster.book_version)
    if game is None:
        return None, ()
    catalogue = next(iter(game.catalogues))   # the stored documents: the system, the catalogue, what it links
    unplaced: list[Unplaced] = []
    entries = {e["id"]: e for e in book.data.get("entries", ())}
    tree = TreeRoster(game)
    if primary_cost_type(game):
        tree.cost_limits[primary_cost_type(game)] = float(roster.points_limit)
    force_id = _force_entry(game, catalogue, book, roster, unplaced)
    if roster.allies is not None:
        unplaced.append(Unplaced(("allies",), "the allied contingent"))
    if force_id is None:
        return None, (*unplaced, Unplaced(("units",), f"the force of {book.name}"))
    try:
        force = add_force(tree, force_id, catalogue)
    except RosterError:   # what the force selects by itself nests without end: data no list can be made of
        return None, (*unplaced, Unplaced(("units",), f"the force of {book.name}"))
    for chosen in list(force.selections):   # what the force selects by itself is not in the list, unless below
        set_count(tree, chosen, 0)
    kept: list[str] = []
    for i, unit in enumerate(roster.units):
        try:
            kept += _place_unit(tree, force, entries, unit, i)
        except _NotPlaced as exc:
            unplaced.append(exc.unplaced)
    if unplaced:
        return None, tuple(unplaced)
    forces, limit, others = document_tree(tree)
    notes = with_note(roster.notes, "\n".join(kept)) if kept else roster.notes
    converted = replace(roster, units=(), forces=forces, points_limit=limit or roster.points_limit,
                        cost_limits=others, composition=None, notes=notes)
    try:   # what is stored must read back (each id once, nesting within bounds)
        parse_roster(roster_to_dict(converted))
    except ListDocumentError as exc:
        return None, (Unplaced(("units",), f"the list as a tree ({exc.reason})"),)
    return converted, ()


def unplaced_note(book: Book, unplaced: tuple[Unplaced, ...]) -> str:
    """The note a list that stays flattened gets: what could not be placed, and what to do."""
    return (f"Not made a roster tree of {book.name} {book.version}: {'; '.join(u.what for u in unplaced)} could "
            f"not be placed in its BattleScribe data. Import the list again (a .ros or .rosz from BattleScribe or "
            f"New Recruit) to check it by the data's own rules.")


NOT_A_TREE = "list.not_a_tree"


def kept_flattened(report: Report, book: Book) -> Report:
    """The report of a list of an imported BattleScribe book that stays in the flattened shape (unflatten could
    not place it, or its book was imported before its game data was kept, so there is no tree to make):
    what the engine finds, and an error saying the list is not checked by the data's own rules. Such a list
    is never legal: its book's constraints are judged over a roster tree only (the flattened rules that
    once judged such lists are retired: issue 37, "one semantics")."""
    error = Violation(NOT_A_TREE, f"This list is kept in the shape lists of {book.name} had before they were "
                                  f"roster trees, so the data's own rules do not check it (its notes say what could "
                                  f"not be placed); import it again from a .ros or .rosz, or build it again "
                                  f"(a book imported before its BattleScribe data was kept: import its catalogue "
                                  f"again first).", rule="one-semantics", source="docs/import-battlescribe.md")
    return replace(report, violations=(error, *report.violations))


def with_note(notes: str, note: str) -> str:
    """`notes` with `note` after them (once), within the document's bound for notes: the note is shortened
    to fit, never the player's own notes."""
    if note in notes:
        return notes
    separator = "\n\n" if notes else ""
    room = MAX_NOTES - len(notes) - len(separator)
    if room <= 0:
        return notes
    return notes + separator + (note if len(note) <= room else note[:room - 1] + "…")


def _force_entry(game: GameData, catalogue: str, book: Book, roster: Roster, unplaced: list[Unplaced]) -> str | None:
    """The force a flattened list is: its composition's (the converter made each force entry after the first a
    composition of that name), else the catalogue's first visible force entry, as a new tree list's
    (tree_lists.start_tree)."""
    visible = [f for f, (entry, doc) in game.forces.items()
               if not entry.get("hidden") and doc in game.linked_docs(catalogue)]
    if roster.composition:
        chosen = book.compositions.get(roster.composition)
        named = [f for f in visible if chosen is not None and game.forces[f][0].get("name") == chosen.name]
        if named:
            return named[0]
        unplaced.append(Unplaced(("composition",), f"the composition {roster.composition}"))
    return visible[0] if visible else None


def _place_unit(tree: TreeRoster, force: Force, entries: Mapping[str, dict], unit: RosterUnit, i: int) -> list[str]:
    """The unit as a root selection with its model's number and its options; what the tree cannot hold but the
    list's notes can (its label, notes, General), as lines for them."""
    entry = entries.get(unit.entry)
    who = f"{entry['name'] if entry else unit.entry} (unit {unit.id})"
    if entry is None:
        raise _NotPlaced(("units", i, "entry"), who)
    for name in NOT_PLACED:
        if getattr(unit, name):
            raise _NotPlaced(("units", i, name), f"the {name.replace('_', ' ')} of {who}")
    root = _option_in(tree.options(force), entry.get("tags") or [])
    if root is None:
        raise _NotPlaced(("units", i, "entry"), who)
    try:
        selection = select(tree, force, root.entry_id)
    except RosterError:
        raise _NotPlaced(("units", i, "entry"), who) from None
    models = _model(tree, selection, entry, unit, who, i)
    _place_options(tree, selection, models, entry, unit, who, i)
    kept = [f"{who}: {text}" for text in (unit.label and f"label {unit.label!r}", unit.notes,
                                          unit.general and "the General") if text]
    return kept


def _model(tree: TreeRoster, selection: Selection, entry: dict, unit: RosterUnit, who: str,
           i: int) -> list[Selection]:
    """The unit's model selections (the converter's model child: its `model_tags` first), as many as the
    unit's size; none for an entry of one model."""
    tags = entry.get("model_tags")
    if not tags:
        if unit.size not in (None, 1):
            raise _NotPlaced(("units", i, "size"), f"the size {unit.size} of {who}")
        return []
    try:
        option = _option_in(tree.options(selection), tags)
        if option is None:
            raise _NotPlaced(("units", i, "size"), f"the models of {who}")
        have = [c for c in selection.children if c.entry_id == option.entry_id]
        if unit.size is None and have:   # the entry's minimum, as BattleScribe selected it
            return have
        return _set_number(tree, selection, option, unit.size or 1)
    except RosterError:
        raise _NotPlaced(("units", i, "size"), f"the models of {who}") from None


def _place_options(tree: TreeRoster, unit_selection: Selection, models: list[Selection], entry: dict,
                   unit: RosterUnit, who: str, i: int) -> None:
    """Every option of the entry set to the list's number of it, outer ones first, in each selection it goes in
    (a per-model option in each model's): those the list takes are selected, those BattleScribe selected by
    itself that the list does not take are taken away."""
    options = {o["id"]: o for o in entry.get("options", ())}
    counts = dict(unit.options)
    for oid in counts:
        if oid not in options:
            raise _NotPlaced(("units", i, "options", oid), f"the option {oid} of {who}")
    own = {o["tags"][0] for o in options.values() if o.get("tags")} | {(entry.get("model_tags") or [""])[0]}
    placed: dict[str, list[Selection]] = {}
    for option in sorted(options.values(), key=lambda o: _depth(o, options)):
        number = counts.get(option["id"], 0)
        what = f"the option {option['name']} of {who}"
        parent_id = (option.get("requires") or [None])[0]
        containers = (placed.get(parent_id, []) if parent_id else models if option.get("per_model")
                      else [unit_selection])
        if not containers and number and not _folded(unit_selection, option, number, placed):
            raise _NotPlaced(("units", i, "options", option["id"]), what)
        for container in containers:
            found = _find(tree, container, option.get("tags") or [], own)
            if found is None:
                if number and not _folded(unit_selection, option, number, placed):
                    raise _NotPlaced(("units", i, "options", option["id"]), what)
                continue
            if not number and _required(found[1]):
                continue   # BattleScribe selected it for a minimum in its parent (a 1.x item's own profile entry)
            try:
                placed.setdefault(option["id"], []).extend(_set_number(tree, *found, number))
            except RosterError:
                raise _NotPlaced(("units", i, "options", option["id"]), what) from None
    _take_away_unasked(tree, unit_selection, {id(s) for found in placed.values() for s in found} | set(map(id, models)))


def _take_away_unasked(tree: TreeRoster, unit_selection: Selection, ours: set[int]) -> None:
    """What BattleScribe selected by itself in the unit that the list does not hold and no minimum asks for
    (a group's default the converter did not offer, as a hidden Path): taken away. What a plain minimum
    selects with its parent stays (the converter folded it into the parent's cost)."""
    for selection in [s for s in unit_selection.walk() if s is not unit_selection]:
        if id(selection) in ours or _required(selection.option) or selection.option.entry.get("type") == "model":
            continue
        if any(id(s) in ours for s in selection.walk() if s is not selection):
            continue   # something the list holds sits inside it
        if selection in tree.siblings(selection):
            set_count(tree, selection, 0)


def _required(option: Option) -> bool:
    """A plain minimum of the option in its parent: BattleScribe selects it with the parent, and the list
    held it so (the converter made an option of a 1.x child whose minimum holds only where its parent is
    taken, which the flattened list never named)."""
    constraints = list(option.entry.get("constraints", ())) + list((option.link or {}).get("constraints", ()))
    return any(c.get("type") == "min" and c.get("scope") == "parent" and c.get("field", "selections") == "selections"
               and not c.get("percent") and float(c.get("value", 0)) >= 1 for c in constraints)


def _folded(unit_selection: Selection, option: dict, number: int, placed: dict[str, list[Selection]]) -> bool:
    """Whether an option that has no place is what BattleScribe selected by itself in the unit, as many: the
    roster reader before trees (importers/battlescribe/rosters.py) counted a folded selection as the option
    of the same entry elsewhere in the unit (a Quarreller's own Crossbow as the Veteran's), so the list holds
    it already."""
    ours = {id(s) for found in placed.values() for s in found}
    tag = (option.get("tags") or [""])[0]
    same = [s for s in unit_selection.walk() if s is not unit_selection and id(s) not in ours
            and bs_tag(s.option.entry["id"]) == tag]
    return bool(same) and sum(s.number for s in same) == number


def _depth(option: dict, options: Mapping[str, dict]) -> int:
    depth, seen = 0, set()
    while option.get("requires") and option["id"] not in seen and option["requires"][0] in options:
        seen.add(option["id"])
        option, depth = options[option["requires"][0]], depth + 1
    return depth


def _find(tree: TreeRoster, container: Selection, tags: list[str], own: set[str]) -> tuple[Selection, Option] | None:
    """Where an option's selection goes: in `container`, or in a selection BattleScribe made part of it (the
    converter folded those into the parent: their options are the parent's), nearest first."""
    queue = [container]
    while queue:
        here = queue.pop(0)
        option = _option_in(tree.options(here), tags)
        if option is not None:
            return here, option
        queue += [c for c in here.children if bs_tag(c.option.entry["id"]) not in own]
    return None


def _option_in(options: list[Option], tags: list[str]) -> Option | None:
    """The option whose entry is the tags' first id, the one sharing most of its other ids (its link, its
    groups) where several are."""
    if not tags:
        return None
    wanted = set(tags)
    found = [o for o in options if bs_tag(o.entry["id"]) == tags[0]]
    if not found:
        return None
    return max(found, key=lambda o: len(wanted & {bs_tag(x) for x in _ids(o)}))


def _ids(option: Option) -> list[str]:
    ids = [option.link["id"]] if option.link is not None else []
    for step in option.groups:
        ids += [step.node["id"]] + ([step.link["id"]] if step.link is not None else [])
    return ids


def _set_number(tree: TreeRoster, parent: Selection, option: Option, number: int) -> list[Selection]:
    """`number` of `option` in the parent, as BattleScribe holds them (as tree_lists.set_child_number, on one
    evaluator roster): one node counted up where everything below it is collective, else a node each
    (`select` says which: taken again, it counts the node up or adds one); what is more taken away."""
    have = [c for c in parent.children if c.entry_id == option.entry_id]
    while have and sum(c.amount for c in have) - have[-1].amount >= number:
        set_count(tree, have.pop(), 0)
    if not number:
        return []
    if not have:
        have.append(select(tree, parent, option.entry_id))
    while sum(c.amount for c in have) < number:
        again = select(tree, parent, option.entry_id)
        if again in have:   # one node counted up: its number set at once
            set_count(tree, again, again.amount + number - sum(c.amount for c in have))
        else:
            have.append(again)
    if sum(c.amount for c in have) > number:
        set_count(tree, have[-1], have[-1].amount - (sum(c.amount for c in have) - number))
    return have
