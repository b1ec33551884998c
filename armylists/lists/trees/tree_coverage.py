"""What the tree evaluator does not understand in an imported book's data, for its page (issue 22 item 4):
each unit entry of the force a new list of the book starts with, taken alone at a points limit (as the
site's lists have one), with what it brings; what the evaluation names as not understood, each kind once. A list
that meets one of these is never called legal (rules/battlescribe/document.py, `UNSUPPORTED`); this page
is where a curious player reads what they are. bench/battlescribe_unsupported.py does the same over a
whole data set."""
from __future__ import annotations

import re
import threading
from collections import OrderedDict

from armylists.lists.trees.battlescribe_data import GameDataUnavailable
from armylists.lists.trees.tree_lists import game_for
from armylists.rules import Book, ListDocumentError, Roster
from armylists.rules.battlescribe import GameDataError, RosterError, add_force, evaluate, select, set_cost_limit
from armylists.rules.battlescribe import Roster as TreeRoster
from armylists.rules.battlescribe.document import primary_cost_type

MAX_TRIED = 400    # unit entries tried per book: the largest catalogue in ../shared has about 150
TRIAL_LIMIT = 2000


def not_evaluated(book: Book) -> list[str]:
    """The kinds of construct the evaluator did not understand in lists of `book` holding one unit each,
    in its words with ids left out ("constraint field 'no-such-field'"); [] when it understood them all."""
    try:
        game = game_for(Roster(system=book.system.id, book=book.id, book_version=book.version,
                               points_limit=TRIAL_LIMIT))
    except (ListDocumentError, GameDataUnavailable):
        return []
    key = (book.system.id, book.id, book.version)
    with _lock:   # kept per GameData object: the data kept for a book version is read once per process
        if key in _found and _found[key][0] is game:
            return list(_found[key][1])
    found = _tried(game)
    with _lock:
        _found[key] = (game, found)
        while len(_found) > 32:
            _found.popitem(last=False)
    return list(found)


_found: OrderedDict = OrderedDict()
_lock = threading.Lock()


def _tried(game) -> tuple[str, ...]:
    catalogue = next(iter(game.catalogues))
    # The force a new list starts with (tree_lists.start_tree): trying every force entry too multiplies
    # the work (New Recruit's Old World books have five) for a first view of the page.
    forces = [f for f, (entry, doc) in game.forces.items()
              if not entry.get("hidden") and doc in game.linked_docs(catalogue)][:1]
    found: list[str] = []
    tried = 0
    for force_entry in forces:
        for option in game.root_options(catalogue):
            if tried >= MAX_TRIED:
                return tuple(found)
            tried += 1
            tree = TreeRoster(game)
            if primary_cost_type(game):
                set_cost_limit(tree, primary_cost_type(game), TRIAL_LIMIT)
            try:
                select(tree, add_force(tree, force_entry, catalogue), option.entry_id)
                result = evaluate(tree)
            except (RosterError, GameDataError, RecursionError):
                continue
            for item in result.unsupported:
                kind = re.sub(r"\s*\([^)]*\)", "", item).strip()
                if kind not in found:
                    found.append(kind)
    return tuple(found)
