"""Reading BattleScribe XML: children, numbers and flags the way both schemas write them (plain.py for
schema 2.x, legacy.py for 1.x, rosters.py for rosters)."""
from __future__ import annotations

from xml.etree.ElementTree import Element

from armylists.importers.battlescribe.sources import BattleScribeInputError

SINGULAR = {"categoryEntries": "categoryEntry", "forceEntries": "forceEntry", "sharedRules": "rule",
            "sharedProfiles": "profile", "categories": "category", "entries": "entry"}


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def kids(element: Element, container: str, child: str | None = None) -> list[Element]:
    """The children named `child` of the child container named `container` ("constraints" -> "constraint")."""
    child = child or SINGULAR.get(container) or container[:-1]
    for c in element:
        if local(c.tag) == container:
            return [x for x in c if local(x.tag) == child]
    return []


def number(source: str, element: str, value: str | None, default: float = 0.0) -> float:
    if value in (None, ""):
        return default
    try:
        return float(value)
    except ValueError:
        raise BattleScribeInputError(source, element, f"{value!r} is not a number") from None


def truth(value: str | None) -> bool:
    return (value or "").lower() == "true"
