"""Lists of imported BattleScribe books kept as a roster tree (rules/reading/selection_tree.py): judged by the
tree evaluator over the book's stored game data, and edited with the evaluator's actions.

A list of such a book made on this site is a tree from the start (`start_tree`: one force of the
catalogue's first visible force entry). Adding a unit is BattleScribe's "select a root entry": what a
minimum asks for and a group's default selection are added with it. A document of such a book in our
flattened shape (units, no `forces`) is made its tree at every door (`as_tree`, lists/trees/unflatten.py), and
migration 0013 made the stored ones trees; one the data has no place for stays plain, with a note, and is
judged by our native engine over the flattened book as before (docs/import-battlescribe.md).
"""
from __future__ import annotations

import difflib
import threading
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable
from dataclasses import replace

from django.conf import settings

from armylists.lists.trees.battlescribe_data import GameDataUnavailable, game_data_for, has_game_data
from armylists.lists.saved.edits import EditError, MAX_UNITS, check_limit, check_name
from armylists.rules import Book, ListDocumentError, Report, Roster
from armylists.rules.battlescribe import (GameData, GameDataError, RosterError, add_force, deselect, duplicate, select,
                                          set_count)
from armylists.rules.battlescribe import Roster as TreeRoster
from armylists.rules.battlescribe.data import Option
from armylists.rules.battlescribe.evaluate import Result
from armylists.rules.battlescribe.sheet import TreePrinting
from armylists.rules.bridges.systems import MAPPING_FILE, SystemMapping, load_mappings, system_violations
from armylists.rules.reading.loader import load_system_part
from armylists.rules.native.army import Army
from armylists.rules.report import Violation
from armylists.rules.bridges.tree_army import tree_army
from armylists.rules.battlescribe.document import document_tree, primary_cost_type, tree_report, tree_roster
from armylists.lists.trees.tree_offers import complete_as_added, unit_offers  # noqa: F401 (unit_offers: the lists' API)
from armylists.lists.trees.unflatten import tree_of
from armylists.rules.battlescribe.tree import Force, Selection


def is_battlescribe_book(book: Book) -> bool:
    """A book imported from BattleScribe data: its lists are judged as roster trees only."""
    return book.imported and book.id.startswith("bs-")


def is_tree_book(book: Book) -> bool:
    """An imported BattleScribe book whose game data is stored: its new lists are trees."""
    return is_battlescribe_book(book) and has_game_data(book.system.id, book.id, book.version)


def game_for(roster: Roster, source: str = "list") -> GameData:
    catalogues = tuple({f.catalogue for top in roster.forces or () for f in top.walk_forces()})
    try:
        game = game_data_for(roster.system, roster.book, roster.book_version, catalogues)
    except GameDataUnavailable as exc:
        raise ListDocumentError(source, ("book_version",), str(exc)) from None
    if game is None:
        raise ListDocumentError(source, ("book_version",), f"{roster.book} {roster.book_version} has no BattleScribe "
                                                           f"data stored to judge a roster tree; import it again")
    return game


def evaluator(roster: Roster, source: str = "list") -> TreeRoster:
    """The evaluator's roster of a tree list; a force or selection the data does not know is a
    ListDocumentError naming it. A new one for an action to change, of a document judged before (kept), is
    built over the game data that judged it, not asked of the database again (issue 37: an edit asked twice)."""
    with _evaluated_lock:
        kept = _evaluated.get(roster)
    game = kept[0].game if kept is not None else game_for(roster, source)
    _check_book_is_its_forces(game, roster, source)
    try:
        return tree_roster(game, roster)
    except RosterError as exc:
        raise ListDocumentError(source, ("forces",), str(exc)) from None


def _check_book_is_its_forces(game: GameData, roster: Roster, source: str) -> None:
    """A tree's book is the catalogue of its forces: at least one top-level force must be of the book's
    catalogue (others may be allies'). Relabelled, an Empire of Man roster was judged by its own data but
    shown, and accepted at a Dwarfs-only event, as a Dwarf army (issue 37 item 2)."""
    own = _catalogue_of(game)
    # A catalogue the data does not have at all is the evaluator's to name (tree_roster), by its force.
    named = [top.catalogue for top in roster.forces or () if top.catalogue in game.catalogues]
    if not named or own in named:
        return
    def label(catalogue: str) -> str:
        return str(game.catalogues.get(catalogue, {}).get("name") or catalogue)
    raise ListDocumentError(source, ("book",), f"the list names the book {roster.book} ({label(own)}), but its "
                                               f"forces are of {', '.join(dict.fromkeys(map(label, named)))}")


# A few documents' evaluator rosters (and Reports) kept per process, keyed by the document's value: one
# request's report, cards, catalogue and forms read the same one, and an edit's answer reads the tree its
# action left (with_tree) instead of building it from the new document again. What the pages read of it
# (`remembered`: the catalogue, the cards) is kept with it, so an edit's "before" is what the request that
# saved that document drew of it, not drawn again (issue 37: the tree editor's edit at 2.6x the native one's).
_evaluated: OrderedDict[Roster, list] = OrderedDict()   # document -> [evaluator roster, {rules dir: Report}, memo]
_evaluated_lock = threading.Lock()


def evaluated(roster: Roster, source: str = "list") -> TreeRoster:
    """The evaluator's roster of a tree list, to read and never to change."""
    return _entry(roster, source)[0]


def remembered(roster: Roster, key: tuple, make: Callable[[TreeRoster], Any], source: str = "list") -> Any:
    """`make(evaluator roster)` of a tree list, made once per kept document and `key` (what else the answer
    depends on: the rules folder, the book's budget unit...). The answer is shared: never change it."""
    _tree, _reports, memo = entry = _entry(roster, source)
    if key not in memo:
        memo[key] = make(entry[0])
    return memo[key]


# The same document object asked again (a request asks a dozen times) is found by identity: a document's
# hash and equality walk all of it, 3.7 ms of a profiled tree edit (issue 37). It holds a few documents
# (not their trees), forgotten at every _keep, and answers only with an entry still kept.
_by_identity: dict[int, tuple[Roster, list]] = {}


def _entry(roster: Roster, source: str) -> list:
    with _evaluated_lock:
        known = _by_identity.get(id(roster))
        if known is not None and known[0] is roster and any(e is known[1] for e in _evaluated.values()):
            return known[1]
        entry = _evaluated.get(roster)
        if entry is not None:
            _evaluated.move_to_end(roster)
            if len(_by_identity) >= 16:
                _by_identity.clear()
            _by_identity[id(roster)] = (roster, entry)
            return entry
    return _keep(roster, evaluator(roster, source))


def keep_evaluated(roster: Roster, tree: TreeRoster) -> None:
    """Keep `tree` as the evaluator's roster of the document `roster` (read from a .ros one to one, say),
    so what judges the document next reads it; it must not be changed after."""
    _keep(roster, tree)


def _keep(roster: Roster, tree: TreeRoster) -> list:
    entry = [tree, {}, {}]
    with _evaluated_lock:
        _by_identity.clear()
        _by_identity[id(roster)] = (roster, entry)
        _evaluated[roster] = entry
        while len(_evaluated) > 8:
            _evaluated.popitem(last=False)
    return entry


def tree_validate(roster: Roster, source: str = "list") -> Report:
    """The list's Report, from the tree evaluator, with our system's rules where the game is mapped (the
    same document's Report made once per process, per rules folder: our rules are read from it)."""
    tree, reports, _memo = _entry(roster, source)
    rules_dir = str(settings.RULES_DATA_DIR)
    if rules_dir not in reports:
        reports[rules_dir] = tree_report(tree, roster.system, roster.book, roster.book_version, our_rules(tree.game))
    return reports[rules_dir]


def tree_army_of(book: Book, roster: Roster, report: Report, source: str = "list") -> Army:
    """The tree list as our rules read an army (rules/bridges/tree_army.py, the projection our system's
    rules read too), for an event's own rules: `report` is its tree Report (tree_validate), whose lines
    give each unit's points."""
    tree = evaluated(roster, source)
    return tree_army(book, roster, tree, report, _mapping(tree.game))


def our_rules(game: GameData) -> Callable[[TreeRoster, Result], list[Violation]] | None:
    """Our system's system-wide rules for the data's game, where rules_data/battlescribe_systems.yaml maps
    its game system to one of ours this site holds: through the one bridge, the tree projected onto our
    army (rules/bridges/tree_army.py) and each rule run as its native check, unless the data says it
    itself; a rule the tree cannot answer is said as `system.rule_unchecked` (rules/bridges/systems.py).
    None for a game we do not know. A broken mapping file is a RulesDataError."""
    root = Path(settings.RULES_DATA_DIR)
    mapping = _mapping(game)
    if mapping is None or not (root / mapping.system / "system.yaml").is_file():
        return None
    system = _our_system(root / mapping.system, root)
    return lambda tree, result: system_violations(tree, result, system, mapping)


def _mapping(game: GameData) -> SystemMapping | None:
    """Our system mapping of the data's game system (rules_data/battlescribe_systems.yaml), or None."""
    root = Path(settings.RULES_DATA_DIR)
    if not (root / MAPPING_FILE).is_file():
        return None
    return load_mappings(root).find(game.system)


def tree_printing(roster: Roster) -> TreePrinting | None:
    """What the PDF of a tree list needs besides its Report (exports/pdf.py: render_pdf's `tree`): the
    evaluated roster and how its data names the General and the Battle Standard Bearer (our system's
    mapping, rules_data/battlescribe_systems.yaml); None for a list that is not a tree."""
    if not roster.is_tree:
        return None
    tree = evaluated(roster)
    mapping = _mapping(tree.game)
    if mapping is None:
        return TreePrinting(tree)
    return TreePrinting(tree, mapping.general, mapping.battle_standard)


def our_system(roster: Roster) -> str | None:
    """The id of our system that rules_data/battlescribe_systems.yaml maps the tree's game onto (New
    Recruit's Old World data: `the-old-world`), or None for a game we do not map."""
    if not roster.is_tree:
        return None
    mapping = _mapping(evaluated(roster).game)
    return mapping.system if mapping is not None else None


def our_print_variant(roster: Roster) -> str | None:
    """The sheet of our system that rules_data/battlescribe_systems.yaml maps the tree's game onto (Mordheim:
    `warband`), or None for a game we do not map."""
    if not roster.is_tree:
        return None
    mapping = _mapping(evaluated(roster).game)
    root = Path(settings.RULES_DATA_DIR)
    if mapping is None or not (root / mapping.system / "system.yaml").is_file():
        return None
    return _our_system(root / mapping.system, root).print_variant


@lru_cache(maxsize=8)
def _our_system(folder: Path, root: Path):
    return load_system_part(folder, root)[0]


def with_tree(roster: Roster, tree: TreeRoster) -> Roster:
    """The list document after an action on its evaluator roster, which is kept as the new document's: the
    action refreshed it as BattleScribe does, which is what building it from the document gives."""
    forces, limit, others = document_tree(tree)
    after = replace(roster, forces=forces, points_limit=limit or roster.points_limit, cost_limits=others)
    _keep(after, tree)
    return after


# --- starting and settings ----------------------------------------------------------------------

def start_tree(book: Book, name: str, points_limit: int) -> Roster:
    """An empty tree list of `book`: one force of its catalogue's first force entry that is not hidden,
    with what that force selects by itself."""
    check_limit(points_limit)
    roster = Roster(system=book.system.id, book=book.id, book_version=book.version, points_limit=points_limit,
                    name=check_name(name), forces=())
    game = game_for(roster)
    catalogue = _catalogue_of(game)
    tree = TreeRoster(game)
    if primary_cost_type(game):
        tree.cost_limits[primary_cost_type(game)] = float(points_limit)
    forces = [f for f, (entry, doc) in game.forces.items()
              if not entry.get("hidden") and doc in game.linked_docs(catalogue)]
    if forces:
        add_force(tree, forces[0], catalogue)
    return with_tree(roster, tree)


def as_tree(book: Book, roster: Roster, source: str = "list") -> Roster:
    """A document of a book whose lists are roster trees, as one, whatever door it came through: a plain
    document with no units is the empty tree a new list of the book starts as (its name, limit, player,
    team and notes kept); one with units, naming the flattened import's entries and options, is the tree the
    same list is (unflatten.py), and a ListDocumentError naming the first unit or option the data has no
    place for (issue 37 item 2: such a list had been stored flattened and judged by a second copy of
    BattleScribe's semantics)."""
    if roster.is_tree or not is_tree_book(book):
        return roster
    if roster.units:
        try:
            tree, unplaced = tree_of(book, roster)
        except GameDataUnavailable as exc:   # as a new list of the book is refused (game_for)
            raise ListDocumentError(source, ("book_version",), str(exc)) from None
        except GameDataError:   # stored data the evaluator cannot expand: plain, as an empty one stays below
            return roster
        if unplaced:
            first = unplaced[0]
            raise ListDocumentError(source, first.path, f"{first.what} cannot be placed in the BattleScribe data of "
                                                        f"{book.name}, whose lists are roster trees (`forces`, "
                                                        f"docs/list-format.md): send its forces, or the list "
                                                        f"without it")
        return tree if tree is not None else roster
    try:  # a document's name may be empty (the API's list has a name of its own); a tree's may not
        tree = start_tree(book, roster.name or book.name, roster.points_limit)
    except EditError as exc:
        raise ListDocumentError(source, ("points_limit",), str(exc)) from None
    except GameDataError:  # stored data the evaluator cannot expand (a link to a catalogue not kept with it):
        return roster      # the list stays plain, judged by the flattened book, as before
    return replace(tree, name=roster.name, player=roster.player, team=roster.team, notes=roster.notes)


def _catalogue_of(game: GameData) -> str:
    """The book's catalogue: the stored documents are the game system, the catalogue, then what it links."""
    return next(iter(game.catalogues))


# --- units (root selections) and their selections ---------------------------------------------

def _first_force(tree: TreeRoster, force_id: str | None) -> Force:
    forces = list(tree.all_forces())
    if force_id is not None:
        found = tree.by_uid.get(force_id)
        if not isinstance(found, Force):
            raise EditError(f"The list has no force {force_id!r}.", "force")
        return found
    if not forces:
        raise EditError("The list has no force to add a unit to.", "entry")
    return forces[0]


def root_choices(tree: TreeRoster, force: Force) -> list[Option]:
    """The entries a force offers as units, each once (by its composite id), hidden ones left out."""
    seen, out = set(), []
    for option in tree.options(force):
        if option.entry_id in seen or option.entry.get("hidden") or (option.link or {}).get("hidden"):
            continue
        seen.add(option.entry_id)
        out.append(option)
    return out


def find_root_entry(tree: TreeRoster, force: Force, wanted: str) -> Option:
    """A unit entry named by its entry id (composite, link or entry) or its exact name; an EditError
    naming the closest name otherwise."""
    choices = root_choices(tree, force)
    for test in (lambda o: wanted in (o.entry_id, o.entry["id"], (o.link or {}).get("id")),
                 lambda o: _name(o) == wanted):
        found = [o for o in choices if test(o)]
        if found:
            return found[0]
    names = [_name(o) for o in choices]
    close = difflib.get_close_matches(wanted, names, n=1, cutoff=0.0)
    hint = f"; the closest is {close[0]!r}" if close else ""
    raise EditError(f"{force.state.name or 'The force'} has no unit entry {wanted!r}{hint}.", "entry")


def _name(option: Option) -> str:
    return (option.link or {}).get("name") or option.entry.get("name", "")


def add_root_selection(roster: Roster, wanted: str, force_id: str | None = None,
                       size: int | None = None) -> tuple[Roster, str]:
    """A unit added as BattleScribe adds one (what its minimums and defaults ask for with it); `size`
    sets the number of its model selection where it has one. Returns the list and the unit's id."""
    tree = evaluator(roster)
    if sum(1 for _ in tree.all_selections()) >= MAX_UNITS * 20:
        raise EditError("The list holds as many selections as a list may.", "entry")
    force = _first_force(tree, force_id)
    option = find_root_entry(tree, force, wanted)
    selection = select(tree, force, option.entry_id)
    if size is not None:
        _set_size(tree, selection, size)
    mapping = _mapping(tree.game)   # issue 40 item 2: a compulsory choice picked, the first character the General
    complete_as_added(tree, selection, mapping.general if mapping is not None else frozenset())
    return with_tree(roster, tree), selection.uid


def _set_size(tree: TreeRoster, selection: Selection, size: int) -> None:
    if not 1 <= size <= 10000:
        raise EditError("A unit's size is between 1 and 10000.", "size")
    models = [c for c in selection.children if c.option.entry.get("type") == "model"]
    if len(models) == 1:
        set_count(tree, models[0], size)
    elif size != 1:
        raise EditError(f"{selection.state.name} has no one model entry whose number is its size.", "size")


def remove_selection(roster: Roster, uid: str) -> Roster:
    """A selection removed with its children (a unit, or one of a unit's selections)."""
    tree = evaluator(roster)
    selection = tree.by_uid.get(uid)
    if not isinstance(selection, Selection):
        raise EditError(f"The list has no selection {uid!r}.", "unit")
    set_count(tree, selection, 0)
    return with_tree(roster, tree)


def duplicate_selection(roster: Roster, uid: str) -> tuple[Roster, str]:
    """A copy of a unit (root selection), its selections and their numbers, just after it, as
    BattleScribe's "duplicate" makes one; returns the list and the copy's id."""
    tree = evaluator(roster)
    selection = tree.by_uid.get(uid)
    if not isinstance(selection, Selection) or isinstance(selection.parent, Selection):
        raise EditError(f"The list has no unit {uid!r}.", "unit")
    if sum(1 for _ in tree.all_selections()) + sum(1 for _ in selection.walk()) > MAX_UNITS * 20:
        raise EditError("The list holds as many selections as a list may.", "unit")
    twin = duplicate(tree, selection)
    return with_tree(roster, tree), twin.uid


def set_child_number(roster: Roster, parent_uid: str, entry: str, number: int) -> tuple[Roster, str | None]:
    """How many of `entry` a selection holds (0 removes it; from none, it is selected with what it
    brings). Returns the list and the child's id (None when removed)."""
    tree = evaluator(roster)
    parent = tree.by_uid.get(parent_uid)
    if not isinstance(parent, Selection):
        raise EditError(f"The list has no selection {parent_uid!r}.", "unit")
    child = _set_number(tree, parent, entry, number)
    return with_tree(roster, tree), child.uid if child is not None else None


def _set_number(tree: TreeRoster, parent: Selection, entry: str, number: int) -> Selection | None:
    if not 0 <= number <= 10000:
        raise EditError("A number is between 0 and 10000.", "number")
    try:
        option = tree.find_option(parent, entry)
    except RosterError:
        raise EditError(f"{parent.state.name} has no option {entry!r}.", "option") from None
    have = [c for c in parent.children if c.entry_id == option.entry_id]
    while len(have) > 1 and sum(c.amount for c in have) > number:
        deselect(tree, have.pop())
    if have:
        set_count(tree, have[0], number)
        return have[0] if number else None
    if number:
        child = select(tree, parent, option.entry_id)
        if number > 1:
            set_count(tree, child, number)
        return child
    return None


def set_children(roster: Roster, counts: dict[tuple[str, str], int]) -> Roster:
    """Several options set at once (the unit form): (parent selection, entry id path) -> how many, on one
    evaluator roster (built once, not once a field). A parent gone with an earlier change (a child removed
    with its own options) is passed over."""
    tree = evaluator(roster)
    changed = False
    for (parent_uid, entry), number in counts.items():
        parent = tree.by_uid.get(parent_uid)
        if not isinstance(parent, Selection) or not attached(tree, parent):
            continue
        have = sum(c.amount for c in parent.children if c.entry_id == entry)
        if have != number:
            _set_number(tree, parent, entry, number)
            changed = True
    return with_tree(roster, tree) if changed else roster


def attached(tree: TreeRoster, selection: Selection) -> bool:
    """Still in the roster: an action takes a selection out of its parent, not out of `by_uid`."""
    element = selection
    while isinstance(element, Selection):
        if element not in tree.siblings(element):
            return False
        element = element.parent
    return True
