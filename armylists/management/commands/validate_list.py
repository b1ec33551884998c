"""Check list documents against the rules: a readable report per file, or JSON.

Exit status: 0 when every list is legal, 1 when any is illegal, 2 when any file cannot be read or is
not a list document (its message names the file and the path inside it).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

from django.core.management.base import BaseCommand

from armylists.importers.battlescribe.roster_files import RosterFileError
from armylists.importers.battlescribe.roster_judging import judge_roster
from armylists.importers.battlescribe.rosters import looks_like_roster
from armylists.lists.library.catalogue import book_for, validate_roster
from armylists.rules import ListDocumentError, parse_roster_json
from armylists.rules.native.render_text import report_text


class Command(BaseCommand):
    help = "Validate army list documents (JSON) and report every rule they break."
    # It reads files and the rules data, never the database or the URLs: the system checks (which import
    # every view) would be most of its time.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument("--json", action="store_true", help="print the Report as JSON")

    def handle(self, *args, files: list[Path], json: bool = False, **options):
        reports, unreadable, illegal = [], 0, 0
        for path in files:
            try:
                data = path.read_bytes()
                if looks_like_roster(data, str(path)):
                    # A BattleScribe / New Recruit roster is judged by the tree evaluator, over the data its
                    # catalogue was imported from (docs/import-battlescribe.md), never by our flattened book.
                    report = judge_roster(data, str(path))
                    illegal += not report.valid
                    if json:
                        reports.append({"file": str(path), **report.to_dict()})
                    else:
                        self.stdout.write(report_text(report, _Named(report.book, report.book_version), str(path)))
                    continue
                roster = parse_roster_json(data, str(path))
                book = book_for(roster, str(path))
            except OSError as exc:
                self.stderr.write(f"{path}: cannot be read: {exc.strerror}")
                unreadable += 1
                continue
            except (ListDocumentError, RosterFileError) as exc:
                self.stderr.write(str(exc))
                unreadable += 1
                continue
            report = validate_roster(book, roster, source=str(path))
            illegal += not report.valid
            if json:
                reports.append({"file": str(path), **report.to_dict()})
            else:
                self.stdout.write(report_text(report, book, str(path)))
        if json and reports:
            self.stdout.write(_dumps(reports[0] if len(files) == 1 else reports))
        raise SystemExit(2 if unreadable else 1 if illegal else 0)


class _Named(NamedTuple):
    """What report_text prints of a book, for a roster judged over BattleScribe data."""
    name: str
    version: str


def _dumps(data) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)
