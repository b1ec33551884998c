"""The list document of a book imported from BattleScribe data: forces (and child forces), selections
and child selections with their numbers, as BattleScribe and New Recruit keep a roster (docs/list-format.md).

Ids are the data's own (a force entry id, a selection's entry id path `link::entry`), never our slugs;
`number` is what a .ros file writes (the selection's count times its parent's). The engine that reads
this shape is rules/battlescribe/ (document.py); our native engine never sees it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MAX_TREE_DEPTH = 12    # selections inside selections; BattleScribe data nests about 6 deep
# A roster tree's units (root selections, every force) and its selections in all: a list's units at most, as
# our documents' (list.schema.json), and twenty selections a unit. An Old World army of 2,000 pts holds 62-118
# selections; 4,000 are judged in about a second of CPU (docs/security.md, bench: docs/benchmarks.md).
MAX_TREE_UNITS = 200
MAX_TREE_SELECTIONS = 4000


@dataclass(frozen=True, slots=True)
class TreeSelection:
    id: str
    entry: str
    number: int = 1
    selections: tuple[TreeSelection, ...] = ()

    def walk(self):
        yield self
        for child in self.selections:
            yield from child.walk()


@dataclass(frozen=True, slots=True)
class TreeForce:
    id: str
    entry: str
    catalogue: str
    selections: tuple[TreeSelection, ...] = ()
    forces: tuple[TreeForce, ...] = ()

    def walk_forces(self):
        yield self
        for child in self.forces:
            yield from child.walk_forces()


def tree_from_document(forces: Any) -> tuple[TreeForce, ...]:
    """The typed reader's forces (list_reader.ForceDocument) as the Roster keeps them."""
    return tuple(_force(f) for f in forces)


def _force(f) -> TreeForce:
    return TreeForce(f.id, f.entry, f.catalogue, tuple(_selection(s) for s in f.selections),
                     tuple(_force(c) for c in f.forces))


def _selection(s) -> TreeSelection:
    return TreeSelection(s.id, s.entry, s.number, tuple(_selection(c) for c in s.selections))


def tree_depth(forces: Any) -> int:
    """How deep selections nest: a root selection is 1, its child 2; forces and child forces hold selections
    and add no level (counting the force made 12 nested selections 13, refused against MAX_TREE_DEPTH's 12
    and the docs). Without recursing."""
    deepest = 0
    stack = [(f, 0) for f in forces]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack += [(c, depth) for c in getattr(node, "forces", ())]
        stack += [(c, depth + 1) for c in node.selections]
    return deepest


def tree_to_list(forces: tuple[TreeForce, ...]) -> list[dict[str, Any]]:
    return [_force_dict(f) for f in forces]


def _force_dict(f: TreeForce) -> dict[str, Any]:
    out: dict[str, Any] = {"id": f.id, "entry": f.entry, "catalogue": f.catalogue,
                           "selections": [_selection_dict(s) for s in f.selections]}
    if f.forces:
        out["forces"] = [_force_dict(c) for c in f.forces]
    return out


def _selection_dict(s: TreeSelection) -> dict[str, Any]:
    out: dict[str, Any] = {"id": s.id, "entry": s.entry, "number": s.number}
    if s.selections:
        out["selections"] = [_selection_dict(c) for c in s.selections]
    return out
