"""Read a list, as tournament text or as a JSON document, and write it as the canonical JSON document.

    python manage.py import_list FILE [--output OUT]

The document goes to OUT (or to standard output), and the list's Report to standard output (or to
standard error when the document takes standard output). Exit status: 0 when the list was read,
legal or not (validation is advisory: an illegal list is still a list); 2 when the file cannot be
read, is not a list, or names what its book does not have (one line naming the file, and the line of
the text).
"""
from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand

from armylists.exports import document_json
from armylists.lists.library.catalogue import validate_roster
from armylists.listfiles.reading import ListFileError, read_list, write_output
from armylists.rules.native.render_text import report_text


class Command(BaseCommand):
    help = "Read a list (tournament text or JSON) and write its canonical JSON document."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--output", "-o", type=Path, default=None,
                            help="where to write the JSON document (default: standard output)")

    def handle(self, *args, file: Path, output: Path | None = None, **options):
        try:
            roster, book = read_list(file)
            document = document_json(roster)
            if output is not None:
                write_output(output, document)
        except ListFileError as exc:
            self.stderr.write(str(exc))
            raise SystemExit(2)
        summary = report_text(validate_roster(book, roster, source=str(file)), book, str(file))
        if output is None:
            self.stdout.write(document, ending="")
            self.stderr.write(summary)
        else:
            self.stdout.write(f"{file}: wrote {output}")
            self.stdout.write(summary)
