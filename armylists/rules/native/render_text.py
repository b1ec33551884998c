"""The Report as plain text, for the command line and text exports."""
from __future__ import annotations

from armylists.rules.native.book import Book
from armylists.rules.report import ERROR, Report


def report_text(report: Report, book: Book, title: str = "") -> str:
    unit = report.budget_unit
    verdict = "LEGAL" if report.valid else f"NOT LEGAL ({len(report.errors)} error{'s' if len(report.errors) != 1 else ''})"
    band = f" ({report.band_name})" if report.band_name else ""
    lines = [
        f"{title + ': ' if title else ''}{verdict}",
        f"  {book.name} {book.version} - limit {report.points_limit} {unit}{band} - total {report.total_points} {unit}"
        f" - {report.points_left} {unit} left",
    ]
    if report.allies is not None:
        lines.append(f"  allies: {report.allies.name} {report.allies.book_version}")
    for cat in report.categories:
        bounds = ", ".join(b for b in (
            f"min {cat.min_percent}%" if cat.min_percent is not None else "",
            f"max {cat.max_percent}%" if cat.max_percent is not None else "") if b)
        lines.append(f"  {cat.name:<14}{cat.points:>6} {unit} {cat.percent:>5.1f}%" + (f"  ({bounds})" if bounds else ""))
    lines.append("  " + figures_text(report))
    for v in report.violations:
        mark = "x" if v.severity == ERROR else "!"
        where = f" [{v.source}]" if v.source else ""
        lines.append(f"  {mark} {v.code}: {v.message}{where}")
    for note in report.unchecked:
        lines.append(f"  ? not checked: {note}")
    return "\n".join(lines)


def figures_text(report: Report) -> str:
    """"15 Units, 136 Models, 11 Deployment drops...": each figure with its name from the system data."""
    return ", ".join(f"{value} {report.figure_names.get(key, key)}" for key, value in report.figures.items())
