"""Check list documents against the rules: a readable report per file, or JSON.

Exit status: 0 when every list is legal, 1 when any is illegal, 2 when any file cannot be read or is
not a list document (its message names the file and the path inside it).
"""
from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand

from armylists.lists.catalogue import book_for, validate_roster
from armylists.rules import ListDocumentError, parse_roster_json
from armylists.rules.render_text import report_text


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
                roster = parse_roster_json(path.read_bytes(), str(path))
                book = book_for(roster, str(path))
            except OSError as exc:
                self.stderr.write(f"{path}: cannot be read: {exc.strerror}")
                unreadable += 1
                continue
            except ListDocumentError as exc:
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


def _dumps(data) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)
