"""Import New Recruit's T9A army data (vflam/nr-t9a) as books of The 9th Age, 2nd edition.

    python manage.py import_nr_t9a SOURCE [--at COMMIT|DATE] [--all-versions] [--check]

SOURCE is a checkout of the repository, a zip of one, or a git bundle or repository. With git, `--at`
picks the data: a commit, or a date YYYY-MM-DD (the last commit before that day); the newest by default.
`--all-versions` imports the data of every date the history holds (the last commit of each day). Each
army becomes the book `<army>` of the system `t9a-2` at the version `<data version>@<commit date>`, so
the data of different dates load side by side; each is built by the engine's own loader first, and what
the importer does not understand is listed per army (docs/import-nr-t9a.md).

Stored in the database with the system file, all or nothing, as load_rules does: the same content under
the same version changes nothing, other content under a stored version is refused. `--check` converts and
checks, and writes nothing. Exit status: 0 imported (or checked), 2 the source cannot be read or holds no
army (nothing written), 1 the database refused (a stored version with other content).
"""
from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, transaction

from armylists.importers.nr_t9a import SYSTEM_ID, NrSourceError, convert, open_source
from armylists.importers.nr_t9a import check as check_books
from armylists.importers.storing import StoredFile, store_rules_files
from armylists.lists.library.catalogue import disk_library
from armylists.management.query_log import no_query_log


class Command(BaseCommand):
    help = "Import New Recruit's T9A army data (a folder, a zip, or a git bundle/repository) as t9a-2 books."

    def add_arguments(self, parser):
        parser.add_argument("source", type=Path, help="a checkout of vflam/nr-t9a, a zip of one, or a git bundle/repository")
        parser.add_argument("--at", default=None, help="a commit or a date YYYY-MM-DD (the last commit before it)")
        parser.add_argument("--all-versions", action="store_true", help="every date of the history")
        parser.add_argument("--check", action="store_true", help="convert and check only; write nothing")

    def handle(self, *args, source: Path, at: str | None = None, all_versions: bool = False, check: bool = False,
               **options):
        system = disk_library().systems.get(SYSTEM_ID)
        if system is None:
            raise CommandError(f"Nothing imported. The rules data has no {SYSTEM_ID!r} system to import into.",
                               returncode=2)
        categories = frozenset(c.id for c in system.categories)
        verbosity = int(options.get("verbosity", 1))
        try:
            data = open_source(source)
        except NrSourceError as exc:
            raise CommandError(f"Nothing imported. {exc}", returncode=2) from None
        # Date by date, each date's books stored as they are converted, inside one transaction (all or
        # nothing, as before): memory holds one date's books, not every date's (issue 39 item 3: 86 dates
        # peaked at 1.9 GB when every date's books were kept to be stored at the end).
        hint = ("the importer changed: bump IMPORTER_REVISION in armylists/importers/nr_t9a/source.py, or the "
                "version in rules_data/t9a-2/system.yaml if that file changed")
        stored = Stored()
        try:
            with no_query_log(), transaction.atomic():
                if not check:
                    system_file = next(f for f in disk_library().files if f.kind == "system" and f.system == SYSTEM_ID)
                    stored.add(StoredFile("system", SYSTEM_ID, system_file.id, system_file.version, system_file.name,
                                          dict(system_file.data), system_file.path), hint)
                for when in self._whens(data, at, all_versions):
                    snapshot = data.at(when)
                    conversion = convert(snapshot, categories=categories)
                    check_books(conversion, system)
                    self.stdout.write(f"{snapshot.commit} of {snapshot.date}: {len(conversion.books)} books")
                    rows = []
                    for book, report in zip(conversion.books, conversion.reports):
                        if verbosity >= 1:
                            self.stdout.write(f"  {report.army}: {report.book} {report.version}, {report.entries} "
                                              f"entries, {report.options} options; {sum(report.unchecked.values())} "
                                              f"uses of {len(report.unchecked)} constructs not checked")
                        if verbosity >= 2:
                            for line in report.lines():
                                self.stdout.write(f"      - {line}")
                        rows.append(StoredFile("book", SYSTEM_ID, book["id"], book["version"], book["name"], book,
                                               f"{source.name}:{snapshot.commit}:{report.army}.json",
                                               lineage=f"nr-t9a:{report.army}"))
                    stored.books += len(rows)
                    if not check:
                        stored.add_all(rows, hint)
                    del rows, conversion, snapshot
                if not stored.books:
                    raise CommandError(f"Nothing imported. {source}: no army file (a JSON file with `name` and an "
                                       f"`army` tree) was read", returncode=2)
                if stored.refused:
                    raise CommandError("Nothing imported.\n" + "\n".join(stored.refused))
        except NrSourceError as exc:
            raise CommandError(f"Nothing imported. {exc}", returncode=2) from None
        except DatabaseError as exc:
            raise CommandError(f"Nothing imported. The database cannot be written ({exc}); "
                               f"has `manage.py migrate` been run?") from None
        # A shape we do not know; ArithmeticError and RecursionError: what load_json's checks should stop first.
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, ArithmeticError, RecursionError) as exc:
            raise CommandError(f"Nothing imported. {source}: the data has a shape the importer does not know "
                               f"({type(exc).__name__}: {str(exc)[:200]})", returncode=2) from None
        finally:
            data.close()
        if check:
            self.stdout.write(f"{stored.books} books are good; nothing written.")
            return
        for line in stored.created:
            self.stdout.write(f"stored {line}")
        self.stdout.write(self.style.SUCCESS(f"{len(stored.created)} new, {stored.unchanged} unchanged; "
                                             f"{stored.books} New Recruit T9A books in the database."))

    @staticmethod
    def _whens(data, at: str | None, all_versions: bool) -> list:
        if not all_versions:
            return [at]
        last_of_day = {date: commit for commit, date in data.commits()}
        return [commit for _, commit in sorted(last_of_day.items())]


class Stored:
    """What the dates stored so far created, left unchanged and refused (store_rules_files, a date at a time)."""

    def __init__(self):
        self.created: list[str] = []
        self.unchanged = 0
        self.refused: list[str] = []
        self.books = 0

    def add(self, row: StoredFile, hint: str) -> None:
        self.add_all([row], hint)

    def add_all(self, rows: list[StoredFile], hint: str) -> None:
        created, unchanged, refused = store_rules_files(rows, hint)
        self.created += created
        self.unchanged += unchanged
        self.refused += refused
