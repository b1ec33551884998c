"""A book the data removed is said so (issue 38 item 2): on its page and on its lists' upgrade page, rather
than "the version new lists get". BSData's Mordheim at two releases: the first with Reiklanders and
Averlanders, the second with Averlanders only (its history removes 33 warbands so)."""
from __future__ import annotations

import pytest
from django.urls import reverse

from armylists.gamedata.removed import removed_book
from armylists.gamedata.sources import add_source
from armylists.gamedata.updating import update
from armylists.lists.library.catalogue import imported_book_keys
from tests.fake_github import files_from, zip_of
from tests.gamedata.conftest import MORDHEIM
from tests.gamedata.test_newest import a_list

pytestmark = pytest.mark.django_db
SENTENCE = ("BSData/mordheim's data of 2026-04-01 no longer has this book (it was last in its data of 2026-03-01): "
            "lists on it keep this version, and no newer one will come.")


def release(mordheim, tag: str, date: str, catalogues: list[str]) -> None:
    mordheim.release, mordheim.date = tag, date
    mordheim.archive = zip_of(files_from(MORDHEIM, ["Mordheim.gst", *catalogues]), f"BSData-mordheim-{tag}")


@pytest.fixture
def dropped(mordheim):
    """Reiklanders in the data of 2026-03-01, not in that of 2026-04-01."""
    source = add_source("BSData/mordheim")
    release(mordheim, "v1", "2026-03-01T10:00:00Z", ["Reiklanders.cat", "Averlanders.cat"])
    assert update(source).status == "ok"
    release(mordheim, "v2", "2026-04-01T10:00:00Z", ["Averlanders.cat"])
    assert [b["book"] for b in update(source).books] == ["bs-averlanders-1a"]
    return source


def test_a_book_the_newest_data_has_no_more_is_removed_and_the_others_are_not(dropped):
    found = removed_book("bs-mordheim", "bs-reiklanders-1a")
    assert (found.source, found.last_had, found.now) == ("BSData/mordheim", "2026-03-01", "2026-04-01")
    assert found.sentence == SENTENCE
    assert removed_book("bs-mordheim", "bs-averlanders-1a") is None
    assert removed_book("bs-mordheim", "bs-no-such-book") is None  # never brought by a source: not said removed


def test_an_older_date_imported_after_does_not_bring_it_back(dropped, mordheim):
    release(mordheim, "v0", "2026-02-01T10:00:00Z", ["Reiklanders.cat", "Averlanders.cat"])  # a past event's data
    assert update(dropped).status == "ok"
    assert removed_book("bs-mordheim", "bs-reiklanders-1a").now == "2026-04-01"
    release(mordheim, "v3", "2026-05-01T10:00:00Z", ["Reiklanders.cat", "Averlanders.cat"])  # the data brings it back
    update(dropped)
    assert removed_book("bs-mordheim", "bs-reiklanders-1a") is None


def test_its_page_and_its_lists_upgrade_say_it_was_removed(dropped, alice, client):
    [(_, _, version)] = [k for k in imported_book_keys("bs-mordheim") if k[1] == "bs-reiklanders-1a"]
    page = client.get(reverse("book-detail", args=["bs-mordheim", "bs-reiklanders-1a", version])).content.decode()
    assert f'<p class="message" id="book-removed">{SENTENCE}</p>' in page.replace("&#x27;", "'")
    other = client.get(reverse("book-detail", args=["bs-mordheim", "bs-averlanders-1a", "r4"]))
    assert other.status_code == 200 and 'id="book-removed"' not in other.content.decode()
    army_list = a_list(alice, "bs-reiklanders-1a", version)
    client.force_login(alice)
    upgrade = client.get(reverse("list-upgrade", args=[army_list.pk])).content.decode().replace("&#x27;", "'")
    assert f'id="upgrade-removed">Reiklanders (1a) {version}: {SENTENCE}</p>' in upgrade
    assert 'id="upgrade-none"' not in upgrade


def test_a_book_whose_file_the_newest_data_cannot_read_is_not_removed(mordheim):
    """BSData Mordheim's Pirates.cat of 2025-11 was broken: that book stays at its version, not removed."""
    source = add_source("BSData/mordheim")
    release(mordheim, "v1", "2026-03-01T10:00:00Z", ["Reiklanders.cat", "Averlanders.cat"])
    update(source)
    files = files_from(MORDHEIM, ["Mordheim.gst", "Reiklanders.cat", "Averlanders.cat"])
    files["Reiklanders.cat"] = files["Reiklanders.cat"][:300]  # cut short: not well-formed XML
    mordheim.release, mordheim.date = "v2", "2026-04-01T10:00:00Z"
    mordheim.archive = zip_of(files, "BSData-mordheim-v2")
    version = update(source)
    assert [row["book"] for row in version.skipped if row["what"] == "catalogue"] == ["Reiklanders"]
    assert removed_book("bs-mordheim", "bs-reiklanders-1a") is None


def test_the_apis_upgrade_says_it_was_removed(dropped, alice, api_alice):
    [(_, _, version)] = [k for k in imported_book_keys("bs-mordheim") if k[1] == "bs-reiklanders-1a"]
    army_list = a_list(alice, "bs-reiklanders-1a", version)
    answer = api_alice.get(f"/api/v1/lists/{army_list.pk}/upgrade/").json()
    assert (answer["offered"], answer["removed"]) == (None, SENTENCE)
    kept = a_list(alice, "bs-averlanders-1a", "r4")
    assert api_alice.get(f"/api/v1/lists/{kept.pk}/upgrade/").json()["removed"] is None
