"""New Recruit's T9A data (kind nr-t9a) imported through import_nr_t9a's path: a version of such a source
stores the army books of The 9th Age, 2nd edition (system t9a-2) at that data version.

The archive is built at test time from the bundle in ../shared/external/new-recruit-t9a (cloned into a
temporary folder, then `git archive` of one commit's tree with three armies and the shared files, under
one top folder as GitHub's archives are), and served by the fake GitHub on loopback."""
from __future__ import annotations

import subprocess

import pytest

from armylists.gamedata.sources import add_source
from armylists.gamedata.updating import update
from armylists.importers.nr_t9a import convert, open_source
from armylists.lists.library.catalogue import get_book
from armylists.models import GameDataVersion, RulesFile
from armylists.rules.reading.data_files import content_hash
from tests.fake_github import EXTERNAL, Repo, zip_of

pytestmark = pytest.mark.django_db
BUNDLE = EXTERNAL / "new-recruit-t9a" / "nr-t9a.bundle"
COMMIT = "273623d85e29e20faf1ccb91060fd00fc79ff288"  # 2025-10-10T11:12:52+02:00 (09:12:52 UTC)
ARMIES = ["de.json", "dh.json", "ok.json"]
SHARED = ["special.json", "spells.json", "ruledefs.json", "unitstats.json"]


@pytest.fixture(scope="module")
def nr_zip(tmp_path_factory) -> bytes:
    if not BUNDLE.is_file():
        pytest.skip(f"New Recruit's T9A data is not at {BUNDLE} (/work/shared/external)")
    clone = tmp_path_factory.mktemp("nr-t9a") / "clone"
    subprocess.run(["git", "clone", "--quiet", "--bare", str(BUNDLE), str(clone)], check=True)
    out = subprocess.run(["git", "--git-dir", str(clone), "archive", "--format=zip", "--prefix=vflam-nr-t9a-273623d/",
                          COMMIT, *ARMIES, *SHARED], check=True, capture_output=True)
    return out.stdout


def test_a_version_stores_the_armies_as_t9a_2_books_at_that_data_version(hub, nr_zip):
    hub.repos["vflam/nr-t9a"] = Repo(archive=nr_zip, release=None, sha=COMMIT, date="2025-10-10T09:12:52Z")
    version = update(add_source("vflam/nr-t9a", maps_to="t9a-2"))
    assert (version.status, version.kind, version.ref, version.ref_kind) == ("ok", "nr-t9a", COMMIT, "commit"), \
        version.message
    # The same books import_nr_t9a makes of that commit (its date is the commit's, UTC), byte for byte.
    source = open_source(BUNDLE)
    try:
        expected = convert(source.at(COMMIT), armies=ARMIES)
    finally:
        source.close()
    assert [(b["system"], b["book"], b["version"]) for b in version.books] == \
        [("t9a-2", book["id"], book["version"]) for book in expected.books]
    assert {b["version"].rpartition("@")[2] for b in version.books} == {"2025-10-10.i7"}
    for book in expected.books:
        row = RulesFile.objects.get(kind="book", system="t9a-2", slug=book["id"], version=book["version"])
        assert row.content_hash == content_hash(book)
        assert get_book("t9a-2", book["id"], book["version"]).name == book["name"]
    assert version.systems == [f"t9a-2 {RulesFile.objects.get(kind='system', system='t9a-2').version}"]
    assert set(version.coverage["books"]) == {b["id"] for b in expected.books}
    assert {s["book"] for s in version.skipped} <= {b["id"] for b in expected.books}
    assert version.message == "3 books; 4 files new, 0 unchanged."


def test_the_kind_is_guessed_from_the_files(hub, nr_zip):
    hub.repos["vflam/nr-t9a"] = Repo(archive=nr_zip, release="v9", date="2025-10-10T09:12:52Z")
    version = update(add_source("vflam/nr-t9a"))
    assert (version.status, version.kind) == ("ok", "nr-t9a")


def test_data_with_no_army_stores_nothing_and_says_why(hub):
    hub.repos["vflam/nr-t9a"] = Repo(archive=zip_of({"unitstats.json": b"{}", "ruledefs.json": b"{}"}, "n-1"),
                                     release="v1")
    version = update(add_source("vflam/nr-t9a"))
    assert (version.status, version.message) == (GameDataVersion.FAILED, "Nothing imported. No army file of New "
                                                                         "Recruit's T9A data was read")
    assert RulesFile.objects.count() == 0
