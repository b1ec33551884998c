"""What the engine answers: a Report with the figures and every Violation.

The page, the API, the PDF and tournament checking all show this one object, so they cannot disagree.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

ERROR = "error"
WARNING = "warning"


class Violation(NamedTuple):
    """One broken rule. A NamedTuple, not a dataclass: reports make many and it is 3x cheaper to build."""
    code: str  # stable, e.g. "category.max_percent"
    message: str  # names the numbers
    severity: str = ERROR
    unit: str | None = None  # the id of the unit in the list it is about
    rule: str = ""  # the rule id in the data
    source: str = ""  # where the rule comes from: "000:L84-90", a book page...

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "severity": self.severity, "message": self.message,
                "unit": self.unit, "rule": self.rule, "source": self.source}


class CategoryLine(NamedTuple):
    id: str
    name: str
    points: int
    percent: float  # of the points limit, one decimal
    min_percent: int | None = None
    max_percent: int | None = None
    units: int = 0
    state: str = "ok"  # "low" under its minimum, "high" over its maximum (integer comparison, engine.py)
    # A roster tree's category limits in points or in selections (BattleScribe states them so too).
    min_points: int | None = None
    max_points: int | None = None
    min_count: int | None = None
    max_count: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "points": self.points, "percent": self.percent,
                "min_percent": self.min_percent, "max_percent": self.max_percent, "units": self.units,
                "state": self.state, "min_points": self.min_points, "max_points": self.max_points,
                "min_count": self.min_count, "max_count": self.max_count}


class CountLine(NamedTuple):
    """A counted limit and where the list stands: "Warband: 12 models, at least 3, at most 15"."""
    label: str
    value: int
    what: str  # units, models or points
    min: int | None = None
    max: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "value": self.value, "what": self.what, "min": self.min, "max": self.max}


class UnitLine(NamedTuple):
    id: str
    entry: str
    name: str
    category: str
    points: int
    models: int
    allied: bool = False  # an entry of the allies book; `category` is then the system's allies category

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "entry": self.entry, "name": self.name, "category": self.category,
                "points": self.points, "models": self.models, "allied": self.allied}


class AlliesLine(NamedTuple):
    """The book the list's allied units were checked against."""
    book: str
    book_version: str
    name: str
    composition: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"book": self.book, "book_version": self.book_version, "name": self.name,
                "composition": self.composition}


@dataclass(frozen=True)
class Report:
    system: str
    book: str
    book_version: str
    points_limit: int
    total_points: int
    band: str | None
    band_name: str | None
    categories: tuple[CategoryLine, ...]
    units: tuple[UnitLine, ...]
    figures: dict[str, int]
    violations: tuple[Violation, ...]
    budget_unit: str = "pts"
    unchecked: tuple[str, ...] = field(default=())
    counts: tuple[CountLine, ...] = field(default=())
    figure_names: dict[str, str] = field(default_factory=dict)  # figure key -> its name, from the system data
    allies: AlliesLine | None = None  # the allies book, when the list has allies and it was given

    @property
    def valid(self) -> bool:
        return not any(v.severity == ERROR for v in self.violations)

    @property
    def points_left(self) -> int:
        return self.points_limit - self.total_points

    @property
    def errors(self) -> tuple[Violation, ...]:
        return tuple(v for v in self.violations if v.severity == ERROR)

    def violations_for(self, unit_id: str) -> list[Violation]:
        return [v for v in self.violations if v.unit == unit_id]

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "system": self.system,
            "book": self.book,
            "book_version": self.book_version,
            "points_limit": self.points_limit,
            "total_points": self.total_points,
            "points_left": self.points_left,
            "budget_unit": self.budget_unit,
            "band": self.band,
            "band_name": self.band_name,
            "categories": [c.to_dict() for c in self.categories],
            "units": [u.to_dict() for u in self.units],
            "figures": dict(self.figures),
            "violations": [v.to_dict() for v in self.violations],
            "unchecked": list(self.unchecked),
            "counts": [c.to_dict() for c in self.counts],
            "figure_names": dict(self.figure_names),
            "allies": self.allies.to_dict() if self.allies is not None else None,
        }
