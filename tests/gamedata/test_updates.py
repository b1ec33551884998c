"""An update fetches the latest release (else the default branch's head) and imports it as a new version
beside the old ones, through the BattleScribe importer; a failure stores no rules file and says why."""
from __future__ import annotations

import datetime as dt
import threading

import pytest

from armylists.gamedata.sources import add_source, hold, release_hold
from armylists.gamedata.updating import Busy, current, update
from armylists.models import BattleScribeDocument, BookGameData, GameDataSource, GameDataVersion, RulesFile
from tests.fake_github import Repo, zip_of
from tests.gamedata.conftest import SHA

BOOKS = [{"system": "bs-mordheim", "book": "bs-reiklanders-1a", "version": "r10", "name": "Reiklanders (1a)"}]
DATE = dt.datetime(2026, 3, 4, 5, 6, 7, tzinfo=dt.timezone.utc)
STORED = [("book", "bs-mordheim", "bs-reiklanders-1a", "r10"), ("system", "bs-mordheim", "bs-mordheim", "r16")]


def stored() -> list[tuple]:
    return sorted(RulesFile.objects.values_list("kind", "system", "slug", "version"))


@pytest.mark.django_db
class TestUpdates:
    def test_it_imports_the_latest_release_with_what_it_stored_and_skipped(self, mordheim, network):
        source = add_source("BSData/mordheim", maps_to="mordheim")
        version = update(source)
        source.refresh_from_db()
        assert (version.ref, version.ref_kind, version.date, version.status, version.kind) == \
            ("v1.0", "release", DATE, "ok", "battlescribe")
        assert version.systems == ["bs-mordheim r16"] and version.books == BOOKS
        assert version.message == "1 books; 2 files new, 0 unchanged."
        # The added errors and the name modifiers are evaluated by the tree evaluator (issue 21 item 6).
        assert version.coverage == {"constraints": {"total": 57, "checked": 57},
                                    "modifiers": {"total": 22, "checked": 22, "display_only": 6},
                                    "checked_percent": 100.0, "books": {"bs-reiklanders-1a": 100.0}}
        assert [(s["what"], s["count"]) for s in version.skipped] == [("link to an entry no file defines", 164)]
        assert version.skipped[0]["why"].startswith("our engine does not check it (e.g. Reiklanders (1a) > ")
        assert (source.kind, source.busy_since, source.last_message) == \
            ("battlescribe", None, "Imported release v1.0: 1 books; 2 files new, 0 unchanged.")
        assert stored() == STORED
        # The book's game data for the tree evaluator is kept with it, as import_battlescribe keeps it.
        kinds = dict(BattleScribeDocument.objects.values_list("digest", "kind"))
        assert [(g.book.slug, [kinds[d] for d in g.documents]) for g in BookGameData.objects.all()] == [
            ("bs-reiklanders-1a", ["system", "catalogue"])]
        assert set(network.connected) == {"127.0.0.1"}

    def test_a_repository_without_a_release_gives_its_default_branchs_head(self, hub, mordheim_zip):
        hub.repos["BSData/mordheim"] = Repo(archive=mordheim_zip, release=None, branch="master")
        version = update(add_source("BSData/mordheim"))
        assert (version.ref, version.ref_kind, version.date, version.status) == (SHA, "commit", DATE, "ok")
        assert hub.asked == ["/repos/BSData/mordheim/releases/latest", "/repos/BSData/mordheim",
                             "/repos/BSData/mordheim/commits/master", f"/repos/BSData/mordheim/zipball/{SHA}",
                             f"/archives/BSData~mordheim@{SHA}.zip"]
        assert GameDataSource.objects.get().last_message == \
            "Imported commit 0123456789ab: 1 books; 2 files new, 0 unchanged."

    def test_the_same_release_again_is_already_current_and_downloads_nothing(self, mordheim, hub):
        source = add_source("BSData/mordheim")
        update(source)
        hub.asked.clear()
        assert update(source) is None
        assert hub.asked == ["/repos/BSData/mordheim/releases/latest"]
        assert GameDataSource.objects.get().last_message == "Already current: release v1.0."
        assert GameDataVersion.objects.count() == 1

    def test_a_new_release_is_a_new_version_beside_the_old_and_a_hold_keeps_the_old(self, mordheim):
        source = add_source("BSData/mordheim")
        first = update(source)
        mordheim.release = "v1.1"
        second = update(source)
        assert (second.ref, second.message) == ("v1.1", "1 books; 0 files new, 2 unchanged.")
        assert current(GameDataSource.objects.get()) == second
        assert hold(source, "v1.0") == first
        assert current(GameDataSource.objects.get()) == first
        release_hold(source)
        assert current(GameDataSource.objects.get()) == second
        assert stored() == STORED

    def test_a_version_is_never_changed(self, mordheim):
        version = update(add_source("BSData/mordheim"))
        version.message = "changed"
        with pytest.raises(ValueError, match="a game data version is never changed once stored"):
            version.save()

    def test_a_failed_download_stores_nothing_and_says_why(self, mordheim, hub):
        mordheim.archive_status = 500
        version = update(add_source("BSData/mordheim"))
        reason = f"{hub.url}/archives/BSData~mordheim@v1.0.zip answered 500 Internal Server Error"
        assert (version.status, version.message, version.books) == ("failed", reason, [])
        assert GameDataSource.objects.get().last_message == f"Failed at release v1.0: {reason}"
        assert current(GameDataSource.objects.get()) is None
        assert stored() == []

    def test_an_unknown_repository_is_a_failed_check_with_no_version(self, hub):
        update(add_source("nobody/nothing"))
        assert GameDataSource.objects.get().last_message == "Failed: GitHub has no repository nobody/nothing"
        assert GameDataVersion.objects.count() == 0

    def test_data_of_no_known_kind_is_refused_naming_the_kinds(self, hub):
        hub.repos["someone/notes"] = Repo(archive=zip_of({"README.md": b"hello"}, "someone-notes-1"), release="v1")
        version = update(add_source("someone/notes"))
        assert version.status == "failed"
        assert version.message == (
            "cannot tell what kind of game data this is: it holds no BattleScribe data (.gst and .cat files); "
            "no Old World Builder's data (the-old-world-system.json or src/assets/the-old-world.json); "
            "no New Recruit T9A data (army .json files with unitstats.json). "
            "Name the kind (--kind battlescribe, owb or nr-t9a).")

    def test_a_catalogue_that_breaks_the_import_stores_nothing(self, hub, mordheim_zip):
        broken = zip_of({"Mordheim.gst": b"<gameSystem", "x.cat": b"<catalogue/>"}, "b-1")
        hub.repos["BSData/mordheim"] = Repo(archive=broken, release="v2")
        version = update(add_source("BSData/mordheim"))
        assert (version.status, version.message) == ("failed", "Nothing imported. Mordheim.gst: line 1, column 0: "
                                                               "is not well-formed XML (unclosed token: line 1, column 0)")
        assert stored() == []


@pytest.mark.django_db(transaction=True)
def test_two_updates_at_once_the_second_is_refused_and_the_first_finishes(mordheim):
    mordheim.block = threading.Event()
    source = add_source("BSData/mordheim")
    results = []
    first = threading.Thread(target=lambda: results.append(update(GameDataSource.objects.get(pk=source.pk))))
    first.start()
    assert mordheim.archive_asked.wait(10)
    with pytest.raises(Busy) as refused:
        update(source)
    assert str(refused.value) == "An update of BSData/mordheim is already running; try again when it has finished."
    mordheim.block.set()
    first.join(30)
    assert [v.ref for v in results] == ["v1.0"]
    assert GameDataSource.objects.get().busy_since is None
    assert GameDataVersion.objects.count() == 1


@pytest.mark.django_db
def test_new_lists_get_the_newest_version_unless_the_source_is_held(mordheim, hub):
    from armylists.lists.library.catalogue import imported_books
    from tests.fake_github import files_from
    from tests.gamedata.conftest import MORDHEIM, MORDHEIM_FILES

    source = add_source("BSData/mordheim")
    update(source)
    files = files_from(MORDHEIM, MORDHEIM_FILES)
    files["Reiklanders.cat"] = files["Reiklanders.cat"].replace(b'revision="10"', b'revision="11"', 1)
    mordheim.release, mordheim.archive = "v1.1", zip_of(files, "BSData-mordheim-1111111")
    assert update(source).books[0]["version"] == "r11"
    assert [(b.id, b.version) for b in imported_books()] == [("bs-reiklanders-1a", "r11")]
    hold(source, "v1.0")
    assert [(b.id, b.version) for b in imported_books()] == [("bs-reiklanders-1a", "r10")]
    release_hold(source)
    assert [(b.id, b.version) for b in imported_books()] == [("bs-reiklanders-1a", "r11")]
