"""Hostile event rules from the organiser's form: a 400 naming the problem, the event not created or
left as it was, in a few milliseconds rather than seconds of the Python YAML reader (issue 15).

Text no database can store (NUL, a lone surrogate) would otherwise be saved with the event and copied
into every player's report, which SQLite cannot give back and PostgreSQL refuses.
"""
from __future__ import annotations

import shutil
from datetime import date, timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from armylists.models import ArmyList, Event, Submission
from armylists.rules.reading.plain_data import MAX_DEPTH

pytestmark = pytest.mark.django_db
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"

GOOD_RULES = "- {id: no-named, type: count, params: {label: Named characters, select: {tag: named}, max: 0}}"
TOO_DEEP = f"(top level): is nested more than {MAX_DEPTH} levels deep"
SURROGATE = "contains a lone UTF-16 surrogate \\ud800 (at position 1), which is not text"
NUL = "contains a NUL character (at position 1)"

HOSTILE = [
    ("[" * 3000 + "]" * 3000, TOO_DEEP),
    ("{a: " * 3000 + "1" + "}" * 3000, TOO_DEEP),
    ("[" * 30000 + "]" * 29999, TOO_DEEP),  # unbalanced too: refused before the Python reader words it
    ("- " * 30000 + "a", TOO_DEEP),  # LibYAML's composer would overflow the C stack
    ("a: &a [x, x, x]\nb: &b [*a, *a, *a]\nc: [*b, *b, *b]", "(top level): uses an alias (*a); "
                                                               "write the rules out in full"),
    ('- {id: "a\\ud800", type: count, params: {label: A, select: {tag: named}, max: 0}}', f"rules[0].id: {SURROGATE}"),
    ('- {id: "a\\0", type: count, params: {label: A, select: {tag: named}, max: 0}}', f"rules[0].id: {NUL}"),
    ('- {id: a, type: count, params: {label: "A\\ud800", select: {tag: named}, max: 0}}',
     f"rules[0].params.label: {SURROGATE}"),
    ('- {id: a, type: count, params: {label: "A\\0", select: {tag: named}, max: 0}}', f"rules[0].params.label: {NUL}"),
    ('name: "A\\0"\nrules: []', f"name: {NUL}"),
]

# YAML that is well formed but not plain data (issue 25): each was a 500 on the form and a traceback from
# check_lists. Read by plain_yaml's loader, which names the line and column.
ONLY_PLAIN = "only text, numbers, true/false, null, lists and maps with text keys are read"
COUNT = "rules:\n  - {id: a, type: count, params: {label: A, select: {tag: named}, max: %s}}"
NOT_PLAIN = [
    ("name: !!timestamp 2024-05-01\nrules: []", f"(top level): has at line 1, column 7 a date or timestamp: {ONLY_PLAIN}"),
    ("name: Spring\nrules: []\nwhen: !!timestamp 2024-05-01 10:00:00", f"(top level): has at line 3, column 7 a date "
                                                                       f"or timestamp: {ONLY_PLAIN}"),
    ("name: !!binary aGVsbG8=\nrules: []", f"(top level): has at line 1, column 7 binary data (!!binary): {ONLY_PLAIN}"),
    ("name: !!set {a, b}\nrules: []", f"(top level): has at line 1, column 7 a set (!!set): {ONLY_PLAIN}"),
    ("rules: []\n1: a", f"(top level): has at line 2, column 1 a key that is a number, not text (quote it): {ONLY_PLAIN}"),
    (COUNT % ("1" * 5000), f"(top level): has at line 2, column 72 a number of 5000 characters: {ONLY_PLAIN}"),
    (COUNT % ".inf", "(top level): has at line 2, column 72 the number .inf, not finite or out of range (at most "
                     f"9007199254740992 either side of zero): {ONLY_PLAIN}"),
    (COUNT % "!!int x", f"(top level): has at line 2, column 72 'x' tagged !!int but not a whole number: {ONLY_PLAIN}"),
    ("name: !!python/name:os.system\nrules: []", "(top level): has at line 1, column 7 the tag "
                                                  f"tag:yaml.org,2002:python/name:os.system: {ONLY_PLAIN}"),
]
HOSTILE += NOT_PLAIN


def event_form(rules_text: str) -> dict:
    day = date.today() + timedelta(days=30)
    return {"name": "Spring Open", "date": day.isoformat(), "system": "the-old-world", "points_limit": "2000",
            "composition": "", "deadline": f"{(day - timedelta(days=7)).isoformat()}T18:00",
            "rules_text": rules_text}


def form_errors(response) -> str:
    return " ".join(" ".join(errors) for errors in response.context["form"].errors.values())


@pytest.fixture
def event(alice):
    return Event.objects.create(organiser=alice, name="Club GT", date=date.today() + timedelta(days=10),
                                system="the-old-world", points_limit=2000, rules_text=GOOD_RULES,
                                deadline=timezone.now() + timedelta(days=5))


@pytest.mark.parametrize("rules_text, message", HOSTILE)
def test_a_new_event_with_hostile_rules_is_400_and_not_created(client, alice, rules_text, message):
    client.force_login(alice)
    response = client.post(reverse("event-new"), event_form(rules_text))
    assert response.status_code == 400
    assert form_errors(response) == message
    assert not Event.objects.exists()


@pytest.mark.parametrize("rules_text, message", HOSTILE)
def test_an_edited_event_with_hostile_rules_is_400_and_unchanged(client, alice, event, rules_text, message):
    client.force_login(alice)
    before = Event.objects.values().get(pk=event.pk)
    response = client.post(reverse("event-edit", args=[event.pk]), event_form(rules_text))
    assert response.status_code == 400
    assert form_errors(response) == message
    assert Event.objects.values().get(pk=event.pk) == before


def test_the_same_rules_without_the_hostile_escape_are_saved(client, alice):
    """The boundary: the label "A" where "A\\0" was refused saves, and its page answers."""
    client.force_login(alice)
    rules = '- {id: a, type: count, params: {label: "A", select: {tag: named}, max: 0}}'
    response = client.post(reverse("event-new"), event_form(rules))
    event = Event.objects.get()
    assert response.status_code == 302 and event.rules_text == rules
    assert client.get(reverse("event-detail", args=[event.pk])).status_code == 200


def test_rules_nested_exactly_to_the_limit_read_and_one_more_is_refused(client, alice):
    """MAX_DEPTH levels of brackets as a rule are a schema error (not a rule); MAX_DEPTH + 1 are too deep."""
    client.force_login(alice)
    at_limit = "rules:\n  - " + "[" * (MAX_DEPTH - 2) + "]" * (MAX_DEPTH - 2)  # rules, its list, then the brackets
    response = client.post(reverse("event-new"), event_form(at_limit))
    assert response.status_code == 400
    assert "is not of type &#x27;object&#x27;" in response.content.decode()
    assert "levels deep" not in form_errors(response)
    deeper = "rules:\n  - " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    response = client.post(reverse("event-new"), event_form(deeper))
    assert response.status_code == 400
    assert "(top level): is nested more than 32 levels deep" in form_errors(response)
    assert not Event.objects.exists()


def test_a_submission_whose_check_fails_is_not_stored(client, alice, event, legal_document):
    """Store and check are one transaction: event rules that cannot be used (saved before this check
    existed) refuse the submission with the reason, and leave no submission without its report."""
    Event.objects.filter(pk=event.pk).update(system="t9a-0.11", rules_text="rules: [")
    army_list = ArmyList.objects.create(owner=alice, name="Mine", system="t9a-0.11", book="empire-of-sonnstahl",
                                        book_version=legal_document["book_version"], points_limit=2400,
                                        document=legal_document)
    client.force_login(alice)
    response = client.post(reverse("event-submit", args=[event.pk]), {"army_list": army_list.pk}, follow=True)
    assert response.status_code == 200
    assert "The event rules cannot be used: event rules: (top level): is not valid YAML at line 1" in \
        response.content.decode()
    assert not Submission.objects.exists()


def test_an_unquoted_date_is_read_as_the_text_it_is(client, alice):
    """The boundary of NOT_PLAIN: a date or timestamp written plainly is text (PyYAML made it a date)."""
    client.force_login(alice)
    rules = "name: 2024-05-01 10:00:00\nrules:\n  " + GOOD_RULES.replace("Named characters", "2024-05-01")
    response = client.post(reverse("event-new"), event_form(rules))
    assert response.status_code == 302
    assert Event.objects.get().rules_text == rules


@pytest.mark.parametrize("rules_text, message", NOT_PLAIN)
def test_check_lists_refuses_rules_that_are_not_plain_data_with_exit_2(capsys, tmp_path, rules_text, message):
    lists = tmp_path / "lists"
    lists.mkdir()
    shutil.copy(EXAMPLES / "empire-2400-legal.json", lists)
    rules = tmp_path / "event.yaml"
    rules.write_text(rules_text)
    with pytest.raises(SystemExit) as stop:
        call_command("check_lists", str(lists), "--system", "t9a-0.11", "--points", "2400", "--event-rules", str(rules))
    out = capsys.readouterr()
    assert (stop.value.code, out.out, out.err) == (2, "", f"{rules}: {message}\n")
