"""Game-data archives whose member names the disk cannot hold as named (issue 43, item 2): a file and a
folder of one name (`top/a.cat`, then `top/a.cat/b.cat`, and the other order), a link and then a path under
it (members are written as plain files, never as links, so that is the same clash), the same file twice, a
name of 300 characters (file systems hold 255 bytes) and a path past 4,096 bytes (Linux's PATH_MAX). Each
was an OSError traceback out of the update (exit 1) with no version recorded, though docs/game-data.md
promises a failed version with the reason; now each is refused before anything is written."""
from __future__ import annotations

import io
import os
import stat
import zipfile

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from armylists.gamedata.archives import unpack, update_limits
from armylists.gamedata.sources import add_source
from armylists.gamedata.updating import update
from armylists.models import GameDataSource, GameDataVersion, RulesFile
from armylists.rules.reading.archives import unpack_budget
from tests.battlescribe.battlescribe_samples import GST, catalogue
from tests.fake_github import Repo

from .hang_guard import hang_guard

pytestmark = pytest.mark.django_db
TOP = "BSData-test-0123456"
AT = f"BSData-test-v1.zip!{TOP}"  # how the update names a member: the download, then the path in it
GOOD = {"test.gst": GST.encode(), "knights.cat": catalogue().encode()}


def archive(*members: tuple[str, bytes] | tuple[str, bytes, int]) -> bytes:
    """GitHub's shape (one top folder), the good files first, then `members` in order; a third item is the
    member's Unix mode (a link: S_IFLNK, its body the target)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr(f"{TOP}/", b"")
        for name, body in GOOD.items():
            zipped.writestr(f"{TOP}/{name}", body)
        for name, body, *mode in members:
            info = zipfile.ZipInfo(f"{TOP}/{name}")
            if mode:
                info.create_system, info.external_attr = 3, mode[0] << 16
            zipped.writestr(info, body)
    return buffer.getvalue()


LINK = stat.S_IFLNK | 0o777
LONG_FOLDER = "d" * 200
DEEP = "/".join([LONG_FOLDER] * 21) + "/x.cat"  # 21 folders of 200 bytes: 4,227 bytes below the top folder
CASES = {
    "a file, then a file under it": (
        archive(("a.cat", b"<x/>"), ("a.cat/b.cat", b"<x/>")),
        f"{AT}/a.cat/b.cat: is under {TOP}/a.cat, which the archive holds as a file (or a link); refused"),
    "files under a folder, then a file of its name": (
        archive(("a.cat/b.cat", b"<x/>"), ("a.cat", b"<x/>")),
        f"{AT}/a.cat: the archive holds a file of this name and files under it as a folder; refused"),
    "a link, then a path under it": (
        archive(("data", b"/etc", LINK), ("data/passwd.cat", b"<x/>")),
        f"{AT}/data/passwd.cat: is under {TOP}/data, which the archive holds as a file (or a link); refused"),
    "the same file twice": (
        archive(("a.cat", b"<x/>"), ("a.cat", b"<y/>")),
        f"{AT}/a.cat: the archive holds this file twice; refused"),
    "a name of 300 characters": (
        archive(("n" * 296 + ".cat", b"<x/>")),
        f"{(AT + '/' + 'n' * 80)[:80]}...: names a file or folder of 300 bytes; at most 255; refused"),
    "a path over 4,096 bytes": (
        archive((DEEP, b"<x/>")),
        f"{(AT + '/' + LONG_FOLDER)[:80]}...: unpacks to a path of "),
}


@pytest.mark.filterwarnings("ignore:Duplicate name")
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_clashing_or_overlong_member_records_a_failed_version_with_its_reason(hub, case):
    data, message = CASES[case]
    hub.repos["BSData/test"] = Repo(archive=data, release="v1")
    source = add_source("BSData/test")
    with hang_guard(f"an update of an archive with {case}"):
        version = update(source)
    source.refresh_from_db()
    assert (version.status, version.ref, source.busy_since) == (GameDataVersion.FAILED, "v1", None)
    assert version.message.startswith(message), version.message
    assert source.last_message == f"Failed at release v1: {version.message}"
    assert RulesFile.objects.count() == 0


def test_the_path_limit_counts_bytes_on_disk_and_says_the_bound(hub):
    hub.repos["BSData/test"] = Repo(archive=CASES["a path over 4,096 bytes"][0], release="v1")
    version = update(add_source("BSData/test"))
    assert version.message.endswith(" bytes; less than 4096 is allowed; refused"), version.message
    assert int(version.message.split("a path of ")[1].split(" ")[0]) > 4096 + 21


def test_names_at_the_file_systems_bounds_are_unpacked(tmp_path):
    """The boundary: a name of 255 bytes, in a path that still fits, is unpacked (the reader on its own, so
    the importer's judgement of the files does not enter)."""
    fits = "/".join([LONG_FOLDER] * 15) + "/" + "k" * 251 + ".cat"
    with unpack_budget(limits=update_limits()):
        folder = unpack(archive((fits, b"<x/>")), tmp_path, "x.zip")
    assert folder == tmp_path / TOP and (folder / fits).read_bytes() == b"<x/>"
    assert len(os.fsencode(str(folder / fits))) < 4096


def test_the_command_fails_the_update_with_the_message_not_a_traceback(hub, capsys):
    """`game_data update` ends as any failed update does (exit 1, its documented status; before: an OSError
    out of the command) and the failed version is kept with its reason."""
    hub.repos["BSData/test"] = Repo(archive=CASES["a link, then a path under it"][0], release="v1")
    add_source("BSData/test")
    with pytest.raises(CommandError) as refused:
        call_command("game_data", "update")
    assert refused.value.returncode == 1 and "1 of 1 updates failed" in str(refused.value)
    version = GameDataSource.objects.get().versions.get()
    assert (version.status, version.message.split(": ", 1)[1]) == (
        GameDataVersion.FAILED, f"is under {TOP}/data, which the archive holds as a file (or a link); refused")
