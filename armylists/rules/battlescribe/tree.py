"""The roster as BattleScribe holds it: roster -> forces (and child forces) -> selections -> children.

A selection holds the `Option` it was made from (entry, link and group ids), its `amount` per one of its
parent (a collective child "once per model") and its children. Its `number` is what a .ros file says:
the amount times its parent's number, down from the force. `state` is what the last evaluation found
(costs, name, hidden, categories); BattleScribe's queries read those live values, so a new selection
counts nothing until it has been evaluated once (docs/cost-field-repeat-algorithm.md of the suite).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from armylists.rules.battlescribe.data import GameData, Option


class RosterError(Exception):
    """An action the roster cannot do: an unknown force entry, an entry not selectable there."""


@dataclass
class State:
    """What an evaluation found for one selection, category or force."""
    name: str = ""
    hidden: bool = False
    costs: dict[str, float] = field(default_factory=dict)   # own costs, times the number
    categories: tuple[str, ...] = ()
    primary: str | None = None


class Selection:
    def __init__(self, uid: str, option: Option, amount: int, parent, force: Force, order: int):
        self.uid = uid
        self.option = option
        self.amount = amount
        self.parent = parent
        self.force = force
        self.order = order
        self.children: list[Selection] = []
        self.state = State(name=option.entry.get("name") or (option.link or {}).get("name", ""))

    @property
    def number(self) -> int:
        number, parent = self.amount, self.parent   # up the tree, not recursively: asked very often
        while isinstance(parent, Selection):
            number *= parent.amount
            parent = parent.parent
        return number

    @property
    def entry_id(self) -> str:
        return self.option.entry_id

    def walk(self):
        """The selection and everything below it, each before its children (a stack, not a generator per
        level: walked thousands of times an evaluation)."""
        stack = [self]
        while stack:
            selection = stack.pop()
            yield selection
            if selection.children:
                stack.extend(reversed(selection.children))

    def __repr__(self) -> str:
        return f"<Selection {self.entry_id} x{self.number}>"


class Force:
    def __init__(self, uid: str, entry: dict, catalogue_id: str, parent, roster: Roster):
        self.uid = uid
        self.entry = entry
        self.catalogue_id = catalogue_id
        self.parent = parent
        self.roster = roster
        self.selections: list[Selection] = []
        self.forces: list[Force] = []
        self.state = State(name=entry.get("name", ""))

    @property
    def entry_id(self) -> str:
        return self.entry["id"]

    def walk_selections(self, child_forces: bool = False):
        for selection in self.selections:
            yield from selection.walk()
        if child_forces:
            for force in self.forces:
                yield from force.walk_selections(True)

    def walk_forces(self):
        yield self
        for force in self.forces:
            yield from force.walk_forces()


class Roster:
    """The roster: its forces, its cost limits (a cost type's default limit unless set)."""

    def __init__(self, game: GameData):
        self.game = game
        self.forces: list[Force] = []
        self.cost_limits: dict[str, float] = {c["id"]: c["default_limit"] for c in game.cost_types
                                              if c.get("default_limit", -1) >= 0}
        self._ids = itertools.count(1)
        self.by_uid: dict[str, Selection | Force] = {}
        self.fresh = False       # True while the states are those of the last refresh
        self.loops: list[tuple[str, str]] = []   # the cost loops it found: (first selection's uid, text)
        # the messages (severity, uid, text) and unsupported constructs the last refresh found
        self.found: tuple[tuple[tuple[str, str, str], ...], tuple[str, ...]] | None = None
        # the last validation's judgements of local selection containers (rules/battlescribe/kept.py)
        self.kept: dict = {}

    def new_uid(self, kind: str) -> str:
        return f"{kind}-{next(self._ids)}"

    def all_forces(self):
        for force in self.forces:
            yield from force.walk_forces()

    def all_selections(self):
        for force in self.all_forces():
            yield from force.walk_selections()

    def options(self, container: Force | Selection) -> list[Option]:
        if isinstance(container, Force):
            return self.game.root_options(container.catalogue_id)
        return self.game.child_options(container.option)

    def find_option(self, container: Force | Selection, entry_id: str) -> Option:
        """The option an action names: by its composite id, then its link's id, then its entry's id."""
        for table in _named(self.game, self.options(container)):
            found = table.get(entry_id)
            if found is not None:
                return found
        raise RosterError(f"{entry_id!r} is not selectable in {getattr(container, 'entry_id', container)}")

    def siblings(self, selection: Selection) -> list[Selection]:
        parent = selection.parent
        return parent.selections if isinstance(parent, Force) else parent.children

    def register(self, item: Selection | Force) -> None:
        self.by_uid[item.uid] = item


def _named(game: GameData, options: list[Option]) -> tuple[dict[str, Option], dict[str, Option], dict[str, Option]]:
    """A container's options by composite id, by link id and by entry id, the first of each (find_option
    asks them in that order), made once per game data: a roster read from a file names one per selection."""
    per_game = game.memo.setdefault("named", {})
    found = per_game.get(id(options))
    if found is None or found[0] is not options:
        composite: dict[str, Option] = {}
        linked: dict[str, Option] = {}
        entry: dict[str, Option] = {}
        for option in options:
            composite.setdefault(option.entry_id, option)
            if option.link is not None:
                linked.setdefault(option.link["id"], option)
            entry.setdefault(option.entry["id"], option)
        found = per_game[id(options)] = (options, (composite, linked, entry))
    return found[1]
