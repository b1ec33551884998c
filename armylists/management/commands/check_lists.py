"""Check every list of an event offline: one table row per list, then what each illegal list breaks.

    python manage.py check_lists FILE_OR_FOLDER... --system S --points N [--composition C] [--mode M]...
                                 [--books BOOK[@VERSION],...] [--event-rules FILE] [--csv OUT] [--json OUT]

For organisers without a server. A folder stands for every *.json and *.txt file directly inside it
(sorted by name, not recursive); a file is a JSON list document or a list in tournament text, read as
import_list reads it. Every list is checked at the event: the system S, the limit N, the composition C
required of every list (if given), the matched-play modes M the event plays (repeat --mode; none when
not given), the books allowed (--books: comma-separated, a book id alone allows any version, BOOK@VERSION
one version; default any book), and the event's own rules (--event-rules: YAML in the event-rules/1
format, see armylists/rules/event.py). A list built for another limit, composition or modes is checked
at the event's, and its Report says so in a warning. Team rules in the event rules are read but not
checked: list files carry no team.

Standard output: a table with one row per file (file name, player, army, points of the limit, the
percentage of each of the system's categories, the verdict), then the violations of every list that
has any, and the one-line error of every file that could not be read (an unreadable file does not stop
the others). --csv OUT writes the table as CSV (columns: file, player, list name, system, book,
book_version, total_points, points_limit, "<Category> %" per category of S, valid, errors, warnings,
violations as "code: message" joined with " | "; an unreadable file has valid "unreadable" and its
error in violations). --json OUT writes a JSON array of {"file", "player", "report"} (the Report's
to_dict()), or {"file", "error"} for an unreadable file.

Exit status: 0 when every list is legal, 1 when any is illegal, 2 when any file cannot be read or the
command is used wrongly (an unknown system, book, version, mode or composition, a bad event rules file,
an output that cannot be written); unreadable wins over illegal, as with validate_list.
"""
from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path

from django.core.management.base import BaseCommand

from armylists.catalogue import allies_book_for, site_library
from armylists.list_files import ListFileError, read_list, write_output
from armylists.rules import Book, ListDocumentError, Report, Roster, RulesDataError, System
from armylists.rules.event import EventRules, Ruleset, check_list, parse_event_rules
from armylists.rules.report import ERROR, WARNING

LIST_SUFFIXES = (".json", ".txt")


class UsageError(Exception):
    """The command was given something it cannot use; the message is the one line to print."""


@dataclass
class Checked:
    path: Path
    roster: Roster | None = None
    book: Book | None = None
    report: Report | None = None
    error: str = ""


class Command(BaseCommand):
    help = ("Check a folder (or files) of lists against an event's ruleset, offline: a table of every list, "
            "the violations of the illegal ones, and optionally CSV and JSON. Exit 0 all legal, 1 any "
            "illegal, 2 any file unreadable or a usage error.")

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", type=Path, metavar="FILE_OR_FOLDER",
                            help="list files (JSON or tournament text), or folders of *.json and *.txt lists")
        parser.add_argument("--system", required=True, help="the game system the event plays, e.g. t9a-0.11")
        parser.add_argument("--points", required=True, type=int, help="the event's points limit")
        parser.add_argument("--composition", default=None, help="the composition every list must use")
        parser.add_argument("--mode", action="append", default=[], dest="modes", metavar="MODE",
                            help="a matched-play mode the event plays (repeat for several; default none)")
        parser.add_argument("--books", action="append", default=[], metavar="BOOK[@VERSION],...",
                            help="the books (and versions) allowed; default any book of the system")
        parser.add_argument("--event-rules", type=Path, default=None, metavar="FILE",
                            help="the event's own rules (YAML, format event-rules/1)")
        parser.add_argument("--csv", type=Path, default=None, metavar="OUT", dest="csv_out",
                            help="also write the table as CSV")
        parser.add_argument("--json", type=Path, default=None, metavar="OUT", dest="json_out",
                            help="also write every Report as a JSON array")

    def handle(self, *args, paths: list[Path], system: str, points: int, composition: str | None = None,
               modes: list[str] = (), books: list[str] = (), event_rules: Path | None = None,
               csv_out: Path | None = None, json_out: Path | None = None, **options):
        try:
            ruleset, event_system = _ruleset(system, points, composition, list(modes), list(books), event_rules)
            files = _list_files(paths)
        except UsageError as exc:
            self.stderr.write(str(exc))
            raise SystemExit(2)
        if ruleset.event.team_rules:
            ids = ", ".join(r.id for r in ruleset.event.team_rules)
            self.stderr.write(f"{event_rules}: team rules not checked (list files name no team): {ids}")

        checked = [_check(path, ruleset) for path in files]
        names = _display_names(files)
        self.stdout.write(_table(checked, names, event_system))
        details = _details(checked, names)
        if details:
            self.stdout.write("")
            self.stdout.write(details)
        self.stdout.write("")
        self.stdout.write(_summary(checked))

        failed_output = False
        for out, render in ((csv_out, lambda: _csv(checked, event_system)), (json_out, lambda: _json(checked))):
            if out is None:
                continue
            try:
                write_output(out, render())
            except ListFileError as exc:
                self.stderr.write(str(exc))
                failed_output = True
        unreadable = any(c.error for c in checked)
        illegal = any(c.report is not None and not c.report.valid for c in checked)
        raise SystemExit(2 if unreadable or failed_output else 1 if illegal else 0)


# --- the event ----------------------------------------------------------------------------------

def _ruleset(system_id: str, points: int, composition: str | None, modes: list[str], book_args: list[str],
             rules_file: Path | None) -> tuple[Ruleset, System]:
    library = site_library()
    system = library.systems.get(system_id)
    if system is None:
        raise UsageError(f"--system: unknown game system {system_id!r}; known: {', '.join(sorted(library.systems))}")
    if points <= 0:
        raise UsageError(f"--points: {points} is not a points limit; give a positive number")
    for mode in modes:
        if mode not in system.modes:
            raise UsageError(f"--mode: {system_id} has no mode {mode!r}; known: "
                             f"{', '.join(sorted(system.modes)) or 'none'}")
    on_disk = {(b, v): book for (s, b, v), book in library.books.items() if s == system_id}
    allowed = _allowed_books(book_args, system_id, on_disk)
    event_books = [book for (b, v), book in sorted(on_disk.items())
                   if not allowed or (b in allowed and (not allowed[b] or v in allowed[b]))]
    if composition and not any(composition in book.compositions for book in event_books):
        known = sorted({c for book in event_books for c in book.compositions})
        raise UsageError(f"--composition: no book of the event has the composition {composition!r}; known: "
                         f"{', '.join(known) or 'none'}")
    event = EventRules()
    if rules_file is not None:
        try:
            text = rules_file.read_text(encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"{rules_file}: cannot be read: {exc.strerror}") from None
        except UnicodeDecodeError as exc:
            raise UsageError(f"{rules_file}: is not UTF-8 text: {exc.reason}") from None
        try:
            event = parse_event_rules(text, str(rules_file), system, event_books)
        except RulesDataError as exc:
            raise UsageError(str(exc)) from None
    ruleset = Ruleset(system=system_id, points_limit=points, composition=composition or None, modes=tuple(modes),
                      books={b: frozenset(v) for b, v in allowed.items()}, event=event)
    return ruleset, system


def _allowed_books(book_args: list[str], system_id: str, on_disk: dict) -> dict[str, set[str]]:
    """--books values ("empire-of-sonnstahl@0.11.1,ogre-khans") as book -> versions; no versions: any.
    A book named alone allows any version, even if it is also named with one."""
    allowed: dict[str, set[str]] = {}
    any_version: set[str] = set()
    for arg in book_args:
        for part in filter(None, (p.strip() for p in arg.split(","))):
            book, _, version = part.partition("@")
            versions = sorted(v for (b, v) in on_disk if b == book)
            if not versions:
                known = sorted({b for b, _ in on_disk})
                raise UsageError(f"--books: unknown army book {book!r} for {system_id}; known: "
                                 f"{', '.join(known) or 'none'}")
            if version and version not in versions:
                raise UsageError(f"--books: {book} version {version!r} is not loaded; available: {', '.join(versions)}")
            allowed.setdefault(book, set()).update({version} if version else ())
            if not version:
                any_version.add(book)
    return {book: set() if book in any_version else versions for book, versions in allowed.items()}


def _list_files(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted((p for p in path.iterdir() if p.is_file() and p.suffix.lower() in LIST_SUFFIXES),
                           key=lambda p: p.name)
            if not found:
                raise UsageError(f"{path}: has no *.json or *.txt list files")
            files.extend(found)
        else:
            files.append(path)  # a missing file is reported as unreadable, with the others
    return files


def _check(path: Path, ruleset: Ruleset) -> Checked:
    try:
        roster, book = read_list(path)
        allies = allies_book_for(roster, str(path))
    except (ListFileError, ListDocumentError) as exc:
        return Checked(path, error=str(exc))
    return Checked(path, roster, book, check_list(ruleset, book, roster, allies))


# --- the outputs --------------------------------------------------------------------------------

def _display_names(files: list[Path]) -> dict[Path, str]:
    """Each file by its name, or by its path as given when two files share a name."""
    names = [p.name for p in files]
    unique = len(set(names)) == len(names)
    return {p: p.name if unique else str(p) for p in files}


def _verdict(c: Checked) -> str:
    if c.report is None:
        return "unreadable"
    errors = len(c.report.errors)
    return "legal" if not errors else f"illegal ({errors} error{'s' if errors != 1 else ''})"


def _percents(report: Report, system: System) -> list[str]:
    by_id = {line.id: line for line in report.categories}
    return [f"{by_id[c.id].percent:.1f}%" if c.id in by_id else "-" for c in system.categories]


def _table(checked: list[Checked], names: dict[Path, str], system: System) -> str:
    header = ["file", "player", "army", system.budget_unit, *(c.name for c in system.categories), "verdict"]
    right = {3, *range(4, 4 + len(system.categories))}  # numbers are right-aligned
    rows = []
    for c in checked:
        if c.report is None:
            rows.append([names[c.path], "-", "-", "-", *("-" for _ in system.categories), _verdict(c)])
            continue
        rows.append([names[c.path], c.roster.player or "-", f"{c.book.name} {c.book.version}",
                     f"{c.report.total_points}/{c.report.points_limit}", *_percents(c.report, system), _verdict(c)])
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]

    def line(row: list[str]) -> str:
        return "  ".join(cell.rjust(w) if i in right else cell.ljust(w)
                         for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
    return "\n".join([line(header), "  ".join("-" * w for w in widths), *map(line, rows)])


def _details(checked: list[Checked], names: dict[Path, str]) -> str:
    """What each list breaks (its warnings too), and why each unreadable file could not be read."""
    blocks = []
    for c in checked:
        if c.report is None:
            blocks.append(f"{names[c.path]}: unreadable\n  {c.error}")
        elif c.report.violations:
            warnings = sum(v.severity == WARNING for v in c.report.violations)
            head = _verdict(c) if not c.report.valid else f"legal ({warnings} warning{'s' if warnings != 1 else ''})"
            lines = [f"{names[c.path]}: {head}"]
            lines += [f"  {'x' if v.severity == ERROR else '!'} {v.code}: {v.message}" for v in c.report.violations]
            blocks.append("\n".join(lines))
    return "\n".join(blocks)


def _summary(checked: list[Checked]) -> str:
    legal = sum(c.report is not None and c.report.valid for c in checked)
    illegal = sum(c.report is not None and not c.report.valid for c in checked)
    unreadable = sum(c.report is None for c in checked)
    return (f"{len(checked)} list{'s' if len(checked) != 1 else ''}: {legal} legal, {illegal} illegal, "
            f"{unreadable} unreadable")


def _csv(checked: list[Checked], system: System) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["file", "player", "list name", "system", "book", "book_version", "total_points",
                     "points_limit", *(f"{c.name} %" for c in system.categories), "valid", "errors", "warnings",
                     "violations"])
    for c in checked:
        if c.report is None:
            writer.writerow([str(c.path), *[""] * (7 + len(system.categories)), "unreadable", "", "", c.error])
            continue
        r = c.report
        by_id = {line.id: line for line in r.categories}
        writer.writerow([
            str(c.path), c.roster.player, c.roster.name, r.system, r.book, r.book_version, r.total_points,
            r.points_limit, *(f"{by_id[cat.id].percent:.1f}" if cat.id in by_id else "" for cat in system.categories),
            "true" if r.valid else "false", len(r.errors), sum(v.severity == WARNING for v in r.violations),
            " | ".join(f"{v.code}: {v.message}" for v in r.violations),
        ])
    return out.getvalue()


def _json(checked: list[Checked]) -> str:
    data = [{"file": str(c.path), "error": c.error} if c.report is None else
            {"file": str(c.path), "player": c.roster.player, "report": c.report.to_dict()} for c in checked]
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
