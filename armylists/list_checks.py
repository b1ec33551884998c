"""Checking many list files at an event, for `manage.py check_lists`: on every core, in constant memory.

Each file becomes one `CheckedLine`: the strings its table row, its violations, its CSV row and (when
asked) its JSON entry need, and nothing else: no Roster, Book or Report outlives the check of its list.
With more than one process the files are checked by a pool of forked workers (they inherit the rules
already read), in order. `Outputs` writes each line as it comes to temporary files (the table's rows,
the details, the CSV, the JSON), tracking only the table's column widths, and reads them back at the
end: 10,000 lists take no more memory than 100.
"""
from __future__ import annotations

import csv
import json
import multiprocessing
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Iterator

from armylists.catalogue import allies_book_for
from armylists.list_files import ListFileError, read_list
from armylists.rules import ListDocumentError, Report, System
from armylists.rules.event import Ruleset, check_list
from armylists.rules.report import ERROR, WARNING

SPOOL_BYTES = 1 << 20  # each output is kept in memory up to this size, then in a temporary file


@dataclass
class CheckedLine:
    """One list file checked: what every output prints of it."""
    path: Path
    error: str = ""  # the one-line reason it could not be read; empty when it was checked
    player: str = ""
    valid: bool = False
    errors: int = 0
    warnings: int = 0
    cells: list[str] = field(default_factory=list)  # the table row after the file name
    violations: list[str] = field(default_factory=list)  # "  x code: message", one per violation
    csv: list = field(default_factory=list)
    report: dict | None = None  # Report.to_dict(), for --json


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def check_file(path: Path, ruleset: Ruleset, system: System, with_report: bool) -> CheckedLine:
    try:
        roster, book = read_list(path)
        report = check_list(ruleset, book, roster, allies_book_for(roster, str(path)))
    except (ListFileError, ListDocumentError) as exc:
        return CheckedLine(path, error=str(exc))
    warnings = sum(v.severity == WARNING for v in report.violations)
    percents = {line.id: line.percent for line in report.categories}
    return CheckedLine(
        path, player=roster.player, valid=report.valid, errors=len(report.errors), warnings=warnings,
        cells=[roster.player or "-", f"{book.name} {book.version}", f"{report.total_points}/{report.points_limit}",
               *(f"{percents[c.id]:.1f}%" if c.id in percents else "-" for c in system.categories)],
        violations=[f"  {'x' if v.severity == ERROR else '!'} {v.code}: {v.message}" for v in report.violations],
        csv=_csv_row(path, roster.player, roster.name, report, system, percents, warnings),
        report=report.to_dict() if with_report else None,
    )


def _csv_row(path: Path, player: str, name: str, r: Report, system: System, percents: dict, warnings: int) -> list:
    return [str(path), player, name, r.system, r.book, r.book_version, r.total_points, r.points_limit,
            *(f"{percents[cat.id]:.1f}" if cat.id in percents else "" for cat in system.categories),
            "true" if r.valid else "false", len(r.errors), warnings,
            " | ".join(f"{v.code}: {v.message}" for v in r.violations)]


# What forked workers check against, set in the parent before the pool starts (inherited, not sent).
_job: tuple[Ruleset, System, bool] | None = None
_inherited_connections: list = []


def _start_worker() -> None:
    # The parent's database connections were copied by fork. This process opens its own if it needs
    # one (a book kept only in the database), and never closes the copies: closing one would end the
    # parent's session on the server.
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        _inherited_connections.append(connection.connection)
        connection.connection = None


def _check_in_worker(path: Path) -> CheckedLine:
    assert _job is not None
    return check_file(path, *_job)


def checked_lines(files: list[Path], ruleset: Ruleset, system: System, jobs: int,
                  with_report: bool) -> Iterator[CheckedLine]:
    """Every file checked, in order; by `jobs` processes when there are enough files to share."""
    global _job
    if jobs <= 1 or len(files) < 4 * jobs:
        for path in files:
            yield check_file(path, ruleset, system, with_report)
        return
    _job = (ruleset, system, with_report)
    try:
        with multiprocessing.get_context("fork").Pool(jobs, initializer=_start_worker) as pool:
            yield from pool.imap(_check_in_worker, files, chunksize=max(1, min(50, len(files) // (jobs * 8))))
    finally:
        _job = None


class Outputs:
    """The command's outputs, written line by line to temporary files and printed at the end."""

    def __init__(self, system: System, names: dict[Path, str], with_json: bool):
        self.system = system
        self.names = names
        self.header = ["file", "player", "army", system.budget_unit, *(c.name for c in system.categories), "verdict"]
        self.widths = [len(cell) for cell in self.header]
        self.rows = _spool()
        self.details = _spool()
        self.csv = _spool()
        self.csv_writer = csv.writer(self.csv, lineterminator="\n")
        self.csv_writer.writerow(["file", "player", "list name", "system", "book", "book_version", "total_points",
                                  "points_limit", *(f"{c.name} %" for c in system.categories), "valid", "errors",
                                  "warnings", "violations"])
        self.json = _spool() if with_json else None
        self.lists = self.legal = self.illegal = self.unreadable = 0
        self.has_details = False

    def __enter__(self) -> "Outputs":
        return self

    def __exit__(self, *exc) -> None:
        for spool in (self.rows, self.details, self.csv, self.json):
            if spool is not None:
                spool.close()

    def add(self, line: CheckedLine) -> None:
        name = self.names[line.path]
        self.lists += 1
        if line.error:
            self.unreadable += 1
            row = [name, "-", "-", "-", *("-" for _ in self.system.categories), "unreadable"]
            self._detail(f"{name}: unreadable\n  {line.error}")
            self.csv_writer.writerow([str(line.path), *[""] * (7 + len(self.system.categories)), "unreadable", "", "",
                                      line.error])
            self._json({"file": str(line.path), "error": line.error})
        else:
            self.legal += line.valid
            self.illegal += not line.valid
            verdict = "legal" if not line.errors else f"illegal ({line.errors} error{'s' if line.errors != 1 else ''})"
            row = [name, *line.cells, verdict]
            if line.violations:
                head = verdict if not line.valid else f"legal ({line.warnings} warning{'s' if line.warnings != 1 else ''})"
                self._detail("\n".join([f"{name}: {head}", *line.violations]))
            self.csv_writer.writerow(line.csv)
            self._json({"file": str(line.path), "player": line.player, "report": line.report})
        self.widths = [max(w, len(cell)) for w, cell in zip(self.widths, row)]
        self.rows.write(json.dumps(row, ensure_ascii=False) + "\n")

    def _detail(self, block: str) -> None:
        self.details.write(("\n" if self.has_details else "") + block)
        self.has_details = True

    def _json(self, entry: dict) -> None:
        if self.json is None:
            return
        # As json.dumps(entries, indent=2) writes the array, one entry at a time.
        text = json.dumps(entry, indent=2, ensure_ascii=False).replace("\n", "\n  ")
        self.json.write(("[\n  " if self.lists == 1 else ",\n  ") + text)

    def write_table(self, out) -> None:
        right = {3, *range(4, 4 + len(self.system.categories))}  # numbers are right-aligned

        def line(row: list[str]) -> str:
            return "  ".join(cell.rjust(w) if i in right else cell.ljust(w)
                             for i, (cell, w) in enumerate(zip(row, self.widths))).rstrip()
        out.write(line(self.header))
        out.write("  ".join("-" * w for w in self.widths))
        self.rows.seek(0)
        for row in self.rows:
            out.write(line(json.loads(row)))

    def write_details(self, out) -> None:
        self.details.seek(0)
        for block_line in self.details:
            out.write(block_line.rstrip("\n"))

    def summary(self) -> str:
        return (f"{self.lists} list{'s' if self.lists != 1 else ''}: {self.legal} legal, {self.illegal} illegal, "
                f"{self.unreadable} unreadable")

    def finish_json(self) -> None:
        if self.json is not None:
            self.json.write("[]\n" if self.lists == 0 else "\n]\n")


def _spool() -> IO[str]:
    return tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES, mode="w+", encoding="utf-8", newline="")


def copy_output(output: Path, spool: IO[str]) -> None:
    """Write what `spool` holds to `output`, or a `ListFileError` naming the file."""
    spool.seek(0)
    try:
        with open(output, "w", encoding="utf-8", newline="") as target:
            shutil.copyfileobj(spool, target)
    except OSError as exc:
        raise ListFileError(f"{output}: cannot be written: {exc.strerror}") from None


__all__ = ["CheckedLine", "Outputs", "check_file", "checked_lines", "copy_output", "cores"]
