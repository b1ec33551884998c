"""Hostile archives (issue 25, item 1): one budget per request or import run across every nested archive,
the ratio checked for every member, at most 3 archives deep, a .rosz read as one roster and nothing else;
the API, the import page, an event upload and import_battlescribe each refuse with the exact message,
quickly, and store nothing. The archives are built here, in memory; the budget's limits are scaled down
(`archives.LIMITS`) except where a test says it uses the real ones."""
from __future__ import annotations

import functools
import io
import random
import time
import zipfile
from datetime import timedelta

import pytest
from tests.security.mangling import zipped
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import timezone

from armylists.models import ArmyList, Event, RulesFile, Submission
from armylists.rules.reading import archives
from armylists.rules.reading.archives import ArchiveError, Limits, unpack, unpack_budget

from tests.battlescribe.battlescribe_samples import GST, catalogue
from tests.battlescribe.test_battlescribe_rosters import BOOK, SYSTEM, ros

MiB = 1 << 20
FAST = 1.0  # seconds: every refusal here is judged from a directory or within a few levels (measured: < 0.1 s)
NOT_A_ROSZ = "holds 5 files; a roster archive (.rosz) holds one roster and nothing else; refused"
TOO_DEEP = "archives nested more than 3 deep; refused"




@functools.cache
def one_mib_catalogues(count: int) -> bytes:
    """A .catz of `count` catalogues of 1 MiB each, packed about 600 times (the attacker's members)."""
    body = b'<catalogue id="x" name="y">' + b"<entry/>" * (MiB // 8)
    body = body[:MiB - 12] + b"</catalogue>"
    return zipped({f"c{i}.cat": body for i in range(count)}, level=9)


@functools.cache
def attack(count: int = 250) -> bytes:
    """The attacker's .rosz: a roster and four .catz of `count` one-MiB catalogues (1 GiB with 250)."""
    return zipped({"army.ros": b"<roster/>", **{f"x{i}.catz": one_mib_catalogues(count) for i in range(4)}},
                  zipfile.ZIP_STORED)


@functools.cache
def nested(depth: int, name: str, inner: bytes = b"<roster/>") -> bytes:
    """`depth` zips each holding the next as `name` (stored: 1,200 levels are 170 kB), the last `inner`."""
    data = zipped({"army.ros": inner}, zipfile.ZIP_STORED)
    for _ in range(depth - 1):
        data = zipped({name: data}, zipfile.ZIP_STORED)
    return data


def noise(size: int, seed: int = 0) -> bytes:
    """Hex that packs about twice: nowhere near a bomb, so only the budget stops it."""
    return random.Random(seed).randbytes(size // 2).hex().encode()


def packed_near_limit(size: int) -> bytes:
    """`size` bytes that deflate to just over 1/95 of it: under the 100 times ratio, yet small on disk."""
    head = random.Random(size).randbytes(size // 95)
    return head + b" " * (size - len(head))


@pytest.fixture
def warm(client):
    """The site's first request imports every view (half a second): not the archive's time."""
    client.get("/")


@pytest.fixture
def scaled(monkeypatch):
    """Limits small enough to pass in a test that stays fast: 100,000 bytes and 6 files in all."""
    monkeypatch.setitem(archives.LIMITS, "request", Limits(total_bytes=100_000, members=6, scope="one upload"))
    monkeypatch.setitem(archives.LIMITS, "run", Limits(total_bytes=100_000, members=6, scope="one import run"))


def passed(started: float) -> float:
    seconds = time.perf_counter() - started
    assert seconds < FAST, f"took {seconds:.2f} s"
    return seconds


# --- the reader itself ----------------------------------------------------------------------------------------

def test_one_budget_covers_every_nested_archive(scaled):
    repo = zipped({"a.catz": zipped({"a.cat": noise(60_000)}), "b.catz": zipped({"b.cat": noise(60_000, 1)})})
    assert [w for w, _ in unpack(zipped({"a.catz": zipped({"a.cat": noise(60_000)})}), "one.zip",
                                 member_bytes=MiB)] == ["one.zip!a.catz!a.cat"]  # each alone fits
    with pytest.raises(ArchiveError) as caught:
        list(unpack(repo, "repo.zip", member_bytes=MiB))
    assert str(caught.value) == ("repo.zip!b.catz: unpacking it would pass 100000 bytes, the most one upload may "
                                 "unpack (every file and nested archive counted); refused")


def test_files_count_across_nested_archives_and_across_calls_in_one_budget(scaled):
    three = zipped({f"{i}.cat": b"<c/>" for i in range(3)})
    assert len(list(unpack(zipped({"a.catz": three}), "a.zip", member_bytes=MiB))) == 3  # 4 files: within 6
    with unpack_budget("request") as budget:
        list(unpack(zipped({"a.catz": three}), "a.zip", member_bytes=MiB))
        with pytest.raises(ArchiveError) as caught:
            list(unpack(zipped({"b.catz": three}), "b.zip", member_bytes=MiB))
    assert budget.members == 8
    assert str(caught.value) == ("b.zip!b.catz: unpacking it would pass 6 files, the most one upload may unpack (every "
                                 "file and nested archive counted); refused")


def test_the_ratio_is_checked_for_every_member_whatever_its_size():
    small = zipped({"army.ros": b"<roster>" + b" " * 100_000 + b"</roster>"})  # 100 kB, under the old 1 MiB floor
    with pytest.raises(ArchiveError) as caught:
        list(unpack(small, "small.rosz", member_bytes=MiB, one_file=True))
    assert str(caught.value) == ("small.rosz!army.ros: unpacks 757 times its packed size, more than 100: a zip bomb; "
                                 "refused")


def test_three_archives_deep_are_read_and_the_fourth_is_refused():
    assert [w for w, _ in unpack(nested(3, "n.zip"), "x.rosz", member_bytes=MiB, one_file=True)] == [
        "x.rosz!n.zip!n.zip!army.ros"]
    with pytest.raises(ArchiveError) as caught:
        list(unpack(nested(4, "n.zip"), "x.rosz", member_bytes=MiB, one_file=True))
    assert str(caught.value) == f"x.rosz!n.zip!n.zip!n.zip: {TOO_DEEP}"


def test_a_member_is_capped_from_the_directory_and_never_read_whole():
    with pytest.raises(ArchiveError) as caught:
        list(unpack(zipped({"army.ros": noise(5000)}), "big.rosz", member_bytes=4096, one_file=True))
    assert str(caught.value) == "big.rosz!army.ros: unpacks to 5000 bytes; at most 4096"


def test_a_directory_that_understates_a_member_gives_no_more_than_it_says():
    data = bytearray(zipped({"army.ros": noise(5000)}, zipfile.ZIP_STORED))
    central = data.rindex(b"PK\x01\x02")
    data[central + 24:central + 28] = (100).to_bytes(4, "little")  # the directory says 100 bytes
    with pytest.raises(ArchiveError) as caught:
        list(unpack(bytes(data), "liar.rosz", member_bytes=MiB, one_file=True))
    assert str(caught.value) == "liar.rosz!army.ros: cannot be unpacked (Bad CRC-32 for file 'army.ros')"


# --- the real limits ------------------------------------------------------------------------------------------

def test_the_real_limits_refuse_the_attackers_rosz_from_its_directory():
    started = time.perf_counter()
    with pytest.raises(ArchiveError) as caught:
        list(unpack(attack(), "attack.rosz", member_bytes=8 * MiB, one_file=True))
    passed(started)
    assert str(caught.value) == f"attack.rosz: {NOT_A_ROSZ}"


def test_the_real_limits_refuse_a_repository_past_256_mib_before_unpacking_any_of_it():
    member = packed_near_limit(MiB)
    repo = zipped({f"c{i}.cat": member for i in range(257)})
    assert len(repo) < 4 * MiB  # 257 MiB inside
    started = time.perf_counter()
    with pytest.raises(ArchiveError) as caught:
        list(unpack(repo, "repo.zip", member_bytes=32 * MiB, kind="run"))
    passed(started)
    assert str(caught.value) == ("repo.zip: unpacking it would pass 256 MiB, the most one import run may unpack "
                                 "(every file and nested archive counted); refused")


# --- every way in ---------------------------------------------------------------------------------------------

def api_import(api_alice, data: bytes):
    started = time.perf_counter()
    response = api_alice.post("/api/v1/lists/import/", data, content_type="application/zip")
    return response, passed(started)


@pytest.mark.django_db
@pytest.mark.parametrize("data, message", [
    (lambda: attack(60), f"roster: {NOT_A_ROSZ}"),  # 60 catalogues a .catz: the API takes 512 kB at most
    (lambda: nested(1200, "n.zip"), f"roster!n.zip!n.zip!n.zip: {TOO_DEEP}"),
    (lambda: zipped({"army.ros": b"<roster>" + b" " * 100_000 + b"</roster>"}),
     "roster!army.ros: unpacks 757 times its packed size, more than 100: a zip bomb; refused"),
], ids=["extra members", "1200 deep", "small bomb"])
def test_the_api_refuses_with_a_400_and_stores_nothing(warm, api_alice, data, message):
    data = data()
    response, _ = api_import(api_alice, data)
    assert response.status_code == 400, response.content
    assert response.json() == {"error": {"status": 400, "code": "invalid", "message": f"roster: {message}",
                                         "fields": [{"path": "roster", "message": message}]}}
    assert ArmyList.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize("name, data, message", [
    ("attack.rosz", lambda: attack(), f"attack.rosz: {NOT_A_ROSZ}"),
    ("deep.rosz", lambda: nested(1200, "n.zip"), f"deep.rosz!n.zip!n.zip!n.zip: {TOO_DEEP}"),
], ids=["the attacker's 1 GiB", "1200 deep"])
def test_the_import_page_refuses_with_a_400_and_stores_nothing(warm, client, alice, name, data, message):
    client.force_login(alice)
    data = data()
    started = time.perf_counter()
    response = client.post(reverse("list-import"), {"file": SimpleUploadedFile(name, data)})
    passed(started)
    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [message]
    assert ArmyList.objects.count() == 0


@pytest.fixture
def imported(tmp_path):
    (tmp_path / "test.gst").write_text(GST)
    (tmp_path / "knights.cat").write_text(catalogue())
    call_command("import_battlescribe", str(tmp_path), verbosity=0)


@pytest.fixture
def event(alice):
    return Event.objects.create(organiser=alice, name="Roster cup", date=timezone.now().date(), system=SYSTEM,
                                books=[BOOK], points_limit=2000, deadline=timezone.now() + timedelta(days=3))


def upload(client, event, files: dict[str, bytes]):
    started = time.perf_counter()
    response = client.post(reverse("event-upload", args=[event.pk]),
                           {"files": [SimpleUploadedFile(n, d) for n, d in files.items()], "team": ""})
    passed(started)
    return response


@pytest.mark.django_db
def test_an_event_upload_refuses_each_hostile_file_and_stores_nothing(warm, client, alice, event):
    client.force_login(alice)
    response = upload(client, event, {"attack.rosz": attack(), "deep.rosz": nested(1200, "n.zip")})
    assert response.status_code == 400
    assert response.context["result"].failed == [("attack.rosz", NOT_A_ROSZ),
                                                 ("deep.rosz", f"deep.rosz!n.zip!n.zip!n.zip: {TOO_DEEP}")]
    assert Submission.objects.count() == 0


@pytest.mark.django_db
def test_an_event_uploads_files_share_one_budget(warm, client, alice, event, imported, scaled):
    padded = ros() + b"<!--" + noise(60_000) + b"-->"
    client.force_login(alice)
    one = zipped({"army.ros": padded})
    response = upload(client, event, {"ann.rosz": one, "ben.rosz": one})
    assert response.status_code == 200  # one stored: the page reports both
    assert response.context["result"].failed == [
        ("ben.rosz", "unpacking it would pass 100000 bytes, the most one upload may unpack (every file "
                     "and nested archive counted); refused")]
    assert list(Submission.objects.values_list("player_name", flat=True)) == ["ann.rosz"]


@pytest.mark.django_db
def test_an_event_upload_at_the_real_limits_stops_at_32_mib(warm, client, alice, event):
    """Five rosters of 8 MiB (the most a roster may be), packed 95 times: 88 kB each on disk."""
    roster = zipped({"army.ros": packed_near_limit(8 * MiB)})
    assert len(roster) < 100_000
    client.force_login(alice)
    response = upload(client, event, {f"p{i}.rosz": roster for i in range(5)})
    assert response.status_code == 400
    assert response.context["result"].failed[4] == (
        "p4.rosz", "unpacking it would pass 32 MiB, the most one upload may unpack (every file and nested "
                   "archive counted); refused")
    assert Submission.objects.count() == 0


def run_import(path) -> tuple[CommandError, float]:
    started = time.perf_counter()
    with pytest.raises(CommandError) as caught:
        call_command("import_battlescribe", str(path), verbosity=0)
    return caught.value, passed(started)


@pytest.mark.django_db
@pytest.mark.parametrize("members, message", [
    (lambda: {f"x{i}.catz": one_mib_catalogues(250) for i in range(4)},
     "{repo}!x0.catz!c0.cat: unpacks 660 times its packed size, more than 100: a zip bomb; refused"),
    (lambda: {"nested.catz": nested(1200, "nested.catz", GST.encode())},
     "{repo}!nested.catz!nested.catz!nested.catz: " + TOO_DEEP),
], ids=["the attacker's 1 GiB", "1200 deep"])
def test_import_battlescribe_refuses_with_exit_2_and_stores_nothing(tmp_path, members, message):
    repo = tmp_path / "repo.zip"
    repo.write_bytes(zipped({"test.gst": GST.encode(), **members()}, zipfile.ZIP_STORED))
    error, _ = run_import(repo)
    assert (error.returncode, str(error)) == (2, "Nothing imported. " + message.format(repo=repo))
    assert RulesFile.objects.count() == 0


@pytest.mark.django_db
def test_import_battlescribe_has_one_budget_for_the_whole_run(tmp_path, scaled):
    """Two archives named on one command line: each fits, both do not."""
    for name in ("a", "b"):
        (tmp_path / f"{name}.zip").write_bytes(zipped({f"{name}.cat": catalogue().encode() + b"<!--"
                                                      + noise(60_000) + b"-->"}))
    started = time.perf_counter()
    with pytest.raises(CommandError) as caught:
        call_command("import_battlescribe", str(tmp_path / "a.zip"), str(tmp_path / "b.zip"), verbosity=0)
    passed(started)
    assert str(caught.value) == (f"Nothing imported. {tmp_path / 'b.zip'}: unpacking it would pass 100000 bytes, the "
                                 f"most one import run may unpack (every file and nested archive counted); refused")
    assert RulesFile.objects.count() == 0


def test_a_directory_of_100000_entries_is_refused_before_zipfile_reads_it():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for i in range(100_000):
            archive.writestr(str(i), b"")
    started = time.perf_counter()
    with pytest.raises(ArchiveError) as caught:
        list(unpack(buffer.getvalue(), "many.rosz", member_bytes=MiB, one_file=True))
    assert passed(started) < 0.1
    assert str(caught.value) == ("many.rosz: its directory is 5088890 bytes, more than 300000 (300 for each file "
                                 "one upload may still unpack); refused")
