"""What a roster editor does, as BattleScribe does it: add a force, select an entry, deselect, set a
count, duplicate, remove a force; each refreshes the roster's costs afterwards.

Adding a force or a selection adds what BattleScribe adds by itself: every visible entry whose
minimum (field selections, not a percentage) is not met, up to that minimum, and for a group with a
minimum its `defaultSelectionEntryId` (or its only entry). A root selection is always its own node; a
child is one node counted up (`amount`) when everything below it is collective (New Recruit's
`collective_recursive`), otherwise a node per selection.
"""
from __future__ import annotations

import copy

from armylists.rules.battlescribe.data import Option
from armylists.rules.battlescribe.effective import effective
from armylists.rules.battlescribe.evaluate import refresh
from armylists.rules.battlescribe.queries import Context, Unsupported, force_of, selections_in
from armylists.rules.battlescribe.tree import Force, Roster, RosterError, Selection

AUTO_SCOPES = {"parent", "force", "roster"}
MAX_DEPTH = 40


def _depth(element) -> int:
    depth = 0
    while isinstance(element, Selection):
        depth, element = depth + 1, element.parent
    return depth


def add_force(roster: Roster, force_entry_id: str, catalogue_id: str | None = None,
              parent: Force | None = None) -> Force:
    if force_entry_id not in roster.game.forces:
        raise RosterError(f"no force entry {force_entry_id!r}")
    entry, doc = roster.game.forces[force_entry_id]
    if catalogue_id is None:
        if doc != roster.game.system["id"]:
            catalogue_id = doc
        elif parent is not None:
            catalogue_id = parent.catalogue_id
        else:
            books = [c for c, d in roster.game.catalogues.items() if not d.get("library")]
            catalogue_id = books[0] if books else roster.game.system["id"]
    owner = parent if parent is not None else roster
    force = Force(roster.new_uid("force"), entry, catalogue_id, owner, roster)
    owner.forces.append(force)
    roster.register(force)
    refresh(roster)
    auto_select(roster, force)
    return force


def remove_force(roster: Roster, force: Force) -> None:
    force.parent.forces.remove(force)
    refresh(roster)


def select(roster: Roster, container: Force | Selection, entry_id: str) -> Selection:
    return _add(roster, container, roster.find_option(container, entry_id), 1)


def place(roster: Roster, container: Force | Selection, entry_id: str, number: int = 1) -> Selection:
    """A selection as a saved roster states it (its entry id, `link::entry` paths included, and its
    number as a .ros file writes it), with nothing added by itself; `evaluate` refreshes afterwards."""
    option = roster.find_option(container, entry_id)
    parent_number = container.number if isinstance(container, Selection) else 1
    if parent_number <= 0 or number % parent_number:
        raise RosterError(f"{entry_id!r}: {number} is not a whole number per one of its parent ({parent_number})")
    siblings = container.selections if isinstance(container, Force) else container.children
    selection = Selection(roster.new_uid("selection"), option, number // parent_number, container,
                          force_of(container), len(roster.by_uid))
    siblings.append(selection)
    roster.register(selection)
    roster.fresh = False
    return selection


def _merged(roster: Roster, option: Option, depth: int = 0) -> bool:
    """Everything below the option is collective: selecting it again counts one node up."""
    if depth > 20:
        return False
    for child in roster.game.child_options(option):
        collective = child.entry.get("collective") or (child.link or {}).get("collective")
        if not collective or not _merged(roster, child, depth + 1):
            return False
    return True


def _add(roster: Roster, container, option: Option, amount: int) -> Selection:
    force = force_of(container)
    if isinstance(container, Selection) and _merged(roster, option):
        for sibling in container.children:
            if sibling.entry_id == option.entry_id:
                sibling.amount += amount
                refresh(roster)
                return sibling
    siblings = container.selections if isinstance(container, Force) else container.children
    selection = Selection(roster.new_uid("selection"), option, amount, container, force, len(roster.by_uid))
    siblings.append(selection)
    roster.register(selection)
    refresh(roster)
    auto_select(roster, selection)
    return selection


def _minimum(constraints: list[tuple[dict, float]], root: bool) -> list[tuple[dict, float]]:
    return [(c, v) for c, v in constraints
            if c.get("type") == "min" and (c.get("field") or "selections") == "selections"
            and not c.get("percent") and v > 0 and c.get("scope") in (AUTO_SCOPES if root else {"parent"})]


def _scope_count(roster: Roster, container, scope: str, match) -> float:
    target = {"parent": container, "force": force_of(container), "roster": roster}[scope]
    return sum(s.number if not isinstance(container, Selection) else s.amount
               for s in selections_in(target, False, False) if match(s))


def auto_select(roster: Roster, container: Force | Selection) -> None:
    """Select what the minimums in `container` ask for, as BattleScribe does when it is created."""
    cost_types = {c["id"] for c in roster.game.cost_types}
    root = isinstance(container, Force)
    if _depth(container) > MAX_DEPTH:
        raise RosterError(f"selections nested deeper than {MAX_DEPTH}: entries that require each other")
    done = set()
    for option in roster.options(container):
        if option.entry_id in done:
            continue
        done.add(option.entry_id)
        if not any(c.get("type") == "min" for s in option.sources for c in s.get("constraints", [])):
            continue
        try:   # a hidden entry is added too (BattleScribe does, then reports it as hidden)
            eff = effective(Context(roster, None, container, option), option.sources, cost_types, [],
                            option.group_nodes)
        except Unsupported:
            continue
        for constraint, value in _minimum(eff.constraints, root):
            base = option.entry["id"]
            need = int(value - _scope_count(roster, container, constraint.get("scope"),
                                            lambda s, b=base: s.option.entry["id"] == b))
            if need <= 0:
                continue
            if root or not _merged(roster, option):
                for _ in range(need):
                    _add(roster, container, option, 1)
            else:
                _add(roster, container, option, need)
    groups = roster.game.root_groups(container.catalogue_id) if root else roster.game.child_groups(container.option)
    options = roster.options(container)
    for step in groups:
        if step.group_id in done:
            continue
        done.add(step.group_id)
        sources = (step.node,) if step.link is None else (step.node, step.link)
        if not any(c.get("type") == "min" for s in sources for c in s.get("constraints", [])):
            continue
        try:   # hidden or not, as for entries
            eff = effective(Context(roster, None, container), sources, cost_types, [])
        except Unsupported:
            continue
        members = [o for o in options if any(g.group_id == step.group_id for g in o.groups)]
        default = step.node.get("default")
        chosen = [o for o in members if default and default in (o.entry["id"], (o.link or {}).get("id"))]
        if not chosen and len(members) == 1:
            chosen = members
        for constraint, value in _minimum(eff.constraints, False):
            have = sum(s.amount for s in container_children(container)
                       if any(g.group_id == step.group_id for g in s.option.groups))
            need = int(value - have)
            if need > 0 and chosen:
                if root or not _merged(roster, chosen[0]):
                    for _ in range(need):
                        _add(roster, container, chosen[0], 1)
                else:
                    _add(roster, container, chosen[0], need)


def container_children(container) -> list[Selection]:
    return container.selections if isinstance(container, Force) else container.children


def deselect(roster: Roster, selection: Selection) -> None:
    siblings = roster.siblings(selection)
    if selection not in siblings:
        raise RosterError(f"{selection.uid} is no longer in the roster")
    if selection.amount > 1 and isinstance(selection.parent, Selection):
        selection.amount -= 1
    else:
        siblings.remove(selection)
    refresh(roster)


def set_count(roster: Roster, selection: Selection, count: int) -> None:
    if count <= 0:
        roster.siblings(selection).remove(selection)
    else:
        selection.amount = count
    refresh(roster)


def duplicate(roster: Roster, selection: Selection) -> Selection:
    siblings = roster.siblings(selection)
    twin = _copy(roster, selection, selection.parent, selection.force)
    siblings.insert(siblings.index(selection) + 1, twin)
    refresh(roster)
    return twin


def _copy(roster: Roster, selection: Selection, parent, force: Force) -> Selection:
    twin = Selection(roster.new_uid("selection"), selection.option, selection.amount, parent, force,
                     len(roster.by_uid))
    twin.state = copy.copy(selection.state)
    roster.register(twin)
    twin.children = [_copy(roster, c, twin, force) for c in selection.children]
    return twin


def duplicate_force(roster: Roster, force: Force) -> Force:
    """A deep copy of a force, its selections and child forces, placed after it."""
    twin = _copy_force(roster, force, force.parent)
    siblings = force.parent.forces
    siblings.insert(siblings.index(force) + 1, twin)
    refresh(roster)
    return twin


def _copy_force(roster: Roster, force: Force, parent) -> Force:
    twin = Force(roster.new_uid("force"), force.entry, force.catalogue_id, parent, roster)
    roster.register(twin)
    twin.selections = [_copy(roster, s, twin, twin) for s in force.selections]
    twin.forces = [_copy_force(roster, f, twin) for f in force.forces]
    return twin


def set_cost_limit(roster: Roster, type_id: str, value: float) -> None:
    """The roster's limit in the data's cost type of that id (a legacy book's points by `points` or `pts`,
    GameData.cost_type_id); one the data does not have is kept as named, and evaluating says so."""
    roster.cost_limits[roster.game.cost_type_id(type_id) or type_id] = value
    refresh(roster)
