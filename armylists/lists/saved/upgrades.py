"""A roster tree moved to a newer version of its BattleScribe book: each selection found in the new data,
or named in a player's words with the closest one the new data offers there (issue 38 item 4).

    moved, lost, dropped = follow_tree(roster, old_book, new_book)

A tree names each selection by the data's entry id (`link::entry`); data revisions rename entries and
give some new ids. Each selection is found in the new data by its id as saved (its composite, link or
entry id, as the evaluator finds it: rules/battlescribe/tree.py), else by its name in the same place
(the same force, under the same parent selection: "Champion" under "Marauders"), and then saved under
the new id. A selection found neither way is lost: a sentence names it, where it is and the closest name
the new data offers in that place, and every one is said, not only the first. What is under a lost
selection is not looked at (it goes with it). A lost unit (a force's own selection) or force keeps the
list where it is; a lost option under a unit that survives is left out of the moved list and said (the
issue's "upgraded at every step where its units survive, and told which do not"), and the check after
the move says what that leaves illegal. A list of a BattleScribe book kept in the older flattened
shape is made its tree at its own version first (BSData Mordheim's "Beastmen Gors" was flattened as
`beastmen-gors`, and its entry is "Beastmen" in later data under the same id). A list of our own books
is no tree: nothing done.
"""
from __future__ import annotations

import difflib
from dataclasses import replace

from armylists.lists.trees.battlescribe_data import GameDataUnavailable, game_data_for
from armylists.lists.trees.tree_lists import as_tree
from armylists.rules import Book, ListDocumentError, Roster
from armylists.rules.battlescribe import GameData, GameDataError
from armylists.rules.battlescribe.data import Option
from armylists.rules.reading.selection_tree import TreeForce, TreeSelection


def follow_tree(roster: Roster, old_book: Book | None, book: Book) -> tuple[Roster, list[str], list[str]]:
    """`roster` (already naming `book`'s version) with its selections found in `book`'s data, and a
    sentence for each that is not, in the list's order: `lost` when a unit or force is among them (the
    list cannot move; every loss said), else `dropped` (options under units that survive, left out);
    unchanged, with nothing said, for a list that is no roster tree or a book whose data is not kept."""
    if old_book is None:
        return roster, [], []
    if not roster.is_tree:  # a list kept flattened: its tree at its own version, then followed as a tree
        try:
            tree = as_tree(old_book, replace(roster, book=old_book.id, book_version=old_book.version))
        except ListDocumentError:
            return roster, [], []
        if not tree.is_tree:
            return roster, [], []
        roster = replace(tree, book=book.id, book_version=book.version)
    try:
        old = game_data_for(old_book.system.id, old_book.id, old_book.version)
        new = game_data_for(book.system.id, book.id, book.version)
    except GameDataUnavailable:
        return roster, [], []
    if old is None or new is None:
        return roster, [], []
    follower = _Follower(old, new, f"{book.name} {book.version}")
    try:
        forces = tuple(follower.force(f) for f in roster.forces)
    except GameDataError:  # data the evaluator cannot expand: the check after says what it can
        return roster, [], []
    said = _once([sentence for sentence, _unit in follower.said])
    if any(unit for _sentence, unit in follower.said):
        return replace(roster, forces=forces), said, []
    return replace(roster, forces=forces), [], said


def _once(sentences: list[str]) -> list[str]:
    """Each sentence once, in order, with how often it was said where more than once (two Captains)."""
    counts: dict[str, int] = {}
    for sentence in sentences:
        counts[sentence] = counts.get(sentence, 0) + 1
    return [s if n == 1 else f"{s[:-1]}, {n} times." for s, n in counts.items()]


def _by_id(options: list[Option], wanted: str) -> Option | None:
    """The option a saved id names: by its composite id, then its link's id, then its entry's id."""
    for key in (lambda o: o.entry_id, lambda o: o.link["id"] if o.link else None, lambda o: o.entry["id"]):
        found = next((o for o in options if key(o) == wanted), None)
        if found is not None:
            return found
    return None


def name_of(option: Option) -> str:
    """An option's name as the data shows it: its link's name where the link gives one, else its entry's."""
    return str((option.link or {}).get("name") or option.entry.get("name") or option.entry_id)


def _closest(name: str, options: list[Option]) -> str:
    found = difflib.get_close_matches(name, sorted({name_of(o) for o in options}), n=1, cutoff=0.5)
    return f" (the closest is {found[0]})" if found else " (nothing close to it)"


class _Follower:
    def __init__(self, old: GameData, new: GameData, book: str) -> None:
        self.old, self.new, self.book = old, new, book
        self.said: list[tuple[str, bool]] = []  # (sentence, a unit or force: the list cannot move)

    def force(self, force: TreeForce) -> TreeForce:
        if force.entry not in self.new.forces or force.catalogue not in self.new.docs:
            name = self.old.name_of(force.entry)
            self.said.append((f"The force {name} is no longer in {self.book}.", True))
            return force
        old_options = self.old.root_options(force.catalogue) if force.catalogue in self.old.docs else []
        new_options = self.new.root_options(force.catalogue)
        selections = self._selections(force.selections, old_options, new_options, "")
        return replace(force, selections=selections, forces=tuple(self.force(f) for f in force.forces))

    def _selections(self, nodes, old_options: list[Option], new_options: list[Option], where: str
                    ) -> tuple[TreeSelection, ...]:
        kept = []
        for node in nodes:
            found = self._follow(node, old_options, new_options, where)
            if found is not None:
                kept.append(found)
        return tuple(kept)

    def _follow(self, node: TreeSelection, old_options, new_options, where: str) -> TreeSelection | None:
        old = _by_id(old_options, node.entry)
        option = _by_id(new_options, node.entry)
        name = name_of(old) if old is not None else (name_of(option) if option is not None else node.entry)
        if option is None:  # a new id: the same name in the same place
            option = next((o for o in new_options if name_of(o) == name), None) if old is not None else None
        if option is None:
            if where:
                self.said.append((f"{where}: {name} is no longer an option{_closest(name, new_options)}.", False))
            else:
                self.said.append((f"{name} is no longer in {self.book}{_closest(name, new_options)}.", True))
            return None
        children = self._selections(node.selections, self.old.child_options(old) if old is not None else [],
                                    self.new.child_options(option), name if not where else f"{where} > {name}")
        return replace(node, entry=option.entry_id, selections=children)
