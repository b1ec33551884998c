"""The registry of rule types and what every rule type shares: bounds, messages, numbers."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterator

from armylists.rules.report import Violation
from armylists.rules.native.selection import ONE_OR_MANY, SELECTOR_SCHEMA

if TYPE_CHECKING:  # the registry is imported by the loader, which army.py depends on
    from armylists.rules.native.army import Army, Unit
    from armylists.rules.native.book import Rule

Check = Callable[["Army", "Rule"], Iterator[Violation]]
CHECKS: dict[str, Check] = {}

BOUND = {"$ref": "#/$defs/bound"}
DEFS = {
    "bound": {
        "oneOf": [
            {"type": "integer", "minimum": 0},
            {"type": "object", "additionalProperties": False, "required": ["by_band"],
             "properties": {"by_band": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}}},
            {"type": "object", "additionalProperties": False, "required": ["per_points", "each"],
             "properties": {"per_points": {"type": "integer", "minimum": 1}, "each": {"type": "integer", "minimum": 0},
                            "above": {"type": "integer", "minimum": 0}, "base": {"type": "integer", "minimum": 0},
                            "plus": {"type": "object", "additionalProperties": False,
                                     "required": ["select", "each", "label"],
                                     "properties": {"select": {"$ref": "#/$defs/selector"},
                                                    "each": {"type": "integer", "minimum": 1},
                                                    "label": {"type": "string"}}}}},
            # "15, and one more per Halfling Scout": a fixed base and `plus`, without a per-points step
            {"type": "object", "additionalProperties": False, "required": ["base", "plus"],
             "properties": {"base": {"type": "integer", "minimum": 0}, "plus": {"$ref": "#/$defs/plus"}}},
        ]
    },
    "plus": {"type": "object", "additionalProperties": False, "required": ["select", "each", "label"],
             "properties": {"select": {"$ref": "#/$defs/selector"}, "each": {"type": "integer", "minimum": 1},
                            "label": {"type": "string"}}},
    "slugs": {"type": "array", "items": {"type": "string"}},
    "selector": SELECTOR_SCHEMA,
    "one_or_many": ONE_OR_MANY,
}
SELECTOR = {"$ref": "#/$defs/selector"}


def check(name: str, **params: Any) -> Callable[[Check], Check]:
    """Register a rule type; `params` is the JSON Schema of its parameters (checked at load time)."""
    def register(fn: Check) -> Check:
        fn.params_schema = {  # type: ignore[attr-defined]
            "type": "object", "additionalProperties": False, "properties": params,
            "required": [k for k, v in params.items() if v.pop("required", False)], "$defs": DEFS,
        }
        CHECKS[name] = fn
        return fn
    return register


def per_unit(fn: Callable[["Army", "Rule", "Unit"], Iterator[Violation]] | None = None, *,
             needs_army: Callable[["Rule", "Unit"], bool] | None = None) -> Any:
    """A rule about one unit at a time, whose answer depends on nothing else in the list.

    Its violations are kept with the unit; units are shared between reports (army.py), so re-checking
    a list after an edit runs it again only for the unit that changed. `needs_army(rule, unit)`, where
    given, says which units' answers also read the rest of the army (an item for armies without
    Wizards): those units are checked afresh every time, the rest kept. Used bare or with `needs_army`.
    """
    if fn is None:
        return lambda f: per_unit(f, needs_army=needs_army)
    unit_fn = fn

    def answer(army: "Army", rule: "Rule", unit: "Unit") -> tuple[Violation, ...] | None:
        """The unit's violations, or None where they read the army too (then found afresh every time)."""
        return None if needs_army is not None and needs_army(rule, unit) else tuple(unit_fn(army, rule, unit))

    def run(army: "Army", rule: "Rule") -> Iterator[Violation]:
        for unit in army.units:
            kept = unit.memo.get(id(rule))  # read here, not through remember: for every unit at every check
            if kept is None or kept[0] is not rule:  # the rule is kept too, so its id is not reused
                kept = unit.keep(id(rule), (rule, answer(army, rule, unit)))
            yield from kept[1] if kept[1] is not None else unit_fn(army, rule, unit)
    run.__doc__ = fn.__doc__
    run.per_unit = fn  # type: ignore[attr-defined]  # the engine runs these together, unit by unit
    run.needs_army = needs_army  # type: ignore[attr-defined]
    return run


def violation(rule: "Rule", code: str, message: str, unit: "Unit | None" = None) -> Violation:
    return Violation(code=code, message=message, severity=rule.severity,
                     unit=unit.id if unit is not None else None, rule=rule.id, source=rule.source)


def resolve_bound(bound: Any, army: "Army") -> int | None:
    """A bound as data: a number, one per size band, or `each` per `per_points` of the limit."""
    if bound is None or isinstance(bound, int):
        return bound
    if "by_band" in bound:
        return bound["by_band"].get(army.band.id) if army.band else None
    steps = max(0, army.limit - bound.get("above", 0)) // bound["per_points"] if "per_points" in bound else 0
    plus = bound.get("plus")  # "and 0-1 more per Troll Hag": so many more per unit matching its selector
    more = plus["each"] * len(army.select(plus["select"])) if plus else 0
    return bound.get("base", 0) + steps * bound.get("each", 0) + more


def bound_phrase(bound: Any, army: "Army") -> str:
    """How a bound came to be, for messages: "(1 per 1000 pts of the 2400-pt limit)"."""
    if isinstance(bound, dict) and "per_points" in bound:
        above = f" above {bound['above']}" if bound.get("above") else ""
        base = f"{bound['base']} + " if bound.get("base") else ""
        plus = bound.get("plus")
        more = f", and {plus['each']} more per {plus['label']} ({len(army.select(plus['select']))})" if plus else ""
        return f" ({base}{bound['each']} per {bound['per_points']} pts{above} of the {army.limit}-pt limit{more})"
    if isinstance(bound, dict) and "plus" in bound:  # said only where it raises the bound
        plus, taken = bound["plus"], len(army.select(bound["plus"]["select"]))
        return f" ({bound['base']}, and {plus['each']} more per {plus['label']}: {taken})" if taken else ""
    if isinstance(bound, dict) and "by_band" in bound:
        return f" in {band_phrase(army)}"
    return ""


def percent(points: int, limit: int, bound: int | None = None) -> str:
    """One decimal, or two when one would round onto the bound it breaks (25.04% is not 25.0%)."""
    value = points * 100 / limit
    text = f"{value:.1f}"
    if bound is not None and float(text) == bound and points * 100 != bound * limit:
        text = f"{value:.2f}"
    return text + "%"


def band_phrase(army: "Army") -> str:
    return f"a {army.band.name} ({army.limit} pts)" if army.band else f"a {army.limit}-pt army"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"

