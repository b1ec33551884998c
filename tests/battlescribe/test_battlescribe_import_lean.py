"""What keeps import_battlescribe fast and lean (issue 21, item 5; bench/import_battlescribe_command.py
measures it): no reference cycles, so pausing the cycle collector loses nothing; no XML tree kept unless
asked; each book's content hash computed once. Its output is the same as before these (compared byte for
byte on the four data sets of ../shared/external/battlescribe when they were made; docs/benchmarks.md)."""
from __future__ import annotations

import gc

import pytest

from armylists.importers.battlescribe import BattleScribeInputError, check, convert, read_sources, verify
from armylists.importers.battlescribe.plain import plain_document
from armylists.importers.storing import battlescribe_files
from armylists.rules.reading.loader import content_hash

from tests.battlescribe.battlescribe_samples import GST, LEGACY_CAT, LEGACY_GST, catalogue


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "test.gst").write_text(GST)
    (tmp_path / "knights.cat").write_text(catalogue())
    (tmp_path / "old.gst").write_text(LEGACY_GST)
    (tmp_path / "old.cat").write_text(LEGACY_CAT)
    return tmp_path


def test_reading_converting_and_building_leave_no_reference_cycle(folder):
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        conversion = convert(read_sources([str(folder)]))
        books = check(conversion)
        verify(conversion)
        del books, conversion
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert left == []


def test_the_cycle_collector_runs_again_after_an_import_and_after_a_refusal(folder, tmp_path_factory):
    verify(convert(read_sources([str(folder)])))
    assert gc.isenabled()
    bad = tmp_path_factory.mktemp("bad") / "bad.cat"
    bad.write_text("<catalogue id='x' name='x'><broken></catalogue>")
    with pytest.raises(BattleScribeInputError, match="is not well-formed XML"):
        read_sources([str(bad)])
    assert gc.isenabled()


def test_a_document_keeps_its_xml_tree_only_when_asked(folder):
    plain = {d.source: d for d in read_sources([str(folder)])}
    trees = {d.source: d for d in read_sources([str(folder)], xml=True)}
    assert sorted(plain) == sorted(trees) == sorted(str(p) for p in folder.iterdir())
    knights = str(folder / "knights.cat")
    with pytest.raises(ValueError, match="its XML tree was not kept"):
        plain[knights].root
    assert trees[knights].root.get("name") == "Test Knights"
    for source, document in plain.items():  # the same plain data, read at once or from the kept tree
        assert plain_document(document) == plain_document(trees[source])


def test_storing_takes_the_hash_the_loader_computed_and_computes_it_for_a_book_not_built(folder):
    conversion = convert(read_sources([str(folder)]))
    rows, _ = battlescribe_files(conversion)
    assert {r.slug: r.digest for r in rows} == {"bs-test-battles": None, "bs-old-battles": None,
                                                 "bs-test-knights": None, "bs-old-guard": None}
    verify(conversion)
    rows, _ = battlescribe_files(conversion)
    assert all(r.digest == content_hash(r.data) for r in rows) and len(rows) == 4
    conversion.books[0] = dict(conversion.books[0])  # another dict, equal or not, is not the one hashed
    rows, _ = battlescribe_files(conversion)
    assert [r.digest for r in rows if r.kind == "book"][0] is None


@pytest.mark.django_db
def test_a_book_the_json_column_refuses_is_exit_2_and_nothing_is_stored(folder, monkeypatch):
    # verify hashes the books with msgspec, which writes a set as a list (the schema checks need not look
    # at every value); the column's json.dumps refuses it, and the whole run is rolled back.
    from django.core.management import call_command
    from django.core.management.base import CommandError

    from armylists.management.commands import import_battlescribe as command
    from armylists.models import BattleScribeDocument, RulesFile

    real = command.verify

    def then_a_set(conversion):
        real(conversion)
        conversion.books[-1]["entries"][0]["tags"] = {"bs-a", "bs-b"}

    monkeypatch.setattr(command, "verify", then_a_set)
    with pytest.raises(CommandError) as raised:
        call_command("import_battlescribe", str(folder), verbosity=0)
    assert raised.value.returncode == 2
    assert str(raised.value) == ("Nothing imported. A book holds a value the database cannot store as JSON "
                                 "(TypeError: Object of type set is not JSON serializable)")
    assert RulesFile.objects.count() == 0 and BattleScribeDocument.objects.count() == 0


def test_conditions_with_the_same_attributes_are_one_dict_and_others_keep_their_own():
    from defusedxml.ElementTree import fromstring

    from armylists.importers.battlescribe.plain import Reader

    root = fromstring('<conditions><condition type="atLeast" field="selections" scope="parent" value="1" childId="a"/>'
                      '<condition type="atLeast" field="selections" scope="parent" value="1" childId="a"/>'
                      '<condition type="atLeast" field="selections" scope="parent" value="1.5" childId="a"/>'
                      '<condition type="atLeast" field="selections" scope="force" value="1" childId="a"/></conditions>')
    reader = Reader("test.cat", root)
    first, same, half, force = (reader.condition(c, "Knights") for c in root)
    assert same is first and first == reader._condition(root[0], "Knights")
    assert (first["value"], half["value"], force["scope"]) == (1, 1.5, "force")
    assert half is not first and force is not first and len(reader.conditions) == 3


@pytest.mark.django_db
def test_storing_leaves_no_reference_cycle_holding_the_books(folder):
    # A book's game data made with book=row sat in the row's reverse-relation cache: row -> game data -> row,
    # every book's data held until the cycle collector ran (at the end of the process, for the command).
    from django.core.management import call_command

    from armylists.models import BookGameData

    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        call_command("import_battlescribe", str(folder), verbosity=0)
        gc.collect()
        left = sorted({type(o).__name__ for o in gc.garbage} & {"RulesFile", "BookGameData", "ModelState"})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert left == []
    assert sorted(BookGameData.objects.values_list("book__slug", flat=True)) == ["bs-old-guard", "bs-test-knights"]
