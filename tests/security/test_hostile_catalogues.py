"""BattleScribe data from outside, mangled, through every door it comes in (issue 25, item 7).

A game system (.gst) and a catalogue (.cat), plain and zipped (.gstz, .catz), go to `manage.py
import_battlescribe` and, as a repository's archive from the fake GitHub on loopback, to the game-data
update. Hand-made cases (nesting thousands deep, numbers of 5,000 digits, 1e999, NaN, a lone surrogate's
character reference, NUL, duplicate ids, cycles of entry links, truncated and nested archives, the wrong
encoding) and hypothesis' changes to good files: the command imports (exit 0) or exits 2 with one line
that begins "Nothing imported.", never a traceback, and a refusal leaves every stored row as it was; the
update leaves a failed version with its reason and no rules file. Each case runs under a hang guard.
"""
from __future__ import annotations

import io
import json

import pytest
from tests.security.mangling import mangle, zipped
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import HealthCheck, given, settings, strategies as st

from armylists.gamedata.sources import add_source
from armylists.importers.battlescribe import convert, read_sources
from armylists.gamedata.updating import update
from armylists.models import GameDataVersion, RulesFile
from armylists.rules.reading.loader import content_hash
from tests.battlescribe.battlescribe_samples import GST, catalogue
from tests.fake_github import Repo, zip_of

from .hang_guard import hang_guard

pytestmark = pytest.mark.django_db
RUNS = dict(deadline=None, max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])




def nested(depth: int, inner: bytes, name: str = "knights.cat") -> bytes:
    data = zipped({name: inner})
    for _ in range(depth - 1):
        data = zipped({"again.catz": data})
    return data


CAT = catalogue()
CATALOGUE_END = "  </selectionEntries>\n</catalogue>"


def with_entries(xml: str) -> bytes:
    """The good catalogue with more root entries."""
    return CAT.replace(CATALOGUE_END, xml + CATALOGUE_END).encode()


def deep_entries(depth: int) -> str:
    opening = "".join(f'<selectionEntries><selectionEntry id="d{i}" name="D{i}" type="upgrade">' for i in range(depth))
    return ('<selectionEntry id="deep" name="Deep" type="unit"><costs><cost name="pts" typeId="pts-1" value="5"/></costs>'
            + opening + "</selectionEntry></selectionEntries>" * depth + "</selectionEntry>")


GROUP_CYCLE = """
    <selectionEntry id="looped" name="Looped" type="unit">
      <entryLinks><entryLink id="l-a" name="A" targetId="group-a" type="selectionEntryGroup"/></entryLinks>
    </selectionEntry>
  </selectionEntries>
  <sharedSelectionEntryGroups>
    <selectionEntryGroup id="group-a" name="A">
      <entryLinks><entryLink id="l-b" name="B" targetId="group-b" type="selectionEntryGroup"/></entryLinks>
    </selectionEntryGroup>
    <selectionEntryGroup id="group-b" name="B">
      <entryLinks><entryLink id="l-back" name="A again" targetId="group-a" type="selectionEntryGroup"/></entryLinks>
    </selectionEntryGroup>
  </sharedSelectionEntryGroups>
  <selectionEntries>"""
SELF_LINK = """
    <selectionEntry id="selfish" name="Selfish" type="unit">
      <entryLinks><entryLink id="l-self" name="Me" targetId="selfish" type="selectionEntry"/></entryLinks>
    </selectionEntry>"""
DUPLICATE = '\n    <selectionEntry id="knights" name="Knights Again" type="unit"/>'

# name -> the files of the run (name -> bytes); every one must be refused with exit 2.
REFUSED = {
    "a cost of 1e999": {"test.gst": GST.encode(), "knights.cat": CAT.replace('value="100"', 'value="1e999"').encode()},
    "a cost of NaN": {"test.gst": GST.encode(), "knights.cat": CAT.replace('value="100"', 'value="NaN"').encode()},
    "a constraint of 5,000 digits": {"test.gst": GST.encode(),
                                     "knights.cat": CAT.replace('value="40"', f'value="{"9" * 5000}"').encode()},
    "a revision of 5,000 digits": {"test.gst": GST.encode(), "knights.cat": CAT.replace('revision="7"', f'revision="{"9" * 5000}"').encode()},
    "a game system's revision of inf": {"test.gst": GST.replace('revision="3"', 'revision="inf"').encode(),
                                        "knights.cat": CAT.encode()},
    "a lone surrogate's reference": {"test.gst": GST.encode(), "knights.cat": CAT.replace("Test Knights", "&#xD800;").encode()},
    "a lone surrogate in CESU bytes": {"test.gst": GST.encode(),
                                       "knights.cat": CAT.encode().replace(b"Test Knights", b"\xed\xa0\x80")},
    "a NUL reference": {"test.gst": GST.encode(), "knights.cat": CAT.replace("Test Knights", "A&#0;B").encode()},
    "a NUL byte": {"test.gst": GST.encode(), "knights.cat": CAT.encode().replace(b"Test Knights", b"A\x00B")},
    "Latin-1 bytes declared UTF-8": {"test.gst": GST.encode(),
                                     "knights.cat": CAT.replace("Test Knights", "Chevaliers é").encode("latin-1")},
    "UTF-8 bytes declared UTF-16": {"test.gst": GST.encode(),
                                    "knights.cat": CAT.replace('encoding="UTF-8"', 'encoding="UTF-16"').encode()},
    "an empty catalogue file": {"test.gst": GST.encode(), "knights.cat": b""},
    "a truncated .catz": {"test.gst": GST.encode(), "knights.catz": zipped({"knights.cat": CAT.encode()})[:-30]},
    "a truncated .gstz": {"test.gstz": zipped({"test.gst": GST.encode()})[:40], "knights.cat": CAT.encode()},
    "a .catz nested four deep": {"test.gst": GST.encode(), "knights.catz": nested(4, CAT.encode())},
    "a .catz of 1,200 nested archives": {"test.gst": GST.encode(), "knights.catz": nested(1200, b"x")},
    "a .gstz holding a bomb": {"test.gstz": zipped({"test.gst": GST.encode() + b" " * (8 << 20)}),
                               "knights.cat": CAT.encode()},
    "only a game system": {"test.gst": GST.encode()},
}


def run_import(folder) -> tuple[int, str]:
    """(exit status, what was said) of import_battlescribe on `folder`, under the hang guard."""
    out = io.StringIO()
    with hang_guard(f"import_battlescribe {folder}"):
        try:
            call_command("import_battlescribe", str(folder), verbosity=0, stdout=out)
        except CommandError as exc:
            return exc.returncode, str(exc)
    return 0, out.getvalue()


def stored() -> list[tuple]:
    return sorted(RulesFile.objects.values_list("kind", "system", "slug", "version", "content_hash"))


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_import_battlescribe_refuses_each_hand_made_case_with_exit_2_and_stores_nothing(tmp_path, case):
    for name, data in REFUSED[case].items():
        (tmp_path / name).write_bytes(data)
    before = stored()
    status, message = run_import(tmp_path)
    assert (status, message.startswith("Nothing imported. ")) == (2, True), message[:300]
    assert "\n" not in message and "Traceback" not in message
    assert stored() == before


@pytest.mark.parametrize("extra, unchecked", [
    (GROUP_CYCLE, [("link that loops back to itself", "Test Knights > B > A again", 1)]),
    (SELF_LINK, [("link that loops back to itself", "Test Knights > Selfish > Me", 2)]),
], ids=["a cycle of group links", "an entry linking to itself"])
def test_a_cycle_of_entry_links_ends_and_is_reported_as_not_checked(tmp_path, extra, unchecked):
    """A link back to an entry it is inside is followed once and named, never looped over nor priced."""
    (tmp_path / "test.gst").write_bytes(GST.encode())
    (tmp_path / "knights.cat").write_bytes(with_entries(extra))
    with hang_guard("import_battlescribe over a cycle"):
        call_command("import_battlescribe", str(tmp_path), "--json", str(tmp_path / "report.json"), verbosity=0,
                     stdout=io.StringIO())
    report = json.loads((tmp_path / "report.json").read_text())
    assert [(u["kind"], u["where"], u["count"]) for u in report["books"][0]["unchecked"]
            if u["kind"] == "link that loops back to itself"] == unchecked
    assert RulesFile.objects.filter(kind="book", slug="bs-test-knights").count() == 1


def test_an_entry_with_another_entrys_id_is_a_unit_of_its_own(tmp_path):
    """Two root entries with one id: each becomes an entry by its name; the first keeps its rules."""
    (tmp_path / "test.gst").write_bytes(GST.encode())
    (tmp_path / "knights.cat").write_bytes(with_entries(DUPLICATE))
    assert run_import(tmp_path)[0] == 0
    book = RulesFile.objects.get(kind="book", slug="bs-test-knights").data
    assert sorted(e["id"] for e in book["entries"]) == ["captain", "knights", "knights-again"]


def nested_elements(count: int) -> bytes:
    """The good catalogue with `count` nested elements the schema does not have, under its root."""
    return CAT.replace("<forceEntries>", "<a>" * count + "</a>" * count + "<forceEntries>").encode()


@pytest.mark.parametrize("body, message", [
    (nested_elements(100_000), "<a>: elements nested more than 100 deep; refused"),
    (with_entries(deep_entries(5000)), "<selectionEntry id='d48'>: elements nested more than 100 deep; refused"),
])
def test_nesting_past_100_elements_is_refused_by_name_before_any_reader_recurses(tmp_path, body, message):
    """Found here: entries nested 5,000 deep reached Python's recursion limit in the reader (a RecursionError
    said as "a shape the importer does not know"). sources.MAX_XML_DEPTH: the deepest file we know is 21."""
    (tmp_path / "test.gst").write_bytes(GST.encode())
    (tmp_path / "knights.cat").write_bytes(body)
    assert run_import(tmp_path) == (2, f"Nothing imported. {tmp_path / 'knights.cat'}: {message}")
    assert not RulesFile.objects.exists()


def test_elements_nested_exactly_100_deep_are_read(tmp_path):
    """The boundary: the catalogue's root is level 1, so 99 elements under it make 100 levels."""
    good = tmp_path / "good"
    good.mkdir()
    (good / "test.gst").write_bytes(GST.encode())
    (good / "knights.cat").write_bytes(CAT.encode())
    expected = content_hash(convert(read_sources([str(good)])).books[0])
    (tmp_path / "test.gst").write_bytes(GST.encode())
    (tmp_path / "knights.cat").write_bytes(nested_elements(99))
    assert run_import(tmp_path)[0] == 0
    assert RulesFile.objects.get(kind="book", slug="bs-test-knights").content_hash == expected  # unknown: ignored
    (tmp_path / "knights.cat").write_bytes(nested_elements(100))
    assert run_import(tmp_path)[0] == 2


INSERTS = [  # what mangle() puts in
    b"\x00", b"\xff\xfe", b"&#xD800;", b"&#0;", b"1e999", b"NaN", b"9" * 5000, b"<a>" * 3000,
    b'<!DOCTYPE c [<!ENTITY a "aa">]>', b"&a;", b"PK\x03\x04", b'"', b"<", b"-1"]



# The file hypothesis changes, and how the run's files are made from it.
MANGLED = {
    ".cat": lambda m: {"test.gst": GST.encode(), "knights.cat": m(CAT.encode())},
    ".gst": lambda m: {"test.gst": m(GST.encode()), "knights.cat": CAT.encode()},
    ".catz": lambda m: {"test.gst": GST.encode(), "knights.catz": m(zipped({"knights.cat": CAT.encode()}))},
    ".gstz": lambda m: {"test.gstz": m(zipped({"test.gst": GST.encode()})), "knights.cat": CAT.encode()},
    ".catz's catalogue": lambda m: {"test.gst": GST.encode(), "knights.catz": zipped({"knights.cat": m(CAT.encode())})},
}


@pytest.mark.parametrize("kind", sorted(MANGLED))
def test_import_battlescribe_answers_every_mangled_file_with_exit_0_or_2(tmp_path_factory, kind):
    @settings(**RUNS)
    @given(data=st.data())
    def check(data):
        folder = tmp_path_factory.mktemp("mangled")
        for name, body in MANGLED[kind](lambda good: mangle(data.draw, good, INSERTS)).items():
            (folder / name).write_bytes(body)
        before = stored()
        status, message = run_import(folder)
        if status == 0:
            assert RulesFile.objects.filter(kind="book").exists()
        elif status == 1:  # an earlier example stored other content under the same revision
            assert message.startswith("Nothing imported.\nversion r") and "already loaded with other content" in message
            assert stored() == before
        else:
            assert status == 2 and message.startswith("Nothing imported. ") and "\n" not in message, message[:300]
            assert stored() == before

    check()


# --- the game-data update: a repository's archive from the fake GitHub on loopback ----------------------

def repository(files: dict[str, bytes]) -> bytes:
    return zip_of(files, "BSData-test-0123456")


HOSTILE_ARCHIVES = {
    "a truncated archive": repository({"test.gst": GST.encode(), "knights.cat": CAT.encode()})[:-40],
    "not an archive": b"<html>rate limited</html>",
    "a catalogue of NaN costs": repository({"test.gst": GST.encode(),
                                            "knights.cat": CAT.replace('value="100"', 'value="NaN"').encode()}),
    "a catalogue nested 5,000 deep": repository({"test.gst": GST.encode(), "knights.cat": with_entries(deep_entries(5000))}),
    "a catalogue with a lone surrogate": repository({"test.gst": GST.encode(),
                                                     "knights.cat": CAT.replace("Test Knights", "&#xD800;").encode()}),
    "a .catz nested four deep": repository({"test.gst": GST.encode(), "knights.catz": nested(4, CAT.encode())}),
    "a .catz of 1,200 nested archives": repository({"test.gst": GST.encode(), "knights.catz": nested(1200, b"x")}),
    "a .catz bomb": repository({"test.gst": GST.encode(),
                                "knights.catz": zipped({"knights.cat": CAT.encode() + b" " * (8 << 20)})}),
    "a member bomb": repository({"test.gst": GST.encode(), "knights.cat": CAT.encode() + b" " * (4 << 20)}),
    "a path out of the archive": zipped({"../test.gst": GST.encode(), "knights.cat": CAT.encode()}),
    "the wrong encoding": repository({"test.gst": GST.encode(),
                                      "knights.cat": CAT.replace("Test Knights", "Chevaliers é").encode("latin-1")}),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_ARCHIVES))
def test_a_hostile_archive_leaves_a_failed_version_with_its_reason_and_no_book(hub, case):
    hub.repos["BSData/test"] = Repo(archive=HOSTILE_ARCHIVES[case], release="v1")
    source = add_source("BSData/test")
    with hang_guard(f"the update of {case}"):
        version = update(source)
    assert version.status == GameDataVersion.FAILED
    assert version.message and "Traceback" not in version.message and "internal error" not in version.message
    assert (RulesFile.objects.count(), version.books) == (0, [])
    source.refresh_from_db()
    assert source.busy_since is None and source.last_message.startswith("Failed at release v1: ")


def test_the_good_repository_is_imported_so_the_refusals_above_are_the_cases(hub):
    hub.repos["BSData/test"] = Repo(archive=repository({"test.gst": GST.encode(), "knights.cat": CAT.encode()}),
                                    release="v1")
    version = update(add_source("BSData/test"))
    assert (version.status, [b["book"] for b in version.books]) == (GameDataVersion.OK, ["bs-test-knights"])


def updated(hub, files: dict[str, bytes]) -> GameDataVersion:
    hub.repos["BSData/test"] = Repo(archive=repository(files), release="v1")
    with hang_guard("the update"):
        return update(add_source("BSData/test"))


def test_an_update_checks_the_ratio_of_every_member_whatever_its_size(hub):
    """Issue 25, item 1: the game-data unpacker checked the ratio only past 1 MiB; 512 kB of spaces pack ~1,000 times."""
    version = updated(hub, {"test.gst": GST.encode(), "knights.cat": CAT.encode() + b" " * (512 << 10)})
    times = version.message.split(" unpacks ")[1].split()[0]
    assert (version.status, version.message) == (
        GameDataVersion.FAILED, f"BSData-test-v1.zip!BSData-test-0123456/knights.cat: unpacks {times} times its packed "
                                "size, more than 100: a zip bomb; refused")
    assert int(times) > 100
    assert not RulesFile.objects.exists()


def test_an_updates_archive_is_the_first_level_of_nesting_as_import_battlescribe_counts_it(hub):
    """The repository (1) holding a .catz (2) holding a zip (3) is read; one zip more (4) is refused."""
    version = updated(hub, {"test.gst": GST.encode(), "knights.catz": nested(2, CAT.encode())})
    assert (version.status, [b["book"] for b in version.books]) == (GameDataVersion.OK, ["bs-test-knights"])
    hub.repos["BSData/test"].archive = repository({"test.gst": GST.encode(), "knights.catz": nested(3, CAT.encode())})
    hub.repos["BSData/test"].release = "v2"
    with hang_guard("the update"):
        version = update(version.source)
    assert version.status == GameDataVersion.FAILED
    assert version.message == ("Nothing imported. knights.catz!again.catz!again.catz: archives nested more than 3 deep; "
                               "refused")
    assert RulesFile.objects.filter(kind="book").count() == 1


def test_an_update_has_one_budget_for_the_download_and_the_archives_in_it(hub, monkeypatch):
    """Scaled down: the repository's own bytes and its .catz's together pass the run's budget."""
    from django.conf import settings as site_settings
    monkeypatch.setattr(site_settings, "GAME_DATA_MAX_UNPACKED", len(GST) + len(CAT) + 100)
    version = updated(hub, {"test.gst": GST.encode(), "knights.catz": zipped({"knights.cat": CAT.encode()}),
                            "more.catz": zipped({"more.cat": CAT.encode()})})
    assert version.status == GameDataVersion.FAILED
    assert version.message.endswith("unpacking it would pass " f"{len(GST) + len(CAT) + 100} bytes, the most one game data "
                                    "update may unpack (every file and nested archive counted); refused"), version.message
    assert not RulesFile.objects.exists()


def test_names_of_5000_characters_make_ids_the_database_stores(tmp_path):
    """Found on PostgreSQL by hypothesis: 5,000 digits in a game system's name made its id 5,000 characters
    long; PostgreSQL refused the row (varchar(80)) and the command said "has migrate been run?", exit 1.
    An id is now cut to 80 characters and ends with a short hash, so two long names stay apart."""
    long_name = "Test " + "9" * 5000
    (tmp_path / "test.gst").write_bytes(GST.replace('name="Test Battles"', f'name="{long_name} A"').encode())
    (tmp_path / "knights.cat").write_bytes(CAT.replace('name="Test Knights"', f'name="{long_name} A"').encode())
    (tmp_path / "more.cat").write_bytes(CAT.replace('name="Test Knights"', f'name="{long_name} B"')
                                        .replace('id="cat-1"', 'id="cat-2"').encode())
    assert run_import(tmp_path)[0] == 0
    rows = sorted(RulesFile.objects.values_list("kind", "system", "slug"))
    prefix = "bs-test-" + "9" * 63
    assert [(kind, len(system), len(slug), slug[:71]) for kind, system, slug in rows] == [
        ("book", 80, 80, prefix), ("book", 80, 80, prefix), ("system", 80, 80, prefix)]
    assert len({slug for _, _, slug in rows}) == 2  # the two books apart; the system's id is its own
