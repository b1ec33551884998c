"""Hostile and broken New Recruit tournament summaries (issue 23, item 4): the import page, the API and
check_lists answer each with a clear message naming the field (400, or exit 2 and an unreadable row),
never a 500 or a traceback, and store nothing.

A summary is a real one of the shared file (GlennCon 2025, list 1, Ogre Khans) with one thing broken; the
book is Ogre Khans of one commit of New Recruit's data, imported in the test database (tests/importers/nr_summaries.py).
"""
from __future__ import annotations

import gzip
import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from armylists.models import ArmyList

from tests.importers.nr_summaries import COMMIT, GLENNCON, needs_data, store, summary

pytestmark = [needs_data, pytest.mark.django_db]

HOW = ("ask the site's administrator to import New Recruit's T9A data (`manage.py import_nr_t9a SOURCE --at DATE`, "
       "docs/import-nr-t9a.md)")


def broken(change, replace: tuple[str, str] = ("", "")):
    """The summary as JSON text, after `change(summary)` (and one text replaced), made when a test asks:
    the shared file is read at run time, so a clone without it collects these tests and skips them."""
    def text() -> str:
        found = summary(GLENNCON, 1)
        change(found)
        return json.dumps(found, ensure_ascii=False).replace(*replace)
    return text


def nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


# A Khan whose every option name fits two or more of the Khan's options (a weapon enchantment on each
# weapon): 4,096 readings to try (summary.py's most for one unit)
AMBIGUOUS_KHAN = {"name": "Khan", "cost": 500, "category": "Characters", "options": [{"name": n} for n in (
    "Banner of Courage", "Banner of Speed", "Death Cheater", "Paired Weapons", "Shield Breaker", "Eldritch Inscriptions",
    "Vorpal Binding", "King Slayer", "Touch of Greatness", "Giant Slayer", "Banner of Courage", "Banner of Speed")]}

# (what is broken, the summary as text, the message after its source) for the summary reader's own checks
SUMMARY_CASES = [
    ("no army", broken(lambda s: s.pop("army")),
     "army: missing; a summary names its army by New Recruit's code (DH, VS, WDG...)"),
    ("army not a code", broken(lambda s: s.update(army="O K")), "army: 'O K' is not an army code (letters and digits, such as DH)"),
    ("units empty", broken(lambda s: s.update(units=[])), "units: missing or empty; a summary lists its units"),
    ("one unit too many", broken(lambda s: s.update(units=(s["units"] * 8)[:101])),
     "units: 101 units; a list may have at most 100"),
    ("one option too many", broken(lambda s: s["units"][1].update(options=[{"name": "Rottenjaw"}] * 51)),
     "units[1].options: 51 options; a unit may have at most 50"),
    ("a unit not an object", broken(lambda s: s["units"].__setitem__(0, "Shaman")),
     "units[0]: a unit is an object with its name, cost, category and options"),
    ("no unit name", broken(lambda s: s["units"][0].pop("name")), "units[0].name: missing or not a name"),
    ("no cost", broken(lambda s: s["units"][2].pop("cost")), "units[2].cost: missing or not a number of points"),
    ("cost as text", broken(lambda s: s["units"][2].update(cost="491")), "units[2].cost: missing or not a number of points"),
    ("negative cost", broken(lambda s: s["units"][2].update(cost=-1)), "units[2].cost: -1 is not a cost (0 to 100000 points)"),
    ("cost one over the cap", broken(lambda s: s["units"][2].update(cost=100001)),
     "units[2].cost: 100001 is not a cost (0 to 100000 points)"),
    ("fractional cost", broken(lambda s: s["units"][2].update(cost=490.5)), "units[2].cost: 490.5 is not a whole number of points"),
    ("an option without a name", broken(lambda s: s["units"][1]["options"].__setitem__(0, {"type": "Other"})),
     "units[1].options[0].name: missing or not a name"),
    ("options not a list", broken(lambda s: s["units"][1].update(options="Rottenjaw")), "units[1].options: must be a list"),
    ("a date that is not one", broken(lambda s: s.update(start="yesterday")), "start: 'yesterday' is not a date YYYY-MM-DD"),
    # Issue 43: the shape of a date without a day of the calendar passed; `models` was dropped unchecked
    ("a date of month 99", broken(lambda s: s.update(start="9999-99-99")), "start: '9999-99-99' is not a date YYYY-MM-DD"),
    ("a date of 30 February", broken(lambda s: s.update(start="2025-02-30")), "start: '2025-02-30' is not a date YYYY-MM-DD"),
    ("a billion models", broken(lambda s: s["units"][2].update(models=10**9)),
     "units[2].models: 1000000000 is not a number of models (a whole number from 0 to 1000)"),
    ("one model over the cap", broken(lambda s: s["units"][2].update(models=1001)),
     "units[2].models: 1001 is not a number of models (a whole number from 0 to 1000)"),
    ("negative models", broken(lambda s: s["units"][2].update(models=-5)),
     "units[2].models: -5 is not a number of models (a whole number from 0 to 1000)"),
    ("fractional models", broken(lambda s: s["units"][2].update(models=2.5)),
     "units[2].models: 2.5 is not a number of models (a whole number from 0 to 1000)"),
    ("models as text", broken(lambda s: s["units"][2].update(models="12")),
     "units[2].models: 12 is not a number of models (a whole number from 0 to 1000)"),
    ("unknown army", broken(lambda s: s.update(army="ZZ")),
     f"this site has no book of the New Recruit army ZZ for t9a-2; {HOW}"),
    # Issue 42: one unit the data lacks is imported as a problem (tests/importers/test_nr_summary_unknown_units.py);
    # a summary of none of the book's units is another army's, refused
    ("no unit of the book", broken(lambda s: [u.update(name="Tribesman Giant") for u in s["units"]]),
     "units[0].name: Ogre Khans 2023 beta2@2025-10-10.i7 has no unit 'Tribesman Giant'; closest: Tribesmen, Mercenary Giant"),
    ("option names that fit too many ways", broken(lambda s: s.update(units=[AMBIGUOUS_KHAN] * 5)),
     "its option names fit the book's options 20480 ways; at most 16384 are tried for one list (the names are "
     "ambiguous, or repeated)"),
]

# JSON that is no summary at all: the JSON readers refuse it before a summary is looked for
JSON_CASES = [
    ("not JSON", lambda: '{"army": "OK", "units": [', "is not valid JSON: Expecting value at line 1, column 26"),
    ("nested too deep", broken(lambda s: s["units"][0]["options"].append(nested(100))),
     "is nested more than 32 levels deep"),
    ("infinite cost", broken(lambda s: None, ('"cost": 545', '"cost": 1e999')),
     "units[0].cost: is not a finite number"),
    ("NaN cost", broken(lambda s: None, ('"cost": 545', '"cost": NaN')),
     "contains NaN, which is not a JSON number"),
]


@pytest.fixture
def ogre_khans():
    store(COMMIT, "ok.json")


def test_the_bounds_pass_exactly_at_their_limits(client, alice, ogre_khans):
    from armylists.importers.nr_t9a.summary import readings_to_try
    from armylists.lists.library.catalogue import get_book

    book = get_book("t9a-2", "ogre-khans", "2023 beta2@2025-10-10.i7")
    assert readings_to_try({"units": [AMBIGUOUS_KHAN] * 4}, book) == 16384  # at the limit: read
    client.force_login(alice)
    text = broken(lambda s: (s["units"][3].update(options=s["units"][3]["options"] * 50),
                             s.update(units=(s["units"] * 8)[:100])))()
    assert len(json.loads(text)["units"][3]["options"]) == 50  # "Standard Bearer" 50 times
    response = client.post(reverse("list-import"), {"text": text})
    assert response.status_code == 302, response.context["form"].non_field_errors()
    assert len(ArmyList.objects.get().document["units"]) == 100


def padded(size: int) -> str:
    """The good summary as text of exactly `size` bytes: a field no reader reads (`notes`) fills it, so the
    API's parser, which reads the body and writes it again, keeps the size too."""
    text = broken(lambda s: s.update(notes=""))()
    return text.replace('"notes": ""', '"notes": "' + "x" * (size - len(text.encode())) + '"')


def test_a_summary_over_256_kb_is_told_its_size_limit(client, api_alice, alice, ogre_khans):
    """Issue 43: over the limit it was left to the other readers and told it "is not an Old World Builder
    list"; the API and the import page name the limit. At the limit it is read (the boundary)."""
    from armylists.importers.nr_t9a.summaries import MAX_SUMMARY_BYTES
    message = f"is {MAX_SUMMARY_BYTES + 1} bytes; a New Recruit summary may be at most {MAX_SUMMARY_BYTES}"
    response = api_alice.post("/api/v1/lists/import/", padded(MAX_SUMMARY_BYTES + 1000), content_type="application/json")
    assert response.status_code == 400
    [field] = response.json()["error"]["fields"]
    assert re.fullmatch(rf"is \d+ bytes; a New Recruit summary may be at most {MAX_SUMMARY_BYTES}", field["message"])
    client.force_login(alice)
    response = client.post(reverse("list-import"), {"text": padded(MAX_SUMMARY_BYTES + 1)})
    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [f"The pasted list: {message}"]
    assert not ArmyList.objects.exists()
    response = client.post(reverse("list-import"), {"text": padded(MAX_SUMMARY_BYTES)})
    assert response.status_code == 302, response.context["form"].non_field_errors()
    assert ArmyList.objects.count() == 1


def test_models_at_the_bounds_are_read(client, alice, ogre_khans):
    """0 and 1,000 models are numbers the reader takes (the boundary of MAX_MODELS); the list is imported."""
    client.force_login(alice)
    for models in (0, 1000):
        text = broken(lambda s: s["units"][2].update(models=models))()
        response = client.post(reverse("list-import"), {"text": text})
        assert response.status_code == 302, response.context["form"].non_field_errors()
    assert ArmyList.objects.count() == 2


@pytest.mark.parametrize("case, text, message", SUMMARY_CASES + JSON_CASES, ids=[c[0] for c in SUMMARY_CASES + JSON_CASES])
def test_the_import_page_says_what_is_wrong_and_saves_nothing(client, alice, ogre_khans, case, text, message):
    client.force_login(alice)
    response = client.post(reverse("list-import"), {"text": text()})
    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [f"The pasted list: {message}"]
    assert not ArmyList.objects.exists()


@pytest.mark.parametrize("case, text, message", SUMMARY_CASES, ids=[c[0] for c in SUMMARY_CASES])
def test_the_api_answers_400_with_the_message_and_saves_nothing(api_alice, ogre_khans, case, text, message):
    response = api_alice.post("/api/v1/lists/import/", text(), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["fields"] == [{"path": "", "message": message}]
    assert not ArmyList.objects.exists()


@pytest.mark.parametrize("case, text, message", [
    ("not JSON", JSON_CASES[0][1], "The request body is not valid JSON: Expecting value at line 1, column 26."),
    ("nested too deep", JSON_CASES[1][1], "The request body is nested more than 32 levels deep."),
    ("infinite cost", JSON_CASES[2][1], "The request body at units[0].cost is not a finite number."),
    ("NaN cost", JSON_CASES[3][1], "The request body contains NaN, which is not a JSON number."),
], ids=["not JSON", "nested too deep", "infinite cost", "NaN cost"])
def test_the_api_refuses_json_that_is_no_summary(api_alice, ogre_khans, case, text, message):
    response = api_alice.post("/api/v1/lists/import/", text(), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["message"] == message
    assert not ArmyList.objects.exists()


def run_check_lists(capsys, *args):
    with pytest.raises(SystemExit) as exited:
        call_command("check_lists", *map(str, args), "--jobs", "1")
    out, err = capsys.readouterr()
    return exited.value.code, out, err


def test_check_lists_names_each_bad_line_and_exits_2(capsys, tmp_path, ogre_khans):
    cases = SUMMARY_CASES + JSON_CASES
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(text() + "\n" for _, text, _ in cases), encoding="utf-8")
    code, out, _ = run_check_lists(capsys, path)
    for number, (_, _, message) in enumerate(cases, 1):
        assert f"bad.jsonl:{number}: unreadable\n  {path}:{number}: {message}\n" in out
    assert out.splitlines()[-1] == f"{len(cases)} lists: 0 legal, 0 illegal, {len(cases)} unreadable"
    assert code == 2


def test_check_lists_refuses_a_gz_that_is_not_one_and_a_line_too_long(capsys, tmp_path, ogre_khans):
    fake = tmp_path / "lists.jsonl.gz"
    fake.write_bytes(b"not gzip at all\n")
    code, out, err = run_check_lists(capsys, fake)
    assert (code, out) == (2, "")
    assert err.strip() == f"{fake}: cannot be read: Not a gzipped file (b'no')"
    long = tmp_path / "long.jsonl.gz"  # a line of 1 MB unpacked, from a few kB: read cut, never whole
    long.write_bytes(gzip.compress(b'{"army": "OK", "units": [' + b" " * (1 << 20) + b"]}\n"))
    code, out, _ = run_check_lists(capsys, long)
    assert code == 2
    assert f"long.jsonl.gz:1: unreadable\n  {long}:1: is not valid JSON: Expecting value at line 1, column 262146\n" in out
