"""Export a list as a printable PDF roster, tournament text, the JSON document or a BattleScribe roster.

    python manage.py export_list FILE --format pdf|text|json|ros|rosz [--variant full|compact|hidden|open|warband]
                                      [--output OUT] [--share-url URL]

The formats are the site's and the API's (exports/registry.py; `txt` is `text` too). FILE is a list
document (JSON) or a list in tournament text. Text, JSON and a .ros go to OUT or to standard output; a
PDF or a .rosz goes to OUT, by default FILE with the format's suffix (.pdf). Without --variant a PDF is
the book's system's own sheet: the warband sheet for Mordheim, the full roster for the rest; it carries
the "data as of" stamp the site's PDF does. Exit status: 0 when the export was written (an illegal list
exports too, with its violations); 2 when FILE cannot be read or is not a list, cannot be written in the
format, or OUT cannot be written, with one line naming the file.
"""
from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand

from armylists.exports import checksum
from armylists.exports.pdf import VARIANTS
from armylists.exports.registry import Listed, export, find, names
from armylists.lists.library.catalogue import validate_roster
from armylists.listfiles.reading import ListFileError, read_list, write_output


class Command(BaseCommand):
    help = "Export a list as a PDF roster, tournament text, its JSON document or a BattleScribe roster."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--format", choices=names(aliases=True), required=True)
        parser.add_argument("--variant", choices=VARIANTS, default=None,
                            help="PDF only: full, compact (one page), hidden (The 9th Age hidden list) or warband "
                                 "(Mordheim warband sheet); default: warband for Mordheim, full for the rest")
        parser.add_argument("--output", "-o", type=Path, default=None,
                            help="where to write (default: standard output; for a PDF or a .rosz, FILE with its "
                                 "suffix)")
        parser.add_argument("--share-url", default=None, help="PDF only: print this link and its QR code")

    def handle(self, *args, file: Path, format: str, variant: str | None = None, output: Path | None = None,
               share_url: str | None = None, **options):
        entry = find(format)
        if entry is None or (not entry.variants and (variant or share_url)):
            self.stderr.write(f"{file}: --variant and --share-url apply to --format pdf only")
            raise SystemExit(2)
        try:
            roster, book = read_list(file)
            report = validate_roster(book, roster, source=str(file))
            if entry.binary:
                output = output or file.with_suffix(f".{entry.extension}")
                if output.resolve() == file.resolve():
                    raise ListFileError(f"{file}: the {entry.extension.upper()} would overwrite the list; "
                                        f"give --output")
            variant = entry.variant(book, variant)
            # Unlike the site, which offers a writer only the lists it applies to, the command asks any
            # writer: a list of an imported book in our flattened shape is written as .ros too.
            content = export(entry, Listed(book, roster, report, share_url=share_url, source=str(file)), variant)
            if isinstance(content, bytes) and not entry.binary:
                content = content.decode("utf-8")
            if output is not None:
                write_output(output, content)
        except ListFileError as exc:
            self.stderr.write(str(exc))
            raise SystemExit(2)
        if output is None:
            self.stdout.write(content, ending="")
            return
        verdict = "LEGAL" if report.valid else f"NOT LEGAL ({len(report.errors)} errors)"
        self.stdout.write(f"{file}: wrote {output} ({entry.name}{', ' + variant if variant else ''}): {verdict}, "
                          f"{report.total_points} of {report.points_limit} {report.budget_unit}, "
                          f"checksum {checksum(roster)}")
