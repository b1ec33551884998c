"""Import Old World Builder's datasets as army books of our format.

    python manage.py import_owb PATH [--into DIR] [--check]

PATH is OWB's folder: the one holding `the-old-world-system.json` and `the-old-world/` (18 army files
and `magic-items.json`), or OWB's source tree as it is (`src/assets/the-old-world.json`,
`public/games/the-old-world/`). Every army becomes the book `owb-<army>`, OWB's general items the item list
`owb-general`, all at the version `owb-<commit>`; each is built by the engine's own loader first.

By default the files are stored in the database (with the system file they need), all or nothing,
like load_rules: the same content under the same version changes nothing, other content under the
same version is refused. `--into DIR` writes them as YAML under DIR/the-old-world/ instead (a folder
load_rules --path can load; never inside this repository: OWB's data is not ours to commit).
`--check` converts and checks, and writes nothing. A bad input file stops everything with one line.
"""
from __future__ import annotations

from pathlib import Path

import yaml
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from armylists.lists.library.catalogue import disk_library
from armylists.importers.owb import Conversion, OwbInputError, convert, read_dataset
from armylists.importers.owb import check as check_books
from armylists.importers.owb.data import SYSTEM_ID
from armylists.importers.storing import owb_files, store_for_command

HEADER = ("# Made by `manage.py import_owb` from Old World Builder's datasets (old-world-builder.com, CC BY 4.0).\n"
          "# Not part of this repository's data; import again rather than edit.\n")


class Command(BaseCommand):
    help = "Import Old World Builder's army datasets and magic items as army books (database, or --into DIR)."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path, help="OWB's folder (holding the-old-world-system.json), or OWB's "
                                                    "source tree (src/assets/the-old-world.json, public/games/)")
        parser.add_argument("--into", type=Path, default=None, help="write YAML files under this folder instead")
        parser.add_argument("--check", action="store_true", help="convert and check only; write nothing")

    def handle(self, *args, path: Path, into: Path | None = None, check: bool = False, **options):
        system = disk_library().systems.get(SYSTEM_ID)
        if system is None:
            raise CommandError(f"Nothing imported. The rules data has no {SYSTEM_ID!r} system to import into.")
        if into is not None:
            into = self._outside_repository(into)
        try:
            dataset = read_dataset(path)
            conversion = convert(dataset, system)
            check_books(conversion, system)
        except OwbInputError as exc:
            raise CommandError(f"Nothing imported. {exc}") from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:  # a shape read_dataset does not check
            raise CommandError(f"Nothing imported. {path}: OWB's data has a shape the importer does not know "
                               f"({type(exc).__name__}: {exc})") from None
        self._report(conversion, int(options.get("verbosity", 1)))
        if check:
            self.stdout.write(f"{len(conversion.books)} books and 1 item list are good; nothing written.")
        elif into is not None:
            self._write(conversion, into)
        else:
            self._store(conversion, path)

    @staticmethod
    def _outside_repository(into: Path) -> Path:
        target = into.expanduser().resolve()
        repository = Path(settings.BASE_DIR).resolve()
        if target == repository or target.is_relative_to(repository):
            raise CommandError(f"Nothing imported. {into} is inside this repository; OWB's data may not be "
                               f"committed to it: choose a folder outside {repository}.")
        return target

    def _report(self, conversion: Conversion, verbosity: int) -> None:
        self.stdout.write(f"Old World Builder {conversion.version}: {conversion.general_items} general items "
                          f"(owb-general)")
        for r in conversion.reports:
            hired = f" and {r.mercenaries} mercenaries from other armies" if r.mercenaries else ""
            self.stdout.write(f"{r.army}: {r.book}, {r.entries} entries ({r.units} units{hired}), {r.items} items of "
                              f"its own, {r.rules} rules; {len(r.unchecked)} things not checked")
            if verbosity >= 1:
                for line in r.unchecked:
                    self.stdout.write(f"    - {line}")

    def _files(self, conversion: Conversion) -> list[tuple[str, str, dict]]:
        files = [("items", conversion.items_file["id"], conversion.items_file)]
        files += [("book", book["id"], book) for book in conversion.books]
        return files

    def _write(self, conversion: Conversion, into: Path) -> None:
        folder = into / SYSTEM_ID
        try:
            (folder / "items").mkdir(parents=True, exist_ok=True)
            (folder / "books").mkdir(parents=True, exist_ok=True)
            system_file = Path(settings.RULES_DATA_DIR) / SYSTEM_ID / "system.yaml"
            (folder / "system.yaml").write_text(system_file.read_text(encoding="utf-8"), encoding="utf-8")
            for kind, slug, data in self._files(conversion):
                target = folder / ("items" if kind == "items" else "books") / f"{slug}.yaml"
                target.write_text(HEADER + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110),
                                  encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"Could not write into {into}: {exc}") from None
        self.stdout.write(self.style.SUCCESS(
            f"Wrote {len(conversion.books)} books and 1 item list under {folder}; "
            f"load them with: manage.py load_rules --path {into}"))

    def _store(self, conversion: Conversion, path: Path) -> None:
        system_file = next(f for f in disk_library().files if f.kind == "system" and f.system == SYSTEM_ID)
        rows, hint = owb_files(conversion, system_file, path.name)
        store_for_command(self, rows, hint, f"{len(conversion.books)} Old World Builder books")
