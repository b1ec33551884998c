"""An event's books are its system's alone (issue 39 item 2): the books of every other system stored on the
site are not built to check, name or read the rules of an event (lists/library/names.py names them from columns)."""
from __future__ import annotations

import pytest

from armylists.events.checking import ruleset_for, system_books
from armylists.lists.library import catalogue
from armylists.lists.library.names import one_system, shelved_books
from armylists.models import Event, RulesFile

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_systems_stored(monkeypatch):
    """A stored imported book of another system that cannot be built: building it fails the test."""
    RulesFile.objects.create(kind="system", system="bs-elsewhere", slug="bs-elsewhere", version="r1",
                             name="Elsewhere", content_hash="elsewhere", data={})
    RulesFile.objects.create(kind="book", system="bs-elsewhere", slug="bs-far", version="r1", name="Far",
                             content_hash="far", data={}, imported=True)

    def no_build(*args, **kwargs):
        raise AssertionError("a book of another system was built")

    monkeypatch.setattr(catalogue, "build_from_stored", no_build)


def test_a_systems_books_are_its_own_and_no_other_systems(other_systems_stored):
    assert sorted(b.key for b in shelved_books("t9a-0.11")) == [
        ("t9a-0.11", "empire-of-sonnstahl", "0.11.1"), ("t9a-0.11", "ogre-khans", "0.11.0")]
    assert [b.id for b in system_books("t9a-0.11")] == ["empire-of-sonnstahl", "ogre-khans"]
    assert one_system("t9a-0.11").name == "The 9th Age: Fantasy Battles v0.11.9.3"
    assert (one_system("no-such-system"), shelved_books("no-such-system")) == (None, [])
    # The other system's book is named without being built (its row's columns).
    assert [(b.name, b.imported) for b in shelved_books("bs-elsewhere")] == [("Far", True)]


def test_an_event_is_set_up_without_building_other_systems_books(other_systems_stored, alice):
    event = Event.objects.create(organiser=alice, name="Cup", date="2026-12-12", system="t9a-0.11",
                                 points_limit=4500, deadline="2026-12-10T12:00:00Z",
                                 books=["ogre-khans"])
    ruleset = ruleset_for(event)
    assert ruleset.system_name == "The 9th Age: Fantasy Battles v0.11.9.3"
    assert ruleset.book_names == {"ogre-khans": "Ogre Khans"}
    assert [b.id for b in system_books("t9a-0.11", ruleset.books)] == ["ogre-khans"]


def test_the_books_of_one_system_are_listed_without_building_another_systems(other_systems_stored):
    # What the editor's allies choice and a list's newer version read (issue 39): that system's books only.
    books = catalogue.listed_books("t9a-0.11")
    assert sorted(b.id for b in books) == ["empire-of-sonnstahl", "ogre-khans"]
    with pytest.raises(AssertionError, match="a book of another system was built"):
        catalogue.listed_books()       # every book: the unbuildable one too
