"""Rule types over tallies of tagged selections: counts of tags, in the army or a unit, and their limits
(New Recruit's T9A data is converted to them, importers/nr_t9a/; BattleScribe's constraints once were, until
the tree evaluator judged every list of an imported BattleScribe book: issue 37).

A unit's tally counts, per tag, how many of its selections carry it and what they cost: its entry
(once, at the unit's points), its models (an entry's `model_tags`, once per model, at the entry's
points per model) and its options (each time taken, times the models for a `per_model` option, less
what a discount takes off).
A `tally_limit` compares such a count (or points) in a scope, the whole army or each unit of some
entries, with a bound that is absolute or a percent of the points limit; `modifiers` change the bound
where conditions hold (set, increment, decrement; conditions on other tallies, on the points limit,
on the composition; all/any groups; repeats such as "+1 per 1000 points").

    {type: tally_limit, params: {label: Bruisers, count: [bruisers], max: 4,
      modifiers: [{target: max, op: set, value: 0, when: {tally: {count: [bsb]}, is: greaterThan, value: 0}}]}}
"""
from __future__ import annotations

import math
import operator
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping

from armylists.rules.native.derived import RULE_LISTS_BOUND, Memo, built
from armylists.rules.report import Violation
from armylists.rules.checks.registry import DEFS, check, violation

if TYPE_CHECKING:
    from armylists.rules.native.army import Army, Unit
    from armylists.rules.native.book import Book, Rule

TAGS = {"type": "array", "items": {"type": "string"}, "minItems": 1}
# What a tally measures: the column of its counts. `units`: for each tag, the units holding it, each once
# (New Recruit's rarity: a model with several items that count against the same limit counts once).
# `largest`: for each unit, its largest count of one selection (a model's several bows count as its biggest:
# New Recruit's `useunitmax`, High Elves' Queen's Bows), summed over the units.
WHAT = {"selections": 0, "points": 1, "units": 2, "largest": 3}
COMPARISONS = ("equalTo", "notEqualTo", "atLeast", "atMost", "greaterThan", "lessThan")
TALLY = {"type": "object", "additionalProperties": False, "required": ["count"],
         "properties": {"count": TAGS, "what": {"enum": list(WHAT)},
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
WORDS = {"selections": "taken", "points": "pts", "units": "units with it", "largest": "taken"}


def tally(unit: "Unit", keep: frozenset[str] | None = None) -> Counts:
    """tag -> (selections, points, 1, largest selection) of one unit, made once per unit (units never change
    once priced); with `keep`, only of those tags (what the book's limits count: an imported unit carries a tag per
    option, group and category, most of which no limit names)."""
    kept = unit.memo.get("tally")  # read here, not through remember: asked for every unit by every limit
    if kept is None or kept[0] is not keep:
        kept = unit.keep("tally", (keep, _tally(unit, keep)))
    return kept[1]


def _tally(unit: "Unit", keep: frozenset[str] | None) -> Counts:
    entry = unit.entry
    parts = [(entry.tags, 1, unit.points, entry.tag_weights),
             (entry.model_tags, unit.size, entry.points * unit.size, entry.tag_weights)]
    for oid, n in unit.options.items():
        option = entry.options.get(oid)
        if option is not None and option.tags:
            times = n * (unit.size if option.per_model else 1)
            # A discount (army.discount_cuts) is off the points its option counts (an allowance sees them paid).
            parts.append((option.tags, times, option.cost * times + option.model_cost * n * unit.size
                          - unit.cuts.get(oid, 0), option.tag_weights))
    found = {}
    for tags, n, points, weights in parts:
        weight = dict(weights) if weights else {}
        for tag in (tags if keep is None else tags & keep):
            counted = n * weight.get(tag, 1)  # a selection counting more (or less) than once (Option.tag_weights)
            old = found.get(tag)
            found[tag] = (counted, points, 1, counted) if old is None else (
                old[0] + counted, old[1] + points, 1, max(old[3], counted))
    return found


def totals(army: "Army", keep: frozenset[str] | None = None) -> Counts:
    """tag -> (selections, points, units, largest selections) over the whole army (of the tags in `keep`, if
    given: the book's, kept_tags), once per check (kept in `Army.tallies`)."""
    tallies = army.tallies
    if tallies is None:
        tallies = army.tallies = {}
    found = tallies.get(keep is None)
    if found is None:
        found = tallies[keep is None] = {}
        for u in army.units:
            for tag, counted in tally(u, keep).items():
                old = found.get(tag)
                found[tag] = counted if old is None else (old[0] + counted[0], old[1] + counted[1], old[2] + 1,
                                                          old[3] + counted[3])
    return found


def kept_tags(army: "Army", index: dict) -> frozenset[str] | None:
    """The tags every tally rule of the army's book counts, made once per book (BOOK_TAGS); None where this
    rule counts one they do not (an event's own rule): then every tag is tallied."""
    book = army.book
    found = book.derived.of(BOOK_TAGS, book)
    return found if index["tags"] <= found else None


def _book_tags(book: "Book") -> frozenset[str]:
    """The tags the book's tally rules count: its system's, its own, its compositions' and the modes'."""
    rules = [*book.system.rules, *book.rules, *(r for c in book.compositions.values() for r in c.rules),
             *(r for m in book.system.modes.values() for r in m.rules)]
    tags: set[str] = set()
    for r in rules:
        if r.type in ("tally_limit", "tally_limits"):
            _counted(r.params, tags)
    return frozenset(tags)


BOOK_TAGS = built("tally_tags", _book_tags)


def _counted(params: Any, tags: set[str]) -> set[str]:
    """Every tag a rule's params count: its limits', conditions' and repeats' `count`."""
    if isinstance(params, Mapping):
        for key, value in params.items():
            if key == "count":
                tags.update(value)
            else:
                _counted(value, tags)
    elif isinstance(params, (list, tuple)):
        for value in params:
            _counted(value, tags)
    return tags


OPS = {"equalTo": operator.eq, "notEqualTo": operator.ne, "atLeast": operator.ge, "atMost": operator.le,
       "greaterThan": operator.gt, "lessThan": operator.lt}

# A limit is compiled once per rule into plain tuples and closures (an imported book has hundreds, and
# most lists are re-checked after every edit): a tally becomes (tags, column, unit scope), a condition a
# function of (army, army totals, the unit's tally or None), and a limit without modifiers keeps its bounds.
Counts = Mapping[str, tuple[int, int, int, int]]


def _tally_spec(spec: Mapping[str, Any]) -> tuple[tuple[str, ...], int, bool]:
    return tuple(spec["count"]), WHAT[spec.get("what", "selections")], spec.get("scope") == "unit"


def _measure(tally_spec: tuple[tuple[str, ...], int, bool], tot: Counts, own: Counts | None) -> int:
    """A tally's count (or points) of selections carrying any of its tags: in the unit when it is scoped to
    the unit and one is being judged, else in the whole army."""
    tags, column, unit_scope = tally_spec
    counts = own if unit_scope and own is not None else tot
    if len(tags) == 1:
        found = counts.get(tags[0])
        return found[column] if found is not None else 0
    return sum(counts[t][column] for t in tags if t in counts)


_NONE = (0, 0, 0, 0)


def _measurer(spec: tuple[tuple[str, ...], int, bool]) -> Callable[[Counts, Counts | None], int]:
    """_measure(spec, ...) as a function of (army totals, the unit's tally or None), made once: most
    tallies count one tag, which is then one dict lookup."""
    tags, column, unit_scope = spec
    if len(tags) != 1:
        return lambda tot, own: _measure(spec, tot, own)
    tag = tags[0]
    if unit_scope:
        return lambda tot, own: (own if own is not None else tot).get(tag, _NONE)[column]
    return lambda tot, own: tot.get(tag, _NONE)[column]


def _condition(c: Mapping[str, Any]) -> Callable[["Army", Counts, Counts | None], bool]:
    if "all" in c:
        parts = [_condition(x) for x in c["all"]]
        return lambda army, tot, own: all(f(army, tot, own) for f in parts)
    if "any" in c:
        parts = [_condition(x) for x in c["any"]]
        return lambda army, tot, own: any(f(army, tot, own) for f in parts)
    if "not" in c:
        inner = _condition(c["not"])
        return lambda army, tot, own: not inner(army, tot, own)
    if "composition" in c:
        names = frozenset(c["composition"])
        return lambda army, tot, own: (army.composition or "") in names  # "": the book's own (no composition)
    how, value = OPS[c["is"]], c["value"]
    if c.get("limit"):
        return lambda army, tot, own: how(army.limit, value)
    measure = _measurer(_tally_spec(c["tally"]))
    return lambda army, tot, own: how(measure(tot, own), value)


def _repeat(r: Mapping[str, Any]) -> Callable[["Army", Counts, Counts | None], int]:
    """How many times a repeating modifier applies: its amount over `per`, rounded down (or up)."""
    spec = None if r.get("limit") else _tally_spec(r["tally"])
    per, percent, times = r["per"], r.get("percent", False), r.get("times", 1)
    rounding = math.ceil if r.get("round_up") else math.floor

    def steps(army: "Army", tot: Counts, own: Counts | None) -> int:
        amount = army.limit if spec is None else _measure(spec, tot, own)
        # `percent`: every `per` percent of the points limit ("-1% of Heroes per 1% of Lords", 1.x data)
        step = per * army.limit / 100 if percent else per
        return rounding(amount / step) * times if step else 0
    return steps


class Limit:
    """One tally limit, compiled."""
    __slots__ = ("params", "tally", "measure", "least", "most", "modifiers", "percent", "per_model", "has_minimum", "unit_alone")

    def __init__(self, p: Mapping[str, Any]):
        self.params = p
        self.tally = _tally_spec(p)
        self.measure = _measurer(self.tally)
        self.least, self.most = p.get("min", -1), p.get("max", -1)  # -1: BattleScribe's "no limit"
        self.modifiers = tuple(
            (m["target"], m["op"], m["value"], _condition(m["when"]) if "when" in m else None,
             _repeat(m["repeat"]) if "repeat" in m else None)
            for m in p.get("modifiers", ()))
        self.percent, self.per_model = p.get("percent", False), p.get("per_model", False)
        self.has_minimum = self.least != -1 or any(m[0] == "min" for m in self.modifiers)
        self.unit_alone = _unit_alone(p)

    def bounds(self, army: "Army", tot: Counts, own: Counts | None) -> tuple[float, float]:
        """min and max after the modifiers, in order (-1: none)."""
        least, most = self.least, self.most
        for target, op, value, when, repeat in self.modifiers:
            if when is not None and not when(army, tot, own):
                continue
            if repeat is not None:
                value *= repeat(army, tot, own)
            current = most if target == "max" else least
            if op == "set":
                current = value
            elif current != -1:
                current = current + value if op == "increment" else max(0, current - value)
            if target == "max":
                most = current
            else:
                least = current
        return least, most


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


LIMIT = {"label": {"type": "string", "required": True}, "count": {**TAGS, "required": True},
         "what": {"enum": list(WHAT)}, "scope": {"enum": ["roster", "unit"]},
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
    index = _compiled(rule)
    limit, keep = index["one"], kept_tags(army, index)
    tot = totals(army, keep)
    if limit.params.get("scope") == "unit":
        wanted = set(limit.params.get("entries", ()))
        for unit in army.units:
            if not wanted or unit.entry.id in wanted:
                yield from _judge(army, rule, limit, tot, unit, keep)
    else:
        yield from _judge(army, rule, limit, tot, None, keep)


@check("tally_limits", limits={"type": "array", "items": LIMIT_SCHEMA, "required": True})
def tally_limits(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """Many tally_limit limits as one rule (an imported book's hundreds), judged through an index: a
    unit's limits by its entry, and a limit with no minimum only where what it counts is in the list
    (none of it can break a maximum). Each violation names its limit's `id` as its rule."""
    index = _compiled(rule)
    keep = kept_tags(army, index)
    tot = totals(army, keep)
    present = index["by_tag"].keys() & tot.keys()
    chosen = index["chosen"].get(frozenset(present)) if present else index["always"]
    if chosen is None:
        chosen = _choose(index, present)
    for limit in chosen:
        if limit.percent:
            yield from _judge(army, rule, limit, tot, None, keep)
            continue
        # Inline, as most limits hold: _judge words the violations of one that does not.
        n = limit.measure(tot, None)
        least, most = limit.bounds(army, tot, None) if limit.modifiers else (limit.least, limit.most)
        if (most != -1 and n > most) or (least != -1 and n < least):
            yield from _judge(army, rule, limit, tot, None, keep)
    by_entry, every = index["units"], index["every"]
    if not by_entry and every is None:
        return
    for unit in army.units:
        found = by_entry.get(unit.entry.id, every)
        if found is None:
            continue
        alone, others = found
        own = tally(unit, keep)
        counted = own.keys()  # a limit with no minimum can only fail where what it counts is
        # What depends on the unit alone is kept with it: units are shared between reports (army.py).
        kept = unit.memo.get(id(rule))
        if kept is None or kept[0] is not rule:  # the rule is kept too, so its id is not reused
            kept = unit.keep(id(rule), (rule, _alone(army, rule, alone, counted, tot, unit, keep)))
        yield from kept[1]
        for limit in others:
            if limit.has_minimum or not counted.isdisjoint(limit.tally[0]):
                yield from _judge(army, rule, limit, tot, unit, keep)


def _alone(army: "Army", rule: "Rule", alone: tuple[Limit, ...], counted: Any, tot: Counts, unit: "Unit",
           keep: frozenset[str] | None) -> tuple[Violation, ...]:
    """The unit's violations of the limits that depend on it alone."""
    return tuple(v for limit in alone if limit.has_minimum or not counted.isdisjoint(limit.tally[0])
                 for v in _judge(army, rule, limit, tot, unit, keep))


def _choose(index: dict, present: set[str]) -> tuple[Limit, ...]:
    """The roster limits a list with these tags can break, in the book's order, kept per set of tags."""
    by_tag, limits = index["by_tag"], index["limits"]
    chosen = tuple(limits[i] for i in sorted({i for tag in present for i in by_tag[tag]}.union(index["always_i"])))
    if len(index["chosen"]) > 4096:
        index["chosen"].clear()
    index["chosen"][frozenset(present)] = chosen
    return chosen


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


_indexes = Memo(RULE_LISTS_BOUND)  # by the rule's id, the rule kept with it (derived.Memo)


def _compiled(rule: "Rule") -> dict:
    """The rule's limits compiled, and indexed: roster limits with a minimum (always judged), the others
    by the tags they count, unit limits by their entries ("" for every unit)."""
    found = _indexes.get(id(rule))  # read here, not through remember: every tally rule asks at every check
    if found is None or found[0] is not rule:
        found = _indexes.put(id(rule), (rule, _compile(rule)))
    return found[1]


def _compile(rule: "Rule") -> dict:
    if rule.type == "tally_limit":
        index: dict[str, Any] = {"one": Limit(rule.params)}
    else:
        limits = [Limit(p) for p in rule.params["limits"]]
        always: list[int] = []
        by_tag: dict[str, list[int]] = {}
        units: dict[str, list[Limit]] = {}
        for i, limit in enumerate(limits):
            if limit.params.get("scope") == "unit":
                for entry in limit.params.get("entries") or [""]:
                    units.setdefault(entry, []).append(limit)
            elif limit.has_minimum:
                always.append(i)
            else:
                for tag in limit.tally[0]:
                    by_tag.setdefault(tag, []).append(i)
        every = units.pop("", [])  # limits on every unit
        index = {"limits": limits, "always_i": always, "always": tuple(limits[i] for i in always), "by_tag": by_tag,
                 "chosen": {}, "units": {entry: (tuple(x for x in found + every if x.unit_alone),
                                                 tuple(x for x in found + every if not x.unit_alone))
                                         for entry, found in units.items()},
                 "every": (tuple(x for x in every if x.unit_alone), tuple(x for x in every if not x.unit_alone))
                 if every else None}
    index["tags"] = frozenset(_counted(rule.params, set()))
    return index


def _judge(army: "Army", rule: "Rule", limit: Limit, tot: Counts, unit: "Unit | None",
           keep: frozenset[str] | None) -> tuple[Violation, ...]:
    own = tally(unit, keep) if unit is not None else None
    n = limit.measure(tot, own)
    least, most = limit.bounds(army, tot, own) if limit.modifiers else (limit.least, limit.most)
    if limit.per_model and unit is not None:  # a limit on each model's selections, for the unit's models
        least = least * unit.size if least != -1 else -1
        most = most * unit.size if most != -1 else -1
    if limit.percent:
        over = most != -1 and n * 100 > most * army.limit
        under = least != -1 and n * 100 < least * army.limit
    else:
        over = most != -1 and n > most
        under = least != -1 and n < least
    if not (over or under):
        return ()
    p = limit.params
    what = p.get("what", "selections")
    where = f"in {unit.describe()}" if unit is not None else "in the army"
    found = []
    for kind, bound, broken in (("max", most, over), ("min", least, under)):
        if broken:
            phrase = (f"{_number(bound)}% of the {army.limit}-pt limit ({_number(bound * army.limit / 100)} pts)"
                      if limit.percent else _number(bound) + (" pts" if what == "points" else ""))
            word = "at most" if kind == "max" else "at least"
            v = violation(rule, f"tally.{kind}", f"{p['label']}: {_number(n)} {WORDS[what]} {where}; {word} {phrase}.",
                          unit)
            found.append(v._replace(rule=p["id"]) if "id" in p else v)
    return tuple(found)
