"""Reading the rules lazily: checking one list reads its own book and system, not every book; LibYAML
reads the rules files exactly as PyYAML's Python reader does."""
from __future__ import annotations

import pytest
import yaml

from armylists.lists.library import catalogue
from armylists.rules import RulesDataError
from armylists.rules.reading import data_files
from tests.conftest import RULES_DATA

pytestmark = pytest.mark.django_db  # a book not on disk is looked for in the database


@pytest.fixture
def fresh_catalogue():
    """The catalogue as a new process has it: nothing read yet."""
    caches = (catalogue.disk_library, catalogue._book_file, catalogue._system_part)
    for cache in caches:
        cache.cache_clear()
    catalogue._system_libraries.clear()
    yield
    for cache in caches:
        cache.cache_clear()
    catalogue._system_libraries.clear()


def test_one_book_is_read_from_its_own_file_with_its_system(fresh_catalogue, library, monkeypatch):
    read = []
    real = data_files.read_yaml

    def recording(path, display=None):
        read.append(path.relative_to(RULES_DATA).as_posix())
        return real(path, display)
    monkeypatch.setattr("armylists.rules.reading.loader.read_yaml", recording)
    book = catalogue.get_book("t9a-0.11", "empire-of-sonnstahl", "0.11.1")
    assert read == ["t9a-0.11/system.yaml", "t9a-0.11/items/common.yaml", "t9a-0.11/books/empire-of-sonnstahl.yaml"]
    assert catalogue.disk_library.cache_info().currsize == 0  # no other book was read
    whole = library.book("t9a-0.11", "empire-of-sonnstahl", "0.11.1")
    assert (book.key, book.content_hash, list(book.entries), list(book.items)) == (
        whole.key, whole.content_hash, list(whole.entries), list(whole.items))
    # Its system's folder is read once for every book of that system.
    catalogue.get_book("t9a-0.11", "ogre-khans", "0.11.0")
    assert read[3:] == ["t9a-0.11/books/ogre-khans.yaml"]


def test_a_version_its_file_does_not_hold_is_looked_for_in_every_file(fresh_catalogue):
    assert catalogue.get_book("t9a-0.11", "empire-of-sonnstahl", "9.9") is None
    assert catalogue.disk_library.cache_info().currsize == 1  # the error lists what there is: every book read


@pytest.mark.parametrize("system, book", [("..", "t9a-0.11"), ("t9a-0.11", "../system"), ("t9a-0.11/books", "x")])
def test_names_that_are_not_slugs_are_never_file_names(fresh_catalogue, system, book):
    assert catalogue._book_file(system, book, "1") is None


@pytest.mark.parametrize("path", sorted(p.relative_to(RULES_DATA).as_posix() for p in RULES_DATA.rglob("*.yaml")))
def test_libyaml_reads_every_rules_file_as_the_python_reader_does(path):
    text = (RULES_DATA / path).read_text()
    assert data_files.FAST_LOADER is yaml.CSafeLoader
    assert yaml.load(text, Loader=data_files.FAST_LOADER) == yaml.safe_load(text)


def test_a_bad_yaml_file_has_the_python_readers_message(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: a\nentries: [1, 2\n")
    with pytest.raises(RulesDataError) as caught:
        data_files.read_yaml(bad, "bad.yaml")
    with pytest.raises(yaml.YAMLError) as python:
        yaml.safe_load(bad.read_text())
    assert str(caught.value) == f"bad.yaml: (top level): is not valid YAML at line {python.value.problem_mark.line + 1}, " \
                                f"column {python.value.problem_mark.column + 1}: {python.value.problem}"


def test_an_event_reads_its_own_systems_folder_only(fresh_catalogue, library):
    part = catalogue.system_library("t9a-0.11")
    assert (list(part.systems), sorted(part.books)) == (["t9a-0.11"], [
        ("t9a-0.11", "empire-of-sonnstahl", "0.11.1"), ("t9a-0.11", "ogre-khans", "0.11.0")])
    assert catalogue.disk_library.cache_info().currsize == 0
    # A list of that system then finds its book there, not in a second reading of the file.
    assert catalogue.get_book("t9a-0.11", "ogre-khans", "0.11.0") is part.books[("t9a-0.11", "ogre-khans", "0.11.0")]
    assert catalogue.system_library("warmachine") is None and catalogue.system_library("..") is None
