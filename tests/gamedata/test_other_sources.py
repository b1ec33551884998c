"""Sources that are not a BattleScribe repository: an https zip URL (its version is the archive's
SHA-256), and Old World Builder's data through import_owb's path."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from armylists.gamedata.sources import add_source
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
