"""Selectors: which units of an army a rule is about, written as data.

A selector is a mapping whose keys must all match a unit (an empty one matches every unit):

    {entry: knight-commander}              the unit is that entry (or one of a list of entries)
    {option: imperial-cavalry}             it has taken that option (or one of them)
    {mount: dragon} / {mount: true}        it rides that mount / any mount
    {item: the-sonnstahl}                  one of its models carries that item
    {item_category: standard}              one of its models carries an item of that category (a magic standard)
    {category: rare}  {tag: one-of-a-kind}  {troop_type: war-machine}
    {character: true}  {general: true}  {wizard_level_min: 3}  {wizard_level: 4}
    {not: {option: detachment}}            it does not match the selector given (a regiment, not a Detachment)

The vocabulary follows what BattleScribe catalogues count (selections matching a condition), so
their constraints can be imported later.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, Protocol


class Unit(Protocol):
    """What a selector reads of a unit. The army's units (rules/native/army.py) have it; they are not imported
    here because the army imports this module."""

    entry: Any
    options: Mapping[str, int]
    mount: Any
    bearers: Any
    category: str
    tags: frozenset[str]
    troop_type: Any
    character: bool
    general: bool
    wizard_level: int

SELECTOR_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "entry": {"$ref": "#/$defs/one_or_many"},
        "option": {"$ref": "#/$defs/one_or_many"},
        "mount": {"oneOf": [{"type": "boolean"}, {"$ref": "#/$defs/one_or_many"}]},
        "item": {"$ref": "#/$defs/one_or_many"},
        "item_category": {"$ref": "#/$defs/one_or_many"},
        "category": {"$ref": "#/$defs/one_or_many"},
        "tag": {"$ref": "#/$defs/one_or_many"},
        "troop_type": {"$ref": "#/$defs/one_or_many"},
        "character": {"type": "boolean"},
        "general": {"type": "boolean"},
        "wizard_level_min": {"type": "integer", "minimum": 1},
        "wizard_level": {"type": "integer", "minimum": 1},
        "not": {"$ref": "#/$defs/selector"},
    },
}
ONE_OR_MANY = {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}, "minItems": 1}]}


def _many(value: Any) -> frozenset[str]:
    return frozenset((value,) if isinstance(value, str) else value)


def _test(key: str, want: Any) -> Callable[["Unit"], bool]:
    """One key of a selector as a predicate, its values turned into a set once."""
    if key == "mount" and isinstance(want, bool):
        return lambda u: (u.mount is not None) == want
    if key in ("character", "general"):
        return lambda u: getattr(u, key) == want
    if key == "wizard_level_min":
        return lambda u: u.wizard_level >= want
    if key == "wizard_level":
        return lambda u: u.wizard_level == want
    if key == "not":
        excluded = predicate(want)
        return lambda u: not excluded(u)
    wanted = _many(want)
    if key == "entry":
        return lambda u: u.entry.id in wanted
    if key == "option":
        return lambda u: not wanted.isdisjoint(u.options)
    if key == "mount":
        return lambda u: u.mount is not None and u.mount.mount.id in wanted
    if key == "item":
        return lambda u: any(i.id in wanted for b in u.bearers for i in b.items)
    if key == "item_category":
        return lambda u: any(i.category in wanted for b in u.bearers for i in b.items)
    if key == "category":
        return lambda u: u.category in wanted
    if key == "tag":
        return lambda u: not wanted.isdisjoint(u.tags)
    if key == "troop_type":
        return lambda u: u.troop_type.id in wanted
    raise KeyError(key)  # the schema admits no other key


_compiled: dict[int, tuple[Mapping[str, Any], Callable[["Unit"], bool]]] = {}


def predicate(selector: Mapping[str, Any]) -> Callable[["Unit"], bool]:
    """The selector as one function, built once per selector (rules data never changes once loaded)."""
    found = _compiled.get(id(selector))
    if found is not None and found[0] is selector:
        return found[1]
    tests = [_test(key, want) for key, want in selector.items()]
    if not tests:
        test = lambda u: True  # noqa: E731
    elif len(tests) == 1:
        test = tests[0]
    elif len(tests) == 2:  # most selectors have one or two keys: no generator per unit
        first, second = tests
        test = lambda u: first(u) and second(u)  # noqa: E731
    else:
        test = lambda u: all(t(u) for t in tests)  # noqa: E731
    if len(_compiled) > 4096:
        _compiled.clear()
    _compiled[id(selector)] = (selector, test)  # the selector is kept, so its id is not reused
    return test


def matches(unit: "Unit", selector: Mapping[str, Any]) -> bool:
    return predicate(selector)(unit)


def select(units: Iterable["Unit"], selector: Mapping[str, Any]) -> list["Unit"]:
    test = predicate(selector)
    return [u for u in units if test(u)]
