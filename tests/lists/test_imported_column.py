"""RulesFile.imported (migration 0012_rulesfile_imported): the imported books are found by a column, not by
reading every book's JSON document; the migration sets it from the stored data, the importers as they store."""
import pytest

from armylists.lists.library.catalogue import imported_book_keys
from armylists.models import RulesFile


@pytest.mark.django_db(transaction=True)
def test_the_migration_marks_the_books_an_importer_stored():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = [("armylists", "0011_battlescribe_documents")], [("armylists", "0012_rulesfile_imported")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("armylists", "RulesFile")
    for slug, data in (("ours", {"id": "ours"}), ("theirs", {"id": "theirs", "imported": True})):
        old.objects.create(kind="book", system="s", slug=slug, version="1", name=slug, content_hash=slug, data=data)
    old.objects.create(kind="system", system="s", slug="s", version="1", name="s", content_hash="s",
                       data={"imported": True})
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    assert sorted(RulesFile.objects.values_list("kind", "slug", "imported")) == [
        ("book", "ours", False), ("book", "theirs", True), ("system", "s", False)]
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert imported_book_keys() == [("s", "theirs", "1")]   # it reads tables of later migrations too


@pytest.mark.django_db
def test_an_imported_book_is_stored_with_the_column_set():
    from armylists.importers.storing import StoredFile, store_rules_files

    files = [StoredFile(kind="book", system="s", slug=slug, version="1", name=slug, data=data, where=slug)
             for slug, data in (("ours", {"id": "ours"}), ("theirs", {"id": "theirs", "imported": True}))]
    created, unchanged, refused = store_rules_files(files, "bump it")
    assert (len(created), unchanged, refused) == (2, 0, [])
    assert dict(RulesFile.objects.values_list("slug", "imported")) == {"ours": False, "theirs": True}
