"""The editor's "data as of" is asked of the database once per Book object (lists/library/data_as_of.py:
book_data_as_of, issue 37: the tree editor's edit spent 3.4 ms of its 34 asking it every time): a found
data version is kept with the book, since the first import that brought a book version never moves; one
not found is asked again, as a later import may bring it."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from armylists.gamedata.sources import add_source
from armylists.gamedata.updating import update
from armylists.lists.library.data_as_of import book_data_as_of, data_as_of

pytestmark = pytest.mark.django_db
TEXT = "Reiklanders (1a) r10, from BSData/mordheim release v1.0 of 2026-03-04"


class StandIn:
    """What book_data_as_of reads of a Book (a Book is built from stored rules; its fields are these)."""
    def __init__(self):
        self.system, self.id, self.version = SimpleNamespace(id="bs-mordheim"), "bs-reiklanders-1a", "r10"
        self.imported, self.name = True, "Reiklanders (1a)"


def asked(fn) -> tuple[dict, int]:
    with CaptureQueriesContext(connection) as queries:
        answer = fn()
    return answer, len(queries)


def test_a_found_data_version_is_asked_once_per_book_and_is_data_as_ofs_answer(mordheim):
    update(add_source("BSData/mordheim"))
    book = StandIn()
    first, queries = asked(lambda: book_data_as_of(book))
    assert (first["text"], queries) == (TEXT, 1)
    assert first == data_as_of("bs-mordheim", "bs-reiklanders-1a", "r10", True, "Reiklanders (1a)")
    assert asked(lambda: book_data_as_of(book)) == (first, 0)
    other = StandIn()   # another Book object (the books cache built it again): asked again
    assert asked(lambda: book_data_as_of(other)) == (first, 1)


def test_one_not_found_is_asked_again_and_found_once_an_import_brings_it(mordheim):
    book = StandIn()
    assert asked(lambda: book_data_as_of(book))[0]["text"] == "Reiklanders (1a) r10 (imported on this site)"
    update(add_source("BSData/mordheim"))
    assert asked(lambda: book_data_as_of(book)) == (data_as_of("bs-mordheim", "bs-reiklanders-1a", "r10"), 1)
