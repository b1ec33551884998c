"""Load every rules data file into the database, all or nothing.

Every file is parsed and checked first; only when all are good is anything written, in one
transaction. Loading the same files again changes nothing. A file whose content changed while its
version did not is refused: lists pin versions, so a version's content must never change.
"""
from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from armylists.models import RulesFile
from armylists.rules import RulesDataError, load_tree


class Command(BaseCommand):
    help = "Check and load the rules data (systems, item lists, army books) into the database."

    def add_arguments(self, parser):
        parser.add_argument("--path", type=Path, default=None, help="rules data folder (default: RULES_DATA_DIR)")
        parser.add_argument("--check", action="store_true", help="only check the files; write nothing")

    def handle(self, *args, path: Path | None = None, check: bool = False, **options):
        root = path or settings.RULES_DATA_DIR
        if not root.is_dir():
            raise CommandError(f"{root}: no such rules data folder")
        try:
            library = load_tree(root)
        except RulesDataError as exc:
            raise CommandError(f"Nothing loaded. {exc}") from None
        books = len(library.books)
        if check:
            self.stdout.write(f"{len(library.files)} files are good ({books} books); nothing written.")
            return
        created, unchanged, refused = [], 0, []
        with transaction.atomic():
            for f in library.files:
                row = RulesFile.objects.filter(kind=f.kind, system=f.system, slug=f.id, version=f.version).first()
                if row is None:
                    RulesFile.objects.create(kind=f.kind, system=f.system, slug=f.id, version=f.version, name=f.name,
                                             content_hash=f.content_hash, data=f.data, source_path=f.path,
                                             imported=bool(f.data.get("imported")))
                    created.append(f)
                elif row.content_hash == f.content_hash:
                    unchanged += 1
                else:
                    refused.append(f"{f.path}: version {f.version} of {f.kind} {f.id!r} is already loaded with "
                                   f"other content; give the changed file a new version")
            if refused:
                transaction.set_rollback(True)
        if refused:
            raise CommandError("Nothing loaded.\n" + "\n".join(refused))
        for f in created:
            self.stdout.write(f"loaded {f.kind} {f.system}/{f.id} {f.version} ({f.path})")
        self.stdout.write(self.style.SUCCESS(
            f"{len(created)} new, {unchanged} unchanged; {books} books in {len(library.systems)} systems."))
