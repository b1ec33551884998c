"""Store converted rules files (systems, item lists, books) in the database, all or nothing.

The path every importer shares (import_owb, import_battlescribe), as load_rules does for the files on
disk: a file not stored yet is created; the same content under the same version is left alone; other
content under a stored version is refused, and then nothing of the run is written, since a list pins
a version and a version's content must never change.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, transaction

from armylists.models import BattleScribeDocument, BookGameData, RulesFile
from armylists.rules.battlescribe.packed import digest as packed_digest
from armylists.rules.reading.loader import content_hash

from armylists.importers import battlescribe, owb


@dataclass(frozen=True)
class StoredFile:
    kind: str  # system, items, book
    system: str
    slug: str
    version: str
    name: str
    data: dict
    where: str  # the file it came from, for people
    # An imported BattleScribe book: the documents its tree evaluator needs (system, catalogue, linked), packed
    game_data: list = field(default_factory=list, compare=False, repr=False)
    digest: str | None = None  # content_hash(data), where the importer has it already
    lineage: str = ""  # what the data calls the book for good across renames (RulesFile.lineage)


def dated_versions(files: list[StoredFile], date: str) -> list[StoredFile]:
    """`files`, each one whose version is stored with other content given the version that names the data's
    `date` (YYYY-MM-DD) beside it: "r15" -> "r15@2024-01-07" (then "r15@2024-01-07.2", ... for another
    content the same day); a version already dated ("0.4.2@2026-02-13", New Recruit's T9A) gets the
    count only. A version a stored row has with this same content is kept, so a replay changes nothing.

    A game data update's data is a new version of the book when its content is new, whatever its
    revision says: the game system's revision, the catalogues it links or our importer may have
    changed while the catalogue's revision did not (issue 38 item 1). An imported item list and the
    books of its version are one version together (a book reads the item lists of its own version):
    when one of them is dated, all are."""
    files = one_system(files)
    stored = _stored_rows(files)
    versions: dict[tuple, dict[str, str]] = {}  # (kind, system, slug) -> version -> content hash
    for row in stored.values():
        versions.setdefault((row.kind, row.system, row.slug), {})[row.version] = row.content_hash
    own = {i for i, f in enumerate(files) if (row := stored.get((f.kind, f.system, f.slug, f.version))) is not None
           and row.content_hash != (f.digest or content_hash(f.data))}
    item_versions = {(f.system, f.version) for f in files if f.kind == "items"}
    together = {(files[i].system, files[i].version) for i in own if files[i].kind in ("items", "book")} & item_versions
    return [_dated(f, date, versions.get((f.kind, f.system, f.slug), {}))
            if i in own or (f.kind in ("items", "book") and (f.system, f.version) in together) else f
            for i, f in enumerate(files)]


def _dated(f: StoredFile, date: str, taken: dict[str, str]) -> StoredFile:
    """`f` at a stored dated version of it with this same content (a replay), else at the first of
    `version@date`, `version@date.2`, ... that no stored row has."""
    base = f.version if "@" in f.version else f"{f.version}@{date}"
    same = [v for v in taken if v.startswith(f.version + "@") or v.startswith(base + ".")]
    for version in [*sorted(same), *(base if n == 1 else f"{base}.{n}" for n in range(1, 1000))]:
        data = {**f.data, "version": version}
        digest = content_hash(data)
        if taken.get(version) == digest or (version not in taken and version not in same):
            return replace(f, version=version, data=data, digest=digest)
    raise ValueError(f"more than 999 contents of {f.slug} {f.version} on {date}")


def store_rules_files(files: list[StoredFile], bump_hint: str) -> tuple[list[str], int, list[str]]:
    """(what was created, how many were unchanged, what was refused); nothing is written if any is refused.

    One transaction: the stored rows are read in one query, the new ones written by bulk_create (rows,
    one a statement for their size; then packed documents and which book has which, all at once), in the
    files' order. Raises django.db.DatabaseError when the database cannot be written (no migrations, say)."""
    created, unchanged, refused = [], 0, []
    with transaction.atomic():
        files = one_system(files)
        stored = _stored_rows(files)
        new: list[tuple[RulesFile, list]] = []
        for f in files:
            digest = f.digest or content_hash(f.data)
            row = stored.get((f.kind, f.system, f.slug, f.version))
            if row is None:
                row = RulesFile(kind=f.kind, system=f.system, slug=f.slug, version=f.version, name=f.name[:200],
                                content_hash=digest, data=f.data, source_path=f.where[:300],
                                imported=bool(f.data.get("imported")), lineage=f.lineage[:120])
                stored[(f.kind, f.system, f.slug, f.version)] = row
                new.append((row, f.game_data))
                created.append(f"{f.kind} {f.slug} {f.version}")
            elif row.content_hash == digest:
                unchanged += 1
                if row.pk is not None:  # a book imported before its game data was kept gets it now
                    new.append((row, f.game_data))
            else:
                refused.append(f"version {f.version} of {f.kind} {f.slug!r} is already loaded with other content; "
                               f"a version's content never changes ({bump_hint})")
        if refused:
            transaction.set_rollback(True)
            return created, unchanged, refused
        # A row a statement: each row's JSON (an Old World book's up to 8 MB) is made as it is written, and
        # let go; in one statement all of them, 81 MB, and the statement's copy were held at once (+190 MB).
        RulesFile.objects.bulk_create([row for row, _ in new if row.pk is None], batch_size=1)
        keep_game_data(new)
    return created, unchanged, refused


def one_system(files: list[StoredFile]) -> list[StoredFile]:
    """`files`, each game system whose stored row at its version differs from it in its name alone given
    that row's content: the same data is one system whichever door imported it (issue 38 item 5).
    import_battlescribe names a system we play by our name ("Mordheim (imported data, BSData)"), a game
    data update by the data's ("Mordheim (BSData)"); the second door's import was refused, or stored the
    same system again at a dated version. The first name stays (a source mapped onto ours is shown by
    our system's name anyway: catalogue.mapped_systems)."""
    wanted = {(f.system, f.version) for f in files if f.kind == "system"}
    if not wanted:
        return files
    stored = {(r.system, r.version): r for r in RulesFile.objects.filter(
        kind="system", slug__in=sorted({f.slug for f in files if f.kind == "system"}))
        if (r.system, r.version) in wanted}
    out = []
    for f in files:
        row = stored.get((f.system, f.version)) if f.kind == "system" else None
        if row is not None and row.content_hash != (f.digest or content_hash(f.data)) and \
                _but_name(row.data) == _but_name(f.data):
            f = replace(f, name=row.name, data=row.data, digest=row.content_hash)
        out.append(f)
    return out


def _but_name(data: dict) -> dict:
    return {key: value for key, value in data.items() if key != "name"}


def _stored_rows(files: list[StoredFile]) -> dict[tuple, RulesFile]:
    """The stored rows of these files' (kind, system, slug, version), without their data."""
    found: dict[tuple, RulesFile] = {}
    slugs = sorted({f.slug for f in files})
    for i in range(0, len(slugs), 200):  # a bounded number of query parameters
        for row in RulesFile.objects.filter(slug__in=slugs[i:i + 200]).defer("data"):
            found[(row.kind, row.system, row.slug, row.version)] = row
    return found


def keep_game_data(books: list[tuple[RulesFile, list]]) -> None:
    """Store what the tree evaluator needs of each book (each document once, by digest), unless it has it.
    Each book's documents: the conversion's PackedDocument of the game system, the catalogue, the
    catalogues it links."""
    books = [(row, documents) for row, documents in books if documents]
    if not books:
        return
    have = set(BookGameData.objects.filter(book__in=[row for row, _ in books]).values_list("book_id", flat=True))
    books = [(row, documents) for row, documents in books if row.pk not in have]
    keys = {id(document): packed_digest(document.packed) for _, documents in books for document in documents}
    known = set(BattleScribeDocument.objects.filter(digest__in=set(keys.values())).values_list("digest", flat=True))
    fresh: dict[str, BattleScribeDocument] = {}
    for _, documents in books:
        for document in documents:
            key = keys[id(document)]
            if key not in known and key not in fresh:
                fresh[key] = BattleScribeDocument(digest=key, kind=document.kind, bs_id=document.bs_id[:100],
                                                  revision=document.revision, name=document.name[:200],
                                                  packed=document.packed)
    BattleScribeDocument.objects.bulk_create(list(fresh.values()), batch_size=50)
    # book_id, not book=row: that would also put the game data in the row's cache of its reverse relation, a
    # reference cycle holding every book's data (the Old World's 200 MB) until the cycle collector ran,
    # at the latest when the process ended (half a second more for the command).
    BookGameData.objects.bulk_create([BookGameData(book_id=row.pk, catalogue_id=documents[1].bs_id[:100],
                                                   documents=[keys[id(d)] for d in documents])
                                      for row, documents in books])


def store_for_command(command: BaseCommand, files: list[StoredFile], bump_hint: str, what: str) -> None:
    """`store_rules_files` for a management command: each stored file a line, then a summary naming `what`
    was imported ("18 Old World Builder books"); a refusal or an unwritable database is a CommandError
    and nothing is written."""
    try:
        created, unchanged, refused = store_rules_files(files, bump_hint)
    except DatabaseError as exc:
        raise CommandError(f"Nothing imported. The database cannot be written ({exc}); "
                           f"has `manage.py migrate` been run?") from None
    if refused:
        raise CommandError("Nothing imported.\n" + "\n".join(refused))
    for line in created:
        command.stdout.write(f"stored {line}")
    command.stdout.write(command.style.SUCCESS(f"{len(created)} new, {unchanged} unchanged; {what} in the database."))


def battlescribe_files(conversion: battlescribe.Conversion) -> tuple[list[StoredFile], str]:
    """The rows a BattleScribe conversion stores (its systems, then its books) and the hint for a refusal."""
    rows = [StoredFile("system", s["id"], s["id"], s["version"], s["name"], s, conversion.sources[s["id"]],
                       digest=conversion.content_hash(s)) for s in conversion.systems]
    rows += [StoredFile("book", b["system"], b["id"], b["version"], b["name"], b, conversion.sources[b["id"]],
                        conversion.game_data.get(b["id"], []), conversion.content_hash(b))
             for b in conversion.books]
    hint = (f"bump IMPORTER_REVISION ({battlescribe.IMPORTER_REVISION}) in armylists/importers/battlescribe/__init__.py "
            "if the importer changed")
    return rows, hint


def owb_files(conversion: owb.Conversion, system_file, folder_name: str) -> tuple[list[StoredFile], str]:
    """The rows an Old World Builder conversion stores (the system file it needs from our rules data, the
    general items, the books) and the hint for a refusal."""
    rows = [StoredFile("system", owb.SYSTEM_ID, system_file.id, system_file.version, system_file.name,
                       dict(system_file.data), system_file.path)]
    files = [("items", conversion.items_file["id"], conversion.items_file)]
    files += [("book", book["id"], book) for book in conversion.books]
    for kind, slug, data in files:
        where = f"{folder_name}/the-old-world/" + ("magic-items.json" if kind == "items" else f"{slug[4:]}.json")
        # An OWB army is the same book by its army id whatever OWB calls it (issue 38 item 2).
        rows.append(StoredFile(kind, owb.SYSTEM_ID, slug, data["version"], data["name"], data, where,
                               lineage=f"owb:{slug[4:]}" if kind == "book" else ""))
    return rows, "bump IMPORTER_REVISION in armylists/importers/owb/data.py if the importer changed"
