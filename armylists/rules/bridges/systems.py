"""Our system's system-wide rules on a list of one of its imported BattleScribe books, through the one
bridge (tree_army.py): the evaluated tree is projected onto our view of an army (`system_army`) and our
system's rules run on it as the native checks (`armylists.rules.checks.CHECKS`), as an event's rules do.

    mapping = load_mappings(RULES_DATA_DIR).find(game.system)        # mapping.py: a SystemMapping, or None
    violations = system_violations(roster, result, system, mapping)  # list[Violation]

Each rule of the system, in order, is one of:

- said by the data itself, not again: a rule the mapping's `data_says` names (the catalogue carries it
  in its own constraints: unit sizes, options, item allowances...), the points limit (the evaluator
  checks the roster's cost limits), or a rule the evaluator's errors already say here (`_said_here`:
  the General, the Battle Standard Bearer or a tag's entries named in its errors; category bounds the
  force's catalogue carries; a magic item it limits itself is not counted by ours, nor an entry its
  own 0-X limit says is taken too often);
- checked on the projection, its violations ours (our codes, messages, rule id and source);
- not answerable on a tree (`tree_army.unanswered`: a type or a selector the data does not carry in
  our terms): said as `system.rule_unchecked`, a warning. The list is judged by its data's own semantics
  (which the evaluator understood whole, or it says so as an error), and our rule that its data gives
  no way to ask (T9A v0.11's One of a Kind: BSData's catalogues mark no entry so) is named beside the
  verdict, never dropped. An organiser's own rule the tree cannot answer stays an error at its event
  (tree_army.unchecked): the organiser asked for it.

A rule that measures against the points limit is not run on a roster without one (there is nothing to
be short of or a percentage of).
"""
from __future__ import annotations

from armylists.rules.battlescribe import Result, Roster
from armylists.rules.bridges.mapping import MAPPING_FILE, Mappings, SystemMapping, load_mappings
from armylists.rules.bridges.tree_army import selector_keys, selectors, system_army, unanswered, unchecked
from armylists.rules.checks import CHECKS
from armylists.rules.native.book import Rule, System
from armylists.rules.report import WARNING, Violation

__all__ = ["MAPPING_FILE", "Mappings", "SystemMapping", "load_mappings", "system_violations", "SYSTEM_UNCHECKED"]

SYSTEM_UNCHECKED = "system.rule_unchecked"
# The evaluator judges every roster's cost limits itself: our points limit is the data's.
SAID_BY_EVALUATOR = frozenset({"points_limit"})
# Rule types whose violations are about one entry taken too often: not said of an entry the catalogue's own
# errors already name (its 0-X limit said it).
PER_ENTRY = frozenset({"duplicates", "each_entry_max", "tag_max"})
# Rule types measured against the points limit: nothing to measure on a roster without one.
NEEDS_LIMIT = frozenset({"points_shortfall", "category_percent", "unit_max_percent", "limit_range"})


def system_violations(roster: Roster, result: Result, system: System, mapping: SystemMapping) -> list[Violation]:
    """Our system's system-wide rules over an evaluated roster of an imported book.

    `roster` is the evaluator's Roster after `evaluate(roster)` returned `result` (the selections' states
    are that evaluation's: names, costs, primary categories); `system` is our loaded System
    (armylists.rules.native.book.System) the mapping names; `mapping` says how the data names what our
    rules ask about. Returns the violations of our rules the data does not say itself, and one
    `system.rule_unchecked` per rule the tree cannot answer, in the order of the system's rules."""
    cost_type, limit = _budget(roster, system)
    said = _said(roster, result)
    army = system_army(roster, system, mapping, cost_type, limit, said)
    what = army.book.name
    names = {u.id: u.name for u in army.units}
    out: list[Violation] = []
    for rule in system.rules:
        if rule.id in mapping.data_says or rule.type in SAID_BY_EVALUATOR or _said_here(rule, roster, mapping, said):
            continue
        if rule.type in NEEDS_LIMIT and limit <= 0:
            continue
        reason = unanswered(rule, army)
        if reason is None:
            out.extend(v for v in CHECKS[rule.type](army, rule)
                       if rule.type not in PER_ENTRY or names.get(v.unit or "") not in said)
        else:
            said_unchecked = unchecked(rule, reason, what, f"{system.name} rule", SYSTEM_UNCHECKED)
            out.append(said_unchecked._replace(severity=WARNING))   # the data's verdict stands (above)
    return out


# --- what the catalogue already said ------------------------------------------------------------------

def _said(roster: Roster, result: Result) -> frozenset[str]:
    """The names of the entries and categories the evaluator's errors are about (their source entry)."""
    game = roster.game
    return frozenset(game.name_of(e.source_id) for e in result.errors if e.source_id)


def _said_here(rule: Rule, roster: Roster, mapping: SystemMapping, said: frozenset[str]) -> bool:
    """Whether the catalogue's own errors already say this rule: they are about the entries that make
    what the rule counts (the General, the Battle Standard Bearer, a tag's entries), or the catalogue
    bounds the points of the categories a percentage rule bounds."""
    if rule.type == "general" and said & mapping.general:
        return True
    if rule.type == "role_max" and said & mapping.battle_standard:
        return True
    if rule.type == "category_percent":
        theirs = {name for name, our in mapping.categories.items() if our in rule.params["categories"]}
        return bool(theirs) and _carried(roster, theirs)
    for selector in selectors(rule.params):
        for key, want in selector_keys(selector):
            tags = ((want,) if isinstance(want, str) else tuple(want)) if key == "tag" else ()
            if any(said & mapping.names_of_tag(t) for t in tags) or (key == "general" and said & mapping.general):
                return True
    return False


def _budget(roster: Roster, system: System) -> tuple[str, int]:
    """The cost type named as our budget unit (else the data's first) and the roster's limit in it (-1: none)."""
    types = roster.game.cost_types
    chosen = next((c["id"] for c in types if c.get("name", "").strip() == system.budget_unit), None)
    chosen = chosen or (types[0]["id"] if types else "")
    return chosen, int(roster.cost_limits.get(chosen, -1))


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

