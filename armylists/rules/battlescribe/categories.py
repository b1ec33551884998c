"""A force's categories and their constraints -> errors (the Validator's part for categories).

Two kinds of category, as BattleScribe's and New Recruit's rosters hold them:

- A category the force entry links (Characters, Core, Rare): BattleScribe's force holds one category
  per link, and the selections whose primary category it is sit in it. Its constraints (the category
  entry's and the link's, after modifiers) count those selections; a hidden one that still holds
  selections is an error on the force ("(hidden)", hidden-validation-analysis.md of the suite, line 424).

- Any other category entry with constraints that the force's catalogue sees (its own, its game system's,
  the catalogues it links): New Recruit's Old World data keeps its "0-1 X or Y per 1,000 points" limits
  on hidden categories that several units link to, or that a modifier adds to a unit. The category stands
  in each force, its constraints counting the selections that carry it (among their categories after
  modifiers, primary or not), in every force whether any selection carries it or not, so that a minimum
  ("at least 3 units", "as many units with the Mark of Khorne as characters with it") asks for them.
  Being hidden keeps such a category off the roster's view, not its limits: the data's hidden
  categories exist for them, and BattleScribe skips only hidden selection and force entries'
  constraints (hidden-validation-analysis.md, "constraint skipping"). `shared` changes nothing here:
  New Recruit counts a category's constraint by the category's own id whatever its `shared`
  (shared-flag-semantics.md, `!this.source.isCategory()`). Scopes, from the category in its force:
  `parent` and `force` are that force (the category's parent), `roster` the roster, `primary-catalogue`
  the forces of the force's catalogue, the category's own id the force; anything else is named
  unsupported (`category_constraint_problem`, which the import report asks too).
"""
from __future__ import annotations

from armylists.rules.battlescribe.effective import constraint_problem, effective
from armylists.rules.battlescribe.errors import Error
from armylists.rules.battlescribe.queries import Context, Match
from armylists.rules.battlescribe.tree import Force
from armylists.rules.battlescribe.words import hidden_words

CATEGORY_SCOPES = ("parent", "force", "roster", "primary-catalogue")


def category_constraint_problem(constraint: dict, category_id: str, cost_types: set[str]) -> str | None:
    """Why the evaluator would name a category entry's constraint unsupported, or None: it is evaluated."""
    found = constraint_problem(constraint, cost_types)
    if found:
        return found
    scope = constraint.get("scope", "parent")
    if scope not in CATEGORY_SCOPES and scope != category_id:
        return f"scope {scope!r} of a category's constraint"
    return None


class CategoryLimits:
    """The Validator's checks of categories (validation.py); it gives `_judge`, `_count_scope`, `_count_in`,
    `_measure`, `_percent`, `_army` and the state they share."""

    def _categories(self, force: Force) -> None:
        """A category's limits in a force (counting the selections whose primary category it is), and a
        hidden category that still has selections: an error on the force."""
        for link in force.entry.get("category_links", []):
            category = self.game.categories.get(link["target"], {})
            target = link["target"]
            ctx = Context(self.roster, force, force.parent)
            sources = tuple(s for s in (category, link) if s)
            if effective(ctx, sources, self.cost_types, self.unsupported).hidden:
                if any(s.state.primary == target for s in force.selections):
                    name = self.game.name_of(target)
                    self.errors.append(Error("force", frozenset({force.entry_id}), target, "hidden",
                                             f"{force.state.name} cannot have any selections of {name} (hidden)",
                                             words=hidden_words(name, self._army(force), []), kind="hidden"))
                continue
            self._scene = (ctx, sources, force)
            for source in sources:
                eff = effective(ctx, (source,), self.cost_types, self.unsupported)
                for constraint, value in eff.constraints:
                    field = constraint.get("field") or "selections"
                    got = self._count_scope(constraint, force, Match("primary", target), field)
                    if got is not None:
                        self._judge(constraint, value, got, force, source, field, target)

    def _carried_categories(self, force: Force) -> None:
        """The constraints of every other category entry the force's catalogue sees, in the force, over
        the selections that carry the category."""
        linked = {link["target"] for link in force.entry.get("category_links", [])}
        ctx = Context(self.roster, None, force)   # the category stands in the force: its parent, its ancestor
        for category in self.game.category_entries(force.catalogue_id):
            target = category["id"]
            if target in linked:
                continue
            self._scene = (ctx, (category,), force)
            eff = effective(ctx, (category,), self.cost_types, self.unsupported)
            for constraint, value in eff.constraints:
                field = constraint.get("field") or "selections"
                problem = category_constraint_problem(constraint, target, self.cost_types)
                if problem:
                    self.unsupported.append(f"{problem} ({constraint.get('id')})")
                    continue
                self._matched, self._share, self._each = [], None, False
                named = eff.name if eff.name != category.get("name") else ""   # a modifier renamed it
                if field == "forces":   # BattleScribe counts forces of a force entry only: none here
                    self._judge(constraint, value, 0, force, category, field, target, named=named)
                    continue
                got = self._count_carried(constraint, force, target, field)
                if got is not None:
                    scope = constraint.get("scope", "parent")
                    self._judge(constraint, value, got, force, category, field, target, named=named,
                                instance="" if scope in ("roster", "primary-catalogue") else force.uid)

    def _count_carried(self, constraint: dict, force: Force, target: str, field: str) -> float | None:
        """How many selections carrying the category `target` (or how much of a cost) the constraint's
        scope holds, seen from the force; a percentage where `percentValue` says."""
        scope = constraint.get("scope", "parent")
        children = constraint.get("include_child_selections", False)
        child_forces = constraint.get("include_child_forces", False)
        if scope == "roster":
            targets: list = [self.roster]
        elif scope == "primary-catalogue":
            targets = [f for f in self.roster.all_forces() if f.catalogue_id == force.catalogue_id]
        else:
            targets = [force]
        return self._count_in(constraint, field, targets, Match("category", target), children,
                              child_forces)
