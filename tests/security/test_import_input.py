"""Hostile numbers and JSON in imported lists and catalogues (issue 25): every path in (the list file
reader of the commands and event uploads, the API's import, the site's import page, import_battlescribe)
answers with a clear message naming the field, never a 500 or a traceback, and stores nothing.

A BattleScribe number of "nan", "inf", "1e999" or 5,000 digits was read as a float and then turned
into an int (OverflowError, ValueError: 500s), or stored as a unit's selection unread; an Old World
Builder list nested 100,000 deep overflowed Python's JSON decoder, and a lone surrogate went into the
error page, which cannot be encoded.
"""
from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from armylists.listfiles.reading import ListFileError, read_list_data
from armylists.models import ArmyList, RulesFile
from armylists.rules.reading.plain_data import MAX_DEPTH

from tests.battlescribe.battlescribe_samples import GST, catalogue
from tests.battlescribe.test_battlescribe_rosters import ros

pytestmark = pytest.mark.django_db

DIGITS = "1" * 5000
REVISION_RANGE = "is not a finite number from 0 to 2147483647"
ANY_NUMBER = "is not a finite number of at most 9007199254740992 either side of zero"
KNIGHTS = "<selection name='Knights' entryId='knights'> number"

ROSTER_NUMBERS = [
    ((b'catalogueRevision="7"', b'catalogueRevision="nan"'), f"<force> catalogueRevision: 'nan' {REVISION_RANGE}"),
    ((b'catalogueRevision="7"', b'catalogueRevision="inf"'), f"<force> catalogueRevision: 'inf' {REVISION_RANGE}"),
    ((b'catalogueRevision="7"', f'catalogueRevision="{DIGITS}"'.encode()),
     f"<force> catalogueRevision: '11111111111111111111'… (5000 characters) {REVISION_RANGE}"),
    ((b'catalogueRevision="7"', b'catalogueRevision="7.5"'),
     "<force> catalogueRevision: '7.5' is not a whole number from 0 to 2147483647"),
    ((b'typeId="pts-1" value="2000"', b'typeId="pts-1" value="1e999"'), f"<costLimit> value: '1e999' {ANY_NUMBER}"),
    ((b'typeId="pts-1" value="2000"', b'typeId="pts-1" value="-nan"'), f"<costLimit> value: '-nan' {ANY_NUMBER}"),
    ((b'entryId="knights" number="1"', b'entryId="knights" number="1e999"'),  # the unit's own: was stored
     f"{KNIGHTS}: '1e999' is not a finite number from 0 to 10000"),
    ((b'entryId="knight" number="4"', b'entryId="knight" number="1e999"'),
     "<selection name='Knight' entryId='knight'> number: '1e999' is not a finite number from 0 to 10000"),
    ((b'entryId="knight" number="4"', b'entryId="knight" number="10001"'),
     "<selection name='Knight' entryId='knight'> number: '10001' is not a finite number from 0 to 10000"),
    ((b'entryId="lance" number="1"', b'entryId="lance" number="-1"'),
     "<selection name='Lance' entryId='lance'> number: '-1' is not a finite number from 0 to 10000"),
    ((b'entryId="lance" number="1"', b'entryId="lance" number="1.5"'),
     "<selection name='Lance' entryId='lance'> number: '1.5' is not a whole number"),
]


@pytest.fixture
def imported(tmp_path):
    """The test catalogue imported (revision 7 of Test Knights), as the roster tests have it."""
    (tmp_path / "test.gst").write_text(GST)
    (tmp_path / "knights.cat").write_text(catalogue())
    call_command("import_battlescribe", str(tmp_path), verbosity=0)


def hostile_roster(change: tuple[bytes, bytes]) -> bytes:
    data = ros()
    assert change[0] in data
    return data.replace(*change, 1)


@pytest.mark.parametrize("change, message", ROSTER_NUMBERS)
def test_a_roster_number_out_of_range_is_a_clear_error_on_every_path(imported, api_alice, client, alice, change,
                                                                       message):
    data = hostile_roster(change)
    with pytest.raises(ListFileError) as caught:
        read_list_data(data, "army.ros")
    assert str(caught.value) == f"army.ros: {message}"
    response = api_alice.post("/api/v1/lists/import/", data, content_type="application/xml")
    assert response.status_code == 400
    assert response.json()["error"]["fields"] == [{"path": "roster", "message": f"roster: {message}"}]
    client.force_login(alice)
    page = client.post(reverse("list-import"), {"file": SimpleUploadedFile("army.ros", data)})
    assert page.status_code == 400
    assert page.context["form"].non_field_errors() == [f"army.ros: {message}"]
    assert not ArmyList.objects.exists()


def test_the_boundary_numbers_of_a_roster_are_read(imported):
    """10,000 models and a revision that names the imported book: read into the roster tree (the schema then
    judges the size)."""
    data = hostile_roster((b'entryId="knight" number="4"', b'entryId="knight" number="10000"'))
    roster, book = read_list_data(data, "army.ros")
    knights = roster.forces[0].selections[1]
    assert (knights.entry, [(s.entry, s.number) for s in knights.selections][0], book.version) == (
        "knights", ("knight", 10000), "r7")


@pytest.mark.parametrize("where, value, message", [
    ("system", DIGITS, f"test.gst: <gameSystem> revision: '11111111111111111111'… (5000 characters) {REVISION_RANGE}"),
    ("system", "nan", f"test.gst: <gameSystem> revision: 'nan' {REVISION_RANGE}"),
    ("catalogue", DIGITS,
     f"knights.cat: <catalogue> revision: '11111111111111111111'… (5000 characters) {REVISION_RANGE}"),
    ("catalogue", "-inf", f"knights.cat: <catalogue> revision: '-inf' {REVISION_RANGE}"),
    ("cost", "1e999", f"knights.cat: <cost> of Test Knights > Captain: '1e999' {ANY_NUMBER}"),
])
def test_import_battlescribe_refuses_a_number_out_of_range_with_exit_2(tmp_path, where, value, message):
    gst, cat = GST, catalogue()
    if where == "system":
        gst = gst.replace('revision="3"', f'revision="{value}"')
    elif where == "catalogue":
        cat = cat.replace('revision="7"', f'revision="{value}"')
    else:
        assert '<cost name="pts" typeId="pts-1" value="100"/>' in cat  # the captain's
        cat = cat.replace('<cost name="pts" typeId="pts-1" value="100"/>', f'<cost name="pts" typeId="pts-1" value="{value}"/>')
    (tmp_path / "test.gst").write_text(gst)
    (tmp_path / "knights.cat").write_text(cat)
    with pytest.raises(CommandError) as caught:
        call_command("import_battlescribe", str(tmp_path), verbosity=0)
    assert caught.value.returncode == 2
    assert str(caught.value) == f"Nothing imported. {tmp_path}/{message}"
    assert not RulesFile.objects.filter(system="bs-test-battles").exists()


# --- Old World Builder's saved lists: the API's JSON checks on every path --------------------------

DEEP = b'{"army": "empire-of-man", "game": "the-old-world", "core": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
SURROGATE = "contains a lone UTF-16 surrogate \\ud800 (at position 0), which is not text"
OWB_HOSTILE = [
    (DEEP, f"x.owb.json: is nested more than {MAX_DEPTH} levels deep"),
    (b'{"army": "\\ud800"}', f"x.owb.json: army: {SURROGATE}"),
    (b'{"army": "\\ud800", "game": "the-old-world", "core": []}', f"x.owb.json: army: {SURROGATE}"),
    (b'{"army": "empire-of-man", "game": "the-old-world", "core": [], "name": "a\\u0000"}',
     "x.owb.json: name: contains a NUL character (at position 1)"),
    (b'{"army": "empire-of-man", "game": "the-old-world", "core": [], "points": NaN}',
     "x.owb.json: contains NaN, which is not a JSON number"),
    (b'{"army": "empire-of-man", "game": "the-old-world", "core": [], "points": 1' + b"0" * 5000 + b"}",
     "x.owb.json: contains a number out of range"),
]


@pytest.mark.parametrize("data, message", OWB_HOSTILE)
def test_a_hostile_owb_list_is_refused_on_the_import_page_as_the_api_refuses_it(client, alice, api_alice, data,
                                                                                message):
    client.force_login(alice)
    page = client.post(reverse("list-import"), {"file": SimpleUploadedFile("x.owb.json", data)})
    assert page.status_code == 400
    assert page.context["form"].non_field_errors() == [message]
    assert "\ud800" not in page.content.decode("utf-8", "surrogatepass")
    with pytest.raises(ListFileError) as caught:  # check_lists, import_list and event uploads
        read_list_data(data, "x.owb.json")
    assert str(caught.value) == message
    api = api_alice.post("/api/v1/lists/import/", data, content_type="application/json")
    assert api.status_code == 400
    assert not ArmyList.objects.exists()


def test_a_pasted_owb_list_with_a_surrogate_escape_is_refused(client, alice):
    client.force_login(alice)
    page = client.post(reverse("list-import"), {"text": json.dumps({"army": "\ud800", "game": "the-old-world",
                                                                    "core": []})})
    assert page.status_code == 400
    assert page.context["form"].non_field_errors() == [f"The pasted list: army: {SURROGATE}"]
    assert not ArmyList.objects.exists()


def test_an_owb_text_export_with_a_nul_is_refused_as_our_text_is():
    from ..web.test_list_import import OWB_TEXT

    data = OWB_TEXT.replace("Halberds", "Hal\x00berds").encode()
    with pytest.raises(ListFileError) as caught:
        read_list_data(data, "x.txt")
    assert str(caught.value) == f"x.txt: contains a NUL character (at position {OWB_TEXT.index('Halberds') + 3})"


@pytest.mark.parametrize("revision", [b'catalogueRevision=""', b""], ids=["empty", "absent"])
def test_a_roster_without_a_catalogue_revision_is_read_as_revision_1_on_every_path(imported, api_alice, client, alice,
                                                                                    revision):
    """Found by the hostile suite: an empty or absent catalogueRevision was a 500 on the import page
    (elements.number gave its default as an int, and int has no is_integer() on Python 3.11). BattleScribe
    reads an absent revision as 1: the imported book is revision 7, so the roster names a revision we lack."""
    data = hostile_roster((b'catalogueRevision="7"', revision))
    with pytest.raises(ListFileError) as caught:
        read_list_data(data, "army.ros")
    message = str(caught.value).removeprefix("army.ros: ")
    assert "revision 1" in message or "r1" in message, message
    response = api_alice.post("/api/v1/lists/import/", data, content_type="application/xml")
    assert response.status_code == 400 and response.json()["error"]["message"]
    client.force_login(alice)
    page = client.post(reverse("list-import"), {"file": SimpleUploadedFile("army.ros", data)})
    assert (page.status_code, page.context["form"].non_field_errors()) == (400, [f"army.ros: {message}"])
    assert not ArmyList.objects.exists()


def test_a_selection_without_a_number_is_taken_once(imported):
    """As an absent revision: an absent `number` was the int 1, and `is_integer()` raised (a 500)."""
    roster, _ = read_list_data(hostile_roster((b'entryId="lance" number="1"', b'entryId="lance"')), "army.ros")
    with_number, _ = read_list_data(hostile_roster((b'entryId="lance" number="1"', b'entryId="lance" number="1"')),
                                    "army.ros")
    assert roster.units == with_number.units
