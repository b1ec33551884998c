"""Issue 42 item 2: every kind of event rule the engine has can be made in the rule builder, and players
read each as a sentence made from the rule, never its YAML; counts read "1 problem"; the muster's list
pages name the player the event knows."""
from __future__ import annotations

import io
from datetime import date, timedelta

import pytest
import yaml
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from armylists.events.checking import system_books
from armylists.events.reporting import muster_pdf
from armylists.events.rule_builder import KINDS, RuleBuildError, build_rule
from armylists.events.rule_words import Names, plural, rule_sentence, rules_sentences
from armylists.models import Event, Submission

from .conftest import make_list

pytestmark = pytest.mark.django_db

T9A = "t9a-0.11"


@pytest.fixture(autouse=True)
def _tasks_at_once(tasks_at_once):
    """Checking runs as soon as it is queued."""


def books():
    return system_books(T9A, {"empire-of-sonnstahl": frozenset()})


# Each kind the builder offers, what it is given, and the sentence players read.
SENTENCES = [
    ("unit_max", "Steam Tank", 1, "Steam Tank: at most 1 unit."),
    ("unit_per_1000", "Heavy Infantry", 1, "Heavy Infantry: at most 1 unit per 1000 points."),
    ("each_entry_max", "", 2, "Any unit at most 2 times."),
    ("tag_max", "one-of-a-kind", 1, "Units with the tag one of a kind: at most 1 unit."),
    ("category_max", "Rare", 20, "Rare: at most 20% of the points limit."),
    ("category_min", "Core", 30, "Core: at least 30% of the points limit."),
    ("unit_max_percent", "", 25, "No unit worth more than 25% of the points limit."),
    ("points_shortfall", "", 1, "A list may be at most 1 point under the points limit."),
    ("min_units", "", 8, "At least 8 units."),
    ("unit_ban", "Steam Tank", None, "Steam Tank: not allowed."),
    ("option_ban", "Veterans", None, "Veterans: not allowed."),
    ("item_ban", "Giant Sword", None, "Giant Sword: not allowed."),
    ("unit_points", "Steam Tank", 300, "Steam Tank points: at most 300 points."),
]


def test_the_builder_offers_every_kind_and_each_reads_as_a_sentence():
    assert {kind for kind, *_ in SENTENCES} == set(KINDS)
    names = Names.of(books())
    for kind, name, number, sentence in SENTENCES:
        rule = yaml.safe_load(build_rule(kind, name, number, books()))[0]
        assert rule_sentence(rule, names) == sentence, kind
        assert "_" not in sentence and "{" not in sentence


def test_a_rule_typed_by_hand_reads_as_a_sentence_too():
    text = ("- {id: a, type: each_entry_max, params: {max: {by_band: {standard: 2, grand-army: 3}}}}\n"
            "- {id: b, type: count, params: {label: War Machines, select: {troop_type: war-machine}, max: 1}, "
            "severity: warning}\n"
            "- {id: c, type: team_items_once}\n"
            "- {id: d, type: count, text: No more than two dragons., params: {label: Dragons, max: 2}}")
    assert rules_sentences(text, Names.of(books())) == [
        "Any unit at most 2 times in a Standard army, 3 times in a Grand Army.",
        "War Machines: at most 1 unit. (a warning, not an error)",
        "A magic item may be taken in one list of a team only.",
        "No more than two dragons.",
    ]


@pytest.mark.parametrize("kind, name, number, message", [
    ("unit_max", "", 1, "Name the unit the rule is about."),
    ("category_max", "Rares", 10, 'No category "Rares" in this system\'s books; did you mean "Rare"?'),
    ("category_max", "Rare", 101, "A percentage is at most 100."),
    ("each_entry_max", "", None, "Give the number: how many at most."),
    ("tag_max", "nonsense-tag", 1, 'No tag "nonsense-tag" in this system\'s books'),
])
def test_a_rule_the_builder_cannot_make_says_why(kind, name, number, message):
    with pytest.raises(RuleBuildError) as caught:
        build_rule(kind, name, number, books())
    assert str(caught.value).startswith(message)


def event_form(**changes):
    day = date.today() + timedelta(days=30)
    data = {"name": "Words Open", "date": day.isoformat(), "system": T9A, "points_limit": "2400",
            "composition": "", "deadline": f"{(day - timedelta(days=7)).isoformat()}T18:00",
            "allowed_books": [f"{T9A}/empire-of-sonnstahl"], "rules_text": ""}
    data.update(changes)
    return data


@pytest.mark.parametrize("kind, name, number, legal, sentence, message", [
    # The example list has two Heavy Infantry units: at most 2 times holds, at most 1 does not.
    ("each_entry_max", "", 2, True, "Any unit at most 2 times.", None),
    ("each_entry_max", "", 1, False, "Any unit at most 1 time.",
     "Heavy Infantry is taken 2 times; Any unit: at most 1 time."),
    # Its Core is 695 of 2400 points, 28.96%: at most 29% holds, at most 28% does not (bounds inclusive, 000:L84).
    ("category_max", "core", 29, True, "Core: at most 29% of the points limit.", None),
    ("category_max", "core", 28, False, "Core: at most 28% of the points limit.",
     "Core: 695 pts is 29.0% of 2400; at most 28% (672 pts)."),
])
def test_a_rule_made_in_the_builder_is_a_sentence_on_the_event_and_judges_at_its_boundary(
        client, alice, bob, legal_document, kind, name, number, legal, sentence, message):
    client.force_login(alice)
    response = client.post(reverse("event-new"), event_form(add_rule_kind=kind, add_rule_name=name,
                                                            add_rule_number=number))
    assert response.status_code == 302
    event = Event.objects.get()
    client.force_login(bob)
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    rules = page.split('id="event-rules"')[1].split("</section>")[0]
    assert f"<li>{sentence}</li>" in rules
    assert "type:" not in page and "params" not in page and kind not in page  # never the YAML
    answer = client.post(reverse("event-submit", args=[event.pk]), {"army_list": make_list(bob, legal_document).pk},
                         follow=True)
    sub = Submission.objects.get()
    assert sub.valid is legal
    found = [v["message"] for v in sub.report["violations"]]
    assert found == ([message] if message else [])
    if not legal:  # one error: "1 problem", not "1 problems"
        assert "it is not legal (1 problem) at this event." in answer.content.decode()


def test_plural_counts_the_word_right():
    assert [plural(n, "problem") for n in (0, 1, 2)] == ["0 problems", "1 problem", "2 problems"]
    assert plural(1, "Wizard level") == "1 Wizard level"


def test_the_musters_list_pages_name_the_events_player(alice, legal_document):
    event = Event.objects.create(organiser=alice, name="Muster", date=date.today() + timedelta(days=10),
                                 system=T9A, books=[], points_limit=2400, deadline=timezone.now() + timedelta(days=5))
    from armylists.events.submitting import store
    from armylists.events.checking import check_event
    from armylists.rules import parse_roster
    store(event, parse_roster({**legal_document, "player": ""}), "Quentin")
    check_event(event)
    Submission.objects.update(status=Submission.APPROVED)
    pages = [p.extract_text() for p in PdfReader(io.BytesIO(muster_pdf(event))).pages]
    list_page = next(p for p in pages[1:] if "Game system" in p)
    assert "Player Quentin" in list_page and "Player -" not in " ".join(pages)
