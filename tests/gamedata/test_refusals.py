"""What the fetcher refuses, decided before any connection (and, for a scheme or a host, before any DNS
question): plain http, a host off the allow-list, a private address, a download or an archive over the
caps; and a URL is never shown with its secrets. No packet leaves 127.0.0.0/8."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from armylists.gamedata.archives import ArchiveError, unpack
from armylists.gamedata.fetching import FetchError, Policy, checked_target, shown
from armylists.gamedata.sources import add_source
from armylists.gamedata.updating import update
from armylists.models import GameDataVersion, RulesFile
from tests.fake_github import Repo, zip_of

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
        settings.GAME_DATA_MAX_FILES = 1
        message = self.refused(hub, Repo(archive=mordheim_zip, release="v1"))
        assert message == "the archive holds 2 files; at most 1 are unpacked"

    def test_an_archive_that_unpacks_over_the_cap_is_refused_before_unpacking(self, hub, settings):
        settings.GAME_DATA_MAX_UNPACKED = 100
        message = self.refused(hub, Repo(archive=zip_of({"a.gst": b"x" * 101}, "t-1"), release="v1"))
        assert message == "the archive unpacks to 101 bytes; at most 100"


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
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(name, b"<gameSystem/>")
    with pytest.raises(ArchiveError) as refused:
        unpack(buffer.getvalue(), tmp_path, 10, 1000)
    assert str(refused.value) == f"the archive names a path outside itself ({name!r}); refused"
    assert list(tmp_path.iterdir()) == []


def test_the_loopback_setting_is_refused_at_start_when_debug_is_off():
    env = {**os.environ, "DEBUG": "false", "SECRET_KEY": "x" * 50, "GAME_DATA_TEST_LOOPBACK": "true",
           "DJANGO_SETTINGS_MODULE": "armylists.settings"}
    run = subprocess.run([sys.executable, "-c", "import django; django.setup()"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert run.stderr.strip().splitlines()[-1] == ("django.core.exceptions.ImproperlyConfigured: GAME_DATA_TEST_LOOPBACK "
                                                   "is for tests only and refused when DEBUG is off")
