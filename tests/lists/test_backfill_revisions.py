"""The history entries (what changed, the verdict) of revisions saved before each revision kept its own,
stored once (issue 39 item 4; lists/saved/backfill.py): by migration 0020 on `migrate` and by `manage.py backfill_revisions`, which is
idempotent (only revisions without a summary are read), reads the revisions' ids a chunk at a time and
each document one by one (bounded memory), and leaves a revision it cannot check now for a later run."""
from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from armylists.lists.saved import history as history_module
from armylists.lists.saved.backfill import backfill_verdicts
from armylists.lists.saved.history import history
from armylists.models import ArmyList, ListRevision

from tests.conftest import EXAMPLES
from tests.web.conftest import BOOK, SYSTEM, VERSION, make_list

EMPTY = {"valid": False, "total_points": 0, "errors": 4, "warnings": 0}   # an empty Empire list's four errors
STARTED = "Started the list: Empire of Sonnstahl 0.11.1, 1010 points."


def entry(changes: list[str], verdict: dict) -> dict:
    """A revision's whole history entry, as a history page stores it on showing it."""
    return {"changes": changes, "verdict": verdict, "key": [SYSTEM, BOOK, VERSION], "imported": False,
            "name": "Empire of Sonnstahl", "budget_unit": "pts"}


def empty(n: int, version: str = VERSION) -> dict:
    return {"format": "armylist/1", "name": "Old", "system": SYSTEM, "book": BOOK, "book_version": version,
            "points_limit": 1000 + 10 * n, "units": []}


def old_history(owner, documents: list[dict]) -> ArmyList:
    """A list whose revisions were all saved before revisions kept their verdicts (no summary)."""
    army_list = make_list(owner, documents[-1])
    ListRevision.objects.filter(army_list=army_list).delete()
    ListRevision.objects.bulk_create([ListRevision(army_list=army_list, revision=n, book_version=d["book_version"],
                                                   document=d) for n, d in enumerate(documents, start=1)])
    ArmyList.objects.filter(pk=army_list.pk).update(revision=len(documents))
    return army_list


def summaries(army_list: ArmyList) -> dict[int, dict | None]:
    return dict(ListRevision.objects.filter(army_list=army_list).order_by("revision").values_list("revision", "summary"))


@pytest.fixture
def legal() -> dict:
    return json.loads((EXAMPLES / "empire-2400-legal.json").read_text())


@pytest.mark.django_db
def test_each_revision_without_a_summary_gets_its_entry(alice, legal, monkeypatch):
    army_list = old_history(alice, [empty(1), legal, empty(3)])
    out = io.StringIO()
    call_command("backfill_revisions", stdout=out)
    assert out.getvalue() == "3 revision verdicts stored.\n"
    shown = [(s.revision, s.changes) for s in history(army_list).steps]
    assert shown[-1] == (1, [STARTED]) and shown[1][1][:2] == ["Renamed to 'Sonnstahl combined arms'.",
                                                                "Points limit 1010 -> 2400."]
    entries = summaries(army_list)
    # What the list's own save stores for the same document (ArmyList.save: the Report it was given).
    saved_with = make_list(alice, legal).revisions.get().summary["verdict"]
    assert saved_with["valid"] is True and saved_with["errors"] == 0
    assert {n: e["verdict"] for n, e in entries.items()} == {1: EMPTY, 2: saved_with, 3: EMPTY}
    assert [e["changes"] for e in entries.values()] == [c for _, c in reversed(shown)]

    def no_read(*args, **kwargs):
        raise AssertionError("a document was read to show a backfilled revision")
    monkeypatch.setattr(history_module, "_read", no_read)
    assert [(s.revision, s.changes) for s in history(army_list).steps] == shown


@pytest.mark.django_db
def test_a_second_run_checks_nothing_and_a_summary_made_already_is_kept(alice, monkeypatch):
    army_list = old_history(alice, [empty(1), empty(2)])
    full = {"changes": ["kept as it is"], "verdict": None, "key": None, "imported": True, "name": "",
            "budget_unit": "pts"}
    ListRevision.objects.filter(army_list=army_list, revision=2).update(summary=full)
    assert backfill_verdicts() == (1, 0)   # revision 1 only

    def no_check(*args, **kwargs):
        raise AssertionError("a revision with a stored summary was checked again")
    monkeypatch.setattr(history_module, "validate_roster", no_check)
    out = io.StringIO()
    call_command("backfill_revisions", stdout=out)
    assert out.getvalue() == "0 revision verdicts stored.\n"
    assert summaries(army_list) == {1: entry([STARTED], EMPTY), 2: full}
    assert [(s.revision, s.verdict) for s in history(army_list).steps] == [(2, None), (1, EMPTY)]


@pytest.mark.django_db
def test_a_revision_whose_book_is_not_loaded_is_left_for_a_later_run(alice):
    army_list = old_history(alice, [empty(1, version="0.0.1"), empty(2)])
    out = io.StringIO()
    call_command("backfill_revisions", stdout=out)
    assert out.getvalue() == ("1 revision verdicts stored; 1 revisions cannot be checked now (their book is not "
                              "on this site).\n")
    assert summaries(army_list) == {1: None, 2: {"verdict": EMPTY}}


@pytest.mark.django_db
def test_ids_are_read_a_chunk_at_a_time_and_documents_one_by_one(alice):
    from django.db import connection

    army_list = old_history(alice, [empty(n) for n in range(1, 6)])
    said, queries = [], []

    def counted(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)
    with connection.execute_wrapper(counted):   # the query log is off during a backfill (DEBUG on too)
        assert backfill_verdicts(chunk=2, said=said.append) == (5, 0)
    ids = [q for q in queries if 'SELECT "armylists_listrevision"."id"' in q]
    # Five revisions, chunks of two: three chunks of ids and the empty fourth, each asking for two at most;
    # then for each revision, one by one: its document, the revisions before it (the one before was read
    # just before, and kept), its entry stored, its verdict where no entry could be.
    assert len(ids) == 4 and all("LIMIT 2" in q for q in ids) and len(queries) == 4 + 5 * 4
    assert len(said) == 3 and said[-1].startswith("5 revisions given their entries, 0 not checkable now")
    assert list(summaries(army_list).values()) == [entry([STARTED], EMPTY)] + [
        entry([f"Points limit {1000 + 10 * n} -> {1010 + 10 * n}."], EMPTY) for n in range(1, 5)]


def test_a_chunk_below_one_is_refused():
    with pytest.raises(CommandError, match="--chunk must be at least 1"):
        call_command("backfill_revisions", "--chunk", "0")


@pytest.mark.django_db(transaction=True)
def test_the_migration_stores_the_verdicts(alice):
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    army_list = old_history(alice, [empty(1), empty(2)])
    executor = MigrationExecutor(connection)
    executor.migrate([("armylists", "0019_issue38_rulesfile_lineage")])   # before the backfill
    assert summaries(army_list) == {1: None, 2: None}
    executor = MigrationExecutor(connection)
    executor.migrate([("armylists", "0020_issue39_backfill_revision_verdicts")])
    assert summaries(army_list) == {1: entry([STARTED], EMPTY), 2: entry(["Points limit 1010 -> 1020."], EMPTY)}
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
