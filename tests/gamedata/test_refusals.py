"""What the fetcher refuses, decided before any connection (and, for a scheme or a host, before any DNS
question): plain http, a host off the allow-list, a private address, a download or an archive over the
caps; and a URL is never shown with its secrets. No packet leaves 127.0.0.0/8."""
from __future__ import annotations

import io
import os
import subprocess
import zipfile
import sys
from pathlib import Path

import pytest

from armylists.gamedata.archives import ArchiveError, unpack
from armylists.rules.reading.archives import Limits, unpack_budget
from armylists.gamedata.fetching import FetchError, Policy, checked_target, shown
from armylists.gamedata.sources import add_source
from armylists.gamedata.updating import update
from armylists.models import GameDataVersion, RulesFile
from tests.fake_github import Repo, files_from, zip_of
from tests.gamedata.conftest import MORDHEIM, MORDHEIM_FILES

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
class TestRefusedDownloads:
    def refused(self, hub, repo: Repo) -> str:
        hub.repos["BSData/mordheim"] = repo
        version = update(add_source("BSData/mordheim"))
        assert version.status == GameDataVersion.FAILED and RulesFile.objects.count() == 0
        return version.message

    def test_a_redirect_to_plain_http_is_refused_before_any_question(self, hub, mordheim_zip, network):
        message = self.refused(hub, Repo(archive=mordheim_zip, release="v1",
                                         redirect="http://codeload.github.com/BSData/mordheim/zip/v1"))
        assert message == "http://codeload.github.com/BSData/mordheim/zip/v1 is not an https:// address; refused"
        assert set(network.resolved) == {"127.0.0.1"} and set(network.connected) == {"127.0.0.1"}

    def test_a_redirect_to_a_host_off_the_list_is_refused_before_any_question(self, hub, mordheim_zip, network):
        message = self.refused(hub, Repo(archive=mordheim_zip, release="v1", redirect="https://evil.example/x.zip"))
        assert message == "https://evil.example/x.zip: the host evil.example is not on the allow-list (127.0.0.1); refused"
        assert "evil.example" not in network.resolved

    def test_a_host_on_the_list_that_resolves_to_a_private_address_is_never_connected_to(
            self, hub, mordheim_zip, network, settings):
        settings.GAME_DATA_HOSTS = ["127.0.0.1", "data.example"]
        network.answers["data.example"] = ["10.0.0.1"]
        message = self.refused(hub, Repo(archive=mordheim_zip, release="v1", redirect="https://data.example/x.zip"))
        assert message == "data.example resolves to 10.0.0.1, a private, loopback or reserved address; refused"
        assert "data.example" in network.resolved and set(network.connected) == {"127.0.0.1"}

    def test_a_download_over_the_cap_is_refused(self, hub, mordheim_zip, settings):
        settings.GAME_DATA_MAX_BYTES = 1000
        message = self.refused(hub, Repo(archive=mordheim_zip, release="v1"))
        assert message == (f"{hub.url}/archives/BSData~mordheim@v1.zip: the download is {len(mordheim_zip)} bytes; "
                           f"at most 1000")

    def test_an_archive_of_too_many_files_is_refused_before_unpacking(self, hub, mordheim_zip, settings):
        # The archive's directory holds 3 entries (its top folder and two files): at most 3 is unpacked.
        settings.GAME_DATA_MAX_FILES = 2
        message = self.refused(hub, Repo(archive=mordheim_zip, release="v1"))
        assert message == ("BSData-mordheim-v1.zip: unpacking it would pass 2 files, the most one game data update "
                           "may unpack (every file and nested archive counted); refused")

    def test_an_archive_of_exactly_as_many_files_as_allowed_is_imported(self, hub, mordheim_zip, settings):
        settings.GAME_DATA_MAX_FILES = 3
        hub.repos["BSData/mordheim"] = Repo(archive=mordheim_zip, release="v1")
        version = update(add_source("BSData/mordheim"))
        assert version.status == GameDataVersion.OK and len(version.books) == 1

    def test_an_archive_that_unpacks_over_the_cap_is_refused_before_unpacking(self, hub, settings):
        settings.GAME_DATA_MAX_UNPACKED = 100
        message = self.refused(hub, Repo(archive=zip_of({"a.gst": b"x" * 50, "b.cat": b"y" * 51}, "t-1"),
                                         release="v1"))
        assert message == ("BSData-mordheim-v1.zip: unpacking it would pass 100 bytes, the most one game data update "
                           "may unpack (every file and nested archive counted); refused")

    def test_a_zip_bomb_is_refused_before_unpacking(self, hub):
        # 101 times its packed size passes the reader's ratio (rules/reading/archives.py MAX_RATIO = 100).
        message = self.refused(hub, Repo(archive=zip_of({"a.gst": b"\0" * 200_000}, "t-1"), release="v1"))
        assert message.startswith("BSData-mordheim-v1.zip!t-1/a.gst: unpacks ") and \
            message.endswith("times its packed size, more than 100: a zip bomb; refused")

    def test_an_archive_inside_the_download_is_read_within_the_same_budget(self, hub, settings):
        """One budget per update: the .catz the importer opens counts with the download it came in."""
        if not MORDHEIM.is_dir():
            pytest.skip(f"BattleScribe's Mordheim data is not at {MORDHEIM}")
        files = files_from(MORDHEIM, MORDHEIM_FILES)
        inner = io.BytesIO()
        with zipfile.ZipFile(inner, "w", zipfile.ZIP_DEFLATED) as catz:
            catz.writestr("Reiklanders.cat", files.pop("Reiklanders.cat"))
        files["Reiklanders.catz"] = inner.getvalue()
        outer = sum(len(b) for b in files.values())
        settings.GAME_DATA_MAX_UNPACKED = outer + 1000  # the download fits; with the catalogue inside it, not
        message = self.refused(hub, Repo(archive=zip_of(files, "t-1"), release="v1"))
        assert message.endswith(f"unpacking it would pass {outer + 1000} bytes, the most one game data update may "
                                f"unpack (every file and nested archive counted); refused")
        assert "Reiklanders.catz" in message


POLICY = Policy(hosts=("api.github.com", "127.0.0.1"), test_loopback=False)


def test_plain_http_to_loopback_needs_the_test_setting():
    with pytest.raises(FetchError) as refused:
        checked_target("http://127.0.0.1:9/x", POLICY)
    assert str(refused.value) == "http://127.0.0.1:9/x is not an https:// address; refused"


def test_a_loopback_address_is_refused_over_https_too(monkeypatch):
    monkeypatch.setattr("armylists.gamedata.fetching.resolve", lambda host, port: ["127.0.0.1"])
    with pytest.raises(FetchError) as refused:
        checked_target("https://api.github.com/repos/a/b", POLICY)
    assert str(refused.value) == "api.github.com resolves to 127.0.0.1, a private, loopback or reserved address; refused"


def test_a_url_is_shown_without_its_user_password_or_query():
    assert shown("https://me:s3cret@api.github.com:8443/repos/a/b?access_token=s3cret#x") == \
        "https://api.github.com:8443/repos/a/b"
    with pytest.raises(FetchError) as refused:
        checked_target("https://me:s3cret@evil.example/x?token=s3cret", POLICY)
    assert "s3cret" not in str(refused.value)


@pytest.mark.parametrize("name", ["../x.gst", "/etc/x.gst", "C:x.gst"])
def test_an_archive_naming_a_path_outside_itself_is_refused(tmp_path, name):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(name, b"<gameSystem/>")
    with pytest.raises(ArchiveError) as refused, unpack_budget(limits=Limits(1000, 10, "one game data update")):
        unpack(buffer.getvalue(), tmp_path, "x.zip")
    assert str(refused.value) == f"x.zip!{name}: the archive names a path outside itself; refused"
    assert list(tmp_path.iterdir()) == []


def test_the_loopback_setting_is_refused_at_start_when_debug_is_off():
    env = {**os.environ, "DEBUG": "false", "SECRET_KEY": "x" * 50, "GAME_DATA_TEST_LOOPBACK": "true",
           "DJANGO_SETTINGS_MODULE": "armylists.settings"}
    run = subprocess.run([sys.executable, "-c", "import django; django.setup()"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert run.stderr.strip().splitlines()[-1] == ("django.core.exceptions.ImproperlyConfigured: GAME_DATA_TEST_LOOPBACK "
                                                   "is for tests only and refused when DEBUG is off")
