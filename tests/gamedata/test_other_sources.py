"""Sources that are not a BattleScribe repository: an https zip URL (its version is the archive's
SHA-256), and Old World Builder's data through import_owb's path."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from django.urls import reverse

from armylists.gamedata.sources import Refused, add_source
from armylists.lists.library import catalogue
from armylists.gamedata.updating import update
from armylists.models import GameDataSource, RulesFile
from tests.fake_github import EXTERNAL, Repo, zip_of

pytestmark = pytest.mark.django_db
OWB = EXTERNAL / "old-world-builder"


def test_a_zip_url_is_imported_once_per_archive(hub, mordheim):
    source = add_source(f"{hub.url}/archives/BSData~mordheim@v1.0.zip")
    version = update(source)
    digest = hashlib.sha256(mordheim.archive).hexdigest()
    assert (version.ref, version.ref_kind, version.date, version.status) == (digest, "archive", None, "ok")
    assert update(source) is None
    assert GameDataSource.objects.get().last_message == f"Already current: the archive is unchanged ({digest[:12]})."


def owb_files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.suffix == ".json"}


@pytest.mark.slow
def test_old_world_builders_data_is_imported_through_import_owbs_path(hub):
    if not OWB.is_dir():
        pytest.skip(f"Old World Builder's datasets are not at {OWB} (/work/shared/external)")
    hub.repos["nthiebes/old-world-builder"] = Repo(archive=zip_of(owb_files(OWB), "nthiebes-old-world-builder-abc"),
                                                   release=None)
    version = update(add_source("nthiebes/old-world-builder", maps_to="the-old-world"))
    assert (version.status, version.kind, version.ref_kind) == ("ok", "owb", "commit"), version.message
    assert len(version.books) == 18 and version.systems[0].startswith("the-old-world ")
    assert {b["system"] for b in version.books} == {"the-old-world"}
    assert RulesFile.objects.filter(kind="book").count() == 18
    assert RulesFile.objects.filter(kind="items", slug="owb-general").count() == 1
    assert all(s["why"] == "Old World Builder's data cannot say it" for s in version.skipped)


class TestMapsTo:
    """`maps_to`: BattleScribe books stay in their own imported system (their rules are the data's own),
    labelled with the system of ours they play, and the mapping is one question away (`mapped_systems`)."""

    def test_a_mapped_source_shows_its_books_under_our_systems_name(self, hub, mordheim, alice, client):
        update(add_source("BSData/mordheim", maps_to="mordheim"))
        assert catalogue.mapped_systems() == {"bs-mordheim": ("mordheim", "BSData/mordheim")}
        book = catalogue.get_book("bs-mordheim", "bs-reiklanders-1a", "r10")
        assert (book.system.id, book.system.name) == ("bs-mordheim", "Mordheim (imported data, BSData/mordheim)")
        client.force_login(alice)
        page = client.get(reverse("list-new")).content.decode()
        assert '<optgroup label="Mordheim (imported data, BSData/mordheim)">' in page
        assert client.get(reverse("api-system", args=["bs-mordheim"])).json()["name"] == \
            "Mordheim (imported data, BSData/mordheim)"

    def test_an_unmapped_source_keeps_the_datas_own_name(self, hub, mordheim):
        update(add_source("BSData/mordheim"))
        assert catalogue.mapped_systems() == {}
        # the data's own name, with the source its .gst names (a publication on github.com/BSData)
        assert catalogue.get_book("bs-mordheim", "bs-reiklanders-1a", "r10").system.name == "Mordheim (BSData)"

    def test_a_source_whose_importer_stores_into_one_system_maps_onto_that_one_only(self):
        with pytest.raises(Refused) as refused:
            add_source("vflam/nr-t9a", kind="nr-t9a", maps_to="t9a-0.11")
        assert str(refused.value) == "nr-t9a data is imported into t9a-2; it cannot map onto t9a-0.11"
        assert add_source("vflam/nr-t9a", kind="nr-t9a", maps_to="t9a-2").maps_to == "t9a-2"
        with pytest.raises(Refused) as refused:
            add_source("nthiebes/old-world-builder", kind="owb", maps_to="mordheim")
        assert str(refused.value) == "owb data is imported into the-old-world; it cannot map onto mordheim"
