"""Our rules on a list kept as a roster tree (an imported BattleScribe book's list): the one bridge.

The tree evaluator judges such a list by its data's own semantics (battlescribe/document.py), but our
rules, our system's system-wide ones (bridges/systems.py) and an organiser's event rules alike, are
written in our vocabulary (docs/rule-types.md) and read an `Army`. Here a tree is projected onto that
view, by what the data says, and the native checks (`armylists.rules.checks.CHECKS`) run on it:

- each root selection is a unit: its name, its points (its cost with its children's), its models (the
  numbers of its model selections), its category, as tags the data's ids of its entry, link,
  categories and children (`bs-...`), and the options its children were imported as;
- for an event's rules (`tree_army`) the unit is the imported book's entry it was imported as (matched
  by the data's entry and link ids, which the importer keeps as `bs-` tags) with that book's tags, in
  the imported book's category of its primary category's name (`other` for one it does not have);
- for our system's rules (`system_army`) the unit is of no book of ours: its category is our id of its
  primary category as the system mapping (rules_data/battlescribe_systems.yaml) names it, a Character
  where our category is one;
- both read the mapping: the General and the Battle Standard Bearer (the entries it names), our tags
  (Mordheim's `leader`: the entries it names), magic items (members of the groups it names), and the
  troop type (the profiles' characteristic it names, by value).

What the data does not carry (a Wizard level, a mount, our magic items' categories, a tag of our own
books such as `own-limit`) cannot be answered: a rule that asks for it is not run but said as
unchecked (`unchecked`), so a list is never called legal on a guess. Likewise a rule type that reads
more than the projection holds (item allowances, unit options...).
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Callable, Iterable, Iterator

from armylists.rules.native.army import Army, Bearer, Unit
from armylists.rules.battlescribe import Roster as TreeRoster
from armylists.rules.battlescribe import Selection
from armylists.rules.bridges.mapping import SystemMapping, troop_key
from armylists.rules.native.book import Book, Entry, Item, Rule, System
from armylists.rules.checks import CHECKS
from armylists.rules.native.engine import count_lines
from armylists.rules.report import ERROR, CountLine, Report, Violation
from armylists.rules.reading.roster import Roster, RosterUnit

# The rule types that read no more of an army than a tree's projection holds (units, their entries,
# names, points, models, categories, options and data tags; the army's total and limit), and those that
# read what the system mapping names (the General, the Battle Standard Bearer, magic items, troop types:
# `unanswered` says when it names none).
TREE_RULE_TYPES = frozenset({
    "points_limit", "points_shortfall", "limit_range", "category_percent", "count", "each_entry_max",
    "duplicates", "tag_max", "requires", "forbids", "ratio", "unit_max_percent", "unit_models_share",
    "general", "role_max", "items_once_per_army", "min_units", "starting_budget",
    # a roster tree carries no campaign state (a BSData warband records no battles, issue 41): as for a
    # warband of our books without one, the rule has nothing to check, which is no guess
    "campaign_state"})

# Selector keys a tree never answers (selection.py), with what the data lacks, for the message.
NOT_CARRIED = {"mount": "mounts", "item": "our magic items", "item_category": "magic item categories",
               "troop_type": "troop types", "character": "which units are Characters",
               "wizard_level": "Wizard levels", "wizard_level_min": "Wizard levels"}
UNCHECKED = "event.rule_unchecked"
UNMAPPED = "unmapped"   # the category of a unit whose data category the system mapping does not name


class TreeUnit(Unit):
    """A unit of a tree's projection: its id is the root selection's (the Report's violations point at it),
    which players never see, so the checks' messages name it by its name alone ("Orc Warlord")."""
    __slots__ = ()

    def describe(self) -> str:
        return self.name


def bs_tag(bs_id: str) -> str:
    """A BattleScribe id as the importer tags it ("cd6f-3e17-F9CC" -> "bs-cd6f-3e17-f9cc"; limits.tag)."""
    return "bs-" + (re.sub(r"[^a-z0-9]+", "-", bs_id.lower()).strip("-") or "x")


def tree_army(book: Book, roster: Roster, tree: TreeRoster, report: Report,
              mapping: SystemMapping | None = None) -> Army:
    """The Army an event's rules read of a tree list: `book` is the imported book, `tree` its evaluated
    roster (after the evaluation that made `report`, so names, costs and categories are that evaluation's)."""
    points = {line.id: line.points for line in report.units}
    category_ids = {_plain(c.name): c.id for c in book.system.categories}

    def category(primary: str | None, entry: Entry) -> str:
        name = tree.game.name_of(primary) if primary else ""
        return category_ids.get(_plain(name), category_ids.get("other", entry.category))
    units, items = _units(book, tree, lambda s: points.get(s.uid, 0), category, mapping, frozenset())
    if items:   # the tree's magic items, as items_once_per_army names them
        book = replace(book, items={**book.items, **items})
    army = Army.of_units(book, roster, units, None, book.system.band_for(roster.points_limit))
    return _marked(army, mapping, frozenset(c.id for c in book.system.categories), characters=False)


def system_army(tree: TreeRoster, system: System, mapping: SystemMapping, cost_type: str, limit: int,
                said: frozenset[str] = frozenset()) -> Army:
    """The Army our system's rules read of an evaluated tree: its units in our categories (the mapping's),
    priced in `cost_type`, at the points limit `limit` (-1: none). Items whose names are in `said` (the
    catalogue's own errors are about them) are left out: their limit is the catalogue's to say."""
    catalogue = next(iter(tree.all_forces()), None)
    name = tree.game.catalogues.get(catalogue.catalogue_id, {}).get("name", "") if catalogue else ""
    book = Book(id="bs:" + (catalogue.catalogue_id if catalogue else ""), name=name or mapping.name, version="",
                system=system, entries={}, items={}, mounts={}, paths={}, compositions={}, rules=(), imported=True,
                default_limit=system.default_limit)   # no book of ours: the system's starting budget
    ours = dict(mapping.categories)

    def category(primary: str | None, entry: Entry) -> str:
        return ours.get(category_name(tree, primary) or "", UNMAPPED)

    def points(selection: Selection) -> int:
        return int(round(sum(s.state.costs.get(cost_type, 0) for s in selection.walk())))
    units, items = _units(book, tree, points, category, mapping, said)
    book = replace(book, items=items)
    roster = Roster(system=system.id, book=book.id, book_version="", points_limit=limit)
    army = Army.of_units(book, roster, units, None, system.band_for(limit) if limit >= 0 else None)
    return _marked(army, mapping, frozenset(ours.values()), characters=True)


def _marked(army: Army, mapping: SystemMapping | None, categories: frozenset[str], characters: bool) -> Army:
    army.tree_mapping = mapping  # type: ignore[attr-defined]  # None: no General or items are known
    army.tree_bearers = [b for u in army.units for b in u.bearers]  # type: ignore[attr-defined]
    army.tree_categories = categories  # type: ignore[attr-defined]  # the categories a unit may be in
    army.tree_characters = characters  # type: ignore[attr-defined]  # whether units' Character flags are known
    return army


def category_name(tree: TreeRoster, category_id: str | None) -> str | None:
    """A category's name as the forces' links name it, else as the data does."""
    if category_id is None:
        return None
    for force in tree.all_forces():
        for link in list(force.entry.get("category_links", [])) + list(force.entry.get("categories", [])):
            if link.get("target") == category_id and link.get("name"):
                return link["name"]
    return tree.game.name_of(category_id)


def _plain(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", name.lower())


def _units(book: Book, tree: TreeRoster, points: Callable[[Selection], int], category: Callable[[str | None, Entry], str],
           mapping: SystemMapping | None, said: frozenset[str]) -> tuple[list[Unit], dict[str, Item]]:
    units, items = [], {}
    for force in tree.all_forces():
        for selection in force.selections:
            unit = _unit(book, tree, selection, points(selection), category, mapping)
            units.append(unit)
            found = [i for i in _items(tree, selection, mapping) if i.name not in said]
            if found:
                unit.bearers = [Bearer("unit", unit.name, found, None, unit.is_bsb, False, unit)]
                items.update((i.id, i) for i in found)
    return units, items


def _unit(book: Book, tree: TreeRoster, root: Selection, points: int, category_of: Callable[[str | None, Entry], str],
          mapping: SystemMapping | None) -> Unit:
    entry = _entry_of(book, root)
    models = sum(s.number for s in root.walk() if s.option.entry.get("type") == "model")
    options: dict[str, int] = {}
    tags = set(entry.tags)
    tagged = [(t, "entry:" + entry.id, entry.name) for t in entry.tags if not t.startswith("bs-")]
    names: set[str] = set()
    for selection in root.walk():
        data_tags = {bs_tag(selection.option.entry["id"])} | {bs_tag(c) for c in selection.state.categories}
        if selection.option.link:
            data_tags.add(bs_tag(selection.option.link["id"]))
        tags |= data_tags
        tagged.extend((t, "selection:" + selection.option.entry["id"], selection.state.name) for t in data_tags)
        names |= _names(selection) | {tree.game.name_of(c) for c in selection.state.categories}
        if selection is root:
            continue
        for oid in _options_of(entry, selection):
            options[oid] = options.get(oid, 0) + selection.number
    for tag, makers in (mapping.tags.items() if mapping else ()):
        if names & makers:   # our tag (Mordheim's leader), given by the entries the mapping names
            tags.add(tag)
            tagged.append((tag, "selection:" + root.option.entry["id"], root.state.name))
    category = category_of(root.state.primary, entry)
    system = book.system
    troop = _troop_type(root, system, mapping)
    unit = TreeUnit.described(
        RosterUnit(id=root.uid, entry=entry.id), entry, name=root.state.name or entry.name, category=category,
        size=models or root.number, points=points, options=options, tags=frozenset(tags), tagged=tagged,
        troop_type=troop or system.troop_types.get(entry.troop_type),
        general=bool(mapping and names & mapping.general))
    unit.character = any(c.character for c in system.categories if c.id == category)
    unit.is_bsb = bool(mapping and names & mapping.battle_standard)
    unit.war_machine = bool(unit.troop_type and unit.troop_type.war_machine)
    return unit


def _troop_type(root: Selection, system: System, mapping: SystemMapping | None):
    """Our troop type of a unit, where the mapping names the profiles' characteristic that says it and
    the unit's first profile carrying it has a value the mapping knows; else None."""
    if mapping is None or not mapping.troop_type_characteristic:
        return None
    for selection in root.walk():
        for profile in selection.option.entry.get("profiles", ()):
            for name, value in profile.get("characteristics", ()):
                if name == mapping.troop_type_characteristic and value:
                    return system.troop_types.get(mapping.troop_types.get(troop_key(value), ""))
    return None


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
    # Not imported as an entry (hidden at import, say; or no book of ours: system_army): an entry of its
    # own, matched by no `entry:` selector, which each_entry_max still counts apart.
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


def _items(tree: TreeRoster, root: Selection, mapping: SystemMapping | None) -> list[Item]:
    """The magic items in a unit: its selections in a group the mapping names as magic items, by their
    data id (`bs-...`), repeatable in a group it names so ("extremely common")."""
    if mapping is None or not mapping.item_groups:
        return []
    found = []
    for selection in root.walk():
        groups = {step.node.get("name") for step in selection.option.groups}
        if groups & mapping.item_groups:
            entry_id = selection.option.entry["id"]
            found.append(Item("bs-" + entry_id, tree.game.name_of(entry_id), "", 0,
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
    mapping: SystemMapping | None = getattr(army, "tree_mapping", None)
    if rule.type == "count" and params.get("what") == "wizard_levels":
        return "the data carries no Wizard levels"
    if "rules_tagged" in params:
        return "it counts what the book's own tagged rules select, which a roster tree is not judged by"
    reason = _roles_unanswered(rule, army, mapping)
    if reason:
        return reason
    carried = _TagsCarried(army.book, mapping)
    categories = getattr(army, "tree_categories", frozenset())
    wanted = set(params.get("categories", ())) if rule.type == "category_percent" else set()
    for selector in selectors(params):
        for key, want in selector_keys(selector):
            if key == "character" and getattr(army, "tree_characters", False):
                continue
            if key in NOT_CARRIED:
                return f"the data carries no {NOT_CARRIED[key]}"
            if key == "general" and not (mapping and mapping.general):
                return "the data names no General our rules know of"
            if key == "tag":
                missing = sorted(t for t in ((want,) if isinstance(want, str) else want) if t not in carried)
                if missing:
                    return f"the data carries no tag {', '.join(missing)}"
            if key == "category":
                wanted |= {want} if isinstance(want, str) else set(want)
    if wanted - categories:
        return f"the data has no category our rules call {', '.join(sorted(wanted - categories))}"
    missing = sorted(t for t in (*params.get("exempt_tags", ()), *([params["tag"]] if rule.type == "tag_max" else []))
                     if t not in carried)
    if missing:
        return f"the data carries no tag {', '.join(missing)}"
    return None


def _roles_unanswered(rule: Rule, army: Army, mapping: SystemMapping | None) -> str | None:
    """Why a rule about the General, the Battle Standard Bearer, magic items or troop types cannot be
    checked: the mapping names none of them (or which units are Characters is not known). Who may be the
    General (`ineligible_tags`) is the data's: it offers its General's selection only where it may be taken."""
    if rule.type == "general" and not (mapping and mapping.general):
        return "the data names no General our rules know of"
    if rule.type in ("general", "min_units") and not getattr(army, "tree_characters", False):
        return "the data does not say which units are Characters"
    if rule.type == "role_max" and not (mapping and mapping.battle_standard):
        return "the data names no Battle Standard Bearer our rules know of"
    if rule.type == "items_once_per_army" and not items_marked(army):
        return "its data marks no magic items"
    if rule.type == "min_units":
        if rule.params.get("exclude_troop_types") or rule.params.get("war_machines_as_one"):
            unknown = [u.name for u in army.units if not u.character and u.troop_type is None]
            if unknown:
                return f"the data names no troop type of ours for {', '.join(dict.fromkeys(unknown))}"
    return None


class _TagsCarried:
    """The tags a tree's units carry (`_unit`): the data's ids (`bs-...`), the tags of the book's entries
    and those the system mapping gives (Mordheim's `leader`)."""
    def __init__(self, book: Book, mapping: SystemMapping | None):
        self.book, self.mapping = book, mapping

    def __contains__(self, tag: str) -> bool:
        return (tag.startswith("bs-") or bool(self.mapping and tag in self.mapping.tags)
                or any(tag in e.tags for e in self.book.entries.values()))


def selectors(params: dict[str, Any]) -> Iterator[dict]:
    """Every selector in a rule's parameters, those inside bounds (`plus`) included."""
    for name, value in params.items():
        if name in ("select", "unless", "if", "needs", "forbids", "per") and isinstance(value, dict):
            yield value
        elif name in ("min", "max") and isinstance(value, dict):
            plus = value.get("plus")
            if isinstance(plus, dict) and isinstance(plus.get("select"), dict):
                yield plus["select"]


def selector_keys(selector: dict) -> Iterator[tuple[str, Any]]:
    for key, want in selector.items():
        if key == "not" and isinstance(want, dict):
            yield from selector_keys(want)
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


def unchecked(rule: Rule, reason: str, what: str, whose: str = "Event rule", code: str = UNCHECKED) -> Violation:
    """A rule said as not checked on a tree list: `whose` names it ("Event rule", "The Old World rule")."""
    return Violation(code, f"{whose} {rule.id} could not be checked on this list of {what} (a BattleScribe "
                           f"roster): {reason}.", rule.severity or ERROR, None, rule.id, rule.source)
