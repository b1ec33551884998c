"""A version follows its content (issue 38 item 1): the same catalogue revision with other content is a
new version named by the data's date beside the revision, never a refusal; a stored list keeps its version;
a replay of content already stored changes nothing."""
from __future__ import annotations

import pytest

from armylists.gamedata.sources import add_source
from armylists.gamedata.updating import update
from armylists.lists.library.catalogue import get_book, report_for
from armylists.models import ArmyList, GameDataVersion, RulesFile
from armylists.rules import parse_roster
from tests.fake_github import files_from, zip_of
from tests.gamedata.conftest import CAPTAIN_COST, MORDHEIM, MORDHEIM_FILES

pytestmark = pytest.mark.django_db
CAPTAIN = b'name="Mercenary Captain"'


def books() -> list[tuple[str, str]]:
    return sorted(RulesFile.objects.filter(kind="book").values_list("slug", "version"))


def release(mordheim, tag: str, date: str, cost: bytes | None = None) -> None:
    """The data at `tag` of `date`: Reiklanders still at revision 10, its captain costing `cost` gc."""
    files = files_from(MORDHEIM, MORDHEIM_FILES)
    if cost is not None:
        files["Reiklanders.cat"] = files["Reiklanders.cat"].replace(
            CAPTAIN_COST[0], CAPTAIN_COST[0].replace(b'value="60"', b'value="' + cost + b'"'))
    mordheim.release, mordheim.date, mordheim.archive = tag, date, zip_of(files, f"BSData-mordheim-{tag}")


def captain_cost(version: str) -> int:
    book = get_book("bs-mordheim", "bs-reiklanders-1a", version)
    return next(e.points for e in book.entries.values() if e.name == "Mercenary Captain")


def test_other_content_under_the_same_revision_is_a_new_version_named_by_its_date(mordheim, alice):
    source = add_source("BSData/mordheim")
    update(source)
    roster = parse_roster({"format": "armylist/1", "system": "bs-mordheim", "book": "bs-reiklanders-1a",
                           "book_version": "r10", "points_limit": 500, "units": [], "name": "Reikland lads"})
    kept = ArmyList(owner=alice)
    kept.set_document(roster, report_for(roster))
    kept.save()

    release(mordheim, "v1.1", "2026-04-01T10:00:00Z", cost=b"70")
    version = update(source)
    assert version.status == GameDataVersion.OK, version.message
    assert version.books == [{"system": "bs-mordheim", "book": "bs-reiklanders-1a", "version": "r10@2026-04-01",
                              "name": "Reiklanders (1a)"}]
    assert version.message == "1 books; 1 files new, 1 unchanged."  # the game system r16 is the same
    assert books() == [("bs-reiklanders-1a", "r10"), ("bs-reiklanders-1a", "r10@2026-04-01")]
    # Each version keeps its own content: a list pinned at r10 is checked as before.
    assert (captain_cost("r10"), captain_cost("r10@2026-04-01")) == (60, 70)
    kept.refresh_from_db()
    assert (kept.book_version, kept.document["book_version"]) == ("r10", "r10")


def test_the_same_content_again_is_the_version_stored_and_another_the_same_day_is_counted(mordheim):
    source = add_source("BSData/mordheim")
    update(source)
    release(mordheim, "v1.1", "2026-04-01T10:00:00Z", cost=b"70")
    update(source)
    release(mordheim, "v1.2", "2026-04-01T18:00:00Z", cost=b"70")  # a release of the same files
    again = update(source)
    assert again.books[0]["version"] == "r10@2026-04-01" and again.message == "1 books; 0 files new, 2 unchanged."
    release(mordheim, "v1.3", "2026-04-01T20:00:00Z", cost=b"80")  # other content the same day
    third = update(source)
    assert third.books[0]["version"] == "r10@2026-04-01.2"
    release(mordheim, "v1.4", "2026-05-01T20:00:00Z")  # back to the first content: the first version
    fourth = update(source)
    assert fourth.books[0]["version"] == "r10" and fourth.message == "1 books; 0 files new, 2 unchanged."
    assert books() == [("bs-reiklanders-1a", v) for v in ("r10", "r10@2026-04-01", "r10@2026-04-01.2")]
    assert captain_cost("r10@2026-04-01.2") == 80


def test_a_catalogue_whose_file_cannot_be_read_is_left_out_and_said(mordheim):
    """BSData Mordheim's commit of 2025-11-20 has a Pirates.cat that is no XML: the rest is imported."""
    files = files_from(MORDHEIM, MORDHEIM_FILES)
    files["Pirates.cat"] = b'<catalogue name="Pirates"><?xml version="1.0"?></catalogue>'
    mordheim.archive = zip_of(files, "BSData-mordheim-2025")
    version = update(add_source("BSData/mordheim"))
    assert version.status == GameDataVersion.OK, version.message
    assert [b["book"] for b in version.books] == ["bs-reiklanders-1a"]
    assert version.skipped[0] == {
        "book": "Pirates", "name": "Pirates", "what": "catalogue", "count": 1,
        "why": "its file cannot be read (line 1, column 26: is not well-formed XML (XML or text declaration not at "
               "start of entity: line 1, column 26)); the book stays at the version this site had"}


def test_a_game_system_file_that_cannot_be_read_still_refuses_the_update(mordheim):
    files = files_from(MORDHEIM, MORDHEIM_FILES)
    files["Mordheim.gst"] = b"<gameSystem"
    mordheim.archive = zip_of(files, "BSData-mordheim-2025")
    version = update(add_source("BSData/mordheim"))
    assert version.status == GameDataVersion.FAILED and RulesFile.objects.count() == 0
    assert version.message.startswith("Nothing imported. Mordheim.gst: ")


def test_a_failed_retry_replaces_the_failure_it_retried(mordheim):
    files = files_from(MORDHEIM, MORDHEIM_FILES)
    files["Mordheim.gst"] = b"<gameSystem"
    mordheim.archive = zip_of(files, "BSData-mordheim-2025")
    source = add_source("BSData/mordheim")
    for _ in range(3):  # staff press Update three times
        update(source)
    assert list(source.versions.values_list("ref", "status")) == [("v1.0", "failed")]
    mordheim.archive = zip_of(files_from(MORDHEIM, MORDHEIM_FILES), "BSData-mordheim-2025")
    assert update(source).status == GameDataVersion.OK
    assert list(source.versions.order_by("id").values_list("ref", "status")) == [("v1.0", "failed"), ("v1.0", "ok")]
