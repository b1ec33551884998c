"""A list document kept as a roster tree (rules/reading/selection_tree.py) to and from the evaluator's Roster,
and the evaluator's verdict as our Report.

    roster = tree_roster(game, list_roster)      # forces and selections placed as the document says
    report = tree_report(roster, list_roster)     # costs, errors (bs.* codes), units, categories
    forces, limits = document_tree(roster)        # back to the document after an action

The document's ids are the evaluator's uids, kept across a round trip so an edit names a selection;
the first cost type's limit is the list's `points_limit`, other cost limits its `cost_limits`.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Callable

from armylists.rules.battlescribe.actions import place
from armylists.rules.battlescribe.data import GameData
from armylists.rules.battlescribe.effective import effective
from armylists.rules.battlescribe.queries import Context
from armylists.rules.battlescribe.evaluate import Result, categorise, evaluate, refresh
from armylists.rules.battlescribe.plans import plan
from armylists.rules.battlescribe.tree import Force, Roster, RosterError, Selection
from armylists.rules.report import ERROR, WARNING, CategoryLine, Report, UnitLine, Violation
from armylists.rules.reading.roster import Roster as ListRoster
from armylists.rules.reading.selection_tree import TreeForce, TreeSelection


def primary_cost_type(game: GameData) -> str:
    return game.cost_types[0]["id"] if game.cost_types else ""


def tree_roster(game: GameData, roster: ListRoster) -> Roster:
    """The evaluator's roster of a tree list, every selection placed as saved (nothing added by itself);
    a RosterError names a force or selection the data does not know."""
    tree = Roster(game)
    tree.cost_limits = {}
    if primary_cost_type(game):
        tree.cost_limits[primary_cost_type(game)] = float(roster.points_limit)
    tree.cost_limits.update({game.cost_type_id(k) or k: v for k, v in roster.cost_limits})
    start_past(tree, [n.id for top in roster.forces or () for f in top.walk_forces()
                      for n in (f, *(x for s in f.selections for x in s.walk()))])
    for force in roster.forces or ():
        _place_force(tree, force, None)
    settle(tree)
    return tree


def settle(tree: Roster) -> None:
    """States for selections placed as saved, none evaluated yet: those an editor kept from its last action.
    One refresh gives them where nothing a refresh computes reads what it has not computed yet; a second
    where a category modifier counts (its pass goes top down, so a count may meet selections whose
    categories come after it; an instanceOf reads the selection and what it is in, which come before) or a
    cost reads another (its order, cost_order.py), or a name or hidden flag reads a cost. "A Lance is shown
    where an ancestor holds a mount" reads the mount's categories, which the categories pass gives first.

    Where only category modifiers count (Old World data: every roster), the second refresh is known
    before it is made: the rest of a refresh reads the tree's shape, numbers and categories (no cost: a
    cost read is flagged, `_reads_costs`), so if the categories pass gives what the first refresh gave,
    the second would give every state again; only that pass is run again (a stateless validation built
    the tree with two whole refreshes). Where it gives other categories, they are put back and the
    second refresh is made as before."""
    refresh(tree)
    plans = [plan(tree.game, s.option) for s in tree.all_selections()]
    if not any(map(_reads_ahead, plans)):
        return
    if not any(map(_reads_costs, plans)):
        before = [(s, s.state.categories, s.state.primary) for s in tree.all_selections()]
        categorise(tree, [])   # what it finds unsupported, the first refresh found (roster.found)
        if all(s.state.categories == c and s.state.primary == p for s, c, p in before):
            return
        for selection, categories, primary in before:
            selection.state.categories, selection.state.primary = categories, primary
    refresh(tree)


def _reads_ahead(found) -> bool:
    return bool(found.categories_count or _reads_costs(found))


def _reads_costs(found) -> bool:
    return bool(found.cost_readers or found.state_reads_costs or found.categories_read_costs)


def _place_force(tree: Roster, node: TreeForce, parent: Force | None) -> None:
    if node.entry not in tree.game.forces:
        raise RosterError(f"force {node.id}: {node.entry!r} is not a force entry of the book's data")
    if node.catalogue not in tree.game.docs:
        raise RosterError(f"force {node.id}: catalogue {node.catalogue!r} is not in the book's data")
    owner = parent if parent is not None else tree
    force = Force(node.id, tree.game.forces[node.entry][0], node.catalogue, owner, tree)
    owner.forces.append(force)
    tree.register(force)
    for selection in node.selections:
        _place_selection(tree, force, selection)
    for child in node.forces:
        _place_force(tree, child, force)


def _place_selection(tree: Roster, container, node: TreeSelection) -> None:
    try:
        placed = place(tree, container, node.entry, node.number)
    except RosterError as exc:
        raise RosterError(f"selection {node.id}: {exc}") from None
    keep_uid(tree, placed, node.id)
    for child in node.selections:
        _place_selection(tree, placed, child)


KEPT_ID = re.compile(r"^[A-Za-z0-9_.-]{1,60}$")   # the list document's id (list_reader.TreeId)


def start_past(tree: Roster, kept: list[str]) -> None:
    """The uids the actions make start past every kept id's number, so a new one never meets a kept one."""
    numbers = [int(m.group(1)) for uid in kept if (m := re.search(r"(\d+)$", uid))]
    tree._ids = itertools.count(max(numbers, default=0) + 1)


def keep_uid(tree: Roster, item: Selection | Force, wanted: str) -> None:
    """Give a placed selection or force the id it was saved with, where the document can hold it and
    nothing else has it."""
    if not KEPT_ID.match(wanted or "") or wanted in tree.by_uid:
        return
    del tree.by_uid[item.uid]
    item.uid = wanted
    tree.register(item)


def document_tree(tree: Roster) -> tuple[tuple[TreeForce, ...], int, tuple[tuple[str, float], ...]]:
    """The document's forces, points limit and other cost limits for the evaluator's roster."""
    primary = primary_cost_type(tree.game)
    limit = int(tree.cost_limits.get(primary, 0))
    others = tuple(sorted((k, float(v)) for k, v in tree.cost_limits.items() if k != primary))
    return tuple(_force_node(f) for f in tree.forces), limit, others


def _force_node(force: Force) -> TreeForce:
    return TreeForce(force.uid, force.entry_id, force.catalogue_id,
                     tuple(_selection_node(s) for s in force.selections),
                     tuple(_force_node(f) for f in force.forces))


def _selection_node(selection: Selection) -> TreeSelection:
    return TreeSelection(selection.uid, selection.entry_id, selection.number,
                         tuple(_selection_node(c) for c in selection.children))


@dataclass(frozen=True)
class TreeIssue:
    code: str       # bs.constraint.max | .min | bs.hidden | bs.cost_limit | bs.cost_type | bs.error | bs.unsupported
    message: str
    severity: str = "error"
    where: str = ""   # the uid of the selection it is on, if any


def _root_uid(roster: Roster, uid: str) -> str | None:
    """The unit (root selection) a selection is in."""
    element = roster.by_uid.get(uid)
    while isinstance(element, Selection) and isinstance(element.parent, Selection):
        element = element.parent
    return element.uid if isinstance(element, Selection) else None


# What a player reads where the data holds something the evaluator does not understand: the list is never
# called legal on a guess, and what it is is listed on the book's page (editor/book_pages.py), not here.
UNSUPPORTED = "This list uses a rule of the data the site cannot check: see the book's page."
CODES = {"max": "bs.constraint.max", "min": "bs.constraint.min", "hidden": "bs.hidden", "limit": "bs.cost_limit",
         "cost_type": "bs.cost_type"}


def judged(roster: Roster) -> tuple[Result, list[TreeIssue]]:
    """The evaluator's verdict and its issues, in a player's words, each said once: one per broken rule
    (an error repeated in one unit, or the same limit of a link and of its shared entry, is one; a limit
    on what comes with each selection of an entry already over its own is not said again), and one
    issue for whatever was not understood."""
    result = evaluate(roster)
    issues, seen = [], set()
    for error in said_once(roster, result.errors):
        code = CODES.get(error.kind) or ("bs.hidden" if error.constraint_id == "hidden" else "bs.error")
        issue = TreeIssue(code, error.words or error.message, error.severity, error.where)
        key = (issue.code, issue.message, _root_uid(roster, error.where) if error.where else None)
        if key not in seen:
            seen.add(key)
            issues.append(issue)
    if result.unsupported:
        issues.append(TreeIssue("bs.unsupported", UNSUPPORTED))
    return result, issues


def said_once(roster: Roster, errors: list) -> list:
    """The errors less those that say another's rule again: a limit of the same entry, kind and numbers
    counting the same selections (a rune's "at most 1" in its parent and in the roster, with both taken
    in one character), and a limit whose every counted selection sits in one counted by another error of
    the same kind, as many as there (T9A v0.11's "General" under each "Army General": two Army
    Generals are one broken rule, not two)."""
    out = []
    for error in errors:
        mine = [roster.by_uid.get(uid) for uid in error.counted]
        parents = {getattr(getattr(s, "parent", None), "uid", None) for s in mine}
        again = any(other.kind == error.kind and other.numbers == error.numbers and other.source_id == error.source_id
                    and set(other.counted) == set(error.counted) for other in out) if mine else False
        below = mine and any(other is not error and other.kind == error.kind and len(other.counted) == len(mine)
                             and parents <= set(other.counted) for other in errors)
        if not (again or below):
            out.append(error)
    return out


def _bound(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def category_limits(roster: Roster, force: Force, link: dict) -> dict[str, int | float]:
    """A force's limits on one category, after modifiers, as the validator checks them (the category's
    and its link's constraints): min/max in percent, points (any cost type) or selections."""
    cost_types = {c["id"] for c in roster.game.cost_types}
    category = roster.game.categories.get(link["target"], {})
    ctx = Context(roster, force, force.parent)
    found: dict[str, int | float] = {}
    for source in (s for s in (category, link) if s):
        for constraint, value in effective(ctx, (source,), cost_types, []).constraints:
            field = constraint.get("field") or "selections"
            measure = field.split("::", 1)[1] if field.startswith("limit::") else field
            kind = "percent" if constraint.get("percent") else "count" if measure == "selections" else "points"
            key = f"{constraint.get('type')}_{kind}"
            if constraint.get("type") in ("min", "max") and measure in cost_types | {"selections"}:
                keep = max if constraint["type"] == "min" else min
                found[key] = _bound(keep(found[key], value)) if key in found else _bound(value)
    return found


def category_lines(roster: Roster, units: list[UnitLine], per_category: dict[str, int], limit: int,
                   cost_type: str) -> tuple[CategoryLine, ...]:
    """Every category of the forces that has units or a limit (the force entry's category links, in
    their order, a hidden one left out unless it holds units), with its limits; then any category that
    has units but no link."""
    lines, seen = [], set()
    for force in roster.all_forces():
        for link in force.entry.get("category_links", []):
            target = link["target"]
            if target in seen:
                continue
            bounds = category_limits(roster, force, link)
            category = roster.game.categories.get(target, {})
            hidden = effective(Context(roster, force, force.parent), tuple(s for s in (category, link) if s),
                               set(), []).hidden
            if (hidden or not bounds) and target not in per_category:
                continue
            seen.add(target)
            points = per_category.get(target, 0)
            percent = round(100 * points / limit, 1) if limit else 0.0
            count = sum(1 for u in units if u.category == target)
            low = [("min_percent", percent), ("min_points", points), ("min_count", count)]
            high = [("max_percent", percent), ("max_points", points), ("max_count", count)]
            state = "low" if any(k in bounds and got < bounds[k] for k, got in low) else \
                "high" if any(k in bounds and got > bounds[k] for k, got in high) else "ok"
            lines.append(CategoryLine(target, roster.game.name_of(target), points, percent,
                                      bounds.get("min_percent"), bounds.get("max_percent"), count, state,
                                      bounds.get("min_points"), bounds.get("max_points"),
                                      bounds.get("min_count"), bounds.get("max_count")))
    for target, points in per_category.items():
        if target not in seen:
            lines.append(CategoryLine(target, roster.game.name_of(target), points,
                                      round(100 * points / limit, 1) if limit else 0.0,
                                      units=sum(1 for u in units if u.category == target)))
    return tuple(lines)


def tree_report(roster: Roster, system: str, book: str, version: str,
                more: Callable[[Roster, Result], list[Violation]] | None = None) -> Report:
    """Our Report of the evaluator's verdict: the total and limit in the cost type the roster limits (else
    the data's first one spent, else its first), a line per root selection (its primary category's id,
    its cost with its children's), points per primary category, and the errors as violations with bs.*
    codes (the evaluator's own messages), then those `more` adds (our system's rules for a mapped game:
    rules/bridges/systems.py)."""
    result, issues = judged(roster)
    game = roster.game
    types = [c["id"] for c in game.cost_types]
    cost_type = next((t for t in types if t in roster.cost_limits), None) or next(
        (t for t in types if result.costs.get(t)), primary_cost_type(game))
    limit = int(roster.cost_limits.get(cost_type, 0))
    units, per_category = [], {}
    for force in roster.all_forces():
        for selection in force.selections:
            points = int(round(sum(s.state.costs.get(cost_type, 0) for s in selection.walk())))
            category = selection.state.primary or ""
            units.append(UnitLine(selection.uid, selection.entry_id, selection.state.name, category, points,
                                  selection.number))
            if category:
                per_category[category] = per_category.get(category, 0) + points
    categories = category_lines(roster, units, per_category, limit, cost_type)
    units_of = {uid: _root_uid(roster, uid) for uid in {i.where for i in issues if i.where}}
    violations = tuple(Violation(i.code, i.message, ERROR if i.severity == "error" else WARNING,
                                 unit=units_of.get(i.where)) for i in issues)
    violations += tuple(more(roster, result)) if more is not None else ()
    unit_name = game.cost_type_name(cost_type).strip() if game.cost_types else "pts"
    return Report(system=system, book=book, book_version=version, points_limit=limit,
                  total_points=int(round(result.costs.get(cost_type, 0))), band=None, band_name=None,
                  categories=categories, units=tuple(units), figures={}, violations=violations,
                  budget_unit=unit_name or "pts")
