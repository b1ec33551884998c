"""An event's own rules on a list kept as a roster tree (an imported BattleScribe book's list).

The tree evaluator judges such a list by its data's own semantics (battlescribe/document.py), but an
organiser's rules are written in our vocabulary (docs/rule-types.md) and read an `Army`. Here a tree is
projected onto that view, by what the data says:

- each root selection is a unit: the book's entry it was imported as (matched by the data's entry and
  link ids, which the importer keeps as `bs-` tags), its name, its points (the tree Report's line: its
  cost with its children's), its models (the numbers of its model selections), its category (our id of
  the data's primary category, by name, as the importer maps them; `other` for one we do not have),
  the options its children were imported as, and as tags the data's ids of its entry, link, categories
  and children (`bs-...`) besides the entry's tags;
- the General where our system's mapping (rules_data/battlescribe_systems.yaml) names the entry that
  makes one; magic items (for team rules) where it names the groups that hold them.

What the data does not carry (a Wizard level, a troop type, a mount, a Character flag, our magic items,
a tag of our own books such as `own-limit`) cannot be answered: a rule that asks for it is not run but
said as `event.rule_unchecked`, so a list is never called legal on a guess. Likewise a rule type that
reads more than the projection holds (item allowances, unit options...).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from armylists.rules.native.army import Army, Unit
from armylists.rules.battlescribe import Roster as TreeRoster
from armylists.rules.battlescribe import Selection
from armylists.rules.bridges.systems import SystemMapping
from armylists.rules.native.book import Book, Entry, Rule
from armylists.rules.checks import CHECKS
from armylists.rules.native.engine import count_lines
from armylists.rules.report import ERROR, CountLine, Report, Violation
from armylists.rules.reading.roster import Roster, RosterUnit

# The rule types that read no more of an army than a tree's projection holds (units, their entries,
# names, points, models, categories, options and data tags; the army's total and limit).
TREE_RULE_TYPES = frozenset({
    "points_limit", "points_shortfall", "limit_range", "category_percent", "count", "each_entry_max",
    "duplicates", "tag_max", "requires", "forbids", "ratio", "unit_max_percent", "unit_models_share"})

# Selector keys a tree never answers (selection.py), with what the data lacks, for the message.
NOT_CARRIED = {"mount": "mounts", "item": "our magic items", "item_category": "magic item categories",
               "troop_type": "troop types", "character": "which units are Characters",
               "wizard_level": "Wizard levels", "wizard_level_min": "Wizard levels"}
UNCHECKED = "event.rule_unchecked"


@dataclass(frozen=True)
class TreeItem:
    """A magic item selection of a tree (a member of a group the system mapping names): what the team
    rule `team_items_once` reads of an item."""
    id: str
    name: str
    category: str = ""
    repeatable: bool = False

    @property
    def identity(self) -> str:
        return self.id


class TreeBearer:
    """A unit of a tree as the team rules read its items: the unit and the items in it."""
    def __init__(self, unit: Unit, items: list[TreeItem]):
        self.unit, self.items = unit, items


def bs_tag(bs_id: str) -> str:
    """A BattleScribe id as the importer tags it ("cd6f-3e17-F9CC" -> "bs-cd6f-3e17-f9cc"; limits.tag)."""
    return "bs-" + (re.sub(r"[^a-z0-9]+", "-", bs_id.lower()).strip("-") or "x")


def tree_army(book: Book, roster: Roster, tree: TreeRoster, report: Report,
              mapping: SystemMapping | None = None) -> Army:
    """The Army our checks read of a tree list: `tree` is its evaluated roster (after the evaluation
    that made `report`, so names, costs and categories are that evaluation's)."""
    system = book.system
    points = {line.id: line.points for line in report.units}
    category_ids = {_plain(c.name): c.id for c in system.categories}
    units, bearers = [], []
    for force in tree.all_forces():
        for selection in force.selections:
            unit = _unit(book, tree, selection, points.get(selection.uid, 0), category_ids, mapping)
            units.append(unit)
            items = _items(tree, selection, mapping)
            if items:
                bearers.append(TreeBearer(unit, items))
    army = Army.of_units(book, roster, units, None, system.band_for(roster.points_limit))
    army.tree_mapping = mapping  # type: ignore[attr-defined]  # None: no General or items are known
    army.tree_bearers = bearers  # type: ignore[attr-defined]
    return army


def _plain(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", name.lower())


def _unit(book: Book, tree: TreeRoster, root: Selection, points: int, category_ids: dict[str, str],
          mapping: SystemMapping | None) -> Unit:
    entry = _entry_of(book, root)
    primary = root.state.primary
    name = tree.game.name_of(primary) if primary else ""
    models = sum(s.number for s in root.walk() if s.option.entry.get("type") == "model")
    options: dict[str, int] = {}
    tags = set(entry.tags)
    tagged = [(t, "entry:" + entry.id, entry.name) for t in entry.tags if not t.startswith("bs-")]
    for selection in root.walk():
        data_tags = {bs_tag(selection.option.entry["id"])} | {bs_tag(c) for c in selection.state.categories}
        if selection.option.link:
            data_tags.add(bs_tag(selection.option.link["id"]))
        tags |= data_tags
        tagged.extend((t, "selection:" + selection.option.entry["id"], selection.state.name) for t in data_tags)
        if selection is root:
            continue
        for oid in _options_of(entry, selection):
            options[oid] = options.get(oid, 0) + selection.number
    return Unit.described(
        RosterUnit(id=root.uid, entry=entry.id), entry, name=root.state.name or entry.name,
        category=category_ids.get(_plain(name), category_ids.get("other", entry.category)),
        size=models or root.number, points=points, options=options, tags=frozenset(tags), tagged=tagged,
        troop_type=book.system.troop_types.get(entry.troop_type),
        general=bool(mapping and any(_names(s) & mapping.general for s in root.walk())))


def _entry_of(book: Book, root: Selection) -> Entry:
    """The book's entry a root selection was imported as: the one tagged with its entry's id (and its
    link's, where it came through one), the one of its name among several."""
    target = bs_tag(root.option.entry["id"])
    link = bs_tag(root.option.link["id"]) if root.option.link else None
    found = [e for e in book.entries.values() if target in e.tags]
    if link is not None and any(link in e.tags for e in found):
        found = [e for e in found if link in e.tags]
    named = [e for e in found if e.name == root.state.name]
    if named or found:
        return (named or found)[0]
    # Not imported as an entry (hidden at import, say): an entry of its own, matched by no `entry:`
    # selector, which each_entry_max still counts apart.
    return _stand_in(book, root)


def _stand_in(book: Book, root: Selection) -> Entry:
    category = "other" if "other" in book.system.category_names else next(iter(book.system.category_names), "other")
    return Entry(id="bs:" + root.option.entry_id, name=root.state.name, category=category, troop_type="model",
                  points=0, base_points=0, size_min=1, size_max=None, character=False, profiles=(),
                  equipment=frozenset(), tags=frozenset(), wizard_level=0, paths=(), items=None, options={},
                  groups={}, mounts={}, mount_required=False, command={}, leadership=None,
                  composition_categories={})


def _options_of(entry: Entry, selection: Selection) -> list[str]:
    """The entry's options a child selection was imported as (tagged with its entry's id, and its link's)."""
    target = bs_tag(selection.option.entry["id"])
    found = [oid for oid, o in entry.options.items() if target in o.tags]
    if selection.option.link:
        link = bs_tag(selection.option.link["id"])
        found = [oid for oid in found if link in entry.options[oid].tags] or found
    return found


def _names(selection: Selection) -> set[str]:
    option = selection.option
    return {n for n in (option.entry.get("name"), (option.link or {}).get("name"), selection.state.name) if n}


def _items(tree: TreeRoster, root: Selection, mapping: SystemMapping | None) -> list[TreeItem]:
    if mapping is None or not mapping.item_groups:
        return []
    found = []
    for selection in root.walk():
        groups = {step.node.get("name") for step in selection.option.groups}
        if groups & mapping.item_groups:
            found.append(TreeItem("bs-" + selection.option.entry["id"], tree.game.name_of(selection.option.entry["id"]),
                                  repeatable=bool(groups & mapping.repeatable_item_groups)))
    return found


def items_marked(army: Army) -> bool:
    """Whether the data marks magic items for this army (its system mapping names their groups)."""
    mapping = getattr(army, "tree_mapping", None)
    return bool(mapping and mapping.item_groups)


# --- which rules a tree answers ---------------------------------------------------------------------

def unanswered(rule: Rule, army: Army) -> str | None:
    """Why `rule` cannot be checked on the tree's projection, or None when it can."""
    if rule.type not in TREE_RULE_TYPES:
        return f"its type {rule.type} reads what a BattleScribe roster does not carry in our terms"
    params = rule.params
    if rule.type == "count" and params.get("what") == "wizard_levels":
        return "the data carries no Wizard levels"
    if "rules_tagged" in params:
        return "it counts what the book's own tagged rules select, which a roster tree is not judged by"
    carried = _TagsCarried(army.book)
    for selector in _selectors(params):
        for key, want in _keys(selector):
            if key in NOT_CARRIED:
                return f"the data carries no {NOT_CARRIED[key]}"
            if key == "general" and not (army.tree_mapping and army.tree_mapping.general):  # type: ignore[attr-defined]
                return "the data names no General our rules know of"
            if key == "tag":
                missing = sorted(t for t in ((want,) if isinstance(want, str) else want) if t not in carried)
                if missing:
                    return f"the data carries no tag {', '.join(missing)}"
    missing = sorted(t for t in (*params.get("exempt_tags", ()), *([params["tag"]] if rule.type == "tag_max" else []))
                     if t not in carried)
    if missing:
        return f"the data carries no tag {', '.join(missing)}"
    return None


class _TagsCarried:
    """The tags a tree's units carry (`_unit`): the data's ids (`bs-...`) and the tags of the book's entries."""
    def __init__(self, book: Book):
        self.book = book

    def __contains__(self, tag: str) -> bool:
        return tag.startswith("bs-") or any(tag in e.tags for e in self.book.entries.values())


def _selectors(params: dict[str, Any]) -> Iterator[dict]:
    """Every selector in a rule's parameters, those inside bounds (`plus`) included."""
    for name, value in params.items():
        if name in ("select", "unless", "if", "needs", "forbids", "per") and isinstance(value, dict):
            yield value
        elif name in ("min", "max") and isinstance(value, dict):
            plus = value.get("plus")
            if isinstance(plus, dict) and isinstance(plus.get("select"), dict):
                yield plus["select"]


def _keys(selector: dict) -> Iterator[tuple[str, Any]]:
    for key, want in selector.items():
        if key == "not" and isinstance(want, dict):
            yield from _keys(want)
        else:
            yield key, want


def check_tree_rules(army: Army, rules: Iterable[Rule], what: str) -> tuple[list[Violation], tuple[CountLine, ...]]:
    """The event's rules on a tree list's projection: each rule's violations, or one saying it could not
    be checked (its own severity: an error rule unchecked keeps the list from being called legal); and
    the count lines of the count rules checked, as the Report of any list shows them. `what` names the
    list's book for the message."""
    found: list[Violation] = []
    checked: list[Rule] = []
    for rule in rules:
        reason = unanswered(rule, army)
        if reason is None:
            checked.append(rule)
            found.extend(CHECKS[rule.type](army, rule))
        else:
            found.append(unchecked(rule, reason, what))
    return found, count_lines(army, tuple(checked))


def unchecked(rule: Rule, reason: str, what: str) -> Violation:
    return Violation(UNCHECKED, f"Event rule {rule.id} could not be checked on this list of {what} (a BattleScribe "
                                f"roster): {reason}.", rule.severity or ERROR, None, rule.id, rule.source)
