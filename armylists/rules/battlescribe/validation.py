"""Constraints, hidden entries and cost limits -> errors, each naming its owner and its source.

BattleScribe checks a constraint once per container: a root entry's in its force (BattleScribe's
container is the entry's primary category), a child entry's or a group's in each selection of its
parent, a force entry's in the roster (or the parent force), a category's in each force. An error is
owned as BattleScribe owns it (battlescribe-spec docs/error-assertions.md): a root entry's maximum by
a selection of it, its minimum by its primary category (scope parent), force or roster (the scope);
a child's or a group's by the parent selection; a force entry's, and any limit on the `forces` field,
by the element of its scope (the roster, or the force); a cost limit's by the roster; a hidden entry
still selected by that selection. A hidden entry's constraints are not checked.
A root entry with no primary category has no container of its own: its parent-scope minimum is not
checked (as in BattleScribe).
"""
from __future__ import annotations

from armylists.rules.battlescribe.categories import CategoryLimits
from armylists.rules.battlescribe.data import GroupStep, Option
from armylists.rules.battlescribe.effective import effective, shown
from armylists.rules.battlescribe.errors import Error
from armylists.rules.battlescribe.kept import judge_container
from armylists.rules.battlescribe.plans import container_limits
from armylists.rules.battlescribe.queries import (COUNTS, CategoryScope, Context, Match, Unsupported, count, force_of,
                                                  forces_in, has_id, ids_of, root_selection, selections_in)
from armylists.rules.battlescribe.tree import Force, Roster, Selection
from armylists.rules.battlescribe.words import (hidden_words, limit_words, needs_words, over_limit_words, reasons,
                                                   repeat_reasons, stated_bound, unit_name, unknown_cost_type_words)

__all__ = ["Error", "Validator"]


def _owner(element, category: str | None = None) -> tuple[str, frozenset]:
    if category is not None:
        return "category", frozenset({category})
    if isinstance(element, Selection):
        return "selection", frozenset(ids_of(element))
    if isinstance(element, Force):
        return "force", frozenset({element.entry_id})
    return "roster", frozenset()


class Validator(CategoryLimits):
    def __init__(self, roster: Roster, unsupported: list[str]):
        self.roster = roster
        self.game = roster.game
        self.cost_types = {c["id"] for c in self.game.cost_types}
        self.unsupported = unsupported
        self.errors: list[Error] = []
        self._matched: list[Selection] = []   # the selections the last count found
        self._share: tuple[float, float, str] | None = None   # the last percentage's amount and total
        self._each = False   # the last count is per model of its parent (a collective child)
        # where the constraints being judged stand and whose modifiers may change them (for the words)
        self._scene: tuple[Context, tuple[dict, ...], object] | None = None

    def run(self, totals: dict[str, float]) -> list[Error]:
        # What the roster holds, by entry id and by group: a limit that can only cap (plans.only_caps) of
        # an entry or group with nothing selected holds whatever its value, and is passed over.
        self._entries: set[str] = set()
        self._groups: set[str] = set()
        for selection in self.roster.all_selections():
            option = selection.option
            self._entries.add(option.entry["id"])
            if option.groups:
                self._groups |= option.group_node_ids
        for type_id, limit in self.roster.cost_limits.items():
            if type_id not in self.cost_types:   # a roster's limit in a cost type the data does not have
                self.errors.append(self._unknown_cost_type(type_id, limit))
                continue
            if limit >= 0 and totals.get(type_id, 0) > limit:
                over = shown(totals.get(type_id, 0) - limit)
                unit = self.game.cost_type_name(type_id)
                self.errors.append(Error("roster", frozenset(), "costLimits", type_id,
                                         f"Roster has {over} too many {unit} (limit {shown(limit)})",
                                         words=over_limit_words(totals.get(type_id, 0), limit, unit.strip()),
                                         kind="limit"))
        self._force_entries(self.roster, self._top_force_entries())
        kept: dict = {}   # this evaluation's kept judgements (kept.py), for the next
        for force in self.roster.all_forces():
            self._force_entries(force, force.entry.get("forces", []))
            self._categories(force)
            self._carried_categories(force)
            self._container(force, self.roster.options(force), self.game.root_groups(force.catalogue_id))
            stack = [(s, False) for s in reversed(force.selections)]   # (selection, in a hidden one)
            while stack:   # each selection before its children, in the tree's order (Selection.walk)
                selection, above = stack.pop()
                hidden = selection.state.hidden
                if hidden:
                    self._hidden(selection)
                if not (hidden or above):   # _inside_hidden, carried down
                    judge_container(self, selection, kept)
                if selection.children:
                    stack.extend((c, hidden or above) for c in reversed(selection.children))
        self.roster.kept = kept
        return self.errors

    def _unknown_cost_type(self, type_id: str, limit: float) -> Error:
        """A limit the roster sets in a cost type its data does not have: nothing is priced in it, and
        what the data limits in its own types (a percentage of its points limit) has no limit to read;
        the roster is wrong, and said to be, by the type's id (never "cannot check")."""
        known = [c["name"].strip() or c["id"] for c in self.game.cost_types if not c.get("hidden")]
        return Error("roster", frozenset(), "costLimits", type_id,
                     f"Roster has a cost limit in {type_id!r}, which is no cost type of the game system",
                     words=unknown_cost_type_words(type_id, limit, known), kind="cost_type")

    def _top_force_entries(self) -> list[dict]:
        return [f for doc in self.game.docs.values() for f in doc.get("forces", [])]

    def _below(self, container: Force | Selection) -> tuple[set[str], set[str]]:
        """The entry ids and group ids of what is selected below a selection (the roster's, for a force):
        a limit that can only cap and counts in its container holds where none of its entry is there."""
        if not isinstance(container, Selection):
            return self._entries, self._groups
        entries: set[str] = set()
        groups: set[str] = set()
        for selection in container.walk():
            if selection is not container:
                option = selection.option
                entries.add(option.entry["id"])
                if option.groups:
                    groups |= option.group_node_ids
        return entries, groups

    @staticmethod
    def _inside_hidden(selection: Selection) -> bool:
        element = selection
        while isinstance(element, Selection):
            if element.state.hidden:
                return True
            element = element.parent
        return False

    def _hidden(self, selection: Selection) -> None:
        parent = selection.parent
        if isinstance(parent, Selection) and self._inside_hidden(parent):
            return
        owner_type, ids = _owner(selection)
        where = parent.state.name if isinstance(parent, Selection) else selection.force.state.name
        ctx = Context(self.roster, selection, selection.parent, selection.option)
        why = reasons(self.game, ctx, selection.option.sources + tuple(selection.option.group_nodes), {"hidden"})
        place = unit_name(parent) if isinstance(parent, Selection) else self._army(selection.force)
        self.errors.append(Error(owner_type, ids, selection.option.entry["id"], "hidden",
                                 f"{where} cannot have any selections of {selection.state.name} (hidden)",
                                 where=selection.uid, words=hidden_words(selection.state.name, place, why),
                                 kind="hidden"))

    # force entries (categories: categories.py)

    def _force_entries(self, parent: Roster | Force, entries: list[dict]) -> None:
        """A force entry's limits: in the roster, checked in each force of the entry (one error each);
        below a force, once for the child force entry, forces of it or none (docs/constraint-field-forces.md
        and hidden-validation-analysis.md of the suite); a `forces` limit's error is its scope's."""
        for entry in entries:
            ctx = Context(self.roster, None, parent)
            self._scene, self._each, self._matched = (ctx, (entry,), parent), False, []
            eff = effective(ctx, (entry,), self.cost_types, self.unsupported)
            instances = [f for f in parent.forces if f.entry_id == entry["id"]]
            if eff.hidden and not any(f.forces for f in instances):
                continue
            for constraint, value in eff.constraints:
                field = constraint.get("field") or "selections"
                if field == "forces":
                    if constraint.get("scope") not in ("roster", "force", "parent"):
                        self.unsupported.append(f"scope {constraint.get('scope')!r} of a forces constraint")
                        continue
                    self._forces_limit(constraint, value, parent, entry, instances)
                else:
                    for force in instances:
                        got = self._count_scope(constraint, force, Match("all"), field)
                        if got is not None:
                            self._judge(constraint, value, got, force, entry, field, None)

    def _forces_limit(self, constraint: dict, value: float, parent: Roster | Force, entry: dict,
                      instances: list[Force]) -> None:
        """BattleScribe counts the forces of the entry in the element of the scope: the roster's forces, or
        a force's own child forces, a force's scope being that force where the entry's forces are checked
        one by one (in the roster), else the force they are in; the error is that element's
        (docs/constraint-field-forces.md: getForces and its filter by the owning force entry)."""
        scope, child_forces = constraint.get("scope"), constraint.get("include_child_forces", False)
        if isinstance(parent, Roster) and scope == "force":
            for force in instances:
                got = sum(1 for f in forces_in(force, child_forces) if f.entry_id == entry["id"])
                self._judge(constraint, value, got, force, entry, "forces", None, instance=force.uid)
            return
        owner = self.roster if scope == "roster" else parent
        got = sum(1 for f in forces_in(owner, child_forces) if f.entry_id == entry["id"])
        if isinstance(parent, Roster):
            for force in instances:   # BattleScribe checks it in each force of the entry
                self._judge(constraint, value, got, owner, entry, "forces", None, instance=force.uid)
        else:
            self._judge(constraint, value, got, owner, entry, "forces", None)

    # entries and groups in a container

    def _container(self, container: Force | Selection, options: list[Option], groups: list[GroupStep]) -> None:
        made = container_limits(self.game, options, groups)
        entries, group_limits = made.entries, made.groups
        below: tuple[set[str], set[str]] | None = None   # walked where a limit asks (most containers: never)
        # The entries judged here, in the data's order: those that can only cap are passed over unless one of
        # the entry is selected (below the container where they count in it, else in the roster)
        judged = list(made.always)
        if made.local_caps:
            below = self._below(container)
            for entry_id in made.local_caps.keys() & below[0]:
                judged += made.local_caps[entry_id]
        for entry_id in made.wide_caps.keys() & self._entries:
            judged += made.wide_caps[entry_id]
        judged.sort()
        seen: set = set()
        for limits in map(entries.__getitem__, judged):
            option = limits.option
            if limits.fixed and self._within(container, limits.stated, limits.collective):
                continue
            ctx = Context(self.roster, None, container, option)
            self._scene = (ctx, option.sources + tuple(option.group_nodes), container)
            eff = effective(ctx, option.sources, self.cost_types, self.unsupported, option.group_nodes)
            if eff.hidden:
                continue
            for (constraint, value), source in zip(eff.constraints, limits.holders):
                shared = constraint.get("shared", True)
                base = option.entry["id"]
                if shared:   # counted by the entry's own id: once per container, however many links reach it
                    key = (source.get("id"), constraint.get("id"))
                    if key in seen:
                        continue
                    seen.add(key)

                match = Match("entry", base) if shared else Match("composite", option.entry_id)
                self._check(constraint, value, container, source, match, eff.primary, limits.collective)
        for limits in group_limits:
            step = limits.step
            if limits.caps:
                if limits.local and below is None:
                    below = self._below(container)
                if step.node["id"] not in (below[1] if limits.local else self._groups):
                    continue
            if limits.fixed and self._within(container, limits.stated, limits.all_collective):
                continue
            self._scene = (Context(self.roster, None, container), limits.sources, container)
            # A group inside a hidden group is hidden too, and its limits with it: BSData's Mordheim keeps a
            # henchman's Skills (at least 2) in a group linked hidden until "Promoted" (docs/import-battlescribe.md).
            eff = effective(self._scene[0], limits.sources, self.cost_types, self.unsupported, limits.outer)
            if eff.hidden:
                continue
            for (constraint, value), source in zip(eff.constraints, limits.holders):
                shared = constraint.get("shared", True)

                in_group = Match("group", step.node["id"]) if shared else Match("group_id", step.group_id)
                self._check(constraint, value, container, source, in_group, None, limits.all_collective)

    def _within(self, container, stated: tuple, per_model: bool) -> bool:
        """Every constraint of a limit whose bounds no modifier changes (plans.EntryLimits.fixed, its
        `stated`: each with its bound, field, scope and match) within its bound as the data states it,
        counted as `_check` counts it: nothing to judge further."""
        for constraint, value, field, scope, match in stated:
            if scope == "self":
                counts = [self._count_self(constraint, s, field) for s in selections_in(container, False, False)
                          if match(s)]
            else:
                got = self._count_scope(constraint, container, match, field, numbers_only=True)
                if got is not None and scope == "parent" and isinstance(container, Selection) \
                        and container.number > 0 and per_model:
                    got = got / container.number
                counts = [got]
            for got in counts:
                if got is None or (got > value if constraint["type"] == "max" else got < value):
                    return False
        return True

    def _check(self, constraint: dict, value: float, container, source: dict, match, primary,
               per_model: bool) -> None:
        """One constraint of an entry or group (`per_model`: collective, so counted per model of its parent)."""
        self._matched, self._each = [], False
        field = constraint.get("field") or "selections"
        scope = constraint.get("scope", "parent")
        if field == "forces":   # BattleScribe counts forces of a force entry only: none here, the error its scope's
            owner = {"force": force_of(container), "roster": self.roster}.get(scope, container)
            self._judge(constraint, value, 0, owner, source, "forces", None)
            return
        if scope == "self" or (scope == "root-entry" and isinstance(container, Force)):
            for selection in selections_in(container, False, False):
                if match(selection):
                    got = self._count_self(constraint, selection, field)
                    if got is not None:
                        self._judge(constraint, value, got, selection, source, field, None, selection)
            return
        if isinstance(container, Force) and scope == "parent" and primary is None and constraint["type"] == "min":
            return   # an uncategorised root entry: BattleScribe has no container to check it in
        got = self._count_scope(constraint, container, match, field, primary)
        if got is None:
            return
        each = scope == "parent" and isinstance(container, Selection) and container.number > 0 and per_model
        if each:
            got = got / container.number     # a collective child: so many per model of its parent
        self._each = each
        counted = self._matched
        if constraint["type"] == "max":
            # a child's limit in its parent is the parent's error; any wider one a selection's of the entry
            local = scope == "parent" and isinstance(container, Selection)
            owner = container if local or not counted else counted[-1]
            self._judge(constraint, value, got, owner, source, field, None)
        elif scope == "parent":
            category = None if isinstance(container, Selection) else primary
            self._judge(constraint, value, got, container, source, field, category)
        else:
            owner = {"force": force_of(container), "roster": self.roster}.get(scope, container)
            self._judge(constraint, value, got, owner, source, field, None)

    def _measure(self, constraint: dict, field: str) -> str | None:
        """What a constraint counts: selections or a cost type (`limit::<cost type>`: that cost, and a
        percentage is of the roster's limit of it); None, and named as unsupported, for anything else."""
        measure = field.split("::", 1)[1] if field.startswith("limit::") else field
        if measure == "selections" or measure in self.cost_types:
            return measure
        self.unsupported.append(f"constraint field {field!r} ({constraint.get('id')})")
        return None

    def _percent(self, constraint: dict, field: str, got: float, total: float) -> float | None:
        of_what = None
        if field.startswith("limit::"):
            measure = field.split("::", 1)[1]
            total = self.roster.cost_limits.get(measure, -1)
            if total < 0 and any(t not in self.cost_types for t in self.roster.cost_limits):
                return None   # the roster's limit is in a cost type the data lacks: that is its error (run)
            if total < 0:
                self.unsupported.append(f"a percentage of the {measure} limit, which the "
                                        f"roster does not set ({constraint.get('id')})")
                return None
            of_what = f"the {shown(total)} {self.game.cost_type_name(measure).strip()} limit"
        self._share = (got, total, of_what)
        return 100 * got / total if total else 0.0

    def _count_self(self, constraint: dict, selection: Selection, field: str) -> float | None:
        self._matched, self._share, self._each = [selection], None, False
        measure = self._measure(constraint, field)
        if measure is None:
            return None
        if measure == "selections":
            got, total = selection.number, selection.number
        else:
            got = total = sum(s.state.costs.get(measure, 0) for s in selection.walk())
        return self._percent(constraint, field, got, total) if constraint.get("percent") else got

    def _count_scope(self, constraint: dict, container, match, field: str, primary=None,
                     numbers_only: bool = False) -> float | None:
        """The constraint's count in its scope, from `container`; None (and named) if not understood.
        `numbers_only`: the count alone is wanted, not the selections counted (kept for an error's words)."""
        self._share, self._each = None, False
        scope = constraint.get("scope", "parent")
        children = constraint.get("include_child_selections", False)
        child_forces = constraint.get("include_child_forces", False)
        if scope == "parent":
            targets = [container]
        elif scope == "force":
            targets = [force_of(container)]
        elif scope == "roster":
            targets = [self.roster]
            children = children or False
        elif scope == "root-entry":
            targets = [root_selection(container)]
        elif scope == "primary-category":
            root = root_selection(container)
            targets = [CategoryScope(force_of(container), root.state.primary if root is not None else primary)]
        elif scope == "primary-catalogue":
            force = force_of(container)
            targets = [f for f in self.roster.all_forces() if force is not None and f.catalogue_id == force.catalogue_id]
        else:
            targets = [a for a in _ancestors_inclusive(container) if has_id(a, scope)]
            if scope in self.game.categories:
                targets = [CategoryScope(force_of(container), scope)]
            if not targets and scope not in self.game.by_id and scope not in self.game.forces:
                self.unsupported.append(f"constraint scope {scope!r} ({constraint.get('id')})")
                return None
            targets = targets[:1]
        return self._count_in(constraint, field, targets, match, children, child_forces, numbers_only)

    def _count_in(self, constraint: dict, field: str, targets: list, match, children: bool,
                  child_forces: bool, numbers_only: bool = False) -> float | None:
        """How many selections in `targets` that `match` (or how much of a cost they hold), as the constraint's
        field measures it; a percentage of all in the targets where `percentValue` says. The matched
        selections are kept for the words, unless only the number is asked (`numbers_only`)."""
        measure = self._measure(constraint, field)
        if measure is None:
            return None
        got = 0.0
        self._matched = []
        index = COUNTS.get()
        if numbers_only and index is not None and measure == "selections" and not constraint.get("percent"):
            for target in targets:   # integers: the same sum as counted one by one below
                got += index.matching_number(target, match, children, child_forces)
            return got
        for target in targets:
            chosen = index.matching(target, match, children, child_forces) if index is not None else \
                [s for s in selections_in(target, children, child_forces) if match(s)]
            for selection in chosen:
                self._matched.append(selection)
                got += selection.number if measure == "selections" else sum(
                    s.state.costs.get(measure, 0) for s in selection.walk())
        if constraint.get("percent"):
            total = sum(count(t, measure, None, True, children, child_forces, self.cost_types) for t in targets)
            return self._percent(constraint, field, got, total)
        return got

    def _judge(self, constraint, value, got, owner, source, field, category, selection=None, instance="",
               named: str = "") -> None:
        """An error where `got` breaks the constraint's bound `value`; `named` is the category's name where
        a modifier renamed it (else the data's name of the category or entry)."""
        kind = constraint.get("type")
        if value < 0 or (kind == "max" and got <= value) or (kind == "min" and got >= value):
            return
        if kind not in ("max", "min"):
            raise Unsupported(f"constraint type {kind!r}")
        words = self._words(constraint, value, got, owner, source, field, category, named)
        owner_type, ids = _owner(owner, category)
        name = getattr(getattr(owner, "state", None), "name", "Roster") if category is None else \
            (named or self.game.name_of(category))
        measure = field.split("::", 1)[1] if field.startswith("limit::") else field
        what = field if field in ("selections", "forces") else self.game.cost_type_name(measure)
        of = named or (self.game.name_of(source.get("target") or source.get("id", "")) if source else "")
        unit = "%" if constraint.get("percent") else ""
        if kind == "max":
            text = f"{name} has {shown(got - value)}{unit} too many {what} of {of} (maximum {shown(value)}{unit})"
        else:
            text = f"{name} must have {shown(value - got)}{unit} more {what} of {of} (minimum {shown(value)}{unit})"
        error = Error(owner_type, ids, source.get("id", ""), constraint.get("id", ""), text, instance=instance,
                      where=owner.uid if isinstance(owner, Selection) else "", words=words, kind=kind,
                      counted=tuple(s.uid for s in self._matched), numbers=(got, value))
        if error not in self.errors:   # one limit seen from several containers is one error
            self.errors.append(error)

    def _words(self, constraint, value, got, owner, source, field, category, named: str = "") -> str:
        """The error in a player's words (words.py): the entry or category, how many in the constraint's
        scope, the bound, and which conditions made the bound what it is here where a modifier changed it."""
        of = named or (self.game.name_of(source.get("target") or source.get("id", "")) if source else "")
        measure = field.split("::", 1)[1] if field.startswith("limit::") else field
        unit = {"selections": "taken", "forces": "forces"}.get(measure) or self.game.cost_type_name(measure).strip()
        why: list[str] = []
        per: list[str] = []
        if self._scene is not None and value != stated_bound(constraint):
            ctx, sources, _container = self._scene
            why = reasons(self.game, ctx, sources, {constraint.get("id")})
            per = repeat_reasons(self.game, ctx, sources, {constraint.get("id")})
        if self._scene is not None and not why and constraint.get("type") == "max" and value <= 0:   # issue 40 item 3
            per += needs_words(self.game, self._scene[0], self._scene[1], {constraint.get("id")})
        share = None
        if constraint.get("percent") and self._share is not None:
            amount, total, of_what = self._share
            where = self._place(constraint, owner, category)
            share = (amount, total, of_what or f"{shown(total)} {'' if unit == 'taken' else unit + ' '}in "
                                               f"{where or 'the army'}".replace("  ", " "))
        if self._each and unit == "taken":
            unit = "per model"
        place = self._place(constraint, owner, category)
        if category is not None and named:   # a renamed category counts in itself, under its new name
            place = of
        return limit_words(of, constraint.get("type"), got, value, unit, place, why, share, tuple(per))

    def _place(self, constraint: dict, owner, category) -> str:
        """Where a constraint counts, as a player names it: the unit, a category, the army."""
        scope = constraint.get("scope", "parent")
        container = self._scene[2] if self._scene is not None else owner
        if category is not None:
            return self.game.name_of(category)
        if scope == "self":
            return ""
        if scope in ("roster", "primary-catalogue"):
            return "the army"
        if scope == "force":
            return self._army(force_of(container) or owner)
        if scope == "root-entry":
            return unit_name(container) if isinstance(container, Selection) else self._army(container)
        if scope == "primary-category":
            root = root_selection(container)
            primary = root.state.primary if root is not None else None
            return self.game.name_of(primary) if primary else self._army(force_of(container))
        if scope == "parent":
            return unit_name(container) if isinstance(container, Selection) else self._army(container)
        if scope in self.game.categories:
            return self.game.name_of(scope)
        above = next((a for a in _ancestors_inclusive(container) if scope in ids_of(a)), None)
        return above.state.name if isinstance(above, Selection) else self._army(force_of(container))

    def _army(self, force) -> str:
        """A force as a player names it: "the army" when it is the roster's only force."""
        if not isinstance(force, Force) or sum(1 for _f in self.roster.all_forces()) == 1:
            return "the army"
        return force.state.name or force.entry.get("name", "the army")


def _ancestors_inclusive(element):
    while element is not None:
        yield element
        element = None if isinstance(element, Roster) else element.parent
