"""Validate a list against its book: resolve it, run every rule, and gather the Report."""
from __future__ import annotations

from armylists.rules.native.allies import allies_violations, contingent_rules
from armylists.rules.native.army import Army
from armylists.rules.native.book import Book, Rule
from armylists.rules.native.derived import CATEGORIES_IN_PLAY, RULE_LISTS_BOUND, Memo
from armylists.rules.checks import CHECKS, measure_count, resolve_bound
from armylists.rules.native.figures import figure_names, figures
from armylists.rules.report import AlliesLine, CategoryLine, CountLine, Report, Violation
from armylists.rules.reading.roster import Roster
from armylists.rules.native.selection import predicate


def validate(book: Book, roster: Roster, extra_rules: tuple[Rule, ...] = (), allies: Book | None = None) -> Report:
    """The Report of `roster` against `book`; pure: the same input always gives the same Report.

    `extra_rules` are appended after the system's and book's (an event's own rules). `allies` is the
    book the list's allied units come from (`roster.allies`; catalogue.allies_book_for finds it): a list
    with allies checked without it says so (`list.unknown_allies_book`). allies.py says which rules see
    the allied units.
    """
    army = Army(book, roster, allies)
    rules = book.rules_for(army.composition, extra_rules, roster.modes)
    violations = list(army.problems)
    contingent = army.contingent
    if contingent is None:
        unit_rules = _unit_rules(rules)
        answers = _unit_answers(army, unit_rules) if unit_rules or unit_rules.selectors else {}
        for i, rule in enumerate(rules):
            if i in answers:
                violations.extend(answers[i])
            elif i not in unit_rules.indexes:
                violations.extend(CHECKS[rule.type](army, rule))
    else:
        allies_rules = army.system.allies
        for rule in rules:
            alone = rule.type in allies_rules.without_allies or (
                rule.origin == "book" and rule.type in allies_rules.book_rules_without_allies)
            violations.extend(CHECKS[rule.type](army.main if alone else army, rule))
        for rule in contingent_rules(army):
            violations.extend(CHECKS[rule.type](contingent, rule))
        violations.extend(allies_violations(army))
    ally = army.allies
    return Report(
        system=book.system.id, book=book.id, book_version=book.version,
        points_limit=army.limit, total_points=army.total,
        band=army.band.id if army.band else None, band_name=army.band.name if army.band else None,
        categories=_categories(army, rules),
        units=tuple([u.line() for u in army.units]),
        figures=figures(army),
        violations=said_once(violations),
        budget_unit=book.system.budget_unit,
        unchecked=players_notes(book),
        counts=count_lines(army, rules),
        figure_names=figure_names(book.system),
        allies=AlliesLine(ally.id, ally.version, ally.name, army.allies_composition) if ally is not None else None,
    )


def said_once(violations: list[Violation]) -> tuple[Violation, ...]:
    """Each violation once: two limits of an imported book that say the same of the same unit (a
    BattleScribe link's minimum and its shared entry's: "Army General: 0 taken in the army; at least 1."
    twice) are one broken rule to a player."""
    seen, out = set(), []
    for v in violations:
        key = (v.code, v.message, v.severity, v.unit)
        if key not in seen:
            seen.add(key)
            out.append(v)
    return tuple(out)


# An imported book's `unchecked` is its importer's account of what it could not map ("Not checked, modifier
# add of category: ..."): listed on the book's page for the curious (editor/book_pages.py), and said to a
# player in one plain sentence, never item by item on a list, its report or its PDF.
IMPORTED_NOT_CHECKED = "This book's data has rules the site cannot check: see the book's page."


def players_notes(book: Book) -> tuple[str, ...]:
    """What a list's Report says is not checked: a hand-written book's own notes (rules for a player to
    check by hand), or for an imported book one plain sentence pointing to its page."""
    if book.imported:
        return (IMPORTED_NOT_CHECKED,) if book.unchecked else ()
    return book.unchecked


class _UnitRules(tuple):
    """The rules of a rule set that are about one unit at a time (checks.per_unit):
    (index, rule, function, needs_army)."""
    indexes: frozenset[int]
    by_index: dict[int, tuple[Rule, object]]
    selectors: tuple  # the selectors the other rules' parameters name (checks.registry.SELECTOR), with their predicates


_SELECTOR_REF = "#/$defs/selector"


def _rule_selectors(rules: tuple[Rule, ...], per_unit: frozenset[int]) -> tuple:
    """(selector, predicate) of every parameter the rule types' schemas declare a selector, once each."""
    found: dict[int, tuple] = {}
    for i, rule in enumerate(rules):
        if i in per_unit:
            continue
        for name, schema in CHECKS[rule.type].params_schema["properties"].items():
            selector = rule.params.get(name)
            if schema.get("$ref") == _SELECTOR_REF and isinstance(selector, dict) and id(selector) not in found:
                found[id(selector)] = (selector, predicate(selector))
    return tuple(found.values())


# What the engine makes of a rule set (a book's rules_for, with an event's rules or without), kept by the
# rule set's identity and bounded as the book's rule lists are: a book hands out the same tuple every time.
# Read here rather than through Memo.remember, as every check asks.
_unit_rules_memo = Memo(RULE_LISTS_BOUND)
_bounds_memo = Memo(RULE_LISTS_BOUND)


def _unit_rules(rules: tuple[Rule, ...]) -> _UnitRules:
    kept = _unit_rules_memo.get(id(rules))
    if kept is None or kept[0] is not rules:
        kept = _unit_rules_memo.put(id(rules), (rules, _make_unit_rules(rules)))
    return kept[1]


def _make_unit_rules(rules: tuple[Rule, ...]) -> _UnitRules:
    found = _UnitRules((i, rule, CHECKS[rule.type].per_unit, CHECKS[rule.type].needs_army)
                       for i, rule in enumerate(rules) if hasattr(CHECKS[rule.type], "per_unit"))
    found.indexes = frozenset(i for i, _, _, _ in found)
    found.by_index = {i: (rule, check) for i, rule, check, _ in found}
    found.selectors = _rule_selectors(rules, found.indexes)
    return found


def _unit_answers(army: Army, unit_rules: _UnitRules) -> dict[int, list]:
    """The violations of the per-unit rules, by the rule's index, in the order of the units.

    A unit's answers depend only on the unit and the rules (checks.per_unit), and units are shared
    between reports (army.py), so each unit keeps its answers for the rule set: a list checked again
    after one edit runs these rules for the changed unit alone, and an unchanged unit costs one lookup
    for all of them together. A unit whose answer to a rule also reads the rest of the army
    (checks.per_unit's `needs_army`) keeps None for it, and that rule runs for it every time.

    Each unit also keeps which of the rule set's selectors it matches, so the army-wide rules' selections
    (Army.select) are gathered here, in the same pass, rather than tested unit by unit in every rule.
    """
    found: dict[int, list] = {}
    key = id(unit_rules)  # the rule set is kept too (Memo), so its id is not reused
    selectors = unit_rules.selectors
    selected: list[list] = [[] for _ in selectors]
    for unit in army.units:
        kept = unit.memo.get(key)  # read here, not through remember: this runs for every unit at every check
        if kept is None or kept[0] is not unit_rules:
            answers = []
            for i, rule, check, needs_army in unit_rules:
                if needs_army is not None and needs_army(rule, unit):
                    answers.append((i, None))
                    continue
                broken = tuple(check(army, rule, unit))
                if broken:
                    answers.append((i, broken))
            matched = tuple(j for j, (_, test) in enumerate(selectors) if test(unit))
            kept = unit.keep(key, (unit_rules, answers, matched))
        for j in kept[2]:
            selected[j].append(unit)
        for i, broken in kept[1]:
            if broken is None:
                rule, check = unit_rules.by_index[i]
                broken = tuple(check(army, rule, unit))
                if not broken:
                    continue
            found.setdefault(i, []).extend(broken)
    army.selected = {id(selector): (selector, units) for (selector, _), units in zip(selectors, selected)}
    return found


def count_lines(army: Army, rules: tuple[Rule, ...]) -> tuple[CountLine, ...]:
    """Every count rule's standing, rules with one label merged (a warband's minimum and maximum)."""
    lines: dict[tuple[str, str], list] = {}
    for rule in rules:
        if rule.type != "count":
            continue
        _, value, least, most = measure_count(army, rule)
        key = (rule.params["label"], rule.params.get("what", "units"))
        line = lines.setdefault(key, [value, None, None])
        line[1] = least if least is not None else line[1]
        line[2] = most if most is not None else line[2]
    return tuple(CountLine(label, value, what, low, high) for (label, what), (value, low, high) in lines.items())


def _categories(army: Army, rules: tuple[Rule, ...]) -> tuple[CategoryLine, ...]:
    """Each category's points and percent of the limit, with the bounds of rules naming it alone."""
    bounds = _category_bounds(rules)
    in_play = _categories_in_play(army.book, army.composition)
    lines = []
    for cat in army.system.categories:
        points = army.category_points.get(cat.id, 0)
        # A system may name categories of every army (the 2nd edition's Engines of War, Aves...): a
        # list shows those its book's units can be in, those a rule bounds, and any that holds points.
        if cat.id not in in_play and cat.id not in bounds and not points and not army.category_units.get(cat.id):
            continue
        low, high = bounds.get(cat.id, (None, None))
        state = ("low" if low is not None and points * 100 < low * army.limit
                 else "high" if high is not None and points * 100 > high * army.limit else "ok")
        lines.append(CategoryLine(cat.id, cat.name, points, round(points * 100 / army.limit, 1), low, high,
                                  army.category_units.get(cat.id, 0), state))
    return tuple(lines)


def _categories_in_play(book: Book, composition: str | None) -> frozenset[str]:
    """The categories the book's entries are in, in this composition (kept with the book: derived.py)."""
    kept = book.derived.of(CATEGORIES_IN_PLAY, book)
    found = kept.get(composition)
    if found is None:
        found = kept.put(composition, frozenset(entry.category_in(composition) for entry in book.entries.values()))
    return found


def _category_bounds(rules: tuple[Rule, ...]) -> dict[str, tuple[int | None, int | None]]:
    kept = _bounds_memo.get(id(rules))
    if kept is None or kept[0] is not rules:
        kept = _bounds_memo.put(id(rules), (rules, _make_category_bounds(rules)))
    return kept[1]


def _make_category_bounds(rules: tuple[Rule, ...]) -> dict[str, tuple[int | None, int | None]]:
    bounds: dict[str, dict[str, int]] = {}
    for rule in rules:
        if rule.type == "category_percent" and len(rule.params["categories"]) == 1:
            slot = bounds.setdefault(rule.params["categories"][0], {})
            for key in ("min", "max"):
                if key in rule.params:
                    slot[key] = rule.params[key]
    return {cat: (b.get("min"), b.get("max")) for cat, b in bounds.items()}


__all__ = ["validate", "resolve_bound", "count_lines"]
