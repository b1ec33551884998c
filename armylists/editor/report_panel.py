"""The report panel's figures, from the engine's Report: totals, a bar per category with its bounds
marked, the counts players want and every violation linked to its unit. Only presentation is worked
out here (bar widths and positions, labels); every number comes from the Report."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.urls import NoReverseMatch, reverse

from armylists.lists.plain_words import linked_message, plain_message, source_words
from armylists.rules import Report
from armylists.rules.native.book import System


@dataclass(frozen=True)
class Bar:
    id: str
    name: str
    points: int
    percent: float
    units: int
    bounds: str
    state: str  # ok, low, high
    fill: float  # width of the bar, percent of the scale
    low: float | None  # where the min and max marks sit, percent of the scale
    high: float | None
    low_label: str
    high_label: str


def category_bounds(c: Any, unit: str) -> str:
    """A category's limits in points or units (a roster tree's), as words: "min 1 unit, max 400 pts"."""
    def units(n: int) -> str:
        return f"{n} unit{'' if n == 1 else 's'}"
    parts = [f"min {c.min_points} {unit}" if c.min_points is not None else "",
             f"max {c.max_points} {unit}" if c.max_points is not None else "",
             f"min {units(c.min_count)}" if c.min_count is not None else "",
             f"max {units(c.max_count)}" if c.max_count is not None else ""]
    return ", ".join(p for p in parts if p)


def report_panel(report: Report, unit_names: dict[str, str] | None = None, link_prefix: str = "",
                 system: System | None = None, data_as_of: dict | None = None) -> dict[str, Any]:
    """The context of `lists/list_report.html`; `unit_names` names units for the violation links and
    `system` gives the words rule sources are shown in.

    Shown at once: the totals, the categories, what is broken and the counts that say something (a
    limit broken, or anything counted); the rest (every "0 of 2" of a rule nothing in the list touches)
    is folded under `quiet_figures`."""
    unit_names = unit_names or {u.id: u.name for u in report.units}
    limit = report.points_limit
    # One scale for every bar, so they compare: at least 50% of the limit, and room for the largest
    # share or bound, rounded up to a tenth.
    top = max([50.0] + [c.percent for c in report.categories]
              + [float(b) for c in report.categories for b in (c.min_percent, c.max_percent) if b is not None])
    scale = min(100, int(math.ceil((top + 5) / 10.0) * 10)) if top < 100 else math.ceil(top)
    bars = []
    for c in report.categories:
        bounds = ", ".join(b for b in (f"min {c.min_percent}%" if c.min_percent is not None else "",
                                       f"max {c.max_percent}%" if c.max_percent is not None else "") if b)
        extra = category_bounds(c, report.budget_unit)   # a roster tree's limits in points or units
        bounds = ", ".join(b for b in (bounds, extra) if b)
        bars.append(Bar(
            c.id, c.name, c.points, c.percent, c.units, bounds, c.state,
            fill=round(min(c.percent, scale) * 100 / scale, 2),
            low=round(c.min_percent * 100 / scale, 2) if c.min_percent is not None else None,
            high=round(c.max_percent * 100 / scale, 2) if c.max_percent is not None else None,
            low_label=f"{c.min_percent}% = {c.min_percent * limit // 100} {report.budget_unit}"
            if c.min_percent is not None else "",
            high_label=f"{c.max_percent}% = {c.max_percent * limit // 100} {report.budget_unit}"
            if c.max_percent is not None else "",
        ))
    figures = []
    f = report.figures
    for key, value in f.items():
        if key == "wizard_levels":
            continue
        label = report.figure_names.get(key, key)
        text = str(value)
        if key == "wizards" and value:
            levels = f.get("wizard_levels", 0)
            text = f"{value} · {levels} level{'' if levels == 1 else 's'}"
        figures.append({"label": label, "value": text, "quiet": False})
    for c in report.counts:  # Mordheim: warband size, leader, heroes and each type against their limits
        if c.max == 0 and c.value == 0:
            # "Units only for a City-State of Nuln army: 0 of 0": a limit of none on what this list did not
            # take cannot apply to it (taken, it is a violation, and shown as one and here).
            continue
        text = f"{c.value} of {c.max}" if c.max is not None else str(c.value)
        if c.min is not None and c.min != c.max:
            text += f" (at least {c.min})"
        over = (c.max is not None and c.value > c.max) or (c.min is not None and c.value < c.min)
        figures.append({"label": c.label, "value": text, "over": over, "quiet": not over and c.value == 0})
    violations = []
    for v in report.violations:
        message = plain_message(v.message, unit_names)
        href = f"{link_prefix}#unit-{v.unit}" if v.unit and v.unit in unit_names else ""
        lead, rest = linked_message(message, unit_names.get(v.unit, "")) if href else ("", message)
        violations.append({
            "severity": v.severity, "code": v.code, "message": message, "source": source_words(v.source, system),
            "unit": v.unit, "unit_name": unit_names.get(v.unit, v.unit) if v.unit else "",
            "href": href, "lead": lead, "rest": rest,
        })
    errors = len(report.errors)
    return {
        "valid": report.valid,
        "errors": errors,
        "warnings": len(report.violations) - errors,
        "total": report.total_points,
        "limit": limit,
        "left": abs(report.points_left),
        "over": report.points_left < 0,
        "spent_percent": min(100.0, round(report.total_points * 100 / limit, 1)) if limit else 0,
        "unit": report.budget_unit,
        "band": report.band_name,
        "scale": scale,
        "bars": bars,
        "figures": [{k: v for k, v in f.items() if k != "quiet"} for f in figures if not f["quiet"]],
        "quiet_figures": [{k: v for k, v in f.items() if k != "quiet"} for f in figures if f["quiet"]],
        "violations": violations,
        "unchecked": list(report.unchecked),
        # the book's page, which lists what the site does not check in an imported book's data
        "book_url": _book_url(report),
        "data_as_of": data_as_of,  # lists/library/data_as_of.py: the book, and the game data version it came from
    }


def _book_url(report: Report) -> str:
    try:
        return reverse("book-detail", args=[report.system, report.book, report.book_version])
    except NoReverseMatch:   # an id the address cannot hold (a list checked offline): no link
        return ""
