"""A tournament's ruleset, and the check of lists against it.

An event plays one system at one points limit, allows some books (and versions), may require a
composition and choose the matched-play modes, and adds its own rules, written in the engine's rule
vocabulary (docs/rule-types.md):

    format: event-rules/1
    rules:
      - {id: three-of-each, type: each_entry_max, params: {max: 3, unless: {tag: own-limit}}}
      - {id: no-allies, type: count, params: {label: Allies, select: {category: allies}, max: 0}}
      - {id: team-items, type: team_items_once}

Rules of the CHECKS registry are checked on each list; rules of TEAM_CHECKS across the lists of one
team (a magic item once per team). Every list is checked at the event's limit, composition and modes,
whatever it was built for, and the Report says so.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Hashable, Iterable, Iterator, Mapping, Sequence

import yaml

from armylists.rules.native.army import Army
from armylists.rules.native.book import Book, Rule, System
from armylists.rules.checks import CHECKS, DEFS
from armylists.rules.native.engine import validate
from armylists.rules.errors import RulesDataError
from armylists.rules.reading.data_files import check_params, yaml_problem
from armylists.rules.reading.loader import build_rule, check_schema, check_selectors
from armylists.rules.reading.plain_data import MAX_DEPTH, UnstorableData, check_plain
from armylists.rules.reading.plain_yaml import PLAIN_LOADER, PLAIN_PYTHON_LOADER, PlainYAMLError
from armylists.rules.report import ERROR, WARNING, Report, Violation
from armylists.rules.reading.roster import Roster
from armylists.rules.bridges.tree_army import check_tree_rules, items_marked, unchecked

EVENT_RULES_FORMAT = "event-rules/1"
MAX_EVENT_RULES_BYTES = 64 * 1024

# One team's list, as the team checks see it: any key the caller knows it by, its book, its roster and
# the book of its allies (None without).
TeamList = tuple[Hashable, Book, Roster, "Book | None"]
# The armies of the team's roster trees, by the list's key (rules/bridges/tree_army.py's projection): a tree's
# units are not the document's `units`, so a team rule reads them here.
TreeArmies = Mapping[Hashable, Army]
TeamCheck = Callable[[Sequence[TeamList], Rule, TreeArmies], Iterator[tuple[Hashable, Violation]]]
TEAM_CHECKS: dict[str, TeamCheck] = {}


def team_check(name: str, **params: Any) -> Callable[[TeamCheck], TeamCheck]:
    """Register a rule about a team's lists together; `params` is its parameters' JSON Schema."""
    def register(fn: TeamCheck) -> TeamCheck:
        fn.params_schema = {  # type: ignore[attr-defined]
            "type": "object", "additionalProperties": False, "properties": params, "$defs": DEFS,
        }
        TEAM_CHECKS[name] = fn
        return fn
    return register


@dataclass(frozen=True)
class EventRules:
    """The event's own rules: `rules` for each list, `team_rules` for a team's lists together."""
    rules: tuple[Rule, ...] = ()
    team_rules: tuple[Rule, ...] = ()
    name: str = ""


def parse_event_rules(text: str, source: str, system: System, books: Iterable[Book] = ()) -> EventRules:
    """Read event rules (YAML) for `system`; any fault is a `RulesDataError` naming the path in the file.

    Selectors may name the categories and troop types of the system, and the entries, options, mounts
    and items of any of `books` (the books the event allows)."""
    if not text.strip():
        return EventRules()
    if len(text.encode()) > MAX_EVENT_RULES_BYTES:
        raise RulesDataError(source, (), f"is {len(text.encode())} bytes; event rules may be at most "
                                         f"{MAX_EVENT_RULES_BYTES}")
    data = _read_yaml(text, source)
    if isinstance(data, list):  # a bare list of rules is allowed
        data = {"rules": data}
    # Before the schema: text no database can store (NUL, a lone surrogate) would be saved with the
    # event and copied into every player's report; the schema and content hashing cannot encode it.
    try:
        check_plain(data)
    except UnstorableData as exc:
        raise RulesDataError(source, exc.path, exc.reason) from None
    check_schema("event-rules", data, source)
    known = _known_references(system, books)
    per_list, team, seen = [], [], set()
    for i, raw in enumerate(data["rules"]):
        path = ("rules", i)
        if raw["id"] in seen:
            raise RulesDataError(source, path + ("id",), f"rule id {raw['id']!r} is used twice")
        seen.add(raw["id"])
        if raw["type"] in TEAM_CHECKS:
            team.append(_team_rule(raw, source, path))
            continue
        if raw["type"] not in CHECKS:
            known_types = ", ".join(sorted({*CHECKS, *TEAM_CHECKS}))
            raise RulesDataError(source, path + ("type",), f"unknown rule type {raw['type']!r}; known: {known_types}")
        rule = build_rule(raw, source, path, "event")
        check_selectors(raw, known, source, path)
        per_list.append(replace(rule, source=rule.source or "event rules"))
    return EventRules(rules=tuple(per_list), team_rules=tuple(team), name=data.get("name", ""))


def _read_yaml(text: str, source: str) -> Any:
    """The organiser's YAML as plain data (plain_yaml: no dates, sets, bytes, non-text keys or numbers out of
    range), read by LibYAML (C) as the rules files are (data_files.read_yaml): PyYAML's
    Python reader takes seconds on brackets nested thousands deep (its scanner is quadratic in open
    brackets). The events are checked first (`_check_events`). A text LibYAML refuses is read again by
    the Python reader, for its wording of the error; what only the Python reader reads (a "\\ud800"
    escape) is then refused by `check_plain`."""
    try:
        _check_events(yaml.parse(text, Loader=PLAIN_LOADER), source)
        return yaml.load(text, Loader=PLAIN_LOADER)
    except RecursionError:
        raise RulesDataError(source, (), f"is nested more than {MAX_DEPTH} levels deep") from None
    except PlainYAMLError as exc:
        raise RulesDataError(source, (), f"has at {exc.where()} {exc.problem}") from None
    except yaml.YAMLError as exc:
        fast_error = exc
    try:
        if _bracket_depth(text) > MAX_DEPTH:  # the Python reader would take seconds: LibYAML's words
            raise fast_error
        _check_events(yaml.parse(text, Loader=PLAIN_PYTHON_LOADER), source)
        return yaml.load(text, Loader=PLAIN_PYTHON_LOADER)
    except RecursionError:
        raise RulesDataError(source, (), f"is nested more than {MAX_DEPTH} levels deep") from None
    except PlainYAMLError as exc:
        raise RulesDataError(source, (), f"has at {exc.where()} {exc.problem}") from None
    except yaml.YAMLError as exc:
        raise RulesDataError(source, (), yaml_problem(exc)) from None


def _check_events(events: Iterable[yaml.Event], source: str) -> None:
    """Refuse, before anything is built, nesting deeper than MAX_DEPTH (LibYAML's C composer recurses
    without limit: "- " * 30000 fits the size limit and would overflow the C stack, killing the process)
    and aliases (nine aliases of nine of nine... stand for billions of nodes to check)."""
    depth = 0
    for event in events:
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise RulesDataError(source, (), f"is nested more than {MAX_DEPTH} levels deep")
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
        elif isinstance(event, yaml.AliasEvent):
            raise RulesDataError(source, (), f"uses an alias (*{event.anchor}); write the rules out in full")


def _bracket_depth(text: str) -> int:
    """The deepest nesting of [ and { in `text`, counting those inside quotes too (an upper bound)."""
    depth = deepest = 0
    for char in text:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth = max(0, depth - 1)
    return deepest


def _team_rule(raw: Mapping[str, Any], source: str, path: tuple) -> Rule:
    check_params(TEAM_CHECKS[raw["type"]].params_schema, raw.get("params", {}), source, path + ("params",))
    return Rule(id=raw["id"], type=raw["type"], params=raw.get("params", {}), severity=raw.get("severity", ERROR),
                source=raw.get("source", "event rules"), text=raw.get("text", ""), origin="event")


def _known_references(system: System, books: Iterable[Book]) -> dict[str, set[str]]:
    known: dict[str, set[str]] = {"entry": set(), "option": set(), "mount": set(), "item": set(),
                                  "category": set(system.category_names), "troop_type": set(system.troop_types),
                                  "item_category": set(system.item_categories)}
    for book in books:
        known["item_category"].update(book.system.item_categories)  # a book's own kinds (runes)
        known["entry"].update(book.entries)
        known["option"].update(o for e in book.entries.values() for o in e.options)
        known["mount"].update(book.mounts)
        known["item"].update(book.items)
    return known


@dataclass(frozen=True)
class Ruleset:
    """What every list of an event is checked against."""
    system: str
    points_limit: int
    books: Mapping[str, frozenset[str]] = field(default_factory=dict)  # book -> versions; empty: any
    system_name: str = ""  # the system as players know it, for messages (its id if not given)
    book_names: Mapping[str, str] = field(default_factory=dict)  # book id -> its name, for messages
    composition: str | None = None  # required of every list, when set
    modes: tuple[str, ...] = ()  # the matched-play rules the event plays
    event: EventRules = EventRules()

    def allows(self, book: str, version: str) -> bool:
        if not self.books:
            return True
        return book in self.books and (not self.books[book] or version in self.books[book])


def check_list(ruleset: Ruleset, book: Book, roster: Roster, allies: Book | None = None,
               judge: Callable[[Roster], Report] | None = None,
               project: Callable[[Book, Roster, Report], Army] | None = None) -> Report:
    """The Report of `roster` at the event: its book's rules, the event's settings and the event's rules.

    `allies` is the book of the list's allied units, if it has any (catalogue.allies_book_for). A roster
    tree (an imported BattleScribe book's list) is judged by `judge` (the tree evaluator) and the event's
    rules read its projection onto our view of an army, `project` (rules/bridges/tree_army.py); without
    `project` every event rule is said to be unchecked on it."""
    event: list[Violation] = []
    if roster.system != ruleset.system:
        event.append(Violation("event.system", f"The list is for {book.system.name}; the event plays "
                                               f"{ruleset.system_name or ruleset.system}.",
                               rule="event", source="event"))
    if not ruleset.allows(roster.book, roster.book_version):
        event.append(Violation("event.book", f"{book.name} {book.version} is not allowed at this event; allowed: "
                               f"{_allowed_phrase(ruleset)}.", rule="event", source="event"))
    if roster.points_limit != ruleset.points_limit:
        event.append(Violation("event.points_limit", f"The list was built for {roster.points_limit} "
                               f"{book.system.budget_unit}; it is checked at the event's {ruleset.points_limit}.",
                               severity=WARNING, rule="event", source="event"))
    composition = roster.composition
    if ruleset.composition and roster.composition != ruleset.composition:
        wanted = book.compositions.get(ruleset.composition)
        if wanted is None:
            event.append(Violation("event.composition", f"The event requires the {ruleset.composition} composition, "
                                   f"which {book.name} does not have.", rule="event", source="event"))
        else:
            have = book.compositions[composition].name if composition in book.compositions else "no composition"
            event.append(Violation("event.composition", f"The event requires {wanted.name}; the list uses {have}.",
                                   rule="event", source="event"))
            composition = ruleset.composition
    if sorted(roster.modes) != sorted(ruleset.modes):
        names = [book.system.modes[m].name for m in ruleset.modes if m in book.system.modes]
        event.append(Violation("event.modes", f"The list chose {_modes_phrase(book, roster.modes)}; it is checked "
                               f"with the event's: {', '.join(names) or 'none'}.", severity=WARNING,
                               rule="event", source="event"))
    checked = replace(roster, points_limit=ruleset.points_limit, composition=composition, modes=ruleset.modes)
    if checked.is_tree and judge is not None:
        # A roster tree is judged by the tree evaluator; the event's own rules, written in our vocabulary,
        # read the tree's projection, or say they could not be checked (never a silent pass).
        report = judge(checked)
        rules = ruleset.event.rules
        if rules:
            what = f"{book.name} {book.version}"
            if project is not None:
                found, counts = check_tree_rules(project(book, checked, report), rules, what)
            else:
                found, counts = [unchecked(r, "the site could not read the list's roster tree", what) for r in rules], ()
            report = replace(report, violations=(*report.violations, *found), counts=(*report.counts, *counts))
    else:
        report = validate(book, checked, ruleset.event.rules, allies)
    return replace(report, violations=(*event, *report.violations)) if event else report


def _allowed_phrase(ruleset: Ruleset) -> str:
    return "; ".join(f"{ruleset.book_names.get(b, b)} {', '.join(sorted(v))}".strip()
                     for b, v in sorted(ruleset.books.items()))


def _modes_phrase(book: Book, modes: Iterable[str]) -> str:
    names = [book.system.modes[m].name if m in book.system.modes else m for m in modes]
    return ", ".join(names) or "no matched-play rules"


def check_team(lists: Sequence[TeamList], team_rules: Iterable[Rule],
               trees: TreeArmies | None = None) -> dict[Hashable, list[Violation]]:
    """The violations of each team list under the team rules, keyed as the caller keyed the lists.

    A roster tree's list reads its army in `trees` (by its key); a tree list missing there has every
    team rule said to be unchecked on it."""
    trees = trees or {}
    found: dict[Hashable, list[Violation]] = {key: [] for key, *_ in lists}
    for rule in team_rules:
        for key, book, roster, _ in lists:
            if roster.is_tree and key not in trees:
                found[key].append(unchecked(rule, "the site could not read the list's roster tree",
                                            f"{book.name} {book.version}"))
        for key, v in TEAM_CHECKS[rule.type](lists, rule, trees):
            found[key].append(v)
    return found


@team_check("team_items_once", item_categories={"$ref": "#/$defs/slugs"})
def team_items_once(lists: Sequence[TeamList], rule: Rule, trees: TreeArmies) -> Iterator[tuple[Hashable, Violation]]:
    """Each magic item in one list of the team at most (items that may repeat excepted); every list
    holding it is told which others do. A roster tree's items are the selections of the groups its
    system mapping names as magic items; where it names none, the rule is unchecked on that list."""
    wanted = set(rule.params.get("item_categories", ())) or None
    holders: dict[str, list[tuple[Hashable, str | None, str]]] = {}  # item -> (list key, unit id, list name)
    names: dict[str, str] = {}
    for key, book, roster, allies in lists:
        seen_here: set[str] = set()
        if roster.is_tree:
            if key not in trees:
                continue  # said by check_team
            if not items_marked(trees[key]) or wanted is not None:
                reason = ("its data does not say which of our item categories a magic item is in"
                          if items_marked(trees[key]) else "its data marks no magic items")
                yield key, unchecked(rule, reason, f"{book.name} {book.version}")
                continue
            bearers = trees[key].tree_bearers  # type: ignore[attr-defined]
        else:
            bearers = list(Army(book, roster, allies).all_bearers())  # allied models' items too
        for bearer in bearers:
            for item in bearer.items:
                if item.repeatable or (wanted is not None and item.category not in wanted):
                    continue
                if item.identity in seen_here:
                    continue  # twice in one list is that list's own items.duplicate
                seen_here.add(item.identity)
                known = book.items.get(item.identity) or (allies.items.get(item.identity) if allies else None)
                names.setdefault(item.identity, known.name if known else item.name)
                holders.setdefault(item.identity, []).append((key, bearer.unit.id, roster.player or roster.name))
    for identity, held in holders.items():
        if len(held) < 2:
            continue
        for key, unit, _ in held:
            others = ", ".join(who or "another list" for k, _, who in held if k != key)
            yield key, Violation(
                "team.items_duplicate", f"{names[identity]} is also taken in {others}; a magic item may be taken "
                f"in one list of the team only.", rule.severity, unit, rule.id, rule.source)
