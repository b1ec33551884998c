"""Import BattleScribe / New Recruit data (game systems and catalogues) as systems and books.

    python manage.py import_battlescribe PATH_OR_URL... [--json REPORT] [--check] [--source-name NAME]

Each PATH is a .gst or .cat file, a .gstz/.catz, a folder of them, or a .zip of a whole data repository;
an https:// URL of any of these is downloaded first. Every catalogue becomes a book pinned at its
revision, built by the engine's own loader before anything is stored; all or nothing per run, and
importing the same files again changes nothing. `--check` reads and reports, writing nothing.
Libraries, catalogues that only lend entries and a second document with an id already read are
skipped, each said on stderr with why (and under `skipped` in --json). An imported system's name says its
source (`--source-name`, else its .gst's publisher), or is our system's where
rules_data/battlescribe_systems.yaml maps it (docs/import-battlescribe.md).
Exit status: 0 imported (or checked), 2 a file cannot be read or is not a catalogue, 1 the database
refused (a stored version with other content).
"""
from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from armylists.importers.battlescribe import (BattleScribeInputError, Conversion, convert, read_sources, report_data,
                                              verify)
from armylists.importers.storing import battlescribe_files, store_for_command
from armylists.lists.library.catalogue import our_system_name
from armylists.management.query_log import no_query_log


class Command(BaseCommand):
    help = "Import BattleScribe / New Recruit game systems and catalogues as army books (checked by our engine)."
    # It reads files and writes rules rows, never the URLs or the views: the system checks (which import
    # every view) took a second and 30 MB of the run.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser):
        parser.add_argument("sources", nargs="+", help=".gst/.cat/.gstz/.catz files, folders, .zip archives, https URLs")
        parser.add_argument("--json", type=Path, default=None, dest="json_report", help="write a JSON report per book here")
        parser.add_argument("--check", action="store_true", help="read, convert and check only; write nothing")
        parser.add_argument("--source-name", default=None, dest="source_name",
                            help="where the data comes from, shown in its system's name (else its .gst says)")

    def handle(self, *args, sources: list[str], json_report: Path | None = None, check: bool = False,
               source_name: str | None = None, **options):
        try:
            # The documents' plain data is let go once converted (60 MB of the Old World data's run).
            conversion = convert(read_sources(sources), source=(source_name or "").strip()[:80] or None,
                                 ours=our_system_name)
            verify(conversion)  # every book built by the engine's loader, then let go
        except BattleScribeInputError as exc:
            raise CommandError(f"Nothing imported. {exc}", returncode=2) from None
        # A shape we do not know; ArithmeticError: an OverflowError the number checks should have stopped first.
        except (KeyError, TypeError, ValueError, ArithmeticError, AttributeError, RecursionError) as exc:
            raise CommandError(f"Nothing imported. {', '.join(sources)}: the data has a shape the importer does "
                               f"not know ({type(exc).__name__}: {exc})", returncode=2) from None
        if not conversion.books:
            raise CommandError(f"Nothing imported. {', '.join(sources)}: no catalogue (.cat) was read; "
                               f"only game systems", returncode=2)
        self._report(conversion, int(options.get("verbosity", 1)))
        if json_report is not None:
            try:
                json_report.write_text(json.dumps(report_data(conversion), indent=2) + "\n", encoding="utf-8")
            except OSError as exc:
                raise CommandError(f"Could not write {json_report}: {exc}", returncode=2) from None
        if check:
            self.stdout.write(f"{len(conversion.books)} books and {len(conversion.systems)} systems are good; "
                              f"nothing written.")
            return
        with no_query_log():   # the books' rows (up to 8 MB of JSON each) not kept as query text under DEBUG
            self._store(conversion)

    def _report(self, conversion: Conversion, verbosity: int) -> None:
        for skipped in conversion.skipped:   # said at any verbosity: a document that made no book, and why
            self.stderr.write(f"Skipped {skipped['source']} ({skipped['name']}): {skipped['reason']}")
        for r in conversion.reports:   # said at any verbosity: a book that would show no points
            for warning in r.warnings:
                self.stderr.write(f"Warning: {r.name} (revision {r.revision}): {warning}")
        if verbosity < 1:
            return
        for r in conversion.reports:
            f = r.figures
            self.stdout.write(
                f"{r.name} (revision {r.revision}): {r.book}, {r.entries} entries; constraints "
                f"{f['constraints']['checked']}/{f['constraints']['total']} checked, modifiers "
                f"{f['modifiers']['checked']}/{f['modifiers']['total']}; {len(f['unchecked'])} kinds of thing not checked")
            if verbosity >= 2:
                for u in f["unchecked"]:
                    self.stdout.write(f"    - {u['kind']}: {u['where']} ({u['count']})")
        totals = report_data(conversion)["totals"]
        self.stdout.write(f"In all: constraints {totals['constraints']['checked']}/{totals['constraints']['total']}, "
                          f"modifiers {totals['modifiers']['checked']}/{totals['modifiers']['total']} checked "
                          f"({totals['checked_percent']}%).")

    def _store(self, conversion: Conversion) -> None:
        rows, hint = battlescribe_files(conversion)
        try:
            store_for_command(self, rows, hint, f"{len(conversion.books)} BattleScribe books")
        except (TypeError, ValueError) as exc:
            # The column's json.dumps refusing a value that is not JSON (verify hashed the books with msgspec,
            # which would write a set or bytes): the transaction is rolled back, nothing is stored.
            raise CommandError(f"Nothing imported. A book holds a value the database cannot store as JSON "
                               f"({type(exc).__name__}: {exc})", returncode=2) from None
