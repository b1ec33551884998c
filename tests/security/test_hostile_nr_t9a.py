"""New Recruit's T9A data and tournament list summaries from outside, mangled (issue 25, item 7).

`manage.py import_nr_t9a` reads a checkout folder, a zip of one, or a git bundle; every hostile form of
each (an army file or a shared file nested thousands deep, with NaN, 1e999, 5,000 digits, a lone
surrogate's escape, NUL, Latin-1 bytes, cycles of pools or mounts; a truncated, nested, bombed or
escaping zip; a bundle that is not one, a ref that is no commit) exits 2 with one line that begins
"Nothing imported.", never a traceback, and the stored rows are as they were. The summary reader
(`summary.read_list`) answers a reading or a `SummaryError` naming the field, for hand-made summaries
and any JSON value hypothesis makes. Each case runs under a hang guard.
"""
from __future__ import annotations

import io
import json
import subprocess

import pytest
from tests.security.mangling import mangle, zipped
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import HealthCheck, given, settings, strategies as st

from armylists.importers.nr_t9a.summary import SummaryError, read_list
from armylists.models import RulesFile
from tests.importers.test_import_nr_t9a import army as built_army, check_option, hero

from .hang_guard import hang_guard

RUNS = dict(deadline=None, max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])


def army_data(**changes) -> dict:
    characters = [{"name": "Characters", "refs": ["perso"], "maxPercent": 0.4, "options": [
        {"name": "Hero", "unit_id": "hero", "cost": 100, "refs": ["hero"], "options": []}]},
        {"name": "Core", "refs": ["base"], "options": [
            {"name": "Spears", "unit_id": "spears", "cost": 50, "refs": ["spears"], "options": []}]}]
    return {"name": "Test Army", "short": "ta", "version": "1", "army": [{"name": "Army", "options": characters}],
            "dictionnary": [], **changes}


GOOD = json.dumps(army_data()).encode()


def replaced(old: str, new: str) -> bytes:
    assert old.encode() in GOOD
    return GOOD.replace(old.encode(), new.encode())




def nested_zip(depth: int) -> bytes:
    data = zipped({"ta.json": GOOD})
    for _ in range(depth - 1):
        data = zipped({"more.json": data})
    return data


POOL_CYCLE = army_data(dictionnary=[{"refs": ["ench"], "options": [check_option("Again", optionsDict=["ench"])]}])
POOL_CYCLE["army"][0]["options"][0]["options"][0]["options"] = [
    {"optionsLabel": "Weapon", "maxSize": 1, "options": [check_option("Blade", optionsDict=["ench"])]}]
MOUNT_CYCLE = army_data()
MOUNT_CYCLE["army"][0]["options"][0]["options"][0]["options"] = [
    {"type": "group", "optionsLabel": "Mount", "maxSize": 1, "options": [check_option("Ride", refopt="m1")]}]
MOUNT_CYCLE["army"][0]["options"].append({"name": "Mounts", "refs": ["mounts"], "invisible": True, "options": [
    {"name": "M1", "unit_id": "m1", "cost": 0, "refs": ["m1"], "options": [check_option("On", refopt="m2")]},
    {"name": "M2", "unit_id": "m2", "cost": 0, "refs": ["m2"], "options": [check_option("Back", refopt="m1")]}]})

# special.json's Fresh Meat (a pool no army names, offered to units of several models: nr_t9a.yaml
# `offered_pools`) with a size multiplier that is no number.
SIZED = army_data(include=[102])
SIZED["army"][0]["options"][1]["options"][0]["options"] = [{"addToUnitSize": True, "minSize": 10, "maxSize": 20,
                                                            "options": [check_option("Number", 5, type="numeric")]}]
FRESH_MEAT_X = {"id": 102, "name": "special", "dictionnary": [{"refs": ["recruitingOfficer"], "options": [
    check_option("Fresh Meat", 35, maxSizeMult="x")]}]}

# name -> (the folder's files, the end of the one line the command says after "Nothing imported. ")
FOLDERS = {
    "nested 100,000 deep": ({"ta.json": b"[" * 100_000 + b"]" * 100_000}, "is nested more than 32 levels deep; refused"),
    "NaN": ({"ta.json": replaced("100", "NaN")}, "contains NaN, which is not a JSON number; refused"),
    "1e999": ({"ta.json": replaced("100", "1e999")}, "is not a finite number; refused"),
    "5,000 digits": ({"ta.json": replaced("100", "9" * 5000)}, "contains a number out of range; refused"),
    "2^53 + 1": ({"ta.json": replaced("100", str(2**53 + 1))}, "is a number out of range (at most "
                                                                "9007199254740992 either side of zero); refused"),
    "a lone surrogate": ({"ta.json": replaced('"Hero"', '"\\ud800"')}, "contains a lone UTF-16 surrogate \\ud800 "
                                                                       "(at position 0), which is not text; refused"),
    "NUL": ({"ta.json": replaced('"Hero"', '"A\\u0000"')}, "contains a NUL character (at position 1); refused"),
    "Latin-1 bytes": ({"ta.json": replaced('"Hero"', '"H\u00e9ros"').decode().encode("latin-1")}, "not JSON ("),
    "a hostile unitstats.json": ({"ta.json": GOOD, "unitstats.json": b"{" * 50_000}, "not JSON ("),
    "a ruledefs.json of NaN": ({"ta.json": GOOD, "ruledefs.json": b'{"x": NaN}'}, "contains NaN, which is not a "
                                                                                  "JSON number; refused"),
    "a spells.json with NUL": ({"ta.json": GOOD, "spells.json": b'{"x": "\\u0000"}'}, "contains a NUL character "
                                                                                      "(at position 0); refused"),
    "a special.json nested deep": ({"ta.json": GOOD, "special.json": b'{"a":' * 40 + b"1" + b"}" * 40},
                                   "is nested more than 32 levels deep; refused"),
    "a cycle of pools": ({"ta.json": json.dumps(POOL_CYCLE).encode()},
                         "Test Army: a cycle of links (pool 'ench' -> pool 'ench'); refused"),
    "a cycle of mounts": ({"ta.json": json.dumps(MOUNT_CYCLE).encode()},
                          "Test Army: a cycle of links (mount 'm1' -> mount 'm2' -> mount 'm1'); refused"),
    "a version of 27 characters": ({"ta.json": json.dumps(army_data(version="v" * 27)).encode()},
                                   "Test Army: version 'vvvvvvvvvvvvvvvvvvvv'... is 41 characters; at most 40"),
    "an offered pool's size multiplier that is no number": (
        {"ta.json": json.dumps(SIZED).encode(), "special.json": json.dumps(FRESH_MEAT_X).encode()},
        "the data has a shape the importer does not know (ValueError: Invalid literal for Fraction: 'x')"),
    "no army": ({"ta.json": b"[]"}, "no army file (a JSON file with `name` and an `army` tree) was read"),
    "an army that is text": ({"ta.json": json.dumps(army_data(army="x")).encode()}, "the data has a shape the "
                                                                                     "importer does not know ("),
    "no JSON at all": ({"README.md": b"hello"}, "no JSON files (a checkout of vflam/nr-t9a holds de.json, dh.json, ...)"),
}


def run(*args) -> tuple[int, str]:
    out = io.StringIO()
    with hang_guard(f"import_nr_t9a {args}"):
        try:
            call_command("import_nr_t9a", *map(str, args), verbosity=0, stdout=out)
        except CommandError as exc:
            return exc.returncode, str(exc)
    return 0, out.getvalue()


def stored() -> list[tuple]:
    return sorted(RulesFile.objects.values_list("kind", "system", "slug", "version", "content_hash"))


def refused(*args) -> str:
    before = stored()
    status, message = run(*args)
    assert status == 2 and message.startswith("Nothing imported. "), (status, message[:300])
    assert "\n" not in message and "Traceback" not in message
    assert stored() == before
    return message


@pytest.mark.django_db
def test_the_good_folder_is_imported_so_the_refusals_below_are_the_cases(tmp_path):
    (tmp_path / "ta.json").write_bytes(GOOD)
    assert run(tmp_path)[0] == 0
    assert sorted(RulesFile.objects.values_list("kind", "slug")) == [("book", "test-army"), ("system", "t9a-2")]


@pytest.mark.django_db
@pytest.mark.parametrize("case", sorted(FOLDERS))
def test_a_hostile_folder_exits_2_naming_why_and_stores_nothing(tmp_path, case):
    files, ending = FOLDERS[case]
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    message = refused(tmp_path)
    assert ending in message, message


@pytest.mark.django_db
def test_a_version_of_26_characters_is_stored_on_every_database(tmp_path):
    """The boundary of RulesFile.version (40 characters): the data's version, "@" and the date (11), the
    converter's revision (".i7"). Found on the way: a longer one was refused by PostgreSQL as "the database
    cannot be written", exit 1. (New Recruit's own are 3 to 11 characters: "3rd ed", "2023 alpha3".)"""
    (tmp_path / "ta.json").write_text(json.dumps(army_data(version="v" * 26)))
    assert run(tmp_path)[0] == 0
    assert len(RulesFile.objects.get(kind="book").version) == 40


@pytest.mark.django_db
def test_duplicate_unit_ids_end_in_an_answer(tmp_path):
    data = army_data()
    data["army"][0]["options"][1]["options"].append(dict(data["army"][0]["options"][1]["options"][0], name="Spears"))
    (tmp_path / "ta.json").write_text(json.dumps(data))
    before = stored()
    status, message = run(tmp_path)
    assert status in (0, 2), message
    assert stored() == before if status else RulesFile.objects.filter(kind="book", slug="test-army").exists()


ZIPS = {
    "truncated": (zipped({"ta.json": GOOD})[:-30], "not a readable zip archive"),
    "a member bomb": (zipped({"ta.json": GOOD + b" " * (4 << 20)}), "times its packed size, more than 100: a zip bomb; "
                                                                     "refused"),
    "a file over 16 MiB": (zipped({"ta.json": b" " * ((16 << 20) + 1)}),
                           "checkout.zip!ta.json: unpacks to 16777217 bytes; at most 16777216"),
    "nested four deep": (nested_zip(4), "archives nested more than 3 deep; refused"),
    "nested 1,200 deep": (nested_zip(1200), "archives nested more than 3 deep; refused"),
    "a path out of it": (zipped({"../ta.json": GOOD}), "the archive names a path outside itself; refused"),
    "two files of one name": (zipped({"a/ta.json": GOOD, "b/ta.json": GOOD}), "a second file named ta.json; refused"),
    "no JSON": (zipped({"README.md": b"hello"}), "the archive holds no JSON files"),
    "an army of NaN": (zipped({"ta.json": replaced("100", "NaN")}), "contains NaN, which is not a JSON number; refused"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", sorted(ZIPS))
def test_a_hostile_zip_of_a_checkout_exits_2_naming_why_and_stores_nothing(tmp_path, case):
    data, ending = ZIPS[case]
    (tmp_path / "checkout.zip").write_bytes(data)
    message = refused(tmp_path / "checkout.zip")
    assert ending in message, message


@pytest.mark.django_db
def test_a_zip_of_a_checkout_nested_three_deep_is_read(tmp_path):
    """The boundary of the archive reader's depth (rules/archives.MAX_DEPTH): three archives are read."""
    (tmp_path / "checkout.zip").write_bytes(nested_zip(3))
    status, said = run(tmp_path / "checkout.zip", "--check")
    assert (status, said.splitlines()[-1]) == (0, "1 books are good; nothing written.")


def make_bundle(tmp_path, files: dict[str, bytes]):
    repo = tmp_path / "repo"
    repo.mkdir()
    for name, data in files.items():
        (repo / name).write_bytes(data)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    for args in (["init", "-q"], ["add", *files], ["commit", "-q", "-m", "data", "--date", "2025-03-01T12:00:00Z"],
                 ["bundle", "create", "-q", str(tmp_path / "nr.bundle"), "HEAD", "--all"]):
        subprocess.run(git + args, check=True, capture_output=True, env={"GIT_COMMITTER_DATE": "2025-03-01T12:00:00Z",
                                                                        "PATH": "/usr/bin:/bin"})
    return tmp_path / "nr.bundle"


@pytest.fixture
def bundle(tmp_path):
    return make_bundle(tmp_path, {"ta.json": GOOD})


@pytest.mark.django_db
def test_a_bundle_holding_a_blob_over_16_mib_exits_2_and_does_not_hang(tmp_path):
    """Issue 43: `git cat-file --batch` blocked writing the rest of a 16 MiB + 1 blob into a full pipe while
    the reader waited for it to exit: the command never ended. The hang guard turns a hang into a failure."""
    from armylists.importers.nr_t9a.source import MAX_FILE_BYTES
    big = b'{"x": "' + b"a" * (MAX_FILE_BYTES - 8) + b'"}'  # 16 MiB + 1 byte
    path = make_bundle(tmp_path, {"big.json": big, "ta.json": GOOD})
    blob = subprocess.run(["git", "-C", str(tmp_path / "repo"), "rev-parse", "HEAD:big.json"], check=True,
                          capture_output=True).stdout.decode().strip()
    assert refused(path) == f"Nothing imported. blob {blob} is {MAX_FILE_BYTES + 1} bytes; at most {MAX_FILE_BYTES} are read"


@pytest.mark.django_db
def test_a_bundle_blob_of_exactly_16_mib_is_read(tmp_path):
    """The boundary: 16 MiB is read whole (and then judged as JSON: here it is no army, so nothing is imported)."""
    from armylists.importers.nr_t9a.source import MAX_FILE_BYTES
    path = make_bundle(tmp_path, {"big.json": b'{"x": "' + b"a" * (MAX_FILE_BYTES - 9) + b'"}', "ta.json": GOOD})
    status, said = run(path, "--check")
    assert (status, said.splitlines()[-1]) == (0, "1 books are good; nothing written.")


@pytest.mark.django_db
@pytest.mark.parametrize("args, ending", [
    (["--at", "nonsense"], "'nonsense' is no commit of the repository (nor a date YYYY-MM-DD)"),
    (["--at", "1900-01-01"], "no commit before 1900-01-01 (the first is of 2025-03-01)"),
])
def test_a_bad_ref_exits_2_and_stores_nothing(bundle, args, ending):
    assert run(bundle, "--check")[0] == 0  # the bundle is good
    assert refused(bundle, *args) == f"Nothing imported. {ending}"


@pytest.mark.django_db
@pytest.mark.parametrize("data", [b"# v2 git bundle\n" + b"\x00" * 100, b"\xff" * 1000, b"", b"PK\x03\x04 broken"])
def test_a_bundle_that_is_not_one_exits_2_and_stores_nothing(tmp_path, data):
    (tmp_path / "nr.bundle").write_bytes(data)
    assert refused(tmp_path / "nr.bundle").startswith("Nothing imported. ")


INSERTS = [  # what mangle() puts in
    b"\x00", b"\xff\xfe", b'"\\ud800"', b"1e999", b"NaN", b"-1", b"9" * 5000, b"[" * 5000, b"{" * 40,
    b'"', b"PK\x03\x04", b"null", b"[]", b"{}"]



@pytest.mark.django_db
@pytest.mark.parametrize("where", ["ta.json", "unitstats.json", "checkout.zip"])
def test_every_mangled_file_exits_0_or_2_and_a_refusal_stores_nothing(tmp_path_factory, where):
    @settings(**RUNS)
    @given(data=st.data())
    def check(data):
        folder = tmp_path_factory.mktemp("nr")
        if where == "checkout.zip":
            (folder / where).write_bytes(mangle(data.draw, zipped({"ta.json": GOOD}), INSERTS))
            source = folder / where
        else:
            (folder / "ta.json").write_bytes(GOOD)
            (folder / where).write_bytes(mangle(data.draw, GOOD if where == "ta.json" else b'{"units": []}', INSERTS))
            source = folder
        before = stored()
        status, message = run(source)
        if status == 0:
            assert RulesFile.objects.filter(kind="book", system="t9a-2").exists()
        elif status == 1:  # an earlier example stored other content under the same version
            assert "already loaded with other content" in message and stored() == before
        else:
            assert status == 2 and message.startswith("Nothing imported. ") and "\n" not in message, message[:300]
            assert stored() == before

    check()


# --- the summary reader ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def book():
    spears = {"name": "Spears", "unit_id": "spears", "cost": -30, "refs": ["spears"], "options": [
        {"minSize": 15, "maxSize": 35, "addToUnitSize": True, "options": [{"name": "Number", "type": "numeric",
                                                                           "cost": 14}]},
        {"type": "group", "optionsLabel": "Weapon", "minSize": 1, "maxSize": 1, "options": [
            check_option("Hand Weapon", 0), check_option("Spear", 2)]}]}
    return built_army(characters=[hero()], core=[spears])[0]


def unit(**changes) -> dict:
    return {"name": "Spears", "cost": 252, "category": "Core", "options": [{"name": "Spear"}], **changes}


SUMMARIES = [
    ([], "the summary is not an object"),
    ({"units": "Spears"}, "units: is not a list of at most 100 units"),
    ({"units": [unit()] * 101}, "units: is not a list of at most 100 units"),
    ({"units": [5]}, "units[0]: is not an object"),
    ({"units": [unit(name=None)]}, "units[0].name: is not text"),
    ({"units": [unit(name="A\x00")]}, "units[0].name: contains a NUL character (at position 1)"),
    ({"units": [unit(name="\ud800")]}, "units[0].name: contains a lone UTF-16 surrogate \\ud800 (at position 0), "
                                       "which is not text"),
    ({"units": [unit(name="S" * 201)]}, "units[0].name: is 201 characters long; at most 200"),
    ({"units": [unit(cost=float("inf"))]}, "units[0].cost: is not a whole number from 0 to 100000"),
    ({"units": [unit(cost=float("nan"))]}, "units[0].cost: is not a whole number from 0 to 100000"),
    ({"units": [unit(cost=10**5000)]}, "units[0].cost: is not a whole number from 0 to 100000"),
    ({"units": [unit(cost=100_001)]}, "units[0].cost: is not a whole number from 0 to 100000"),
    ({"units": [unit(cost=-1)]}, "units[0].cost: is not a whole number from 0 to 100000"),
    ({"units": [unit(cost="252")]}, "units[0].cost: is not a whole number from 0 to 100000"),
    ({"units": [unit(cost=True)]}, "units[0].cost: is not a whole number from 0 to 100000"),
    ({"units": [unit(options="Spear")]}, "units[0].options: is not a list of at most 50 options"),
    ({"units": [unit(options=[{"name": "Spear"}] * 51)]}, "units[0].options: is not a list of at most 50 options"),
    ({"units": [unit(options=[["Spear"]])]}, "units[0].options[0]: is not an object"),
    ({"units": [unit(options=[{"name": 7}])]}, "units[0].options[0].name: is not text"),
    ({"units": [unit(category=["Core"])]}, "units[0].category: is not text"),
    ({"tournament_name": "\ud800", "units": []}, "tournament_name: contains a lone UTF-16 surrogate \\ud800 "
                                                 "(at position 0), which is not text"),
]


@pytest.mark.parametrize("summary, message", SUMMARIES, ids=[m for _, m in SUMMARIES])
def test_the_summary_reader_refuses_a_hostile_summary_naming_the_field(book, summary, message):
    with hang_guard("read_list"), pytest.raises(SummaryError) as caught:
        read_list(summary, book, 4500)
    assert str(caught.value) == message


def test_the_summary_reader_reads_the_bounds_themselves(book):
    """At the limits: 100 units, 50 options, a cost of 100,000, a name of 200 characters are read."""
    summary = {"units": [unit(options=[{"name": "Spear"}] * 50)] * 99 + [unit(name="S" * 200, cost=100_000)]}
    with hang_guard("read_list at the limits"):
        reading = read_list(summary, book, 4500)
    assert [(u.priced, u.cause) for u in reading.units[:1]] == [(252, "")]
    assert (reading.units[-1].cause, len(reading.document["units"])) == ("unknown-entry", 99)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["units", "name", "cost", "options",
                                                                               "category", "tournament_name"]),
                                                                 inner, max_size=5),
    max_leaves=25)


@settings(deadline=None, max_examples=60)
@given(summary=JSON_VALUES, units=st.lists(st.fixed_dictionaries({}, optional={
    "name": st.sampled_from(["Spears", "Hero", "spears", ""]) | st.text(max_size=5),
    "cost": st.integers(-5, 400) | st.floats() | st.text(max_size=3),
    "category": st.sampled_from(["Core", "Characters"]) | st.none(),
    "options": st.lists(st.fixed_dictionaries({"name": st.sampled_from(["Spear", "Hand Weapon"]) | st.text(max_size=4)}),
                        max_size=3)}), max_size=4))
def test_the_summary_reader_answers_a_reading_or_a_summary_error_for_any_json(book, summary, units):
    for value in (summary, {"units": units}):
        with hang_guard("read_list"):
            try:
                reading = read_list(value, book, 4500)
            except SummaryError as exc:
                assert str(exc)
            else:
                assert len(reading.units) == len(value.get("units", []))
