"""The rules of a game we know, reaching its imported BattleScribe books: rules_data/battlescribe_systems.yaml
maps a BattleScribe game system (by id, else by name) to one of our systems, and `system_violations` checks
an evaluated roster of such a book by that system's system-wide rules.

    mapping = load_mappings(RULES_DATA_DIR).find(game.system)        # a SystemMapping, or None
    violations = system_violations(roster, result, system, mapping)  # list[Violation]

Which rules: those of our system of these types, said once. A catalogue that already says a rule (the
evaluator reported it) is not said again.

- `points_shortfall`: at most `max_under` under the roster's points limit (our rule, with its source).
- `general`: exactly one selection named as the mapping's `general` entries (one per army).
- `role_max` (role bsb): at most so many selections named as the mapping's `battle_standard` entries.
- `items_once_per_army`: a selection in a group the mapping names as magic items, taken by more than one
  model's selection (groups named `repeatable_item_groups` excepted: "extremely common").
- `category_percent`: our bounds on the mapping's categories (BattleScribe category name -> our id), where
  the force's catalogue carries no bound on that category's points of its own.

Pure Python, no Django: the loader reads one YAML file, checked against
rules_data/schema/battlescribe-systems.schema.json.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Mapping

from armylists.rules.battlescribe import Result, Roster, Selection
from armylists.rules.native.book import Rule, System
from armylists.rules.reading.data_files import check_schema, read_yaml
from armylists.rules.report import Violation

MAPPING_FILE = "battlescribe_systems.yaml"


@dataclass(frozen=True)
class SystemMapping:
    """One BattleScribe game system and how its data names what our system's rules ask about."""
    battlescribe_id: str
    name: str
    system: str                                   # our system id: t9a-0.11, t9a-2, the-old-world, mordheim
    general: frozenset[str] = frozenset()         # entry names that make a selection the General
    battle_standard: frozenset[str] = frozenset()
    item_groups: frozenset[str] = frozenset()     # groups whose members are magic items
    repeatable_item_groups: frozenset[str] = frozenset()
    categories: Mapping[str, str] = field(default_factory=dict)   # BattleScribe category name -> our id


@dataclass(frozen=True)
class Mappings:
    systems: tuple[SystemMapping, ...]

    def find(self, game_system: Mapping) -> SystemMapping | None:
        """The mapping of a game system document (plain dict with `id` and `name`): by id, else by name."""
        by_id = [m for m in self.systems if m.battlescribe_id == game_system.get("id")]
        if by_id:
            return by_id[0]
        return next((m for m in self.systems if m.name == game_system.get("name")), None)


@lru_cache(maxsize=4)
def load_mappings(root: Path) -> Mappings:
    """rules_data/battlescribe_systems.yaml, schema-checked (a RulesDataError names the file and path);
    read once per root."""
    path = root / MAPPING_FILE
    source = f"{root.name}/{MAPPING_FILE}"
    data = read_yaml(path, source)
    check_schema("battlescribe-systems", data, source)
    return Mappings(tuple(SystemMapping(
        battlescribe_id=m["battlescribe_id"], name=m["name"], system=m["system"],
        general=frozenset(m.get("general", ())), battle_standard=frozenset(m.get("battle_standard", ())),
        item_groups=frozenset(m.get("item_groups", ())),
        repeatable_item_groups=frozenset(m.get("repeatable_item_groups", ())),
        categories=dict(m.get("categories", {}))) for m in data["systems"]))


def system_violations(roster: Roster, result: Result, system: System, mapping: SystemMapping) -> list[Violation]:
    """Our system's system-wide rules over an evaluated roster of an imported book.

    `roster` is the evaluator's Roster after `evaluate(roster)` returned `result` (the selections' states
    are that evaluation's: names, costs, primary categories); `system` is our loaded System
    (armylists.rules.native.book.System) the mapping names; `mapping` says how the data names a General, a Battle
    Standard Bearer, magic items and categories. Returns the violations the catalogue did not already
    report, in the order of the system's rules, each with our rule's id and source."""
    points = Points(*_points(roster, result, system))
    said = _said(roster, result)
    out: list[Violation] = []
    for rule in system.rules:
        check = CHECKS.get(rule.type)
        if check is not None:
            out += check(rule, roster, mapping, said, system, points)
    return out


@dataclass(frozen=True)
class Points:
    """The roster's points: the cost type they are counted in, its limit (-1: none) and the total."""
    cost_type: str
    limit: int
    total: int


# --- what the catalogue already said ------------------------------------------------------------------

def _said(roster: Roster, result: Result) -> frozenset[str]:
    """The names of the entries and categories the evaluator's errors are about (their source entry)."""
    game = roster.game
    return frozenset(game.name_of(e.source_id) for e in result.errors if e.source_id)


def _points(roster: Roster, result: Result, system: System) -> tuple[str, int, int]:
    """The roster's points limit (-1: none) and total, in the cost type named as our budget unit, else the
    data's first cost type."""
    types = roster.game.cost_types
    chosen = next((c["id"] for c in types if c.get("name", "").strip() == system.budget_unit), None)
    chosen = chosen or (types[0]["id"] if types else "")
    return chosen, int(roster.cost_limits.get(chosen, -1)), int(round(result.costs.get(chosen, 0)))


def _named(roster: Roster, names: frozenset[str]) -> list[Selection]:
    return [s for s in roster.all_selections() if _names(s) & names]


def _names(selection: Selection) -> set[str]:
    option = selection.option
    return {n for n in (option.entry.get("name"), (option.link or {}).get("name"), selection.state.name) if n}


def _violation(rule: Rule, code: str, message: str, selection: Selection | None = None) -> Violation:
    return Violation(code, message, rule.severity, selection.uid if selection is not None else None,
                     rule.id, rule.source)


def _where(selection: Selection) -> str:
    """The unit a selection belongs to (its root selection), for a message."""
    root = selection
    while isinstance(root.parent, Selection):
        root = root.parent
    return root.state.name or root.option.entry.get("name", "")


def _bound(value, system: System, limit: int) -> int | None:
    if value is None or isinstance(value, int):
        return value
    if "by_band" in value:
        band = system.band_for(limit) if limit >= 0 else None
        return value["by_band"].get(band.id) if band else None
    return None


# --- the rule types ---------------------------------------------------------------------------------

def _shortfall(rule, roster, mapping, said, system, points) -> Iterable[Violation]:
    limit, total = points.limit, points.total
    under = limit - total
    most = rule.params["max_under"]
    if limit >= 0 and under > most:
        unit = system.budget_unit
        yield _violation(rule, "points.under_limit",
                         f"Total {total} {unit} is {under} {unit} under the {limit} {unit} limit; an army may be "
                         f"at most {most} {unit} under it.")


def _general(rule, roster, mapping, said, system, points) -> Iterable[Violation]:
    if not mapping.general or said & mapping.general:
        return
    named = _named(roster, mapping.general)
    word = system.general_word
    if not named:
        yield _violation(rule, "general.missing", f"No {word} is named; one model of the list must be the {word}.")
    elif len(named) > 1:
        yield _violation(rule, "general.multiple",
                         f"{len(named)} units are named {word} ({', '.join(_where(s) for s in named)}); "
                         f"an army has exactly one.", named[1])


def _role_max(rule, roster, mapping, said, system, points) -> Iterable[Violation]:
    if rule.params.get("role") != "bsb" or not mapping.battle_standard or said & mapping.battle_standard:
        return
    bearers = _named(roster, mapping.battle_standard)
    most = _bound(rule.params["max"], system, points.limit)
    if most is not None and len(bearers) > most:
        yield _violation(rule, "bsb.max",
                         f"{len(bearers)} Battle Standard Bearers ({', '.join(_where(s) for s in bearers)}); "
                         f"an army may include at most {most}.", bearers[most])


def _items_once(rule, roster, mapping, said, system, points) -> Iterable[Violation]:
    if not mapping.item_groups:
        return
    holders: dict[str, list[Selection]] = {}
    for selection in roster.all_selections():
        groups = {step.node.get("name") for step in selection.option.groups}
        if groups & mapping.item_groups and not groups & mapping.repeatable_item_groups:
            holders.setdefault(selection.option.entry["id"], []).append(selection)
    for entry_id, taken in holders.items():
        name = roster.game.name_of(entry_id)
        # one selection of a number above 1 is one model's several copies: the data's own per-model limit
        if len(taken) > 1 and name not in said:
            where = ", ".join(_where(s) for s in taken)
            yield _violation(rule, "items.duplicate",
                             f"{name} is taken {len(taken)} times ({where}); each magical item may be taken "
                             f"once per army.", taken[1])


def _category_percent(rule, roster, mapping, said, system, points) -> Iterable[Violation]:
    ours = set(rule.params["categories"])
    theirs = {name for name, our in mapping.categories.items() if our in ours}
    limit = points.limit
    if not theirs or limit <= 0 or _carried(roster, theirs):
        return
    spent = 0.0
    for force in roster.all_forces():
        for selection in force.selections:
            if _category_name(roster, selection.state.primary) in theirs:
                spent += sum(s.state.costs.get(points.cost_type, 0) for s in selection.walk())
    spent = int(round(spent))
    low, high = rule.params.get("min"), rule.params.get("max")
    name = " + ".join(system.category_names.get(c, c) for c in rule.params["categories"])
    if low is not None and spent * 100 < low * limit:
        yield _violation(rule, "category.min_percent",
                         f"{name}: {spent} pts is {_percent(spent, limit)} of {limit}; at least {low}% "
                         f"({-(-low * limit // 100)} pts) is required.")
    if high is not None and spent * 100 > high * limit:
        yield _violation(rule, "category.max_percent",
                         f"{name}: {spent} pts is {_percent(spent, limit)} of {limit}; at most {high}% "
                         f"({high * limit // 100} pts).")


def _percent(points: int, limit: int) -> str:
    return f"{points * 100 / limit:.1f}%"


def _category_name(roster: Roster, category_id: str | None) -> str | None:
    if category_id is None:
        return None
    for force in roster.all_forces():
        for link in list(force.entry.get("category_links", [])) + list(force.entry.get("categories", [])):
            if link.get("target") == category_id and link.get("name"):
                return link["name"]
    return roster.game.name_of(category_id)


def _carried(roster: Roster, names: set[str]) -> bool:
    """The catalogue bounds these categories' points itself: a constraint on a cost field (or a percentage)
    on the category or its link in a force entry."""
    game = roster.game
    costs = {c["id"] for c in game.cost_types}
    for force in roster.all_forces():
        for link in list(force.entry.get("category_links", [])) + list(force.entry.get("categories", [])):
            name = link.get("name") or game.name_of(link.get("target", ""))
            if name not in names:
                continue
            category = game.categories.get(link.get("target", ""), {})
            for constraint in list(link.get("constraints", [])) + list(category.get("constraints", [])):
                field = (constraint.get("field") or "selections").split("::")[-1]
                if constraint.get("percent") or field in costs:
                    return True
    return False


CHECKS = {"points_shortfall": _shortfall, "general": _general, "role_max": _role_max,
          "items_once_per_army": _items_once, "category_percent": _category_percent}
