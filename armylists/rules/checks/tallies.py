"""Rule types over tallies of tagged selections: what BattleScribe's constraints and modifiers say.

A unit's tally counts, per tag, how many of its selections carry it and what they cost: its entry
(once, at the unit's points), its models (an entry's `model_tags`, once per model, at the entry's
points per model) and its options (each time taken, times the models for a `per_model` option).
A `tally_limit` compares such a count (or points) in a scope, the whole army or each unit of some
entries, with a bound that is absolute or a percent of the points limit; `modifiers` change the bound
where conditions hold (set, increment, decrement; conditions on other tallies, on the points limit,
on the composition; all/any groups; repeats such as "+1 per 1000 points").

    {type: tally_limit, params: {label: Bruisers, count: [bruisers], max: 4,
      modifiers: [{target: max, op: set, value: 0, when: {tally: {count: [bsb]}, is: greaterThan, value: 0}}]}}
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Iterator, Mapping

from ..report import Violation
from .registry import DEFS, check, violation

if TYPE_CHECKING:
    from ..army import Army, Unit
    from ..book import Rule

TAGS = {"type": "array", "items": {"type": "string"}, "minItems": 1}
COMPARISONS = ("equalTo", "notEqualTo", "atLeast", "atMost", "greaterThan", "lessThan")
TALLY = {"type": "object", "additionalProperties": False, "required": ["count"],
         "properties": {"count": TAGS, "what": {"enum": ["selections", "points"]},
                        "scope": {"enum": ["roster", "unit"]}}}
CONDITION = {"$ref": "#/$defs/tally_condition"}
CONDITION_DEF = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "tally": TALLY, "limit": {"const": True}, "is": {"enum": list(COMPARISONS)}, "value": {"type": "number"},
        "composition": {"type": "array", "items": {"type": "string"}},
        "all": {"type": "array", "items": CONDITION}, "any": {"type": "array", "items": CONDITION},
        "not": CONDITION,
    },
}
MODIFIER = {
    "type": "object", "additionalProperties": False, "required": ["target", "op", "value"],
    "properties": {
        "target": {"enum": ["min", "max"]}, "op": {"enum": ["set", "increment", "decrement"]},
        "value": {"type": "number"}, "when": CONDITION,
        "repeat": {"type": "object", "additionalProperties": False, "required": ["per"],
                   "properties": {"tally": TALLY, "limit": {"const": True}, "per": {"type": "number", "exclusiveMinimum": 0},
                                  "times": {"type": "integer", "minimum": 1}, "round_up": {"type": "boolean"}}},
    },
}
DEFS["tally_condition"] = CONDITION_DEF  # recursive: all/any/not hold conditions
WORDS = {"selections": "taken", "points": "pts"}


def tally(unit: "Unit") -> Mapping[str, tuple[int, int]]:
    """tag -> (selections, points) of one unit, made once per unit (units never change once priced)."""
    found = unit.memo.get("tally")  # type: ignore[call-overload]
    if found is not None:
        return found
    counts: dict[str, list[int]] = {}

    def add(tags: frozenset[str], n: int, points: int) -> None:
        for tag in tags:
            slot = counts.setdefault(tag, [0, 0])
            slot[0] += n
            slot[1] += points

    entry = unit.entry
    add(entry.tags, 1, unit.points)
    add(entry.model_tags, unit.size, entry.points * unit.size)
    for oid, n in unit.options.items():
        option = entry.options.get(oid)
        if option is None or not option.tags:
            continue
        times = n * (unit.size if option.per_model else 1)
        add(option.tags, times, option.cost * times + option.model_cost * n * unit.size)
    found = {tag: (c, p) for tag, (c, p) in counts.items()}
    unit.memo["tally"] = found  # type: ignore[index]
    return found


def measure(spec: Mapping[str, Any], army: "Army", unit: "Unit | None") -> int:
    """A tally's count (or points) of selections carrying any of its tags, in the unit or the whole army."""
    column = 1 if spec.get("what") == "points" else 0
    tags = spec["count"]
    units = [unit] if spec.get("scope") == "unit" and unit is not None else army.units
    total = 0
    for u in units:
        counts = tally(u)
        total += sum(counts[t][column] for t in tags if t in counts)
    return total


def compare(left: float, how: str, right: float) -> bool:
    return {"equalTo": left == right, "notEqualTo": left != right, "atLeast": left >= right,
            "atMost": left <= right, "greaterThan": left > right, "lessThan": left < right}[how]


def holds(condition: Mapping[str, Any], army: "Army", unit: "Unit | None") -> bool:
    if "all" in condition:
        return all(holds(c, army, unit) for c in condition["all"])
    if "any" in condition:
        return any(holds(c, army, unit) for c in condition["any"])
    if "not" in condition:
        return not holds(condition["not"], army, unit)
    if "composition" in condition:
        return (army.composition or "") in condition["composition"]  # "": the book's own (no composition)
    amount = army.limit if condition.get("limit") else measure(condition["tally"], army, unit)
    return compare(amount, condition["is"], condition["value"])


def bounds(rule: "Rule", army: "Army", unit: "Unit | None") -> tuple[float | None, float | None]:
    """The rule's min and max after its modifiers, in order; -1 (BattleScribe's "no limit") is None."""
    found = {"min": rule.params.get("min", -1), "max": rule.params.get("max", -1)}
    for m in rule.params.get("modifiers", ()):
        if "when" in m and not holds(m["when"], army, unit):
            continue
        value = m["value"]
        if "repeat" in m:
            r = m["repeat"]
            amount = army.limit if r.get("limit") else measure(r["tally"], army, unit)
            steps = amount / r["per"]
            value *= (math.ceil(steps) if r.get("round_up") else math.floor(steps)) * r.get("times", 1)
        current = found[m["target"]]
        if m["op"] == "set":
            found[m["target"]] = value
        elif m["op"] == "increment":
            found[m["target"]] = current + value if current != -1 else -1
        else:
            found[m["target"]] = max(0, current - value) if current != -1 else -1
    return tuple(None if found[k] == -1 else found[k] for k in ("min", "max"))  # type: ignore[return-value]


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


@check("tally_limit", label={"type": "string", "required": True}, count={**TAGS, "required": True},
       what={"enum": ["selections", "points"]}, scope={"enum": ["roster", "unit"]},
       entries={"type": "array", "items": {"type": "string"}}, min={"type": "number"}, max={"type": "number"},
       percent={"type": "boolean"}, per_model={"type": "boolean"}, modifiers={"type": "array", "items": MODIFIER})
def tally_limit(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """How many selections carrying some tags (or their points) the army, or each unit of `entries`,
    holds, against a min and max (-1: none) that are absolute or, with `percent`, a percent of the
    points limit (with `per_model`, per model of the unit); `modifiers` change the bounds where their
    conditions hold."""
    p = rule.params
    if p.get("scope") == "unit":
        wanted = set(p.get("entries", ()))
        for unit in army.units:
            if not wanted or unit.entry.id in wanted:
                yield from _judge(army, rule, unit, f"in {unit.describe()}")
    else:
        yield from _judge(army, rule, None, "in the army")


def _judge(army: "Army", rule: "Rule", unit: "Unit | None", where: str) -> Iterator[Violation]:
    p = rule.params
    what = p.get("what", "selections")
    n = measure({"count": p["count"], "what": what, "scope": p.get("scope", "roster")}, army, unit)
    least, most = bounds(rule, army, unit)
    if p.get("per_model") and unit is not None:  # a limit on each model's selections, for the unit's models
        least = least * unit.size if least is not None else None
        most = most * unit.size if most is not None else None
    amount = f"{n} {WORDS[what]}"
    for kind, bound in (("max", most), ("min", least)):
        if bound is None:
            continue
        if p.get("percent"):
            broken = n * 100 > bound * army.limit if kind == "max" else n * 100 < bound * army.limit
            phrase = f"{_number(bound)}% of the {army.limit}-pt limit ({_number(bound * army.limit / 100)} pts)"
        else:
            broken = n > bound if kind == "max" else n < bound
            phrase = _number(bound) + (" pts" if what == "points" else "")
        if broken:
            word = "at most" if kind == "max" else "at least"
            yield violation(rule, f"tally.{kind}", f"{p['label']}: {amount} {where}; {word} {phrase}.", unit)
