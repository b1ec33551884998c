"""Selectors: which units of an army a rule is about, written as data.

A selector is a mapping whose keys must all match a unit (an empty one matches every unit):

    {entry: knight-commander}              the unit is that entry (or one of a list of entries)
    {option: imperial-cavalry}             it has taken that option (or one of them)
    {mount: dragon} / {mount: true}        it rides that mount / any mount
    {item: the-sonnstahl}                  one of its models carries that item
    {category: rare}  {tag: one-of-a-kind}  {troop_type: war-machine}
    {character: true}  {general: true}  {wizard_level_min: 3}

The vocabulary follows what BattleScribe catalogues count (selections matching a condition), so
their constraints can be imported later.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping

if TYPE_CHECKING:
    from .army import Unit

SELECTOR_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "entry": {"$ref": "#/$defs/one_or_many"},
        "option": {"$ref": "#/$defs/one_or_many"},
        "mount": {"oneOf": [{"type": "boolean"}, {"$ref": "#/$defs/one_or_many"}]},
        "item": {"$ref": "#/$defs/one_or_many"},
        "category": {"$ref": "#/$defs/one_or_many"},
        "tag": {"$ref": "#/$defs/one_or_many"},
        "troop_type": {"$ref": "#/$defs/one_or_many"},
        "character": {"type": "boolean"},
        "general": {"type": "boolean"},
        "wizard_level_min": {"type": "integer", "minimum": 1},
    },
}
ONE_OR_MANY = {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}, "minItems": 1}]}


def _many(value: Any) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def matches(unit: "Unit", selector: Mapping[str, Any]) -> bool:
    for key, want in selector.items():
        if key == "entry":
            if unit.entry.id not in _many(want):
                return False
        elif key == "option":
            if not any(o in unit.options for o in _many(want)):
                return False
        elif key == "mount":
            ridden = unit.mount.mount.id if unit.mount else None
            if want is True or want is False:
                if (ridden is not None) != want:
                    return False
            elif ridden not in _many(want):
                return False
        elif key == "item":
            carried = {i.id for b in unit.bearers for i in b.items}
            if not carried.intersection(_many(want)):
                return False
        elif key == "category":
            if unit.category not in _many(want):
                return False
        elif key == "tag":
            if not unit.tags.intersection(_many(want)):
                return False
        elif key == "troop_type":
            if unit.troop_type.id not in _many(want):
                return False
        elif key == "character":
            if unit.character != want:
                return False
        elif key == "general":
            if unit.general != want:
                return False
        elif key == "wizard_level_min":
            if unit.wizard_level < want:
                return False
    return True


def select(units: Iterable["Unit"], selector: Mapping[str, Any]) -> list["Unit"]:
    return [u for u in units if matches(u, selector)]
