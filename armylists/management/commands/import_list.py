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

from armylists.catalogue import book_for, disk_library, get_book
from armylists.exports import document_json, parse_list_text
from armylists.rules import Book, ListDocumentError, Roster, parse_roster_json, validate
from armylists.rules.render_text import report_text
from armylists.rules.roster import MAX_DOCUMENT_BYTES


class ListFileError(Exception):
    """A list file that cannot be used; its message is the one line to print."""


def read_list(path: Path) -> tuple[Roster, Book]:
    """The list in `path` (JSON document or tournament text) and its Book, or a `ListFileError`.

    Shared by export_list, which reads the same two forms.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ListFileError(f"{path}: cannot be read: {exc.strerror}") from None
    source = str(path)
    try:
        if data.lstrip().startswith(b"{"):
            roster = parse_roster_json(data, source)
            return roster, book_for(roster, source)
        if len(data) > MAX_DOCUMENT_BYTES:
            raise ListFileError(f"{path}: is {len(data)} bytes; a list may be at most {MAX_DOCUMENT_BYTES}")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ListFileError(f"{path}: is not UTF-8 text: {exc.reason}") from None
        roster = parse_list_text(text, disk_library().books.values(), source, lookup=get_book)
        return roster, book_for(roster, source)
    except ListDocumentError as exc:
        raise ListFileError(str(exc)) from None


def write_output(output: Path, content: str | bytes) -> None:
    try:
        if isinstance(content, bytes):
            output.write_bytes(content)
        else:
            output.write_text(content, encoding="utf-8")
    except OSError as exc:
        raise ListFileError(f"{output}: cannot be written: {exc.strerror}") from None


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
        summary = report_text(validate(book, roster), book, str(file))
        if output is None:
            self.stdout.write(document, ending="")
            self.stderr.write(summary)
        else:
            self.stdout.write(f"{file}: wrote {output}")
            self.stdout.write(summary)
