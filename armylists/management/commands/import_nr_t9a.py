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

from armylists.importers.nr_t9a import SYSTEM_ID, NrSourceError, convert, open_source
from armylists.importers.nr_t9a import check as check_books
from armylists.importers.storing import StoredFile, store_for_command
from armylists.lists.library.catalogue import disk_library


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
        rows = []
        try:
            data = open_source(source)
        except NrSourceError as exc:
            raise CommandError(f"Nothing imported. {exc}", returncode=2) from None
        try:
            if all_versions:
                last_of_day = {date: commit for commit, date in data.commits()}
                whens = [commit for _, commit in sorted(last_of_day.items())]
            else:
                whens = [at]
            for when in whens:
                snapshot = data.at(when)
                conversion = convert(snapshot, categories=categories)
                check_books(conversion, system)
                self.stdout.write(f"{snapshot.commit} of {snapshot.date}: {len(conversion.books)} books")
                for book, report in zip(conversion.books, conversion.reports):
                    if verbosity >= 1:
                        self.stdout.write(f"  {report.army}: {report.book} {report.version}, {report.entries} entries, "
                                          f"{report.options} options; {sum(report.unchecked.values())} uses of "
                                          f"{len(report.unchecked)} constructs not checked")
                    if verbosity >= 2:
                        for line in report.lines():
                            self.stdout.write(f"      - {line}")
                    rows.append(StoredFile("book", SYSTEM_ID, book["id"], book["version"], book["name"], book,
                                           f"{source.name}:{snapshot.commit}:{report.army}.json"))
        except NrSourceError as exc:
            raise CommandError(f"Nothing imported. {exc}", returncode=2) from None
        # A shape we do not know; ArithmeticError and RecursionError: what load_json's checks should stop first.
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, ArithmeticError, RecursionError) as exc:
            raise CommandError(f"Nothing imported. {source}: the data has a shape the importer does not know "
                               f"({type(exc).__name__}: {str(exc)[:200]})", returncode=2) from None
        finally:
            data.close()
        if not rows:
            raise CommandError(f"Nothing imported. {source}: no army file (a JSON file with `name` and an `army` "
                               f"tree) was read", returncode=2)
        if check:
            self.stdout.write(f"{len(rows)} books are good; nothing written.")
            return
        system_file = next(f for f in disk_library().files if f.kind == "system" and f.system == SYSTEM_ID)
        rows.insert(0, StoredFile("system", SYSTEM_ID, system_file.id, system_file.version, system_file.name,
                                  dict(system_file.data), system_file.path))
        hint = ("the importer changed: bump IMPORTER_REVISION in armylists/importers/nr_t9a/source.py, or the "
                "version in rules_data/t9a-2/system.yaml if that file changed")
        store_for_command(self, rows, hint, f"{len(rows) - 1} New Recruit T9A books")
