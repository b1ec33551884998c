"""Checking many list files at an event, for `manage.py check_lists`: on every core, in constant memory.

Each file becomes one `CheckedLine`: its table row, its violations, its CSV row and (when asked) its JSON
entry, rendered as strings by the process that checked it, and sent back joined with its neighbours' in a
`CheckedBatch`; no Roster, Book or Report outlives the check.
With more than one process the files are checked by a pool of forked workers (they inherit the rules
already read), in order. `Outputs` writes each line as it comes to temporary files (the table's rows,
the details, the CSV, the JSON), tracking only the table's column widths, and reads them back at the
end: 10,000 lists take no more memory than 100.
"""
from __future__ import annotations

import csv
import gc
import io
import json
import multiprocessing
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Iterator

from armylists.lists.library.catalogue import allies_book_for
from armylists.lists.kinds import kind_of
from armylists.listfiles.reading import ListFileError, ListLine, read_item
from armylists.rules import ListDocumentError, System
from armylists.rules.event_rules.ruleset import Ruleset
from armylists.rules.report import ERROR, WARNING

SPOOL_BYTES = 1 << 20  # each output is kept in memory up to this size, then in a temporary file


@dataclass
class CheckedLine:
    """One list file checked, as every output prints it: rendered by the process that checked it, so the
    main process only writes strings (with many workers it would otherwise be the slowest of them)."""
    cells: list[str]  # the table row
    row: str  # the same row as one JSON line, for the spool
    detail: str  # "name: verdict" and a line per violation, or "" for a legal list with no warning
    csv: str  # the CSV row, with its line end
    json: str | None  # the JSON array entry, when asked
    error: bool = False  # could not be read
    valid: bool = False


@dataclass
class CheckedBatch:
    """Consecutive files checked, their outputs joined: what a worker sends back (one object per batch
    rather than per file, so the main process has little to unpack and write)."""
    rows: str
    details: list[str]
    csv: str
    json: list[str]
    widths: list[int]
    legal: int = 0
    illegal: int = 0
    unreadable: int = 0

    @property
    def lists(self) -> int:
        return self.legal + self.illegal + self.unreadable


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class LineWriter:
    """Renders checked lists for one event's outputs; made in the parent, inherited by the workers."""

    def __init__(self, ruleset: Ruleset, system: System, names: dict[Path | ListLine, str], with_json: bool):
        self.ruleset, self.system, self.names, self.with_json = ruleset, system, names, with_json
        # A column per category, found by id or, for a roster tree (whose lines carry the data's ids), by name.
        self.categories = [(c.id, c.name.casefold()) for c in system.categories]

    def check(self, path: Path | ListLine) -> CheckedLine:
        try:
            roster, book = read_item(path)
            report = kind_of(roster).event_report(self.ruleset, book, roster, allies_book_for(roster, str(path)))
        except (ListFileError, ListDocumentError) as exc:
            return self._unreadable(path, str(exc))
        name = self.names[path]
        errors = len(report.errors)
        warnings = sum(v.severity == WARNING for v in report.violations)
        by_id = {line.id: line.percent for line in report.categories}
        by_name = {line.name.casefold(): line.percent for line in report.categories}
        percents = {c: by_id[c[0]] if c[0] in by_id else by_name[c[1]] for c in self.categories
                    if c[0] in by_id or c[1] in by_name}
        verdict = "legal" if not errors else f"illegal ({errors} error{'s' if errors != 1 else ''})"
        cells = [name, roster.player or "-", f"{book.name} {book.version}", f"{report.total_points}/{report.points_limit}",
                 *(f"{percents[c]:.1f}%" if c in percents else "-" for c in self.categories), verdict]
        detail = ""
        if report.violations:
            head = verdict if not report.valid else f"legal ({warnings} warning{'s' if warnings != 1 else ''})"
            detail = "\n".join([f"{name}: {head}", *(f"  {'x' if v.severity == ERROR else '!'} {v.code}: {v.message}"
                                                     for v in report.violations)])
        csv_row = [str(path), roster.player, roster.name, report.system, report.book, report.book_version,
                   report.total_points, report.points_limit,
                   *(f"{percents[c]:.1f}" if c in percents else "" for c in self.categories),
                   "true" if report.valid else "false", errors, warnings,
                   " | ".join(f"{v.code}: {v.message}" for v in report.violations)]
        entry = {"file": str(path), "player": roster.player, "report": report.to_dict()} if self.with_json else None
        return CheckedLine(cells, _json_line(cells), detail, _csv_line(csv_row), _json_entry(entry), valid=report.valid)

    def check_batch(self, paths: list[Path | ListLine]) -> CheckedBatch:
        lines = [self.check(path) for path in paths]
        return CheckedBatch(
            rows="".join(line.row for line in lines), details=[line.detail for line in lines if line.detail],
            csv="".join(line.csv for line in lines), json=[line.json for line in lines if line.json is not None],
            widths=[max(map(len, column)) for column in zip(*(line.cells for line in lines))],
            legal=sum(line.valid and not line.error for line in lines),
            illegal=sum(not line.valid and not line.error for line in lines),
            unreadable=sum(line.error for line in lines))

    def _unreadable(self, path: Path | ListLine, error: str) -> CheckedLine:
        name = self.names[path]
        cells = [name, "-", "-", "-", *("-" for _ in self.categories), "unreadable"]
        csv_row = [str(path), *[""] * (7 + len(self.categories)), "unreadable", "", "", error]
        entry = {"file": str(path), "error": error} if self.with_json else None
        return CheckedLine(cells, _json_line(cells), f"{name}: unreadable\n  {error}", _csv_line(csv_row),
                           _json_entry(entry), error=True)


def _json_line(cells: list[str]) -> str:
    return json.dumps(cells, ensure_ascii=False) + "\n"


def _csv_line(row: list) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(row)
    return out.getvalue()


def _json_entry(entry: dict | None) -> str | None:
    # As json.dumps(entries, indent=2) writes an entry of the array.
    return None if entry is None else json.dumps(entry, indent=2, ensure_ascii=False).replace("\n", "\n  ")


# What forked workers check with, set in the parent before the pool starts (inherited, not sent).
_job: LineWriter | None = None
_inherited_connections: list = []


def _start_worker() -> None:
    # The parent's database connections were copied by fork. This process opens its own if it needs
    # one (a book kept only in the database), and never closes the copies: closing one would end the
    # parent's session on the server.
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        _inherited_connections.append(connection.connection)
        connection.connection = None


def _check_in_worker(paths: list[Path | ListLine]) -> CheckedBatch:
    assert _job is not None
    return _job.check_batch(paths)


def checked_batches(files: list[Path | ListLine], writer: LineWriter, jobs: int) -> Iterator[CheckedBatch]:
    """Every file checked, in order, in batches; by `jobs` processes when there are enough files to share."""
    global _job
    # Everything read so far (the rules, Django) lives as long as the process: the collector need not walk
    # it again at every full collection, and forked workers then leave those pages shared with the parent.
    gc.freeze()
    size = max(1, min(100, len(files) // (max(jobs, 1) * 8)))  # enough batches for the workers to share
    batches = [files[i:i + size] for i in range(0, len(files), size)]
    if jobs <= 1 or len(files) < 4 * jobs:
        for batch in batches:
            yield writer.check_batch(batch)
        return
    _job = writer
    try:
        with multiprocessing.get_context("fork").Pool(jobs, initializer=_start_worker) as pool:
            yield from pool.imap(_check_in_worker, batches)
    finally:
        _job = None


class Outputs:
    """The command's outputs, written line by line to temporary files and printed at the end."""

    def __init__(self, system: System, with_json: bool):
        self.system = system
        self.header = ["file", "player", "army", system.budget_unit, *(c.name for c in system.categories), "verdict"]
        self.widths = [len(cell) for cell in self.header]
        self.rows = _spool()
        self.details = _spool()
        self.csv = _spool()
        csv.writer(self.csv, lineterminator="\n").writerow(
            ["file", "player", "list name", "system", "book", "book_version", "total_points", "points_limit",
             *(f"{c.name} %" for c in system.categories), "valid", "errors", "warnings", "violations"])
        self.json = _spool() if with_json else None
        self.lists = self.legal = self.illegal = self.unreadable = 0
        self.has_details = False

    def __enter__(self) -> "Outputs":
        return self

    def __exit__(self, *exc) -> None:
        for spool in (self.rows, self.details, self.csv, self.json):
            if spool is not None:
                spool.close()

    def add(self, batch: CheckedBatch) -> None:
        self.legal += batch.legal
        self.illegal += batch.illegal
        self.unreadable += batch.unreadable
        for detail in batch.details:
            self.details.write(("\n" if self.has_details else "") + detail)
            self.has_details = True
        self.csv.write(batch.csv)
        if self.json is not None:
            for i, entry in enumerate(batch.json):  # as json.dumps(entries, indent=2) writes the array
                self.json.write(("[\n  " if self.lists + i == 0 else ",\n  ") + entry)
        self.lists += batch.lists
        self.widths = [max(w, found) for w, found in zip(self.widths, batch.widths)]
        self.rows.write(batch.rows)

    def write_table(self, out) -> None:
        right = {3, *range(4, 4 + len(self.system.categories))}  # numbers are right-aligned

        def line(row: list[str]) -> str:
            return "  ".join(cell.rjust(w) if i in right else cell.ljust(w)
                             for i, (cell, w) in enumerate(zip(row, self.widths))).rstrip()
        out.write(line(self.header))
        out.write("  ".join("-" * w for w in self.widths))
        self.rows.seek(0)
        for chunk in _chunks(self.rows):  # a thousand lines per write: one write per line cost a tenth
            out.write("\n".join(line(json.loads(row)) for row in chunk))

    def write_details(self, out) -> None:
        self.details.seek(0)
        for chunk in _chunks(self.details):
            out.write("\n".join(block_line.rstrip("\n") for block_line in chunk))

    def summary(self) -> str:
        return (f"{self.lists} list{'s' if self.lists != 1 else ''}: {self.legal} legal, {self.illegal} illegal, "
                f"{self.unreadable} unreadable")

    def finish_json(self) -> None:
        if self.json is not None:
            self.json.write("[]\n" if self.lists == 0 else "\n]\n")


def _chunks(lines: IO[str], size: int = 1000) -> Iterator[list[str]]:
    chunk: list[str] = []
    for text in lines:
        chunk.append(text)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


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


__all__ = ["CheckedBatch", "CheckedLine", "LineWriter", "Outputs", "checked_batches", "copy_output", "cores"]
