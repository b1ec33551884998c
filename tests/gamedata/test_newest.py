"""Newest by the data's date, never by import order (issue 38 item 3), and a book the same book across
renames (item 2): an older release imported after a newer one changes nothing for new lists; a revision
going down at a later date is the newer data; a catalogue renamed keeps its lists' upgrade."""
from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from armylists.gamedata.sources import add_source
from armylists.gamedata.updating import update
from armylists.lists.library.listings import imported_listings
from armylists.lists.library.catalogue import imported_book_keys, listed_books, renamed_books, report_for
from armylists.lists.saved.history import preview, upgrade_target
from armylists.lists.saved.stored import load
from armylists.models import ArmyList
from armylists.rules import parse_roster
from tests.fake_github import EXTERNAL, files_from, zip_of
from tests.gamedata.conftest import MORDHEIM, MORDHEIM_FILES

pytestmark = pytest.mark.django_db
NR_T9A = EXTERNAL / "new-recruit-t9a" / "nr-t9a.bundle"


def release(mordheim, tag: str, date: str, revision: str, name: bytes = b"Reiklanders") -> None:
    """Reiklanders at `revision`, released as `tag` on `date` (under the catalogue name `name`)."""
    files = files_from(MORDHEIM, MORDHEIM_FILES)
    cat = files.pop("Reiklanders.cat").replace(b'revision="10"', b'revision="' + revision.encode() + b'"', 1)
    files[name.decode() + ".cat"] = cat.replace(b'name="Reiklanders (1a)"', b'name="' + name + b' (1a)"', 1)
    mordheim.release, mordheim.date, mordheim.archive = tag, date, zip_of(files, f"BSData-mordheim-{tag}")


def a_list(owner, book: str, version: str) -> ArmyList:
    roster = parse_roster({"format": "armylist/1", "system": "bs-mordheim", "book": book, "book_version": version,
                           "points_limit": 500, "units": [], "name": "Lads"})
    army_list = ArmyList(owner=owner)
    army_list.set_document(roster, report_for(roster))
    army_list.save()
    return army_list


def offered(book: str = "bs-reiklanders-1a") -> list[str]:
    return [b.version for b in listed_books() if b.system.id == "bs-mordheim" and b.id == book]


def home_listed() -> list[tuple[str, str]]:
    """The imported Mordheim books the home page lists (lists/library/listings.py), as (book, version)."""
    listings, _ = imported_listings()
    return sorted((b.id, b.version) for b in listings if b.system == "bs-mordheim")


def test_an_older_release_imported_after_a_newer_one_changes_nothing_for_new_lists(mordheim, alice):
    source = add_source("BSData/mordheim")
    release(mordheim, "v2", "2026-04-01T10:00:00Z", "11")
    update(source)
    release(mordheim, "v1", "2026-03-01T10:00:00Z", "10")  # staff check a past event's data
    assert update(source).books[0]["version"] == "r10"
    assert imported_book_keys("bs-mordheim") == [("bs-mordheim", "bs-reiklanders-1a", "r11")]
    assert offered() == ["r11"]
    assert home_listed() == [("bs-reiklanders-1a", "r11")]  # the home page too, read from the rows' columns
    # A list built on the older data is offered the newer; one on the newer, nothing.
    assert upgrade_target(load(a_list(alice, "bs-reiklanders-1a", "r10"))).version == "r11"
    assert upgrade_target(load(a_list(alice, "bs-reiklanders-1a", "r11"))) is None


def test_a_revision_going_down_at_a_later_date_is_the_newer_data(mordheim):
    source = add_source("BSData/mordheim")
    release(mordheim, "v1", "2026-03-01T10:00:00Z", "10")
    update(source)
    release(mordheim, "v2", "2026-05-01T10:00:00Z", "9")  # Mordheim's history has 16 such steps
    update(source)
    assert offered() == ["r9"]


def test_a_renamed_catalogue_is_the_same_book_and_its_lists_get_the_upgrade(mordheim, alice):
    source = add_source("BSData/mordheim")
    release(mordheim, "v1", "2026-03-01T10:00:00Z", "10")
    update(source)
    army_list = a_list(alice, "bs-reiklanders-1a", "r10")
    release(mordheim, "v2", "2026-04-01T10:00:00Z", "11", name=b"Reikland Mercenaries")
    version = update(source)
    assert version.books[0]["book"] == "bs-reikland-mercenaries-1a"
    assert renamed_books("bs-mordheim") == {("bs-mordheim", "bs-reiklanders-1a"): "bs-reikland-mercenaries-1a"}
    # New lists are offered the book under its new name only.
    assert [key for key in imported_book_keys("bs-mordheim")] == [
        ("bs-mordheim", "bs-reikland-mercenaries-1a", "r11")]
    assert home_listed() == [("bs-reikland-mercenaries-1a", "r11")]
    loaded = load(army_list)
    target = upgrade_target(loaded)
    assert (target.id, target.version, target.name) == ("bs-reikland-mercenaries-1a", "r11",
                                                         "Reikland Mercenaries (1a)")
    shown = preview(loaded, target)
    assert shown.problem == "" and (shown.roster.book, shown.roster.book_version) == ("bs-reikland-mercenaries-1a",
                                                                                       "r11")


@pytest.mark.skipif(not NR_T9A.is_file(), reason=f"New Recruit's T9A history is not at {NR_T9A}")
def test_import_nr_t9a_at_an_older_date_changes_nothing_for_new_lists():
    call_command("import_nr_t9a", str(NR_T9A), "--at", "2026-04-10", "-v", "0", stdout=io.StringIO())
    newer = dict(((book, version) for _, book, version in imported_book_keys("t9a-2")))
    call_command("import_nr_t9a", str(NR_T9A), "--at", "2026-02-13", "-v", "0", stdout=io.StringIO())
    assert dict(((book, version) for _, book, version in imported_book_keys("t9a-2"))) == newer
    assert all("@2026-04-" in version for version in newer.values()), newer
