"""Export a list as a printable PDF roster, tournament text, the JSON document or a BattleScribe roster.

    python manage.py export_list FILE --format pdf|text|json|ros [--variant full|compact|hidden|warband]
                                      [--output OUT] [--share-url URL]

FILE is a list document (JSON) or a list in tournament text. Text and JSON go to OUT or to standard
output; a PDF goes to OUT, by default FILE with the suffix .pdf. Without --variant a PDF is the book's
system's own sheet: the warband sheet for Mordheim, the full roster for the rest. Exit status: 0 when
the export was written (an illegal list exports too, with its violations); 2 when FILE cannot be read
or is not a list, or OUT cannot be written, with one line naming the file.
"""
from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand

from armylists.exports import checksum, document_json, export_text
from armylists.exports.pdf import VARIANTS, default_variant, render_pdf
from armylists.lists.library.catalogue import allies_book_for, validate_roster
from armylists.lists.trees.tree_lists import tree_printing
from armylists.listfiles.reading import ListFileError, read_list, write_output
from armylists.importers.battlescribe.roster_files import RosterFileError, roster_xml

FORMATS = ("pdf", "text", "json", "ros")


class Command(BaseCommand):
    help = "Export a list as a PDF roster, tournament text or its JSON document."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--format", choices=FORMATS, required=True)
        parser.add_argument("--variant", choices=VARIANTS, default=None,
                            help="PDF only: full, compact (one page), hidden (The 9th Age hidden list) or warband "
                                 "(Mordheim warband sheet); default: warband for Mordheim, full for the rest")
        parser.add_argument("--output", "-o", type=Path, default=None,
                            help="where to write (default: standard output; for a PDF, FILE with .pdf)")
        parser.add_argument("--share-url", default=None, help="PDF only: print this link and its QR code")

    def handle(self, *args, file: Path, format: str, variant: str | None = None, output: Path | None = None,
               share_url: str | None = None, **options):
        if format != "pdf" and (variant or share_url):
            self.stderr.write(f"{file}: --variant and --share-url apply to --format pdf only")
            raise SystemExit(2)
        try:
            roster, book = read_list(file)
            report = validate_roster(book, roster, source=str(file))
            if format == "pdf":
                output = output or file.with_suffix(".pdf")
                if output.resolve() == file.resolve():
                    raise ListFileError(f"{file}: the PDF would overwrite the list; give --output")
                variant = variant or default_variant(book)
                content: str | bytes = render_pdf(book, roster, report, variant, share_url=share_url,
                                                  allies=allies_book_for(roster), tree=tree_printing(roster))
            elif format == "ros":
                content = roster_xml(roster, book, report.total_points).decode("utf-8")
            else:
                content = (export_text(book, roster, report, allies_book_for(roster)) if format == "text"
                           else document_json(roster))
            if output is not None:
                write_output(output, content)
        except (ListFileError, RosterFileError) as exc:
            self.stderr.write(str(exc))
            raise SystemExit(2)
        if output is None:
            self.stdout.write(content, ending="")
            return
        verdict = "LEGAL" if report.valid else f"NOT LEGAL ({len(report.errors)} errors)"
        self.stdout.write(f"{file}: wrote {output} ({format}{', ' + variant if variant else ''}): {verdict}, "
                          f"{report.total_points} of {report.points_limit} {report.budget_unit}, "
                          f"checksum {checksum(roster)}")
