"""Every list format the site reads, mangled, on every door it comes through (issue 25, item 7).

A good file of each format (our JSON document, tournament text, Old World Builder's text export and saved
list, a BattleScribe roster .ros and its .rosz) is cut short, has bytes put in or changed (NUL, a lone
surrogate's escape, invalid UTF-8, 1e999, nesting thousands deep, an XML entity, a zip's header), by
hypothesis. Each result goes to the import page, the API's import and `manage.py validate_list`: the answer
is a success or a 4xx (exit 0, 1 or 2 for the command) with a message, never a 5xx or a traceback; a
refusal stores nothing and whatever is stored reads back as a list document, each case under a hang guard
(hang_guard.py). Runs on SQLite and, with DATABASE_URL, on PostgreSQL.
"""
from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse
from hypothesis import HealthCheck, given, settings, strategies as st

from armylists.exports import export_text
from armylists.lists.library.catalogue import book_for, validate_roster
from armylists.models import ArmyList
from armylists.rules import parse_roster

from ..web.test_list_import import OWB_TEXT
from .hang_guard import hang_guard

pytestmark = pytest.mark.django_db
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
RUNS = dict(deadline=None, max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])


def _our_json() -> bytes:
    return (EXAMPLES / "empire-of-man-legal.json").read_bytes()


def _tournament_text() -> bytes:
    roster = parse_roster(json.loads(_our_json()))
    book = book_for(roster)
    return export_text(book, roster, validate_roster(book, roster)).encode()


def _owb_json() -> bytes:
    # The shape of Old World Builder's saved list; its army is not imported here, so a good one is refused
    # with the message asking for `import_owb`, and a mangled one must be refused as clearly.
    return json.dumps({"name": "Steel", "army": "empire-of-man", "points": 2000, "characters": [],
                       "core": [{"name_en": "State Troops", "strength": 20, "points": 5}], "special": [],
                       "rare": [], "mercenaries": [], "allies": []}).encode()


def _ros() -> bytes:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<roster xmlns="http://www.battlescribe.net/schema/rosterSchema"'
            ' id="r1" name="Knights" battleScribeVersion="2.03" gameSystemId="g" gameSystemName="Test Battles"'
            ' gameSystemRevision="7"><costs><cost name="pts" typeId="pts" value="150"/></costs>'
            '<forces><force id="f1" name="Army" entryId="fe" catalogueId="c" catalogueRevision="7"'
            ' catalogueName="Knights"><selections><selection id="s1" name="Captain" entryId="captain" number="1"'
            ' type="model"/></selections></force></forces></roster>').encode()


def _rosz() -> bytes:
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("army.ros", _ros())
    return packed.getvalue()


# (name, good bytes, file name, the API's content type)
FORMATS = {
    "json": (_our_json, "list.json", "application/json"),
    "text": (_tournament_text, "list.txt", "text/plain"),
    "owb-text": (lambda: OWB_TEXT.encode(), "owb.txt", "text/plain"),
    "owb-json": (_owb_json, "army.owb.json", "application/json"),
    "ros": (_ros, "army.ros", "application/xml"),
    "rosz": (_rosz, "army.rosz", "application/zip"),
}
INSERTS = [b"\x00", b"\xff\xfe\xfd", b'"\\ud800"', b"\\ud800", b"1e999", b"NaN", b"-1", b"9" * 5000,
           b"[" * 20_000, b"{\"a\":" * 5000, b"<!DOCTYPE r [<!ENTITY a \"aaaa\">]>", b"&a;", b"PK\x03\x04",
           b"\r\n===\n", b"++ Core ++\n", b"999999999999 - 1 Knight\n", "é".encode("latin-1")]


@st.composite
def mangled(draw, name: str) -> bytes:
    """The format's good file changed in one to three places."""
    data = FORMATS[name][0]()
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(data)))
        how = draw(st.sampled_from(["cut", "insert", "replace", "flip"]))
        if how == "cut":
            data = data[:at]
        elif how == "insert":
            data = data[:at] + draw(st.sampled_from(INSERTS)) + data[at:]
        elif how == "replace":
            data = data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at + 8:]
        elif data:
            i = min(at, len(data) - 1)
            data = data[:i] + bytes([data[i] ^ draw(st.integers(1, 255))]) + data[i + 1:]
    return data


@pytest.fixture
def client_alice(client, alice):
    client.force_login(alice)
    return client


def _stored_lists_read_back() -> None:
    for document in ArmyList.objects.values_list("document", flat=True):
        parse_roster(document)


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_the_import_page_answers_every_mangled_file_with_a_page_or_a_refusal(client_alice, name):
    filename = FORMATS[name][1]

    @settings(**RUNS)
    @given(data=mangled(name))
    def check(data):
        before = ArmyList.objects.count()
        with hang_guard(f"the import page with {filename}"):
            response = client_alice.post(reverse("list-import"), {"file": SimpleUploadedFile(filename, data)})
        assert response.status_code in (302, 400), response.status_code
        if response.status_code == 400:
            assert ArmyList.objects.count() == before
            assert b'class="errorlist' in response.content or b"error" in response.content
        _stored_lists_read_back()

    check()


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_the_apis_import_answers_every_mangled_body_with_201_or_a_4xx(api_alice, name):
    content_type = FORMATS[name][2]

    @settings(**RUNS)
    @given(data=mangled(name))
    def check(data):
        before = ArmyList.objects.count()
        with hang_guard(f"the API's import of {content_type}"):
            response = api_alice.post(reverse("api-lists-import"), data=data, content_type=content_type)
        assert response.status_code in (201, 400, 413, 415), (response.status_code, response.content[:300])
        if response.status_code != 201:
            assert ArmyList.objects.count() == before
            assert response.json()  # the API's error shape: a message, never an empty body
        _stored_lists_read_back()

    check()


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_validate_list_answers_every_mangled_file_with_exit_0_1_or_2(tmp_path, name):
    path = tmp_path / FORMATS[name][1]

    @settings(**RUNS)
    @given(data=mangled(name))
    def check(data):
        path.write_bytes(data)
        try:
            with hang_guard(f"validate_list {path.name}"):
                call_command("validate_list", str(path), stdout=io.StringIO(), stderr=io.StringIO())
        except CommandError as exc:  # exit 1 (illegal) or 2 (not a list): said in words, never a traceback
            assert exc.returncode in (1, 2) and str(exc)
        except SystemExit as exc:
            assert exc.code in (0, 1, 2)

    check()


def test_the_good_files_are_what_they_say(client_alice):
    """The seeds are real: our JSON, our text and OWB's text export import; the rest are refused by name."""
    answers = {}
    for name, (make, filename, _) in sorted(FORMATS.items()):
        response = client_alice.post(reverse("list-import"), {"file": SimpleUploadedFile(filename, make())})
        answers[name] = response.status_code
    assert answers == {"json": 302, "text": 302, "owb-text": 302, "owb-json": 400, "ros": 400, "rosz": 400}
