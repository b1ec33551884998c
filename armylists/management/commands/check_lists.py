"""Check every list of an event offline: one table row per list, then what each illegal list breaks.

    python manage.py check_lists FILE_OR_FOLDER... --system S --points N [--composition C] [--mode M]...
                                 [--books BOOK[@VERSION],...] [--event-rules FILE] [--csv OUT] [--json OUT] [--jobs N]
    python manage.py check_lists SUMMARIES.jsonl[.gz]... [--by tournament] [--limit N] [...]

For organisers without a server. A folder stands for every *.json and *.txt file directly inside it
(sorted by name, not recursive); a file is a JSON list document or a list in tournament text, read as
import_list reads it. Every list is checked at the event: the system S, the limit N, the composition C
required of every list (if given), the matched-play modes M the event plays (repeat --mode; none when
not given), the books allowed (--books: comma-separated, a book id alone allows any version, BOOK@VERSION
one version; default any book), and the event's own rules (--event-rules: YAML in the event-rules/1
format, see armylists/rules/event_rules/ruleset.py). A list built for another limit, composition or modes is checked
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

Lists are checked on every core (--jobs N sets how many processes; 1 checks them in this one), and in
constant memory: each list's table row, violations, CSV row and JSON entry are written to temporary
files as it is checked (armylists/events/offline.py), then printed in the files' order.

New Recruit's tournament summaries (.jsonl or .jsonl.gz, a list a line; docs/import-nr-t9a.md) are read a
line a list, each row named <file>:<line>. Given only such files, --system defaults to t9a-2 and the limit
(--points, also --limit) to the smallest multiple of 500 at or above the largest list. --by tournament makes
each tournament an event of its own at its own limit: a block each (a heading, the table, the violations,
the count), then a line of totals; --csv writes every block's rows under one header, --json an array of
{"tournament", "name", "start", "points_limit", "lists"} (management/summary_events.py). Without .jsonl
files the output is as above, unchanged.

Exit status: 0 when every list is legal, 1 when any is illegal, 2 when any file cannot be read or the
command is used wrongly (an unknown system, book, version, mode or composition, a bad event rules file,
an output that cannot be written); unreadable wins over illegal, as with validate_list.
"""
from __future__ import annotations

import os
from contextlib import ExitStack
from pathlib import Path

from django.core.management.base import BaseCommand

from armylists.lists.library.catalogue import get_book, imported_book_keys, imported_system, system_library
from armylists.lists.library.names import book_compositions, shelved_books, site_systems
from armylists.events.offline import LineWriter, Outputs, checked_batches, cores
from armylists.listfiles.reading import ListFileError
from armylists.management.query_log import no_query_log
from armylists.management.summary_events import (
    SUMMARY_SYSTEM, SummaryEvent, UsageError, is_jsonl, summary_events, totals_line, write_csv, write_json,
)
from armylists.rules import RulesDataError, System
from armylists.rules.event_rules.ruleset import EventRules, Ruleset, parse_event_rules

LIST_SUFFIXES = (".json", ".txt", ".ros", ".rosz")  # .ros/.rosz: BattleScribe / New Recruit rosters


class Command(BaseCommand):
    help = ("Check a folder (or files) of lists against an event's ruleset, offline: a table of every list, "
            "the violations of the illegal ones, and optionally CSV and JSON. Exit 0 all legal, 1 any "
            "illegal, 2 any file unreadable or a usage error.")
    # As validate_list: it reads files and the rules, and the database only for imported books; the system
    # checks (which import every view and URL) would cost more than checking a few thousand lists.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", type=Path, metavar="FILE_OR_FOLDER",
                            help="list files (JSON or tournament text), folders of *.json and *.txt lists, or "
                                 ".jsonl(.gz) files of New Recruit tournament summaries (a list a line)")
        parser.add_argument("--system", default=None,
                            help=f"the game system the event plays, e.g. t9a-0.11 (summaries alone: {SUMMARY_SYSTEM})")
        parser.add_argument("--points", "--limit", dest="points", default=None, type=int,
                            help="the event's points limit (summaries alone: by default the smallest multiple of "
                                 "500 at or above the event's largest list)")
        parser.add_argument("--by", choices=["tournament"], default=None,
                            help="summaries (.jsonl) only: one event per tournament, each at its own limit")
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
        parser.add_argument("--jobs", type=int, default=0, metavar="N",
                            help="processes checking lists at once (default: one per core; 1: this process only)")

    def handle(self, *args, **options):
        with no_query_log():  # thousands of lists' queries, not kept under DEBUG (management/query_log.py)
            return self._handle(*args, **options)

    def _handle(self, *args, paths: list[Path], system: str | None = None, points: int | None = None,
               composition: str | None = None, modes: list[str] = (), books: list[str] = (),
               event_rules: Path | None = None, csv_out: Path | None = None, json_out: Path | None = None,
               jobs: int = 0, by: str | None = None, **options):
        try:
            others = [p for p in paths if not is_jsonl(p)]
            if by and others:
                raise UsageError(f"--by tournament: only .jsonl files of New Recruit summaries name their "
                                 f"tournament; {others[0]} is not one")
            events = summary_events(paths, by, points)  # the .jsonl files' lists, by event
            if others or not events:
                if system is None or points is None:
                    raise UsageError(f"--{'system' if system is None else 'points'}: required (it may be left out only "
                                     f"when every file is a .jsonl of New Recruit summaries)")
                files = _list_files(others)
                if events:
                    events[0].items[:0] = files
                else:
                    events = [SummaryEvent(None, files, points)]
            system = system or SUMMARY_SYSTEM
            rulesets = [_ruleset(system, e.limit, composition, list(modes), list(books), event_rules) for e in events]
        except UsageError as exc:
            self.stderr.write(str(exc))
            raise SystemExit(2)
        ruleset, event_system = rulesets[0]
        if ruleset.event.team_rules:
            ids = ", ".join(r.id for r in ruleset.event.team_rules)
            self.stderr.write(f"{event_rules}: team rules not checked (list files name no team): {ids}")

        blocks = []  # (event, outputs) for the CSV and JSON written at the end
        with ExitStack() as stack:
            for event, (ruleset, event_system) in zip(events, rulesets):
                if event.title is not None:
                    self.stdout.write(("\n" if blocks else "") + f"== {event.title}: {event.limit} "
                                      f"{event_system.budget_unit} ==")
                outputs = stack.enter_context(Outputs(event_system, json_out is not None))
                self._check_event(event.items, ruleset, event_system, outputs, jobs)
                blocks.append((event, outputs))
            if by:
                self.stdout.write("")
                self.stdout.write(totals_line(blocks))
            failed_output = False
            for out, write in ((csv_out, write_csv), (json_out, write_json)):
                if out is None:
                    continue
                try:
                    write(out, blocks, by is not None)
                except ListFileError as exc:
                    self.stderr.write(str(exc))
                    failed_output = True
            unreadable = sum(o.unreadable for _, o in blocks)
            illegal = sum(o.illegal for _, o in blocks)
        raise SystemExit(2 if unreadable or failed_output else 1 if illegal else 0)

    def _check_event(self, items: list, ruleset: Ruleset, event_system: System, outputs: Outputs, jobs: int) -> None:
        writer = LineWriter(ruleset, event_system, _display_names(items), outputs.json is not None)
        for batch in checked_batches(items, writer, jobs or cores()):
            outputs.add(batch)
        outputs.finish_json()
        outputs.write_table(self.stdout)
        if outputs.has_details:
            self.stdout.write("")
            outputs.write_details(self.stdout)
        self.stdout.write("")
        self.stdout.write(outputs.summary())


# --- the event ----------------------------------------------------------------------------------

def _ruleset(system_id: str, points: int, composition: str | None, modes: list[str], book_args: list[str],
             rules_file: Path | None) -> tuple[Ruleset, System]:
    library = system_library(system_id)  # the event's system alone: its books, not every system's
    if library is not None and system_id in library.systems:
        system = library.systems[system_id]
        versions = {(b, v) for (s, b, v) in library.books if s == system_id}

        def built(b: str, v: str):
            return library.books[(system_id, b, v)]
    else:  # a system imported into the database (BattleScribe's): its books are built only when asked
        system = imported_system(system_id)
        versions = {(b, v) for _s, b, v in imported_book_keys(system_id)}

        def built(b: str, v: str):
            return get_book(system_id, b, v)
    if system is None:
        known = ", ".join(sorted(site_systems()))  # named from columns: no book built
        raise UsageError(f"--system: unknown game system {system_id!r}; known: {known}")
    if points <= 0:
        raise UsageError(f"--points: {points} is not a points limit; give a positive number")
    for mode in modes:
        if mode not in system.modes:
            raise UsageError(f"--mode: {system_id} has no mode {mode!r}; known: "
                             f"{', '.join(sorted(system.modes)) or 'none'}")
    allowed = _allowed_books(book_args, system_id, versions)
    # The event's books are built only where --event-rules needs them (the rules name their units): the
    # lists are checked against the books they name (get_book), one each; a --composition is looked for in
    # the books' rows (lists/library/names.py), none built.
    chosen = [(b, v) for (b, v) in sorted(versions)
              if not allowed or (b in allowed and (not allowed[b] or v in allowed[b]))]
    event_books = [found for b, v in chosen for found in [built(b, v)] if found is not None] \
        if rules_file is not None else []
    offered = book_compositions([b for b in shelved_books(system_id) if (b.id, b.version) in set(chosen)]) \
        if composition else {}
    if composition and not any(composition == cid for listed in offered.values() for cid, _ in listed):
        known = sorted({cid for listed in offered.values() for cid, _ in listed})
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


def _allowed_books(book_args: list[str], system_id: str, on_disk: set[tuple[str, str]]) -> dict[str, set[str]]:
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
            with os.scandir(path) as entries:  # the folder's own entry types: no stat per file
                found = sorted((Path(e.path) for e in entries
                                if e.is_file() and os.path.splitext(e.name)[1].lower() in LIST_SUFFIXES),
                               key=lambda p: p.name)
            if not found:
                raise UsageError(f"{path}: has no *.json or *.txt list files")
            files.extend(found)
        else:
            files.append(path)  # a missing file is reported as unreadable, with the others
    return files


def _display_names(files: list) -> dict:
    """Each file (or line of a file) by its name, or by its path as given when two share a name."""
    names = [p.name for p in files]
    unique = len(set(names)) == len(names)
    return {p: p.name if unique else str(p) for p in files}
