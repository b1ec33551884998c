"""Event rules YAML and uploads of many files from outside, mangled (issue 25, item 7).

The event form's rules text (new and edit) and `check_lists --event-rules FILE` get good rules changed
by hypothesis (NUL, a lone surrogate's escape, aliases, tags, nesting thousands deep, 5,000 digits, a
byte-order mark, tabs, cuts), and files in the wrong encoding: the form answers a saved event (302) or a
400 naming the problem with nothing saved, the command exit 0, 1 or 2 with a message, never a traceback.
An organiser's upload of more files than the documented 200, of 200 small hostile files, and of
archives nested inside archives answers a 400 naming each file or the limit, with nothing stored. Each
case runs under a hang guard. The hand-made YAML cases are in test_event_rules_input.py.
"""
from __future__ import annotations

import io
import shutil
from datetime import date, timedelta
from pathlib import Path
from urllib.parse import urlencode

import pytest
from tests.security.mangling import zipped
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings, strategies as st

from armylists.events.submitting import MAX_UPLOAD_FILES
from armylists.models import EventJob, Event, Submission
from armylists.rules.event_rules.ruleset import MAX_EVENT_RULES_BYTES

from .hang_guard import hang_guard
from .test_event_rules_input import event_form, form_errors

pytestmark = pytest.mark.django_db
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
RUNS = dict(deadline=None, max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])
GOOD_RULES = ("name: Spring\nrules:\n  - {id: no-named, type: count, params: {label: Named characters, "
              "select: {tag: named}, max: 0}}\n  - id: small\n    type: count\n    params:\n      label: \"Small\"\n"
              "      select: {tag: small}\n      max: 2\n")
INSERTS = ["\x00", '"\\ud800"', "\\ud800", "\\0", "&a [x]", "*a", "!!binary aGk=", "!!set {a}", "!!timestamp 2024-01-01",
           "!!python/object:os.system", "[" * 3000, "{a: " * 500, "- " * 3000, "9" * 5000, ".inf", ".nan", "1e999",
           "\ufeff", "\t", ": [", "? [a]\n: b", "1: a", "%YAML 1.1\n---\n", "---\n", "...\n", "'", '"', "\ud800"]


@st.composite
def mangled_rules(draw) -> str:
    text = GOOD_RULES
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["cut", "insert", "replace"]))
        if how == "cut":
            text = text[:at]
        elif how == "insert":
            text = text[:at] + draw(st.sampled_from(INSERTS)) + text[at:]
        else:
            text = text[:at] + draw(st.text(min_size=1, max_size=6)) + text[at + 6:]
    return text


@pytest.fixture
def organiser(client, alice):
    client.force_login(alice)
    return client


@pytest.fixture
def event(alice):
    return Event.objects.create(organiser=alice, name="Club GT", date=date.today() + timedelta(days=10),
                                system="the-old-world", points_limit=2000, rules_text="",
                                deadline=timezone.now() + timedelta(days=5))


def test_the_good_rules_are_saved_so_the_changes_below_are_the_cases(organiser):
    response = organiser.post(reverse("event-new"), event_form(GOOD_RULES))
    assert (response.status_code, Event.objects.get().rules_text) == (302, GOOD_RULES.strip())  # the form strips it


def test_every_mangled_rules_text_saves_or_is_a_400_naming_it_and_nothing_is_saved(organiser, event):
    @settings(**RUNS)
    @given(rules_text=mangled_rules(), edit=st.booleans())
    def check(rules_text, edit):
        before = list(Event.objects.order_by("pk").values())
        url = reverse("event-edit", args=[event.pk]) if edit else reverse("event-new")
        # The form's bytes as a client sends them: a lone surrogate goes as its three (invalid UTF-8) bytes.
        body = urlencode({k: v.encode("utf-8", "surrogatepass") for k, v in event_form(rules_text).items()})
        with hang_guard("the event form"):
            response = organiser.post(url, body, content_type="application/x-www-form-urlencoded")
        assert response.status_code in (302, 400), response.status_code
        if response.status_code == 400:  # the form's message, or the NUL refused before any view, in words
            said = form_errors(response) if response.context else response.content.decode()
            assert said and ("contains a NUL character" in said or response.context), said
            assert list(Event.objects.order_by("pk").values()) == before
        else:
            saved = Event.objects.get(pk=event.pk) if edit else Event.objects.latest("pk")
            assert organiser.get(reverse("event-detail", args=[saved.pk])).status_code == 200
            Event.objects.exclude(pk=event.pk).delete()
            Event.objects.filter(pk=event.pk).update(rules_text="")

    check()


def test_a_lone_surrogates_bytes_in_the_form_are_stored_as_replacement_characters(organiser):
    """A client can send a lone surrogate only as bytes that are not UTF-8: Django reads each as U+FFFD, which
    every database stores (the escape "\\ud800" in the YAML is refused by name: test_event_rules_input.py)."""
    rules = GOOD_RULES.replace("Spring", "Spring \ud800")
    body = urlencode({k: v.encode("utf-8", "surrogatepass") for k, v in event_form(rules).items()})
    response = organiser.post(reverse("event-new"), body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 302
    assert Event.objects.get().rules_text.startswith("name: Spring \ufffd")


def test_rules_of_exactly_64_kb_are_read_and_one_byte_more_is_refused(organiser):
    """MAX_EVENT_RULES_BYTES (rules/event_rules/ruleset.py): a comment pads the good rules to the limit."""
    pad = MAX_EVENT_RULES_BYTES - len(GOOD_RULES.encode()) - 2
    at_limit = GOOD_RULES + "#" + "x" * pad + "\n"
    assert len(at_limit.encode()) == MAX_EVENT_RULES_BYTES
    assert organiser.post(reverse("event-new"), event_form(at_limit)).status_code == 302
    response = organiser.post(reverse("event-new"), event_form(at_limit + "#"))
    assert response.status_code == 400
    assert "65537" in form_errors(response) and "65536" in form_errors(response)
    assert Event.objects.count() == 1


def check_lists(rules_path: Path, lists: Path) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with hang_guard("check_lists --event-rules"):
        try:
            call_command("check_lists", str(lists), "--system", "t9a-0.11", "--points", "2400", "--event-rules",
                         str(rules_path), stdout=out, stderr=err)
        except SystemExit as exc:
            return int(exc.code), out.getvalue() + err.getvalue()
        except CommandError as exc:
            return exc.returncode, str(exc)
    return 0, out.getvalue() + err.getvalue()


@pytest.fixture
def lists(tmp_path):
    folder = tmp_path / "lists"
    folder.mkdir()
    shutil.copy(EXAMPLES / "empire-2400-legal.json", folder)
    return folder


def test_check_lists_answers_every_mangled_rules_file_with_exit_0_1_or_2(tmp_path, lists):
    rules = tmp_path / "event.yaml"

    @settings(**RUNS)
    @given(rules_text=mangled_rules())
    def check(rules_text):
        rules.write_bytes(rules_text.encode("utf-8", "surrogatepass"))
        status, said = check_lists(rules, lists)
        assert status in (0, 1, 2) and "Traceback" not in said
        if status == 2:
            assert str(rules) in said, said[-500:]

    check()


@pytest.mark.parametrize("encoding, message", [
    ("utf-16", "is not UTF-8 text"),
    ("latin-1", "is not UTF-8 text"),
])
def test_a_rules_file_in_another_encoding_exits_2_naming_it(tmp_path, lists, encoding, message):
    rules = tmp_path / "event.yaml"
    rules.write_bytes(GOOD_RULES.replace("Spring", "Printemps \u00e9t\u00e9").encode(encoding))
    status, said = check_lists(rules, lists)
    assert (status, str(rules) in said, message in said) == (2, True, True), said


# --- uploads of many files --------------------------------------------------------------------------



def nested(depth: int) -> bytes:
    data = b"<roster/>"
    name = "army.ros"
    for _ in range(depth):
        data, name = zipped({name: data}), "inner.zip"
    return data


def upload(client, event, files: list[tuple[str, bytes]]):
    with hang_guard(f"an upload of {len(files)} files"):
        return client.post(reverse("event-upload", args=[event.pk]),
                           {"files": [SimpleUploadedFile(n, d) for n, d in files], "team": ""})


def stored() -> tuple[int, int]:
    return Submission.objects.count(), EventJob.objects.count()


def test_an_upload_past_what_django_reads_is_a_400_naming_the_limit_and_stores_nothing(organiser, event):
    """Django reads at most DATA_UPLOAD_MAX_NUMBER_FILES (201) files; 250 answer a 400 with the documented limit."""
    response = upload(organiser, event, [(f"p{i}.json", b"{}") for i in range(250)])
    assert response.status_code == 400
    assert ("<p>The request sends more than 201 files; an upload takes at most 200 list files at once. Nothing was "
            "stored.</p>") in response.content.decode()
    assert "Content-Security-Policy" in response.headers and response.headers["X-Frame-Options"] == "DENY"
    assert stored() == (0, 0)


def test_200_small_hostile_files_are_each_named_and_nothing_is_stored(organiser, event):
    hostile = [b"\x00", b"\xff\xfe", b'{"name": "\\ud800"}', b"[" * 5000, b'{"points_limit": 1e999}', b" ",
               b'{"a": NaN}', b"PK\x03\x04", zipped({"a.ros": b"<roster/>", "b.ros": b"<roster/>"}), nested(4)]
    names = {0: ".json", 8: ".rosz", 9: ".rosz", 7: ".rosz"}
    files = [(f"h{i}{names.get(i % 10, '.txt')}", hostile[i % 10]) for i in range(MAX_UPLOAD_FILES)]
    response = upload(organiser, event, files)
    assert response.status_code == 400
    failed = response.context["result"].failed
    assert [name for name, _ in failed] == [name for name, _ in files]
    assert all(why for _, why in failed)
    assert dict(failed)["h9.rosz"].endswith("archives nested more than 3 deep; refused")
    assert stored() == (0, 0)


def test_archives_nested_inside_an_upload_share_one_budget_and_are_refused_by_name(organiser, event):
    files = [(f"deep{i}.rosz", nested(1200 if i == 0 else 4)) for i in range(3)]
    response = upload(organiser, event, files)
    assert response.status_code == 400
    assert [(name, why.rsplit(": ", 1)[-1]) for name, why in response.context["result"].failed] == [
        (name, "archives nested more than 3 deep; refused") for name, _ in files]
    assert stored() == (0, 0)


def test_an_empty_file_among_many_is_a_400_naming_it_and_stores_nothing(organiser, event):
    response = upload(organiser, event, [(f"p{i}.json", b"{}") for i in range(50)] + [("empty.json", b"")])
    assert response.status_code == 400
    assert form_errors(response) == "The submitted file is empty."
    assert stored() == (0, 0)


def test_the_apis_import_past_what_django_reads_is_a_400_in_the_apis_shape(api_alice):
    files = {f"file{i}": SimpleUploadedFile(f"p{i}.json", b"{}") for i in range(250)}
    with hang_guard("the API's import of 250 files"):
        response = api_alice.post(reverse("api-lists-import"), files, format="multipart")
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith("The request sends more than 201 files")
