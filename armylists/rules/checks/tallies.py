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
                                  "times": {"type": "integer", "minimum": 1}, "round_up": {"type": "boolean"},
                                  "percent": {"type": "boolean"}}},
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


def totals(army: "Army") -> Mapping[str, tuple[int, int]]:
    """tag -> (selections, points) over the whole army, made once per check."""
    found = army.__dict__.get("_tally_totals")
    if found is None:
        sums: dict[str, list[int]] = {}
        for u in army.units:
            for t, (c, p) in tally(u).items():
                slot = sums.setdefault(t, [0, 0])
                slot[0] += c
                slot[1] += p
        found = army.__dict__["_tally_totals"] = {t: (c, p) for t, (c, p) in sums.items()}
    return found


def measure(spec: Mapping[str, Any], army: "Army", unit: "Unit | None") -> int:
    """A tally's count (or points) of selections carrying any of its tags, in the unit or the whole army."""
    column = 1 if spec.get("what") == "points" else 0
    counts = tally(unit) if spec.get("scope") == "unit" and unit is not None else totals(army)
    return sum(counts[t][column] for t in spec["count"] if t in counts)


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


def bounds(limit: Mapping[str, Any], army: "Army", unit: "Unit | None") -> tuple[float | None, float | None]:
    """A limit's min and max after its modifiers, in order; -1 (BattleScribe's "no limit") is None."""
    found = {"min": limit.get("min", -1), "max": limit.get("max", -1)}
    for m in limit.get("modifiers", ()):
        if "when" in m and not holds(m["when"], army, unit):
            continue
        value = m["value"]
        if "repeat" in m:
            r = m["repeat"]
            amount = army.limit if r.get("limit") else measure(r["tally"], army, unit)
            # `percent`: every `per` percent of the points limit ("-1% of Heroes per 1% of Lords", 1.x data)
            per = r["per"] * army.limit / 100 if r.get("percent") else r["per"]
            steps = amount / per if per else 0
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


LIMIT = {"label": {"type": "string", "required": True}, "count": {**TAGS, "required": True},
         "what": {"enum": ["selections", "points"]}, "scope": {"enum": ["roster", "unit"]},
         "entries": {"type": "array", "items": {"type": "string"}}, "min": {"type": "number"}, "max": {"type": "number"},
         "percent": {"type": "boolean"}, "per_model": {"type": "boolean"}, "modifiers": {"type": "array", "items": MODIFIER}}
LIMIT_SCHEMA = {"type": "object", "additionalProperties": False, "properties": {
    **{k: {x: y for x, y in v.items() if x != "required"} for k, v in LIMIT.items()}, "id": {"type": "string"}},
    "required": ["label", "count"]}


@check("tally_limit", **LIMIT)
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
                yield from _judge(army, rule, p, unit)
    else:
        yield from _judge(army, rule, p, None)


@check("tally_limits", limits={"type": "array", "items": LIMIT_SCHEMA, "required": True})
def tally_limits(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """Many tally_limit limits as one rule (an imported book's hundreds), judged through an index: a
    unit's limits by its entry, and a limit with no minimum only where what it counts is in the list
    (none of it can break a maximum). Each violation names its limit's `id` as its rule."""
    index = _index(rule)
    limits = rule.params["limits"]
    chosen = set(index["always"])
    for tag in totals(army):
        found = index["by_tag"].get(tag)
        if found:
            chosen.update(found)
    for i in sorted(chosen):
        yield from _judge(army, rule, limits[i], None)
    every = index["units"].get("", [])
    for unit in army.units:
        own = tally(unit)
        judged = index["units"].get(unit.entry.id, []) + every
        # What depends on the unit alone is kept with it: units are shared between reports (army.py).
        kept = unit.memo.get(id(rule))
        if kept is None or kept[0] is not rule:  # the rule is kept too, so its id is not reused
            kept = unit.memo[id(rule)] = (rule, tuple(
                v for limit, needed, tags, local in judged if local and (needed or any(t in own for t in tags))
                for v in _judge(army, rule, limit, unit)))
        yield from kept[1]
        for limit, needed, tags, local in judged:
            if not local and (needed or any(t in own for t in tags)):
                yield from _judge(army, rule, limit, unit)


def _has_minimum(limit: Mapping[str, Any]) -> bool:
    """Whether the limit may ask for at least something; one without can only fail where its tags are."""
    return limit.get("min", -1) != -1 or any(m["target"] == "min" for m in limit.get("modifiers", ()))


def _unit_alone(limit: Mapping[str, Any]) -> bool:
    """Whether a unit limit's answer depends on the unit alone: no percent of the points limit, and no
    condition or repeat on the points limit, the composition or the army's selections."""
    def local(c: Mapping[str, Any]) -> bool:
        if "all" in c or "any" in c:
            return all(local(x) for x in c.get("all", c.get("any", ())))
        if "not" in c:
            return local(c["not"])
        return "tally" in c and c["tally"].get("scope") == "unit"
    return not limit.get("percent") and all(
        ("when" not in m or local(m["when"])) and ("repeat" not in m or local(m["repeat"]))
        for m in limit.get("modifiers", ()))


_indexes: dict[int, tuple["Rule", dict]] = {}


def _index(rule: "Rule") -> dict:
    found = _indexes.get(id(rule))
    if found is not None and found[0] is rule:  # the rule is kept too, so its id is not reused
        return found[1]
    index: dict[str, Any] = {"always": [], "by_tag": {}, "units": {}}
    for i, limit in enumerate(rule.params["limits"]):
        if limit.get("scope") == "unit":
            for entry in limit.get("entries") or [""]:
                index["units"].setdefault(entry, []).append(
                    (limit, _has_minimum(limit), tuple(limit["count"]), _unit_alone(limit)))
        elif _has_minimum(limit):
            index["always"].append(i)
        else:
            for tag in limit["count"]:
                index["by_tag"].setdefault(tag, []).append(i)
    if len(_indexes) > 256:
        _indexes.clear()
    _indexes[id(rule)] = (rule, index)
    return index


def _judge(army: "Army", rule: "Rule", p: Mapping[str, Any], unit: "Unit | None") -> Iterator[Violation]:
    what = p.get("what", "selections")
    n = measure({"count": p["count"], "what": what, "scope": p.get("scope", "roster")}, army, unit)
    least, most = bounds(p, army, unit)
    if p.get("per_model") and unit is not None:  # a limit on each model's selections, for the unit's models
        least = least * unit.size if least is not None else None
        most = most * unit.size if most is not None else None
    where = f"in {unit.describe()}" if unit is not None else "in the army"  # type: ignore[union-attr]
    for kind, bound in (("max", most), ("min", least)):
        if bound is None:
            continue
        if p.get("percent"):
            broken = n * 100 > bound * army.limit if kind == "max" else n * 100 < bound * army.limit
        else:
            broken = n > bound if kind == "max" else n < bound
        if broken:
            phrase = (f"{_number(bound)}% of the {army.limit}-pt limit ({_number(bound * army.limit / 100)} pts)"
                      if p.get("percent") else _number(bound) + (" pts" if what == "points" else ""))
            word = "at most" if kind == "max" else "at least"
            found = violation(rule, f"tally.{kind}", f"{p['label']}: {n} {WORDS[what]} {where}; {word} {phrase}.", unit)
            yield found._replace(rule=p["id"]) if "id" in p else found
