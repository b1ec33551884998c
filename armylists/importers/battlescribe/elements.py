"""Reading BattleScribe XML: children, numbers and flags the way both schemas write them (plain.py for
schema 2.x, legacy.py for 1.x, rosters.py for rosters)."""
from __future__ import annotations

import gc
import math
from contextlib import contextmanager
from functools import lru_cache
from typing import Iterator
from xml.etree.ElementTree import Element

from armylists.rules.reading.plain_data import MAX_INTEGER

MAX_REVISION = 2**31 - 1  # a game system's or catalogue's revision; real ones are in the hundreds
MAX_SELECTION_NUMBER = 10_000  # a roster's selection taken this many times: a unit's size is at most 10,000
MAX_QUOTED = 20  # characters of a bad value quoted in a message; a 5,000-digit revision is shown by its length

class BattleScribeInputError(Exception):
    """A file that cannot be read or is not a BattleScribe catalogue; str() is one line to print. (Here,
    where every reader finds it; sources.py, which reads the files, gives it to the rest.)"""

    def __init__(self, source: str, element: str, message: str):
        self.source, self.element, self.message = source, element, message
        super().__init__(str(self))

    def __str__(self) -> str:
        return f"{self.source}: {self.element + ': ' if self.element else ''}{self.message}"


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector paused while a data set is read, converted and built: that makes millions of
    containers that all live to the end of the run and hold no cycles (tests/battlescribe/test_battlescribe_import.py
    checks none are left), and every full collection walked them all again, a third of the conversion's
    time on New Recruit's Old World data. Nested uses pause once; the collector runs again after."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


SINGULAR = {"categoryEntries": "categoryEntry", "forceEntries": "forceEntry", "sharedRules": "rule",
            "sharedProfiles": "profile", "categories": "category", "entries": "entry"}


@lru_cache(maxsize=256)  # a schema has a few dozen tags, each met thousands of times
def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def kids(element: Element, container: str, child: str | None = None) -> list[Element]:
    """The children named `child` of the child container named `container` ("constraints" -> "constraint")."""
    child = child or SINGULAR.get(container) or container[:-1]
    for c in element:
        if local(c.tag) == container:
            return [x for x in c if local(x.tag) == child]
    return []


def number(source: str, element: str, value: str | None, default: float = 0.0, low: float = -MAX_INTEGER,
           high: float = MAX_INTEGER) -> float:
    """The attribute `value` as a finite number from `low` to `high` (`default` when absent), else a
    BattleScribeInputError naming the element: "nan", "inf", "1e999" and 5,000 digits (a float of
    infinity) would end in int() raising, or in a number no column or JSON reader holds."""
    if value in (None, ""):
        return default
    try:
        result = float(value)
    except ValueError:
        raise BattleScribeInputError(source, element, f"{_quoted(value)} is not a number") from None
    if not (math.isfinite(result) and low <= result <= high):
        within = (f"from {int(low)} to {int(high)}" if (low, high) != (-MAX_INTEGER, MAX_INTEGER) else
                  f"of at most {MAX_INTEGER} either side of zero")
        raise BattleScribeInputError(source, element, f"{_quoted(value)} is not a finite number {within}")
    return result


def revision(source: str, element: str, value: str | None) -> int:
    """A game system's, catalogue's or roster's revision: a whole number from 0 to MAX_REVISION (1 when absent)."""
    result = number(source, element, value, 1, 0, MAX_REVISION)
    if not float(result).is_integer():  # float(): the default 1 is an int, which has no is_integer() on 3.11
        raise BattleScribeInputError(source, element, f"{_quoted(value or '')} is not a whole number from 0 to "
                                                      f"{MAX_REVISION}")
    return int(result)


def _quoted(value: str) -> str:
    if len(value) <= MAX_QUOTED:
        return repr(value)
    return f"{value[:MAX_QUOTED]!r}… ({len(value)} characters)"


def truth(value: str | None) -> bool:
    return (value or "").lower() == "true"
