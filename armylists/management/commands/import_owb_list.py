"""Read a list saved by Old World Builder (`.owb.json`) and write it as our list document.

    python manage.py import_owb_list FILE [--output OUT] [--rules DIR] [--book-version VERSION]

The list is matched to the imported book of its army (`owb-<army>`, made by import_owb): the latest
one in the database, or the one in DIR (a folder written by `import_owb --into DIR`). The document goes
to OUT (or to standard output) and the list's Report to standard output (or to standard error when the
document takes standard output). Exit status, as import_list: 0 when the list was read, legal or not
(validation is advisory); 2 when the file cannot be read, is not an OWB list, or names an army, unit,
option or item the book does not have (one line naming the file and the path inside it).
"""
from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand
from django.db import DatabaseError

from armylists.lists.library.catalogue import get_book
from armylists.importers.owb.data import SYSTEM_ID, OwbInputError
from armylists.importers.owb.lists import book_id, convert_list, read_owb_list
from armylists.models import RulesFile
from armylists.rules import Book, RulesDataError, load_tree, parse_roster, validate
from armylists.rules.native.render_text import report_text

MAX_FILE_BYTES = 8 * 1024 * 1024  # OWB copies every unit's whole definition into the list


class Command(BaseCommand):
    help = "Read a list saved by Old World Builder (.owb.json) and write our JSON list document."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--output", "-o", type=Path, default=None,
                            help="where to write the JSON document (default: standard output)")
        parser.add_argument("--rules", type=Path, default=None,
                            help="a folder written by import_owb --into (default: the books in the database)")
        parser.add_argument("--book-version", default=None, help="the imported book version (default: the latest)")

    def handle(self, *args, file: Path, output: Path | None = None, rules: Path | None = None,
               book_version: str | None = None, **options):
        try:
            try:
                size = file.stat().st_size
                if size > MAX_FILE_BYTES:
                    raise OwbInputError(str(file), (), f"is {size} bytes; a saved list is at most {MAX_FILE_BYTES}")
                data = read_owb_list(file.read_bytes(), str(file))
            except OSError as exc:
                raise OwbInputError(str(file), (), f"cannot be read: {exc.strerror}") from None
            book = self._book(book_id(data), book_version, rules, str(file), data["army"])
            document = convert_list(data, book, str(file))
            text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
            if output is not None:
                try:
                    output.write_text(text, encoding="utf-8")
                except OSError as exc:
                    raise OwbInputError(str(output), (), f"cannot be written: {exc.strerror}") from None
        except OwbInputError as exc:
            self.stderr.write(str(exc))
            raise SystemExit(2)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:  # a shape not foreseen
            self.stderr.write(f"{file}: is not a list Old World Builder saves ({type(exc).__name__}: {exc})")
            raise SystemExit(2)
        summary = report_text(validate(book, parse_roster(document, str(file))), book, str(file))
        if output is None:
            self.stdout.write(text, ending="")
            self.stderr.write(summary)
        else:
            self.stdout.write(f"{file}: wrote {output}")
            self.stdout.write(summary)

    @staticmethod
    def _book(slug: str, version: str | None, rules: Path | None, source: str, army: str) -> Book:
        how = "run `manage.py import_owb PATH` first"
        if rules is not None:
            try:
                library = load_tree(rules)
            except (RulesDataError, OSError) as exc:
                raise OwbInputError(str(rules), (), f"cannot be loaded: {exc}") from None
            found = library.book(SYSTEM_ID, slug, version) if version else library.latest(SYSTEM_ID, slug)
            how = f"{rules} has no such book"
        else:
            rows = RulesFile.objects.filter(kind="book", system=SYSTEM_ID, slug=slug)
            if version:
                rows = rows.filter(version=version)
            try:
                row = rows.order_by("-loaded_at", "-id").first()
            except DatabaseError as exc:
                raise OwbInputError(source, ("army",), f"the database cannot be read ({exc}); has "
                                                       f"`manage.py migrate` been run?") from None
            try:
                found = get_book(SYSTEM_ID, slug, row.version) if row else None
            except RulesDataError as exc:
                raise OwbInputError(source, ("army",), f"the stored book {slug} cannot be built: {exc}") from None
        if found is None:
            wanted = f"{slug} {version}" if version else slug
            raise OwbInputError(source, ("army",), f"army {army!r} needs the imported book {wanted}, which is not "
                                                   f"loaded; {how}")
        return found
