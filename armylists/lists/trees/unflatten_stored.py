"""The stored lists of imported BattleScribe books still in the flattened shape, made the trees they are
(migration 0013_unflatten_lists; issue 37 item 2, "one semantics").

Apart from unflatten.py because it needs the books and the Report (lists/library/catalogue.py), which
reach the tree list service that asks unflatten.py itself: one module for both would be a circle.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from armylists.lists.library.catalogue import get_book, validate_roster
from armylists.lists.trees.battlescribe_data import GameDataUnavailable
from armylists.lists.trees.tree_lists import is_tree_book
from armylists.lists.trees.unflatten import unflatten
from armylists.models import ArmyList
from armylists.rules import Book, ListDocumentError, RulesDataError, parse_roster
from armylists.rules.battlescribe import GameDataError


@dataclass
class Converted:
    """What convert_stored_lists did: lists made trees, lists kept plain with a note, lists left as they were
    (their book or its game data not there, or the document unreadable)."""
    trees: int = 0
    noted: int = 0
    left: int = 0


def convert_stored_lists(army_lists: type = ArmyList) -> Converted:
    """Every stored flattened list (`units`, no `forces`) of a book whose game data is stored, as its tree
    (unflatten.py) with its cached total and validity recomputed, as ArmyList.set_document keeps them; one
    that cannot be placed stays plain with a note saying what, and to import it again. Each change is a
    new revision in the list's history, so the flattened document is kept there and an editor open on the
    old revision is told the list changed. `army_lists` is the ArmyList model (a migration's historical one:
    only its fields are used). Nothing to do on a database without such books or lists."""
    revisions = army_lists._meta.get_field("revisions").related_model
    books: dict[tuple[str, str, str], Book | None] = {}
    done = Converted()
    # Only imported BattleScribe books' ids begin so (importers/battlescribe/rosters.py: book_key). The ids
    # first, then each row: no cursor is left open over the rows while they are written (SQLite's would see them).
    for pk in list(army_lists.objects.filter(book__startswith="bs-").order_by("pk").values_list("pk", flat=True)):
        row = army_lists.objects.get(pk=pk)
        document = row.document
        if not isinstance(document, dict) or document.get("forces") is not None:
            continue
        try:
            roster = parse_roster(document, f"list {row.pk}")
            key = (roster.system, roster.book, roster.book_version)
            if key not in books:
                found = get_book(*key)
                books[key] = found if found is not None and is_tree_book(found) else None
            book = books[key]
            if book is None:
                done.left += 1
                continue
            converted = unflatten(book, roster)
            if converted == roster:   # the data cannot be read, or noted already
                done.left += 1
                continue
            report = validate_roster(book, converted, source=f"list {row.pk}")
        except (ListDocumentError, RulesDataError, GameDataUnavailable, GameDataError):
            done.left += 1    # as it was: the site says why when the list is opened
            continue
        ArmyList.set_document(row, converted, report)   # the columns derived from the document, as every save
        row.revision += 1
        with transaction.atomic():
            row.save(update_fields=["document", "name", "player", "team", "system", "book", "book_version",
                                    "points_limit", "total_points", "valid", "revision"])
            revisions.objects.create(army_list_id=row.pk, revision=row.revision, document=row.document,
                                     book_version=row.book_version)
        if converted.is_tree:
            done.trees += 1
        else:
            done.noted += 1
    return done
